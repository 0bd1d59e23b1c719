"""What a player decides about their own data: a public or private profile, erasure; and
the retention of the records of players who left.

Erasure keeps the results: the games stay, each club's player row stays, renamed to an
anonymous name made of the number (``Player NKU-000123``, in the club's language) and no
longer linked to a login; the federation record keeps its number and links, its name,
email and birth year are cleared, and ``erased_at`` is set. Records merged into it are
erased with it (they were the same person).

**The rule: every copy of the person's name or email that the service stored is personal
data and goes in the erasure's transaction; what names only a team, a club, a competition
or a game stays.** The club rows go through ``clubs.services.player_anonymise``, whose
hook ``clubs.hooks.player_anonymised`` has each app below replace the old names in its
own texts (cup entrants and notes, confirmation records, round notes, notifications,
reports, webhook payloads, invitations' email and note, disputes); this module clears the
federation's merge reasons; ``federation.hooks.player_erased`` has the apps above do
theirs (the exchange's imported rows and files). The person's login is theirs, not the
federation's: it is kept, unlinked. The full list: docs/federation.md, "What an erasure
takes away"; ``tests/federation/test_erasure.py`` searches every text column.

Retention: a record whose player left (``left_at``) is erased
``CLABBER_FEDERATION_RETENTION_DAYS`` days later by the periodic task
``federation.erase_departed`` (:func:`departed_erase`). A player leaves when their last
membership of the federation's member clubs ends, recorded without an officer through
``clubs.hooks.player_active_changed`` (:func:`players_active_changed`), or when an officer
records it (:func:`player_mark_left`).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from clabber_league.clubs import names as text_names
from clabber_league.clubs.models import Membership, Player
from clabber_league.clubs.services import player_anonymise
from clabber_league.core.errors import CONFLICT, FORBIDDEN, NOT_FOUND
from clabber_league.rules.errors import gettext_noop

from ..access import FederationAccess, is_the_player
from ..hooks import player_erased
from ..models import FederationClub, FederationPlayer, PlayerLink, PlayerMerge
from . import errors as E
from .errors import FederationError
from .federations import require

#: The name an erased player's results stay under (stored in the club's language).
ANONYMOUS_NAME = gettext_noop("Player {number}")


def anonymous_name(number: str) -> str:
    """The anonymous name of a number, in the active language."""
    return gettext(ANONYMOUS_NAME).format(number=number)


def player_set_public(
    *, access: FederationAccess, player: FederationPlayer, is_public: bool
) -> FederationPlayer:
    """The player's own choice: their name, profile and ranking on public pages, or not."""
    _own(access, player)
    if not is_the_player(user=access.user, player=player):
        raise FederationError.one("is_public", E.NEEDS_THE_PLAYER, kind=FORBIDDEN)
    if player.erased_at is not None:
        raise FederationError.one("is_public", E.ALREADY_ERASED, kind=CONFLICT)
    player.is_public = bool(is_public)
    player.save(update_fields=["is_public"])
    return player


def player_mark_left(
    *, access: FederationAccess, player: FederationPlayer, left: bool = True
) -> FederationPlayer:
    """An officer records that the player left (the retention period runs from now), or
    that they are back."""
    require(access, "officer")
    _own(access, player)
    player.left_at = timezone.now() if left else None
    player.active = not left
    player.save(update_fields=["left_at", "active"])
    return player


def players_active_changed(*, players: list[Player], active: bool, **_: Any) -> None:
    """``clubs.hooks.player_active_changed``: club players' memberships began or ended.

    A federation record whose every approved link is to a club player no longer a member
    (inactive, or whose login left the club) of the federation's active member clubs has
    **left**: ``left_at`` is set now and the retention period runs. A record that left
    and has a member again (a player made active, a login back in the club) is back:
    ``left_at`` is cleared. An erased or merged record is not touched; nor is a record an
    officer marked as left while it still has members, until one of them comes back."""
    ids = set(
        FederationPlayer.objects.filter(
            links__player__in=[p.pk for p in players],
            links__status=PlayerLink.Status.APPROVED,
            erased_at=None,
            merged_into=None,
        ).values_list("pk", flat=True)
    )
    records = FederationPlayer.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    if active:
        for record in records.exclude(left_at=None):
            if _is_member_anywhere(record):
                record.left_at = None
                record.active = True
                record.save(update_fields=["left_at", "active"])
        return
    now = timezone.now()
    for record in records.filter(left_at=None):
        if not _is_member_anywhere(record):
            record.left_at = now
            record.active = False
            record.save(update_fields=["left_at", "active"])


