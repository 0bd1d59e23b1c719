"""Player numbers, and a club's player linked to one.

A number is given once: :func:`number_allocate` takes ``Federation.next_number`` under a
row lock (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite writes one at a time anyway) and
moves it on in the same transaction, so two requests never get one number and a number
whose record is later merged, erased or deleted is never given again.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from clabber_league.clubs.models import Club, Player
from clabber_league.core.errors import CONFLICT, FORBIDDEN, NOT_FOUND
from clabber_league.rules.errors import msg

from ..access import FederationAccess, manages_club, may_decide_link
from ..models import Federation, FederationClub, FederationPlayer, PlayerLink
from . import errors as E
from .errors import FederationError
from .federations import require

#: Digits of a number after the prefix: NKU-000123.
NUMBER_DIGITS = 6


def number_format(federation: Federation, n: int) -> str:
    return f"{federation.number_prefix}{n:0{NUMBER_DIGITS}d}"


def number_allocate(*, federation: Federation) -> str:
    """The federation's next player number, taken for good (call inside a transaction:
    the number is given back only if that transaction rolls back, having been used by
    nobody)."""
    with transaction.atomic():
        locked = Federation.objects.select_for_update().only("pk", "number_prefix", "next_number")
        row = locked.get(pk=federation.pk)
        Federation.objects.filter(pk=row.pk).update(next_number=F("next_number") + 1)
    federation.next_number = row.next_number + 1
    return number_format(row, row.next_number)


def _clean_person(
    name: str, birth_year: int | None, email: str
) -> tuple[str, int | None, str, list]:
    errors: list[dict[str, str]] = []
    name = " ".join((name or "").split())
    if not name:
        errors.append({"field": "name", "message": E.PLAYER_NAME_EMPTY})
    elif len(name) > 120:
        errors.append({"field": "name", "message": E.PLAYER_NAME_LONG})
    if birth_year in ("", None):
        birth_year = None
    else:
        try:
            birth_year = int(birth_year)
        except (TypeError, ValueError):
            birth_year = -1
        if not 1900 <= birth_year <= timezone.localdate().year:
            errors.append({"field": "birth_year", "message": E.BIRTH_YEAR_BAD})
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            errors.append({"field": "email", "message": E.EMAIL_BAD})
    return name, birth_year, email, errors


@transaction.atomic
def player_create(
    *,
    access: FederationAccess,
    name: str,
    birth_year: int | None = None,
    email: str = "",
    home_club: Club | None = None,
) -> FederationPlayer:
    """An officer gives a person a number."""
    require(access, "officer")
    name, birth_year, email, errors = _clean_person(name, birth_year, email)
    if errors:
        raise FederationError(errors)
    return _new_player(access.federation, name, birth_year, email, home_club)


def _new_player(
    federation: Federation, name: str, birth_year: int | None, email: str, home_club: Club | None
) -> FederationPlayer:
    return FederationPlayer.objects.create(
        federation=federation,
        number=number_allocate(federation=federation),
        name=name,
        birth_year=birth_year,
        email=email,
        home_club=home_club,
    )


def player_by_number(*, federation: Federation, number: str) -> FederationPlayer | None:
    """The record a number stands for today: a merged number leads to the record it was
    merged into."""
    player = FederationPlayer.objects.filter(federation=federation, number=number.strip()).first()
    seen = set()
    while player is not None and player.merged_into_id and player.pk not in seen:
        seen.add(player.pk)
        player = player.merged_into
    return player


@transaction.atomic
def link_propose(
    *,
    access: FederationAccess,
    player: Player,
    number: str = "",
    birth_year: int | None = None,
    email: str = "",
) -> PlayerLink:
    """A club's admin proposes linking their club's player to a number, or (no number) to a
    new number made from the player's name. An officer's or the player's own proposal is
    approved at once; otherwise the player or an officer approves it later.

    A link refused before may be proposed again (the same row, proposed anew)."""
    user = access.user
    club = player.club
    officer = access.can("officer")
    if not (officer or manages_club(user=user, club=club)):
        raise FederationError.one("player", E.NEEDS_CLUB_ADMIN, kind=FORBIDDEN)
    member = FederationClub.objects.filter(
        federation=access.federation, club=club, status=FederationClub.Status.MEMBER
    ).exists()
    if not member:
        raise FederationError.one("player", E.CLUB_NOT_MEMBER, kind=CONFLICT)
    existing = (
        PlayerLink.objects.select_for_update()
        .select_related("federation_player")
        .filter(federation=access.federation, player=player)
        .first()
    )
    if existing is not None and existing.status != PlayerLink.Status.REFUSED:
        message = E.LINK_EXISTS if existing.status == PlayerLink.Status.APPROVED else E.LINK_PENDING
        raise FederationError.one(
            "player", msg(message, number=existing.federation_player.number), kind=CONFLICT
        )
    if number.strip():
        target = player_by_number(federation=access.federation, number=number)
        if target is None:
            raise FederationError.one(
                "number", msg(E.NO_SUCH_NUMBER, number=number.strip()), kind=NOT_FOUND
            )
        if target.erased_at is not None:
            raise FederationError.one("number", E.NUMBER_ERASED, kind=CONFLICT)
    else:
        name, birth_year, email, errors = _clean_person(player.name, birth_year, email)
        if errors:
            raise FederationError(errors)
        target = _new_player(access.federation, name, birth_year, email, club)
    link = existing or PlayerLink(federation=access.federation, player=player)
    link.federation_player = target
    link.status = PlayerLink.Status.PROPOSED
    link.proposed_by = user
    link.approved_by = None
    link.decided_at = None
    link.save()
    if officer or (user is not None and player.user_id == user.pk):
        return _decide(link, user, approve=True)
    return link


@transaction.atomic
def link_decide(*, access: FederationAccess, link: PlayerLink, approve: bool) -> PlayerLink:
    """The player (the login of the club's player) or an officer approves or refuses a
    proposed link; the decision, who made it and when are kept."""
    if link.federation_id != access.federation.pk:
        raise FederationError.one("link", E.OTHER_FEDERATION, kind=NOT_FOUND)
    if not may_decide_link(user=access.user, link=link, access=access):
        raise FederationError.one("link", E.NEEDS_PLAYER_OR_OFFICER, kind=FORBIDDEN)
    link = PlayerLink.objects.select_for_update().get(pk=link.pk)
    if link.status != PlayerLink.Status.PROPOSED:
        raise FederationError.one("link", E.LINK_DECIDED, kind=CONFLICT)
    return _decide(link, access.user, approve=approve)


def _decide(link: PlayerLink, user: Any, *, approve: bool) -> PlayerLink:
    link.status = PlayerLink.Status.APPROVED if approve else PlayerLink.Status.REFUSED
    link.approved_by = user if user is not None and user.is_authenticated else None
    link.decided_at = timezone.now()
    link.save(update_fields=["status", "approved_by", "decided_at"])
    if approve:
        FederationPlayer.objects.filter(pk=link.federation_player_id, home_club=None).update(
            home_club=link.player.club_id
        )
    return link
