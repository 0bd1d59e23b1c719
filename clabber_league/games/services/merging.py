"""A player merged into another: their seats follow (``clubs.hooks.player_merging``)."""

from __future__ import annotations

from clabber_league.clubs.models import Player
from clabber_league.rules.errors import msg

from ..models import GameSeat
from .errors import MERGE_SAME_GAME, GameError


def seats_player_merging(*, source: Player, target: Player) -> None:
    """``clubs.hooks.player_merging``: ``source``'s seats at games become ``target``'s;
    refused when both sat at the same game. The games' scores do not change (a deal names
    seats, not players); the standings recompute their player numbers afterwards."""
    shared = (
        GameSeat.objects.filter(player=source, game__seats__player=target)
        .values_list("game_id", flat=True)
        .first()
    )
    if shared is not None:
        message = msg(MERGE_SAME_GAME, source=source.name, target=target.name, game=shared)
        raise GameError.one("target", message)
    GameSeat.objects.filter(player=source).update(player=target)