def _is_member_anywhere(record: FederationPlayer) -> bool:
    """Whether the person is still a member of one of the federation's active member
    clubs: an active club player linked (approved) to the record, with no login or a
    login still a member of the club."""
    members = FederationClub.objects.filter(federation_id=record.federation_id, active=True).values(
        "club_id"
    )
    return (
        Player.objects.filter(
            federation_links__federation_player=record,
            federation_links__status=PlayerLink.Status.APPROVED,
            active=True,
            club_id__in=members,
        )
        .filter(
            Q(user=None)
            | Exists(
                Membership.objects.filter(club_id=OuterRef("club_id"), user_id=OuterRef("user_id"))
            )
        )
        .exists()
    )


@transaction.atomic
def player_erase(
    *, access: FederationAccess | None, player: FederationPlayer, confirm: bool = True
) -> FederationPlayer:
    """Erase what is held about a person; their results stay under an anonymous name.

    ``access`` is the player themselves or an officer of the federation; None for the
    retention task."""
    if access is not None:
        _own(access, player)
        if not (access.can("officer") or is_the_player(user=access.user, player=player)):
            raise FederationError.one("", E.NEEDS_PLAYER_OR_OFFICER_ERASE, kind=FORBIDDEN)
        if not confirm:
            raise FederationError.one("confirm", E.CONFIRM_ERASE)
    player = FederationPlayer.objects.select_for_update().get(pk=player.pk)
    if player.erased_at is not None:
        raise FederationError.one("", E.ALREADY_ERASED, kind=CONFLICT)
    now = timezone.now()
    for record in [player, *FederationPlayer.objects.filter(merged_into=player)]:
        _erase_one(record, now)
    player.refresh_from_db()
    return player


def _erase_one(record: FederationPlayer, now: datetime.datetime) -> None:
    if record.erased_at is not None:
        return
    known = tuple(n for n in (record.name, record.email) if n)
    club_players = Player.objects.filter(
        federation_links__federation_player=record,
        federation_links__status=PlayerLink.Status.APPROVED,
    ).select_related("club")
    for club_player in club_players:
        with translation.override(club_player.club.language_code):
            name = anonymous_name(record.number)
        # The row, and every text its club's apps stored naming it (clubs.hooks).
        player_anonymise(player=club_player, name=name, names=known)
    anonymous = anonymous_name(record.number)
    text_names.names_replaced(
        PlayerMerge.objects.filter(Q(kept=record) | Q(merged=record)), ["reason"], known, anonymous
    )
    # The layers above: the exchange's imported rows and files (federation.hooks).
    player_erased.send(federation_player=record, name=anonymous, names=known)
    record.name = ""
    record.email = ""
    record.birth_year = None
    record.is_public = False
    record.home_club = None
    record.active = False
    record.erased_at = now
    record.save(
        update_fields=[
            "name",
            "email",
            "birth_year",
            "is_public",
            "home_club",
            "active",
            "erased_at",
        ]
    )


def departed_erase(*, now: datetime.datetime | None = None) -> int:
    """Erase every record whose player left more than the retention period ago; how many.
    Each record in its own transaction: one that fails leaves the others done."""
    now = now or timezone.now()
    cutoff = now - datetime.timedelta(days=settings.CLABBER_FEDERATION_RETENTION_DAYS)
    due = FederationPlayer.objects.filter(
        left_at__lte=cutoff, erased_at=None, merged_into=None
    ).values_list("pk", flat=True)
    done = 0
    for pk in list(due):
        player = FederationPlayer.objects.get(pk=pk)
        try:
            player_erase(access=None, player=player)
        except FederationError:
            continue
        done += 1
    return done


def _own(access: FederationAccess, player: FederationPlayer) -> None:
    if player.federation_id != access.federation.pk:
        raise FederationError.one("player", E.OTHER_FEDERATION, kind=NOT_FOUND)
