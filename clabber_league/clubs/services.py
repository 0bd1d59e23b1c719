"""Writes to a club's membership.

A club always keeps a club admin: the last one can neither demote themselves nor be
removed, or nobody could manage the club again. The club's admin rows are locked while
one changes, so two admins demoting each other at the same moment cannot both succeed.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clabber_league.core.errors import CONFLICT, ServiceError

from .models import Membership, Player, Role

PLAYER_LOGIN_TAKEN = "This login is already linked to {player} in this club."
PLAYER_LOGIN_NOT_MEMBER = "This login is not a member of the club."
LAST_ADMIN = "A club keeps at least one club admin: make someone else club admin first."


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
        raise ClubError.one("role", LAST_ADMIN, kind=CONFLICT)


@transaction.atomic
def membership_update(*, membership: Membership, role: str | None = None, **fields) -> Membership:
    """Change a member's role (and other fields): never the club's last admin's."""
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
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
            raise ClubError.one(
                "user", PLAYER_LOGIN_TAKEN.format(player=other.first()), kind=CONFLICT
            )
    if player.user_id != (user.pk if user is not None else None):
        player.user = user
        player.save(update_fields=["user"])
    return player
