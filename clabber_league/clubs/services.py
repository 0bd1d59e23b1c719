"""Clubs' writes that pages and the API share."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clabber_league.core.errors import ServiceError

from .models import Membership, Player

PLAYER_LOGIN_TAKEN = "This login is already linked to {player} in this club."
PLAYER_LOGIN_NOT_MEMBER = "This login is not a member of the club."


class ClubError(ServiceError):
    """A refused write (``core.errors.ServiceError``); ``errors`` are ``{"field", "message"}``."""


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
