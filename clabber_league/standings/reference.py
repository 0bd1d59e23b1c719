"""The ORM's answer to what the store's hand-written statements read (``store.py``).

``manage.py standings_check`` recomputes the standings with these, not with the store, so
a fault in a hand-written statement shows as a difference instead of being repeated by the
check; ``tests/standings/test_store_parity.py`` holds each store function to the ORM.
Slower than the store and never on a hot path.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count, Max, Sum

from clabber_league.games.models import Deal, GameSeat, GameSide

from .models import LeaderboardTotal, PartnershipGameStat, PlayerGameStat

PLAYERS, PARTNERSHIPS = LeaderboardTotal.Board.PLAYERS, LeaderboardTotal.Board.PARTNERSHIPS


def game_parts(*, game_ids: Sequence[int], counted: Sequence[int]) -> list[tuple]:
    """``store.game_parts`` through the ORM: the same rows, in kind, game, then seat or
    deal number order (a game's sides in side order)."""
    ids = list(game_ids)
    sides = [
        (0, game_id, side, team_id, None, None, None, None)
        for game_id, side, team_id in GameSide.objects.filter(game_id__in=ids)
        .order_by("game_id", "side")
        .values_list("game_id", "side", "team_id")
    ]
    seats = [
        (1, game_id, side, player_id, seat, None, None, None)
        for game_id, side, player_id, seat in GameSeat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "side", "player_id", "seat")
    ]
    deals = [
        (2, *row)
        for row in Deal.objects.filter(game_id__in=list(counted))
        .order_by("game_id", "number")
        .values_list("game_id", "outcome", "maker_seat", "number", "maker", "data", "result")
    ]
    return [*sides, *seats, *deals] if ids else []


def totals_summed(*, division_ids: Sequence[int] | None = None) -> list[tuple]:
    """The leaderboard totals of these divisions (None: all) added up from the game lines
    through the ORM, as rows of ``LeaderboardTotal`` columns (``store.TOTAL_COLUMNS``)."""
    sums = {name: Sum(name) for name in LeaderboardTotal.SUMS[1:]}
    out: list[tuple] = []
    common = ("club_id", "season_id", "division_id")
    for model, board, ident in (
        (PlayerGameStat, PLAYERS, ("player_id",)),
        (PartnershipGameStat, PARTNERSHIPS, ("key", "player_1_id", "player_2_id", "player_3_id")),
    ):
        lines = model.objects.all()
        if division_ids is not None:
            lines = lines.filter(division_id__in=list(division_ids))
        grouped = (
            lines.values(*common, *ident)
            .annotate(n=Count("pk"), best=Max("best_meld"), **sums)
            .order_by()
        )
        for row in grouped:
            if board == PLAYERS:
                who = (str(row["player_id"]), row["player_id"], None, None)
            else:
                who = tuple(row[name] for name in ident)
            numbers = (row["n"], *(row[name] for name in LeaderboardTotal.SUMS[1:]), row["best"])
            out.append((*(row[name] for name in common), board, *who, *numbers))
    return out
