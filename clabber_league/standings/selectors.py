"""Reading the standings, leaderboards and ratings: every query starts from the club.

The division table is one query however many teams play: the teams with their aggregate
rows and, when the league breaks ties head-to-head, the results between teams level on
match points; one more counts the results not yet confirmed, when there are any.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Exists, Max, OuterRef, QuerySet, Sum
from django.utils import timezone

from clabber_league.clubs.models import Club, Player
from clabber_league.clubs.privacy import shown
from clabber_league.games.models import Game, GameSide
from clabber_league.leagues.models import Division, Season, Team
from clabber_league.scheduling.models import Fixture

from .contributions import zero_counters
from .models import (
    DEFAULT_TIEBREAKERS,
    Counters,
    LeaderboardTotal,
    PlayerRating,
    RatingChange,
    StandingContribution,
    TeamStanding,
)
from .ordering import Line, explain, match_points, order_lines


def division_list(*, club: Club) -> QuerySet[Division]:
    return (
        Division.objects.filter(club=club)
        .select_related("season")
        .order_by("-season__start_date", "season__name", "name")
    )


def division_get(*, club: Club, pk: int) -> Division:
    """One division of the club with its season and tiebreakers; DoesNotExist otherwise."""
    return (
        Division.objects.filter(club=club).select_related("season", "tiebreaker_rules").get(pk=pk)
    )


def division_tiebreakers(division: Division) -> list[str]:
    try:
        return list(division.tiebreaker_rules.tiebreakers)
    except Division.tiebreaker_rules.RelatedObjectDoesNotExist:
        return list(DEFAULT_TIEBREAKERS)


def season_points(season: Season) -> dict[str, int]:
    return {"win": season.points_win, "tie": season.points_tie, "loss": season.points_loss}


@dataclass
class Table:
    division: Division
    lines: list[Line]
    tiebreakers: list[str]
    explanation: list[str]
    unconfirmed: int = 0
    points: dict[str, int] = field(default_factory=dict)


@functools.cache
def _table_sql(*, head_to_head: bool) -> str:
    """One query for a division's table: its teams with their aggregate rows (kind 0) and,
    when the league breaks ties head-to-head, the match results between every two teams
    level on match points (kind 1: team, opponent, won, tied, lost)."""
    team, standing = Team._meta.db_table, TeamStanding._meta.db_table
    counters = ", ".join(f"s.{name}" for name in Counters.COUNTERS)
    sql = (
        f"SELECT 0, t.id, NULL, t.name, {counters} FROM {team} t "
        f"LEFT JOIN {standing} s ON s.team_id = t.id "
        "WHERE t.club_id = %(club)s AND t.division_id = %(division)s"
    )
    if not head_to_head:
        return sql
    contribution = StandingContribution._meta.db_table
    padding = ", NULL" * (len(Counters.COUNTERS) - 3)

    def points(alias: str) -> str:
        return (
            f"({alias}.matches_won * %(win)s + {alias}.matches_tied * %(tie)s"
            f" + {alias}.matches_lost * %(loss)s)"
        )

    return (
        f"{sql} UNION ALL "
        "SELECT 1, c.team_id, c.opponent_id, NULL, SUM(c.matches_won), SUM(c.matches_tied), "
        f"SUM(c.matches_lost){padding} FROM {contribution} c "
        f"JOIN {standing} a ON a.team_id = c.team_id "
        f"JOIN {standing} b ON b.team_id = c.opponent_id "
        "WHERE c.club_id = %(club)s AND c.division_id = %(division)s "
        f"AND {points('a')} = {points('b')} GROUP BY c.team_id, c.opponent_id"
    )


def _line(team_id: int, name: str, counters: dict[str, int], points: dict[str, int]) -> Line:
    return Line(
        team_id=team_id,
        name=name,
        counters=counters,
        match_points=match_points(
            counters, win=points["win"], tie=points["tie"], loss=points["loss"]
        ),
    )


def standings_table(*, division: Division) -> Table:
    """The division's table in order, from the aggregate rows.

    One hand-written query, whatever the number of teams (``bench/standings.py`` holds this
    within twice the cost of the best hand-written SQL over the same rows): the teams with
    their aggregate rows and, only when the league breaks ties head-to-head, the results
    between teams level on match points (no other team's matches can change the order).
    """
    points = season_points(division.season)
    tiebreakers = division_tiebreakers(division)
    with connection.cursor() as cursor:
        cursor.execute(
            _table_sql(head_to_head="head_to_head" in tiebreakers),
            {"club": division.club_id, "division": division.pk, **points},
        )
        rows = cursor.fetchall()
    names = Counters.COUNTERS
    lines, h2h = [], {}
    for kind, team_id, opponent_id, name, *values in rows:
        if kind == 0:
            counters = {n: (v or 0) for n, v in zip(names, values, strict=True)}
            lines.append(_line(team_id, name, counters, points))
        else:
            won, tied, lost = values[:3]
            h2h[(team_id, opponent_id)] = (
                won * points["win"] + tied * points["tie"] + lost * points["loss"]
            )
    ordered = order_lines(lines, tiebreakers, h2h)
    return Table(
        division=division,
        lines=ordered,
        tiebreakers=tiebreakers,
        explanation=explain(tiebreakers, **points),
        unconfirmed=unconfirmed_games(division=division, lines=ordered),
        points=points,
    )


def unconfirmed_games(*, division: Division, lines: list[Line]) -> int:
    """Games of the division that count in its table but are not confirmed yet, each once:
    a game is on the line of every team that played it, so the lines cannot be summed.
    No query when no line has one (every result confirmed)."""
    if not any(line.counters["games_unconfirmed"] for line in lines):
        return 0
    return (
        Game.objects.filter(
            club_id=division.club_id,
            division=division,
            status=Game.Status.FINISHED,
            sides__team__isnull=False,
        )
        .distinct()
        .count()
    )


@dataclass
class LiveGame:
    pk: int
    sides: list[tuple[str, str, int]]  # (side, team name, score)
    deal_count: int


def live_games(*, division: Division) -> list[LiveGame]:
    """Games of the division at the table right now, with their running scores: one query."""
    rows = (
        GameSide.objects.filter(game__division=division, game__status=Game.Status.IN_PROGRESS)
        .order_by("game_id", "side")
        .values_list(
            "game_id",
            "side",
            "team__name",
            "game__score_a",
            "game__score_b",
            "game__score_c",
            "game__deal_count",
        )
    )
    games: dict[int, LiveGame] = {}
    for game_id, side, team, a, b, c, deals in rows:
        live = games.setdefault(game_id, LiveGame(pk=game_id, sides=[], deal_count=deals))
        score = {"A": a, "B": b, "C": c}.get(side) or 0
        live.sides.append((side, team or f"Side {side}", score))
    return list(games.values())


def league_night(*, division: Division) -> bool:
    """A game of the division is played, or a fixture is due, today: one query."""
    today = timezone.localdate()
    games = Game.objects.filter(division=OuterRef("pk"), played_on=today)
    fixtures = Fixture.objects.filter(division=OuterRef("pk"), date=today)
    return Division.objects.filter(pk=division.pk).filter(Exists(games) | Exists(fixtures)).exists()


# --- charts ----------------------------------------------------------------------------------


def positions_by_round(*, division: Division) -> dict[str, Any]:
    """Each team's place after each round (or each league night, where the division plays
    games outside a schedule), ordered exactly as the table is."""
    points = season_points(division.season)
    tiebreakers = division_tiebreakers(division)
    names = dict(Team.objects.filter(division=division).values_list("pk", "name"))
    rows = list(
        StandingContribution.objects.filter(division=division).values(
            "team_id", "opponent_id", "round_number", "played_on", *Counters.COUNTERS
        )
    )
    by_round = all(r["round_number"] is not None for r in rows)
    step_of = (lambda r: r["round_number"]) if by_round else (lambda r: r["played_on"])
    steps = sorted({step_of(r) for r in rows if step_of(r) is not None})
    totals = {team_id: zero_counters() for team_id in names}
    h2h: dict[tuple[int, int], int] = defaultdict(int)
    places: dict[int, list[int]] = {team_id: [] for team_id in names}
    grouped: dict[Any, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[step_of(row)].append(row)
    for step in steps:
        for row in grouped[step]:
            if row["team_id"] not in totals:
                continue
            for name in Counters.COUNTERS:
                totals[row["team_id"]][name] += row[name]
            if row["opponent_id"]:
                h2h[(row["team_id"], row["opponent_id"])] += match_points(row, **points)
        lines = [_line(t, names[t], dict(c), points) for t, c in totals.items()]
        for line in order_lines(lines, tiebreakers, h2h):
            places[line.team_id].append(line.position)
    labels = [f"Round {s}" if by_round else s.strftime("%-d %b") for s in steps]
    return {
        "type": "line",
        "labels": labels,
        "reverse": True,
        "yTitle": "Place",
        "datasets": [
            {"label": names[t], "data": places[t]}
            for t in sorted(names, key=lambda t: (places[t][-1] if places[t] else 0, names[t]))
        ],
    }


def team_form(*, team: Team) -> dict[str, Any]:
    """A team's matches in order, with running match points: the form chart and its list."""
    points = season_points(team.division.season)
    rows = list(
        StandingContribution.objects.filter(team=team)
        .select_related("opponent")
        .order_by("round_number", "played_on", "pk")
    )
    running = 0
    matches = []
    for row in rows:
        gained = match_points(row.counters(), **points)
        running += gained
        if row.matches_won:
            result = "W"
        elif row.matches_tied:
            result = "T"
        elif row.matches_lost:
            result = "L"
        else:
            result = "…"  # a match whose planned games are not all in yet
        matches.append(
            {
                "row": row,
                "result": result,
                "points": gained,
                "running": running,
                "difference": row.points_for - row.points_against,
            }
        )
    labels = [
        f"R{m['row'].round_number}"
        if m["row"].round_number
        else (m["row"].played_on.strftime("%-d %b") if m["row"].played_on else "")
        for m in matches
    ]
    chart = {
        "type": "bar",
        "labels": labels,
        "datasets": [
            {
                "label": "Points difference",
                "data": [m["difference"] for m in matches],
                "type": "bar",
                "yAxisID": "y",
            },
            {
                "label": "Match points, running",
                "data": [m["running"] for m in matches],
                "type": "line",
                "yAxisID": "y1",
            },
        ],
        "twoAxes": True,
    }
    return {"matches": matches, "chart": chart}


