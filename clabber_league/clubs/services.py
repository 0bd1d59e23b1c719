"""Writes to a club's membership and its players.

A club always keeps a club admin: the last one can neither demote themselves nor be
removed, or nobody could manage the club again. The club's admin rows are locked while
one changes, so two admins demoting each other at the same moment cannot both succeed.

A player's name is matched without regard to case or repeated spaces: "tom  smith" is
"Tom Smith" (``player_create`` refuses it, ``player_get_or_create`` finds him; the
database's constraint holds it against two requests at once). Two players who turn out
to be one person are merged (``player_merge``): every row of the one moves to the other
through the ``clubs.hooks`` the apps above answer, and the merge is recorded.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from clabber_league.core.errors import CONFLICT, FORBIDDEN, THROTTLED, ServiceError
from clabber_league.rules import BUILTIN_RULESETS
from clabber_league.rules.errors import msg

from .hooks import player_active_changed, player_anonymised, player_merged, player_merging
from .models import Club, Membership, Player, PlayerMerge, Role

PLAYER_LOGIN_TAKEN = gettext_noop("This login is already linked to {player} in this club.")
PLAYER_LOGIN_NOT_MEMBER = gettext_noop("This login is not a member of the club.")
LAST_ADMIN = gettext_noop(
    "A club keeps at least one club admin: make someone else club admin first."
)
ALREADY_MEMBER = gettext_noop("This person is already a member of the club.")
PLAYER_NAME_EMPTY = gettext_noop("Give the player's name.")
PLAYER_NAME_LONG = gettext_noop("A player's name is at most 120 characters.")
PLAYER_NAME_TAKEN = gettext_noop(
    "The club already has a player named {name} (names are matched in any case)."
)
MERGE_SAME = gettext_noop("A player cannot be merged with themselves.")
MERGE_NO_SUCH_PLAYER = gettext_noop("The club has no player named {name}.")
MERGE_OTHER_CLUB = gettext_noop("This player is not one of the club's.")
MERGE_TWO_LOGINS = gettext_noop(
    "{source} and {target} each have a login ({a}, {b}): unlink one before merging."
)


CLUB_NAME_EMPTY = _("Give the club's name.")
CLUB_NAME_LONG = _("A club's name is at most 120 characters.")
CLUB_TIME_ZONE_UNKNOWN = _("Choose a time zone from the list (such as Europe/Amsterdam).")
CLUB_LANGUAGE_UNKNOWN = _("Choose a language from the list.")
CLUB_RULESET_UNKNOWN = _("Choose one of the rule sets.")
CLUB_EMAIL_UNVERIFIED = _(
    "Confirm your email address first: open the link we emailed you, then create the club."
)
CLUB_TOO_MANY = _("You have created {count} clubs today: try again tomorrow.")
CLUB_DELETE_NAME = _("Type the club's name exactly as shown to delete it.")


class ClubError(ServiceError):
    """A refused write (``core.errors.ServiceError``); ``errors`` are ``{"field", "message"}``."""


# --- clubs ------------------------------------------------------------------------------------


#: Slugs a club cannot have: they are pages of the site under /clubs/.
RESERVED_SLUGS = {"new"}


def _club_slug(name: str) -> str:
    base = slugify(name)[:50].strip("-") or "club"
    slug, n = base, 2
    while slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def club_settings_errors(
    *, name: str, time_zone: str, language: str, ruleset: str
) -> list[dict[str, str]]:
    """What is wrong with a club's name, zone, language and rule set (nothing: ``[]``)."""
    errors = []
    if not name:
        errors.append({"field": "name", "message": str(CLUB_NAME_EMPTY)})
    elif len(name) > 120:
        errors.append({"field": "name", "message": str(CLUB_NAME_LONG)})
    if time_zone and time_zone not in zoneinfo.available_timezones():
        errors.append({"field": "time_zone", "message": str(CLUB_TIME_ZONE_UNKNOWN)})
    if language and language not in {code for code, _name in settings.LANGUAGES}:
        errors.append({"field": "language", "message": str(CLUB_LANGUAGE_UNKNOWN)})
    if ruleset not in BUILTIN_RULESETS:
        errors.append({"field": "ruleset", "message": str(CLUB_RULESET_UNKNOWN)})
    return errors


