"""CSV exports: a division's table and every deal it has played, for pages and the API.

Both stream: the deals of a whole season are read in chunks and written row by row.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import StreamingHttpResponse

from clabber_league.clubs.privacy import shown
from clabber_league.core import csvsafe
from clabber_league.games.models import Deal, GameSeat, GameSide
from clabber_league.leagues.models import Division

from .selectors import Table

STANDINGS_COLUMNS = [
    ("position", "position"),
    ("team", "team"),
    ("matches_played", "matches played"),
    ("matches_won", "matches won"),
    ("matches_tied", "matches tied"),
    ("matches_lost", "matches lost"),
    ("games_played", "games played"),
    ("games_won", "games won"),
    ("games_tied", "games tied"),
    ("games_lost", "games lost"),
    ("match_points", "match points"),
    ("points_for", "points for"),
    ("points_against", "points against"),
    ("points_difference", "points difference"),
    ("sets_inflicted", "sets inflicted"),
    ("sets_suffered", "sets suffered"),
    ("deals", "deals"),
    ("games_unconfirmed", "games not yet confirmed"),
]

DEAL_COLUMNS = [
    "game",
    "game status",
    "round",
    "played on",
    "game number",
    "team A",
    "team B",
    "team C",
    "deal",
    "dealer",
    "maker side",
    "maker",
    "trump",
    "outcome",
    "score A",
    "score B",
    "score C",
    "total A",
    "total B",
    "total C",
    "meld points A",
    "meld points B",
    "meld points C",
    "reneged",
]


class _Echo:
    def write(self, value: str) -> str:
        return value


def standings_rows(table: Table) -> list[dict[str, Any]]:
    rows = []
    for line in table.lines:
        row = {
            "position": line.position,
            "shared": line.shared,
            "team_id": line.team_id,
            "team": line.name,
            "match_points": line.match_points,
            "carried_points": line.extra.get("carried", 0),
            "game_difference": line.game_difference,
            "points_difference": line.points_difference,
            "placed_by": line.placed_by,
            **line.counters,
        }
        rows.append(row)
    return rows


def _stream(header: list[str], rows: Iterable[list[Any]], filename: str) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())

    def lines() -> Iterator[str]:
        yield writer.writerow(csvsafe.row(header))
        for row in rows:
            yield writer.writerow(csvsafe.row(row))

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def records_csv(
    records: list[dict[str, Any]], columns: list[str], filename: str
) -> StreamingHttpResponse:
    """Flat records (an API list's rows) as CSV: ``columns`` in order, a nested value or a
    missing one left empty. The leaderboards' and ratings' downloads."""
    rows = (
        ["" if isinstance(record.get(c), (dict, list)) else record.get(c, "") for c in columns]
        for record in records
    )
    return _stream(columns, rows, filename)


def standings_csv(table: Table) -> StreamingHttpResponse:
    rows = [[row[key] for key, _ in STANDINGS_COLUMNS] for row in standings_rows(table)]
    name = f"standings-{table.division.season.slug}-{table.division.slug}.csv"
    return _stream([title for _, title in STANDINGS_COLUMNS], rows, name)


def deal_rows(division: Division, to_member: bool = True) -> Iterator[list[Any]]:
    """Every deal of the division's games, in game and deal order; players' names as shown
    to a member of the club (``to_member``) or to anyone (``clubs.privacy``)."""
    teams: dict[int, dict[str, str]] = {}
    for game_id, side, name in GameSide.objects.filter(game__division=division).values_list(
        "game_id", "side", "team__name"
    ):
        teams.setdefault(game_id, {})[side] = name or ""
    players = {
        (game_id, seat): shown(name, name_public, to_member=to_member)
        for game_id, seat, name, name_public in GameSeat.objects.filter(
            game__division=division
        ).values_list("game_id", "seat", "player__name", "player__name_public")
    }
    deals = (
        Deal.objects.filter(game__division=division)
        .order_by("game_id", "number")
        .values_list(
            "game_id",
            "game__status",
            "game__fixture__round_number",
            "game__played_on",
            "game__number",
            "number",
            "dealer",
            "maker",
            "maker_seat",
            "data",
            "outcome",
            "score_a",
            "score_b",
            "score_c",
            "running_a",
            "running_b",
            "running_c",
            "result",
        )
    )
    for row in deals.iterator(chunk_size=2000):
        (game_id, status, round_number, played_on, game_number, number, dealer, maker,
         maker_seat, data, outcome, sa, sb, sc, ra, rb, rc, result) = row  # fmt: skip
        side_teams = teams.get(game_id, {})
        melds = (result or {}).get("meld_points") or {}
        yield [
            game_id,
            status,
            round_number or "",
            played_on or "",
            game_number,
            side_teams.get("A", ""),
            side_teams.get("B", ""),
            side_teams.get("C", ""),
            number,
            players.get((game_id, dealer), dealer),
            maker,
            players.get((game_id, maker_seat), "") if maker_seat is not None else "",
            (data or {}).get("trump") or "",
            outcome,
            sa,
            sb,
            "" if sc is None else sc,
            ra,
            rb,
            "" if rc is None else rc,
            melds.get("A", ""),
            melds.get("B", ""),
            melds.get("C", ""),
            " ".join((data or {}).get("renege") or []),
        ]


def deals_csv(division: Division, to_member: bool = True) -> StreamingHttpResponse:
    name = f"deals-{division.season.slug}-{division.slug}.csv"
    return _stream(DEAL_COLUMNS, deal_rows(division, to_member), name)