# --- leaderboards ----------------------------------------------------------------------------

#: A leaderboard row's numbers, added up from the season totals (``LeaderboardTotal``):
#: one row per season and player or partnership, so a season's board reads one row each and
#: the all-time board the few seasons of each.
STAT_SUMS = {
    "games": Sum("games"),
    "wins": Sum("won"),
    "ties": Sum("tied"),
    "losses": Sum("lost"),
    "deals": Sum("deals"),
    "points": Sum("points"),
    "calls": Sum("calls"),
    "calls_made": Sum("calls_made"),
    "calls_set": Sum("calls_set"),
    "melds": Sum("melds"),
    "meld_deals": Sum("meld_deals"),
    "best_meld": Max("best_meld"),
    "reneges": Sum("reneges"),
}


def _pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def _per(total: int, count: int) -> float | None:
    return round(total / count, 1) if count else None


def _derive(row: dict[str, Any]) -> dict[str, Any]:
    row["win_pct"] = _pct(row["wins"], row["games"])
    row["points_per_deal"] = _per(row["points"], row["deals"])
    row["made_pct"] = _pct(row["calls_made"], row["calls"])
    row["set_pct"] = _pct(row["calls_set"], row["calls"])
    row["meld_pct"] = _pct(row["meld_deals"], row["deals"])
    return row