def user_email_verified(user: Any) -> bool:
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, verified=True).exists()


@transaction.atomic
def club_create(
    *,
    user: Any,
    name: str,
    country: str = "",
    time_zone: str = "",
    language: str = "",
    ruleset: str = "clabber",
) -> Club:
    """A club created by one of its people, who becomes its club admin.

    The person's email address must be confirmed (a sign-up nobody can reach creates
    nothing) and one account creates at most ``CLABBER_CLUBS_PER_DAY`` clubs a day. With
    ``CLABBER_CLUB_APPROVAL`` the club waits, unapproved, for the operator
    (:func:`club_approve`): its members can read it and nothing in it can change."""
    name = " ".join((name or "").split())
    errors = club_settings_errors(
        name=name, time_zone=time_zone, language=language, ruleset=ruleset
    )
    if errors:
        raise ClubError(errors)
    if not user_email_verified(user):
        raise ClubError.one("email", str(CLUB_EMAIL_UNVERIFIED), kind=FORBIDDEN)
    since = timezone.now() - dt.timedelta(days=1)
    # The account's row, locked: two requests at once count one after the other.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    made = Club.objects.filter(created_by=user, created_at__gte=since).count()
    if made >= settings.CLABBER_CLUBS_PER_DAY:
        error = ClubError.one("name", str(CLUB_TOO_MANY).format(count=made), kind=THROTTLED)
        error.retry_after = 24 * 3600
        raise error
    club = Club.objects.create(
        name=name,
        slug=_club_slug(name),
        country=" ".join((country or "").split())[:60],
        time_zone=time_zone,
        language=language,
        ruleset=ruleset,
        created_by=user,
        is_approved=not settings.CLABBER_CLUB_APPROVAL,
    )
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    return club


def club_update(
    *, club: Club, name: str, country: str, time_zone: str, language: str, ruleset: str
) -> Club:
    """Change the club's name, country, time zone, language and rule set (its slug, and so
    every link to it, stays)."""
    name = " ".join((name or "").split())
    errors = club_settings_errors(
        name=name, time_zone=time_zone, language=language, ruleset=ruleset
    )
    if errors:
        raise ClubError(errors)
    club.name, club.country = name, " ".join((country or "").split())[:60]
    club.time_zone, club.language, club.ruleset = time_zone, language, ruleset
    club.save(update_fields=["name", "country", "time_zone", "language", "ruleset"])
    return club


def club_approve(*, club: Club) -> Club:
    """The operator lets a club created by sign-up start."""
    if not club.is_approved:
        club.is_approved = True
        club.save(update_fields=["is_approved"])
    return club


def club_delete_check(*, club: Club, typed_name: str) -> None:
    """The name typed on the confirmation page must be the club's (spaces and case aside)."""
    if " ".join((typed_name or "").split()).casefold() != club.name.casefold():
        raise ClubError.one("name", str(CLUB_DELETE_NAME))


def _check_admins_left(membership: Membership, *, role_after: str | None) -> None:
    if membership.role != Role.ADMIN or role_after == Role.ADMIN:
        return
    admins = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Role.ADMIN)
        .values_list("pk", flat=True)
    )
    if not [pk for pk in admins if pk != membership.pk]:
        raise ClubError.one("role", LAST_ADMIN, kind=CONFLICT)


@transaction.atomic
def membership_add(*, club: Club, user: Any, role: str = Role.PLAYER) -> Membership:
    """Make ``user`` a member of ``club`` with ``role``; once per club (409 otherwise)."""
    if Membership.objects.select_for_update().filter(club=club, user=user).exists():
        raise ClubError.one("username", ALREADY_MEMBER, kind=CONFLICT)
    membership = Membership.objects.create(club=club, user=user, role=role)
    players = list(Player.objects.filter(club=club, user=user, active=True))
    if players:  # a login back in the club: its player's membership began again
        player_active_changed.send(players=players, active=True)
    return membership


