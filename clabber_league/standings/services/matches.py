"""What a match gives each team, and each game its players and partnerships, computed from
the stored games and forfeits: the write-through (one match) and the rebuild (a whole
division) both compute with it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, QuerySet

from clabber_league.games.models import Game
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture

from .. import store
from ..contributions import (
    GameInfo,
    forfeit_contributions,
    game_stats,
    match_contributions,
    match_key,
    zero_counters,
)
from ..models import Counters


def _load(games: QuerySet[Game], parts: PartsReader | None = None) -> dict[int, GameInfo]:
    """Games with their sides, seats and (for counted games) deals: two queries."""
    # Only the two fixture columns we need, not the whole row: scheduling owns that table.
    games = games.annotate(
        fixture_planned=F("fixture__games_planned"), fixture_round=F("fixture__round_number")
    ).order_by("pk")
    return _load_rows(list(games), parts)


#: Reads the sides, seats and deals of games, as ``store.game_parts`` does (the check
#: passes the ORM's ``reference.game_parts`` instead).
PartsReader = Callable[..., list[tuple]]


def _load_rows(games: list[Game], parts: PartsReader | None = None) -> dict[int, GameInfo]:
    """:func:`_load` for game rows already read (the write-through is handed the locked
    game): their sides, seats and (for counted games) deals in one query."""
    infos = {g.pk: GameInfo(game=g) for g in sorted(games, key=lambda g: g.pk)}
    if not infos:
        return infos
    counted = [pk for pk, info in infos.items() if info.counts]
    read = parts or store.game_parts
    for kind, game_id, text, ref, number, maker, data, result in read(
        game_ids=list(infos), counted=counted
    ):
        info = infos[game_id]
        if kind == 0:
            info.sides[text] = ref
        elif kind == 1:
            info.seats.append((number, text, ref))
        else:
            info.deals.append(
                {
                    "game_id": game_id,
                    "number": number,
                    "outcome": text,
                    "maker": maker,
                    "maker_seat": ref,
                    "data": data,
                    "result": result,
                }
            )
    return infos


@dataclass
class Computed:
    """Everything the standings and leaderboards store, recomputed from games."""

    contributions: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    standings: dict[int, dict[str, int]] = field(default_factory=dict)
    players: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    partnerships: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)


def _match_rows(key: str, infos: list[GameInfo]) -> dict[int, dict[str, Any]]:
    """The contribution rows of one match, by team."""
    first = infos[0].game
    planned = first.fixture_planned if first.fixture_id else 1
    rows = match_contributions(infos, planned=planned)
    for row in rows.values():
        row.update(
            club_id=first.club_id,
            division_id=first.division_id,
            match_key=key,
            fixture_id=first.fixture_id,
            round_number=first.fixture_round if first.fixture_id else None,
        )
    return rows


#: The columns of a fixture the standings read (scheduling owns the table).
FIXTURE_FIELDS = (
    "pk",
    "club_id",
    "division_id",
    "home_id",
    "away_id",
    "status",
    "forfeit_winner_id",
    "games_planned",
    "round_number",
    "date",
)


def _forfeit_rows(fixture: dict[str, Any]) -> dict[int, dict[str, Any]] | None:
    """The contribution rows of a forfeited fixture (a ``FIXTURE_FIELDS`` dict), by team;
    None when the fixture is not a forfeit."""
    winner = fixture["forfeit_winner_id"]
    if fixture["status"] != Fixture.Status.FORFEIT or winner not in (
        fixture["home_id"],
        fixture["away_id"],
    ):
        return None
    rows = forfeit_contributions(
        home_id=fixture["home_id"],
        away_id=fixture["away_id"],
        winner_id=winner,
        planned=fixture["games_planned"],
        played_on=fixture["date"],
    )
    for row in rows.values():
        row.update(
            club_id=fixture["club_id"],
            division_id=fixture["division_id"],
            match_key=f"f{fixture['pk']}",
            fixture_id=fixture["pk"],
            round_number=fixture["round_number"],
        )
    return rows


def _stat_rows(info: GameInfo) -> tuple[dict[int, dict], dict[str, dict]]:
    if not info.counts:
        return {}, {}
    game = info.game
    common = {
        "club_id": game.club_id,
        "division_id": game.division_id,
        "game_id": game.pk,
        "played_on": game.played_on,
    }
    players, sides = game_stats(info)
    for line in players.values():
        line.update(common, team_id=info.sides.get(line["side"]))
    for side, line in sides.items():
        ids = line.pop("players")
        line.update(
            common,
            team_id=info.sides.get(side),
            key="-".join(str(i) for i in sorted(ids)),
            player_1_id=ids[0],
            player_2_id=ids[1],
            player_3_id=ids[2] if len(ids) > 2 else None,
        )
    return players, sides


def _compute(
    games: QuerySet[Game],
    season_of: dict[int, int],
    fixtures: QuerySet[Fixture],
    parts: PartsReader | None = None,
) -> Computed:
    """Everything stored, recomputed from ``games`` and the forfeits of ``fixtures``;
    ``parts`` reads the games' sides, seats and deals (default: the store)."""
    infos = _load(games, parts)
    out = Computed()
    matches: dict[str, list[GameInfo]] = {}
    for info in infos.values():
        matches.setdefault(match_key(info.game), []).append(info)
    rows_of = {key: _match_rows(key, match) for key, match in matches.items()}
    for fixture in fixtures.filter(status=Fixture.Status.FORFEIT).values(*FIXTURE_FIELDS):
        forfeit = _forfeit_rows(fixture)
        if forfeit is not None:
            rows_of[f"f{fixture['pk']}"] = forfeit
    for key, rows in rows_of.items():
        for team_id, row in rows.items():
            out.contributions[(team_id, key)] = row
            total = out.standings.setdefault(team_id, zero_counters())
            for name in Counters.COUNTERS:
                total[name] += row[name]
    for info in infos.values():
        players, sides = _stat_rows(info)
        season_id = season_of[info.game.division_id]
        for player_id, line in players.items():
            out.players[(info.game.pk, player_id)] = {**line, "season_id": season_id}
        for side, line in sides.items():
            out.partnerships[(info.game.pk, side)] = {**line, "season_id": season_id}
    return out


def _season_of(division_ids: Iterable[int]) -> dict[int, int]:
    return dict(Division.objects.filter(pk__in=list(division_ids)).values_list("pk", "season_id"))


#: The columns of a contribution besides its club, division, team and match.
CONTRIBUTION_FIELDS = store.CONTRIBUTION_FIELDS


def _contribution_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in CONTRIBUTION_FIELDS}