def _place_key(games: int, wins: int, points: int, deals: int, name: str) -> tuple:
    """A leaderboard's order: win % (as shown, rounded), games, points per deal, name."""
    return (-(_pct(wins, games) or 0), -games, -(_per(points, deals) or 0), name)


#: The sums a leaderboard's order needs (``_place_key``); the other numbers are summed only
#: for the rows shown.
ORDER_SUMS = {k: STAT_SUMS[k] for k in ("games", "wins", "points", "deals")}


class Leaderboard(Sequence):
    """A leaderboard, best first: every row's place is known, its numbers are fetched only
    for the rows read (a page of 50 and the chart's top 12 of a club's thousand players).

    The order comes from one narrow aggregate (per player or partnership: games, wins,
    points, deals) and the names; ``fetch`` sums every number for the given rows (``None``:
    every row at once, for the API and the CSV). Rows fetched once are kept, so the chart's
    top 12 on the first page cost nothing more. Django's ``Paginator`` pages it as it is.
    """

    def __init__(self, entries: list[Entry], fetch: Fetch) -> None:
        self._entries = sorted(entries, key=lambda e: e.order)
        self._fetch = fetch
        self._sums: dict[Any, dict[str, Any]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int | slice) -> Any:  # type: ignore[override]
        positions = range(len(self._entries))
        if isinstance(index, slice):
            return self._rows(positions[index])
        at = positions[index]
        return self._rows(range(at, at + 1))[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._rows(range(len(self._entries))))

    def _rows(self, positions: range) -> list[dict[str, Any]]:
        missing = [
            self._entries[i].ident for i in positions if self._entries[i].ident not in self._sums
        ]
        if missing:
            self._sums.update(self._fetch(None if len(missing) == len(self) else missing))
        rows = []
        for i in positions:
            entry = self._entries[i]
            row = {**entry.first, **self._sums[entry.ident], **entry.last}
            rows.append({**_derive(row), "place": i + 1})
        return rows


