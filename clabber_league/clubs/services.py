"""Writes to a club's membership and players, for the pages and the API alike.

A club always keeps a club admin: the last one can neither demote themselves nor be
removed, or nobody could manage the club again. The club's admin rows are locked while
one changes, so two admins demoting each other at the same moment cannot both succeed.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clabber_league.core.errors import CONFLICT, ServiceError

from .models import Club, Membership, Player, Role

PLAYER_LOGIN_TAKEN = "This login is already linked to {player} in this club."
PLAYER_LOGIN_NOT_MEMBER = "This login is not a member of the club."
LAST_ADMIN = "A club keeps at least one club admin: make someone else club admin first."
ALREADY_MEMBER = "This person is already a member of the club."
PLAYER_NAME_TAKEN = "The club already has a player of this name."
PLAYER_NAME_BAD = "A player's name is 1 to 120 characters on one line."

#: ``player_update``'s default for ``user``: leave the linked login as it is.
KEEP = object()


class ClubError(ServiceError):
    """A refused write (``core.errors.ServiceError``); ``errors`` are ``{"field", "message"}``."""


def _check_admins_left(membership: Membership, *, role_after: str | None) -> None:
    if membership.role != Role.ADMIN or role_after == Role.ADMIN:
        return
    admins = list(
        Membership.objects.select_for_update()
        .filter(club_id=membership.club_id, role=Role.ADMIN)
        .values_list("pk", flat=True)
    )
    if not [pk for pk in admins if pk != membership.pk]:
        raise ClubError([{"field": "role", "message": LAST_ADMIN}])


@transaction.atomic
def membership_add(*, club: Club, user: Any, role: str = Role.PLAYER) -> Membership:
    """Make ``user`` a member of ``club`` with ``role``; once per club (409 otherwise)."""
    if Membership.objects.select_for_update().filter(club=club, user=user).exists():
        raise ClubError.one("username", ALREADY_MEMBER, kind=CONFLICT)
    return Membership.objects.create(club=club, user=user, role=role)


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


@transaction.atomic
def player_link_user(*, player: Player, user: Any | None) -> Player:
    """Link (or, with ``None``, unlink) a login to one of the club's players. The login
    must be a member of the club, and is one player per club."""
    if user is not None:
        if not Membership.objects.filter(club_id=player.club_id, user=user).exists():
            raise ClubError.one("user", PLAYER_LOGIN_NOT_MEMBER)
        other = Player.objects.filter(club_id=player.club_id, user=user).exclude(pk=player.pk)
        if other.exists():
            raise ClubError.one("user", PLAYER_LOGIN_TAKEN.format(player=other.first()))
    if player.user_id != (user.pk if user is not None else None):
        player.user = user
        player.save(update_fields=["user"])
    return player


def player_name(name: str) -> str:
    """A player's name as stored: on one line, single spaces; refused when empty, longer
    than 120 characters or holding control characters."""
    clean = " ".join((name or "").split())
    if not clean or len(clean) > 120 or any(ord(c) < 32 for c in name if c not in " \t"):
        raise ClubError.one("name", PLAYER_NAME_BAD)
    return clean


def _check_name_free(club_id: int, name: str, player: Player | None = None) -> None:
    clash = Player.objects.filter(club_id=club_id, name__iexact=name)
    if player is not None:
        clash = clash.exclude(pk=player.pk)
    if clash.exists():
        raise ClubError.one("name", PLAYER_NAME_TAKEN, kind=CONFLICT)


@transaction.atomic
def player_create(*, club: Club, name: str, active: bool = True, user: Any = None) -> Player:
    """A player of the club: a name no other player of the club has (whatever its case),
    linked to ``user``'s login when given (``player_link_user``'s checks)."""
    name = player_name(name)
    _check_name_free(club.pk, name)
    player = Player.objects.create(club=club, name=name, active=active)
    return player_link_user(player=player, user=user) if user is not None else player


@transaction.atomic
def player_update(
    *, player: Player, name: str | None = None, active: bool | None = None, user: Any = KEEP
) -> Player:
    """Rename a player, (de)activate them or change the login linked (``None``: unlink);
    what is not given stays."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if name is not None:
        name = player_name(name)
        _check_name_free(player.club_id, name, player)
        player.name = name
    if active is not None:
        player.active = active
    player.save(update_fields=["name", "active"])
    return player_link_user(player=player, user=user) if user is not KEEP else player