@transaction.atomic
def membership_update(*, membership: Membership, role: str | None = None, **fields) -> Membership:
    """Change a member's role (and other fields): never the club's last admin's."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    user = fields.get("user")
    if user is not None and user.pk != membership.user_id:
        others = Membership.objects.filter(club_id=membership.club_id, user=user)
        if others.exclude(pk=membership.pk).exists():
            raise ClubError.one("username", ALREADY_MEMBER, kind=CONFLICT)
    if role is not None:
        _check_admins_left(membership, role_after=role)
        membership.role = role
    for name, value in fields.items():
        setattr(membership, name, value)
    membership.save()
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a member from the club: never the club's last admin."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    _check_admins_left(membership, role_after=None)
    membership.delete()
    players = list(Player.objects.filter(club_id=membership.club_id, user_id=membership.user_id))
    if players:  # their membership of the club ended (clubs.hooks.player_active_changed)
        player_active_changed.send(players=players, active=False)


@transaction.atomic
def player_link_user(*, player: Player, user: Any | None) -> Player:
    """Link (or, with ``None``, unlink) a login to one of the club's players. The login
    must be a member of the club, and is one player per club."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise ClubError.one("user", PLAYER_LOGIN_NOT_MEMBER)
        other = Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk)
        if other.exists():
            raise ClubError.one(
                "user", msg(PLAYER_LOGIN_TAKEN, player=other.first()), kind=CONFLICT
            )
    if player.user_id != (user.pk if user is not None else None):
        player.user = user
        player.save(update_fields=["user"])
    return player


# --- players ----------------------------------------------------------------------------------


def player_name_clean(name: str | None) -> str:
    """A name as stored: no leading, trailing or repeated spaces."""
    return " ".join((name or "").split())


def player_named(*, club: Club, name: str) -> Player | None:
    """The club's player of this name, in any case (``"tom smith"`` finds Tom Smith)."""
    return Player.objects.filter(club=club, name__iexact=player_name_clean(name)).first()


def _player_name_errors(club_id: int, name: str, player: Player | None = None) -> list[dict]:
    if not name:
        return [{"field": "name", "message": PLAYER_NAME_EMPTY}]
    if len(name) > 120:
        return [{"field": "name", "message": PLAYER_NAME_LONG}]
    clash = Player.objects.filter(club_id=club_id, name__iexact=name)
    if player is not None:
        clash = clash.exclude(pk=player.pk)
    other = clash.first()
    if other is not None:
        return [{"field": "name", "message": msg(PLAYER_NAME_TAKEN, name=other.name)}]
    return []


def _saved(player: Player, **save: Any) -> Player:
    """Save, turning the database's any-case name constraint (a request that raced ours)
    into the same refusal as the check before it."""
    try:
        with transaction.atomic():
            player.save(**save)
    except IntegrityError as exc:
        other = player_named(club=player.club, name=player.name)
        if other is None:
            raise
        message = msg(PLAYER_NAME_TAKEN, name=other.name)
        raise ClubError.one("name", message, kind=CONFLICT) from exc
    return player


def player_create(*, club: Club, name: str, active: bool = True) -> Player:
    """A new player of the club; a name the club has already, in any case, is refused
    (409)."""
    name = player_name_clean(name)
    errors = _player_name_errors(club.pk, name)
    if errors:
        kind = CONFLICT if errors[0]["message"].startswith("The club already") else None
        raise ClubError(errors, kind=kind)
    return _saved(Player(club=club, name=name, active=active))


def player_update(*, player: Player, name: str | None = None, active: bool | None = None) -> Player:
    """Rename a player (a name another player has, in any case, is refused) or mark them
    (in)active; what is not given stays."""
    if name is not None:
        name = player_name_clean(name)
        errors = _player_name_errors(player.club_id, name, player)
        if errors:
            kind = CONFLICT if errors[0]["message"].startswith("The club already") else None
            raise ClubError(errors, kind=kind)
        player.name = name
    was_active = player.active
    if active is not None:
        player.active = active
    with transaction.atomic():
        saved = _saved(player, update_fields=["name", "active"])
        if saved.active != was_active:  # clubs.hooks.player_active_changed
            player_active_changed.send(players=[saved], active=saved.active)
    return saved