@dataclass(frozen=True)
class Entry:
    """One row of a leaderboard before its numbers: who (``ident``, the ``first`` and
    ``last`` keys of its row around the numbers) and its ``order`` (``_place_key``)."""

    ident: Any
    first: dict[str, Any]
    last: dict[str, Any]
    order: tuple


Fetch = Callable[[list[Any] | None], dict[Any, dict[str, Any]]]


def _totals(club: Club, season: Season | None, board: str) -> QuerySet[LeaderboardTotal]:
    rows = LeaderboardTotal.objects.filter(club=club, board=board)
    return rows.filter(season=season) if season is not None else rows


def _club_players(club: Club, ids: set[int]) -> dict[int, tuple[str, bool, Any, Any]]:
    """id -> (name, name_public, rating mu, rating sigma) of the club's players: one query
    (and one more for any player of the stats not in the club, which cannot happen)."""
    fields = ("id", "name", "name_public", "rating__mu", "rating__sigma")
    players = {p[0]: p[1:] for p in Player.objects.filter(club=club).values_list(*fields)}
    strays = ids - players.keys()
    if strays:
        players.update(
            {p[0]: p[1:] for p in Player.objects.filter(pk__in=strays).values_list(*fields)}
        )
    return players


def player_leaderboard(
    *, club: Club, season: Season | None = None, to_member: bool = True
) -> Leaderboard:
    """Per player over counted games of a season (or all time), best first, from the season
    totals (one row per player and season, however many games). Two queries for the order
    (the sums it needs, the names), one for the numbers of the rows read. Names as
    shown to a member of the club (``to_member``) or to anyone (``clubs.privacy``)."""
    stats = _totals(club, season, LeaderboardTotal.Board.PLAYERS)
    sums = list(stats.values_list("player_1_id").annotate(**ORDER_SUMS).order_by())
    players = _club_players(club, {r[0] for r in sums})
    entries = []
    for player_id, games, wins, points, deals in sums:
        name, public, mu, sigma = players[player_id]
        shown_name = shown(name, public, to_member=to_member)
        rating = round(mu - 3 * sigma, 2) if mu is not None else None
        entries.append(
            Entry(
                ident=player_id,
                first={"player_id": player_id},
                last={"name": shown_name, "rating": rating},
                order=_place_key(games, wins, points, deals, shown_name),
            )
        )

    def fetch(ids: list[int] | None) -> dict[int, dict[str, Any]]:
        rows = stats if ids is None else stats.filter(player_1_id__in=ids)
        return {
            r.pop("player_1_id"): r
            for r in rows.values("player_1_id").annotate(**STAT_SUMS).order_by()
        }

    return Leaderboard(entries, fetch)


