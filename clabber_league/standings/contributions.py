"""What counted games give to the standings and the leaderboards, from stored columns.

Plain data in, plain dicts out: the services load rows once (for one game, or for a
whole division when rebuilding) and these functions add them up. Nothing here scores
a deal: outcomes, scores and meld points are the rules engine's, read from the deal
rows; the value of one meld shown is asked of the engine (``parse_deal``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from clabber_league.games.adapters import game_ruleset, seat_side
from clabber_league.games.models import Game
from clabber_league.leagues.results import MatchGame, game_counts, match_result
from clabber_league.rules import RulesError, parse_deal

from .models import Counters, GameStat


@dataclass
class GameInfo:
    """One game as the standings read it."""

    game: Game
    sides: dict[str, int | None] = field(default_factory=dict)  # side -> team id
    seats: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, side, player id)
    deals: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def counts(self) -> bool:
        return game_counts(self.game.status)

    def match_game(self) -> MatchGame:
        return MatchGame(status=self.game.status, winner=self.game.winner, teams=self.sides)


def match_key(game: Game) -> str:
    """A fixture is one match however many games it has; a game outside the schedule is one."""
    return f"f{game.fixture_id}" if game.fixture_id else f"g{game.pk}"


def zero_counters() -> dict[str, int]:
    return dict.fromkeys(Counters.COUNTERS, 0)


def _game_lines(info: GameInfo) -> dict[int, dict[str, int]]:
    """Per team of one counted game: the game result, points, sets and deals."""
    game = info.game
    scores = game.scores
    best = max(scores.values())
    lines: dict[int, dict[str, int]] = {}
    for side, team_id in info.sides.items():
        if team_id is None or side not in scores:
            continue
        line = zero_counters()
        line["games_played"] = 1
        if game.winner == side:
            line["games_won"] = 1
        elif game.winner == "tie" and scores[side] == best:
            line["games_tied"] = 1
        else:
            line["games_lost"] = 1
        line["games_unconfirmed"] = int(game.status != Game.Status.CONFIRMED)
        line["points_for"] = scores[side]
        line["points_against"] = sum(v for s, v in scores.items() if s != side)
        line["deals"] = len(info.deals)
        for deal in info.deals:
            if deal["outcome"] == "set" and deal["maker"] in scores:
                if deal["maker"] == side:
                    line["sets_suffered"] += 1
                else:
                    line["sets_inflicted"] += 1
        lines[team_id] = line
    return lines


def match_contributions(
    games: Iterable[GameInfo], *, planned: int = 1
) -> dict[int, dict[str, Any]]:
    """Per team: what one match (its counted games) gives to the standings.

    The match result (won / tied / lost, hence match points) is
    ``leagues.results.match_result``'s: decided once ``planned`` games of it count, won by
    the team that won more of them.
    """
    games = list(games)
    out: dict[int, dict[str, Any]] = {}
    counted = [g for g in games if g.counts]
    for info in counted:
        for team_id, line in _game_lines(info).items():
            total = out.setdefault(team_id, zero_counters())
            for name, value in line.items():
                total[name] += value
    result = match_result((g.match_game() for g in games), planned=planned)
    if out and result.decided:
        for team_id, c in out.items():
            c["matches_played"] = 1
            if result.winner is None:
                c["matches_tied"] = 1
            elif team_id == result.winner:
                c["matches_won"] = 1
            else:
                c["matches_lost"] = 1
    teams = sorted(out)
    played_on = max((g.game.played_on for g in counted if g.game.played_on), default=None)
    for team_id, c in out.items():
        others = [t for t in teams if t != team_id]
        c["opponent_id"] = others[0] if len(others) == 1 else None
        c["played_on"] = played_on
    return out


def forfeit_contributions(
    *, home_id: int, away_id: int, winner_id: int, planned: int, played_on: Any = None
) -> dict[int, dict[str, Any]]:
    """Per team: what a forfeit or walkover gives. The winner wins the match and every
    planned game; the loser loses the match and every planned game (so a forfeit weighs
    in the game difference as the heaviest defeat at the table would). No game was
    played: no points for or against, no sets, no deals."""
    planned = max(planned, 1)
    out: dict[int, dict[str, Any]] = {}
    for team_id, opponent_id in ((home_id, away_id), (away_id, home_id)):
        c = zero_counters()
        c["matches_played"] = 1
        c["games_played"] = planned
        if team_id == winner_id:
            c["matches_won"], c["games_won"] = 1, planned
        else:
            c["matches_lost"], c["games_lost"] = 1, planned
        out[team_id] = {**c, "opponent_id": opponent_id, "played_on": played_on}
    return out


# --- leaderboards ------------------------------------------------------------------------


def _empty_stat() -> dict[str, int]:
    return dict.fromkeys(GameStat.STATS, 0)


def _result(game: Game, side: str) -> dict[str, int]:
    scores = game.scores
    best = max(scores.values())
    if game.winner == side:
        return {"won": 1, "tied": 0, "lost": 0}
    if game.winner == "tie" and scores.get(side) == best:
        return {"won": 0, "tied": 1, "lost": 0}
    return {"won": 0, "tied": 0, "lost": 1}


def _meld_values(info: GameInfo, deal: Mapping[str, Any]) -> dict[str, list[int]]:
    """The engine's value of each meld shown in a deal, by the seat that showed it."""
    data = deal["data"] or {}
    if not data.get("melds"):
        return {}
    try:
        parsed = parse_deal(data, game_ruleset(info.game))
    except RulesError:  # a stored deal the engine accepted: cannot happen
        return {}
    out: dict[str, list[int]] = defaultdict(list)
    for side, melds in (parsed.melds or {}).items():
        for meld in melds:
            out[meld.player if meld.player is not None else f"side:{side}"].append(meld.value)
    return out