@transaction.atomic
def player_anonymise(*, player: Player, name: str, names: tuple[str, ...] = ()) -> Player:
    """A person erased: the club's row keeps its games under ``name`` (``name (2)``... when
    the club has that name already), loses its login and is made inactive; each app
    above replaces the old names (the row's, and ``names``: what else the person was
    called) in the texts it stored (``clubs.hooks.player_anonymised``). The club's merge
    records name the anonymous name for the rows merged into this one."""
    player = Player.objects.select_for_update(of=("self",)).select_related("club").get(pk=player.pk)
    old = tuple(dict.fromkeys(n for n in (player.name, *names) if n))
    player.name = _free_name(player, name)
    player.user = None
    player.active = False
    player.name_public = False
    player.save(update_fields=["name", "user", "active", "name_public"])
    old = tuple(n for n in old if n.lower() != player.name.lower())
    PlayerMerge.objects.filter(target=player).update(source_name=player.name)
    player_anonymised.send(player=player, names=old, name=player.name)
    return player


def _free_name(player: Player, name: str) -> str:
    """``name``, or ``name (2)``... when the club has a player of that name already."""
    taken = {
        n.lower()
        for n in Player.objects.filter(club_id=player.club_id, name__istartswith=name)
        .exclude(pk=player.pk)
        .values_list("name", flat=True)
    }
    candidate, n = name, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{name} ({n})"
    return candidate


def player_get_or_create(*, club: Club, name: str) -> Player:
    """The club's player of this name in any case, else a new one (a team registered by
    its players' names finds the players the club has)."""
    existing = player_named(club=club, name=name)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return player_create(club=club, name=name)
    except ClubError:
        existing = player_named(club=club, name=name)  # created meanwhile by another request
        if existing is None:
            raise
        return existing


def _rows_of(player: Player) -> dict[str, int]:
    """How many rows of each kind point at ``player`` (every foreign key to Player)."""
    counts = {}
    for rel in Player._meta.related_objects:
        model = rel.related_model
        n = model._base_manager.filter(**{rel.field.name: player}).count()
        if n:
            counts[f"{model._meta.label_lower}.{rel.field.name}"] = n
    return counts


@transaction.atomic
def player_merge(*, source: Player, target: Player, user: Any = None) -> PlayerMerge:
    """Merge ``source`` into ``target``: the same person entered twice. Their team places,
    seats at games, invitations and disputes move to ``target`` (each app moves its own
    through ``clubs.hooks.player_merging``); the statistics and ratings are recomputed from
    the merged games (``player_merged``); a login moves with them; ``source`` is removed
    and the merge recorded. Refused, with nothing written, when the two cannot be one
    person (both at one table, both in one team) or both have a login."""
    if source.club_id != target.club_id:
        raise ClubError.one("target", MERGE_OTHER_CLUB)
    if source.pk == target.pk:
        raise ClubError.one("target", MERGE_SAME)
    # FOR NO KEY UPDATE: a deal recorded meanwhile (holding its game, then reading these
    # players' keys for its statistics) is not blocked, so it cannot deadlock with the
    # merge's own wait for that game (``standings_player_merged``).
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update(of=("self",), no_key=True)
        .select_related("user", "club")
        .filter(pk__in=[source.pk, target.pk])
        .order_by("pk")
    }
    source, target = locked[source.pk], locked[target.pk]
    if source.user_id and target.user_id and source.user_id != target.user_id:
        message = msg(
            MERGE_TWO_LOGINS, source=source.name, target=target.name, a=source.user, b=target.user
        )
        raise ClubError.one("target", message, kind=CONFLICT)
    moved = _rows_of(source)
    source_id, source_name = source.pk, source.name
    PlayerMerge.objects.filter(target=source).update(target=target)
    player_merging.send(source=source, target=target)
    login = source.user
    target.active = target.active or source.active
    target.name_public = target.name_public and source.name_public
    player_merged.send(target=target, source_id=source_id)
    left = _rows_of(source)
    if left:  # an app keeps players but answered no hook: fail before losing its rows
        raise RuntimeError(f"rows still point at player {source_id} after the merge: {left}")
    source.delete()
    if login is not None and target.user_id is None:
        target.user = login
    target.save(update_fields=["active", "name_public", "user"])
    return PlayerMerge.objects.create(
        club_id=target.club_id,
        target=target,
        source_id=source_id,
        source_name=source_name,
        moved=moved,
        merged_by=user if getattr(user, "is_authenticated", False) else None,
    )