PARTNERS = ("key", "player_1_id", "player_2_id", "player_3_id")


def partnership_leaderboard(
    *, club: Club, season: Season | None = None, to_member: bool = True
) -> Leaderboard:
    """Per partnership (the same two or three players on one side), best first: as
    ``player_leaderboard``."""
    stats = _totals(club, season, LeaderboardTotal.Board.PARTNERSHIPS)
    sums = list(stats.values_list(*PARTNERS).annotate(**ORDER_SUMS).order_by())
    players = _club_players(club, {i for r in sums for i in r[1:4] if i is not None})
    entries = []
    for *partners, games, wins, points, deals in sums:
        names = [
            shown(players[i][0], players[i][1] is not False, to_member=to_member)
            if i is not None
            else ""
            for i in partners[1:]
        ]
        shown_name = " & ".join(n for n in names if n)
        entries.append(
            Entry(
                ident=tuple(partners),
                first={"key": partners[0]},
                last={"name": shown_name},
                order=_place_key(games, wins, points, deals, shown_name),
            )
        )

    def fetch(idents: list[tuple] | None) -> dict[tuple, dict[str, Any]]:
        rows = stats
        if idents is not None:
            rows = stats.filter(
                key__in={i[0] for i in idents}, player_1_id__in={i[1] for i in idents}
            )
        out = {}
        for r in rows.values(*PARTNERS).annotate(**STAT_SUMS).order_by():
            ident = tuple(r.pop(k) for k in PARTNERS)
            out[ident] = r
        return out

    return Leaderboard(entries, fetch)


def leaderboard_chart(rows: Sequence[dict[str, Any]], *, top: int = 12) -> dict[str, Any]:
    shown = rows[:top]
    return {
        "type": "bar",
        "horizontal": True,
        "labels": [r["name"] for r in shown],
        "datasets": [{"label": "Win %", "data": [r["win_pct"] or 0 for r in shown]}],
        "yTitle": "Win %",
    }


# --- players -----------------------------------------------------------------------------------


def player_get(*, club: Club, pk: int) -> Player:
    return Player.objects.filter(club=club).get(pk=pk)


def player_profile(*, club: Club, player: Player) -> dict[str, Any]:
    rating = PlayerRating.objects.filter(club=club, player=player).first()
    history = list(
        RatingChange.objects.filter(club=club, player=player)
        .select_related("game")
        .order_by("at", "id")
    )
    seasons = (
        LeaderboardTotal.objects.filter(
            club=club, board=LeaderboardTotal.Board.PLAYERS, player_1=player
        )
        .values("season_id", "season__name")
        .annotate(**STAT_SUMS)
        .order_by("-season__start_date")
    )
    season_rows = []
    for r in seasons:
        r["name"] = r.pop("season__name")
        season_rows.append(_derive(r))
    chart = {
        "type": "line",
        "labels": ["start", *[f"Game {c.game_id}" for c in history]],
        "datasets": [
            {
                "label": "Rating (mu - 3 sigma)",
                "data": [
                    round(history[0].ordinal_before, 2) if history else 0,
                    *[round(c.ordinal, 2) for c in history],
                ],
            }
        ],
        "yTitle": "Rating",
    }
    return {"rating": rating, "history": history, "seasons": season_rows, "chart": chart}


def seasons_with_stats(*, club: Club) -> QuerySet[Season]:
    return Season.objects.filter(club=club).order_by("-start_date", "name")


def division_counters(*, division: Division) -> dict[int, dict[str, int]]:
    """Stored aggregate rows by team (tests and exports)."""
    return {s.team_id: s.counters() for s in TeamStanding.objects.filter(division=division)}