def game_stats(info: GameInfo) -> tuple[dict[int, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The leaderboard lines of one counted game: per player (by id) and per partnership
    (by side, for sides of two or more players)."""
    game = info.game
    scores = game.scores
    side_count = len(scores)
    players: dict[int, dict[str, Any]] = {}
    sides: dict[str, dict[str, Any]] = {}
    side_players: dict[str, list[int]] = defaultdict(list)
    for seat, side, player_id in sorted(info.seats):
        side_players[side].append(player_id)
        line = {**_empty_stat(), **_result(game, side)}
        line.update(seat=seat, side=side, deals=len(info.deals), points=scores.get(side, 0))
        players[player_id] = line
    for side, ids in side_players.items():
        if len(ids) < 2:
            continue
        line = {**_empty_stat(), **_result(game, side)}
        line.update(side=side, deals=len(info.deals), points=scores.get(side, 0), players=ids)
        sides[side] = line
    by_seat = {seat: player_id for seat, _, player_id in info.seats}
    for deal in info.deals:
        data = deal["data"] or {}
        result = deal["result"] or {}
        meld_points = result.get("meld_points") or {}
        reneged = set(data.get("renege") or [])
        outcome, maker, maker_seat = deal["outcome"], deal["maker"], deal["maker_seat"]
        values = _meld_values(info, deal)
        for line in players.values():
            seat, side = line["seat"], line["side"]
            if maker_seat is not None and maker_seat == seat:
                line["calls"] += 1
                line["calls_made"] += int(outcome == "made")
                line["calls_set"] += int(outcome == "set")
            shown = values.get(str(seat), [])
            line["melds"] += len(shown)
            if shown:
                line["best_meld"] = max(line["best_meld"], *shown)
                line["meld_deals"] += int((meld_points.get(side) or 0) > 0)
            line["reneges"] += int(side in reneged)
        for side, line in sides.items():
            if maker == side:
                line["calls"] += 1
                line["calls_made"] += int(outcome == "made")
                line["calls_set"] += int(outcome == "set")
            line["melds"] += sum(
                len(v)
                for key, v in values.items()
                if (key.startswith("side:") and key[5:] == side)
                or (
                    key.isdigit()
                    and int(key) in by_seat
                    and seat_side(int(key), side_count) == side
                )
            )
            scored = meld_points.get(side) or 0
            line["meld_deals"] += int(scored > 0)
            line["best_meld"] = max(line["best_meld"], scored)
            line["reneges"] += int(side in reneged)
    return players, sides
