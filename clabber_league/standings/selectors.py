"""Reading the standings, leaderboards and ratings: every query starts from the club.

The division table is one query however many teams play: the teams with their aggregate
rows and, when the league breaks ties head-to-head, the results between teams level on
match points; one more counts the results not yet confirmed, when there are any.
"""

from __future__ import annotations

import bisect
import hashlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Max, QuerySet, Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext

from clabber_league.clubs.models import Club, Player
from clabber_league.clubs.privacy import shown
from clabber_league.core.i18n import local_format
from clabber_league.games.models import Game
from clabber_league.leagues.models import Division, Season, Team

from . import store
from .contributions import zero_counters
from .models import (
    DEFAULT_TIEBREAKERS,
    Counters,
    LeaderboardTotal,
    PlayerRating,
    RatingChange,
    StandingContribution,
    TeamStanding,
    TiebreakerRules,
)
from .ordering import Line, explain, match_points, order_lines


def division_list(*, club: Club) -> QuerySet[Division]:
    return (
        Division.objects.filter(club=club)
        .select_related("season")
        .order_by("-season__start_date", "season__name", "name")
    )


def division_get(*, club: Club, pk: int) -> Division:
    """One division of the club with its season and tiebreakers; DoesNotExist otherwise.

    One statement of the store (``store.division_row``): every view of the standings, page
    or API, starts here, and the ORM's building of this query cost more CPU than the
    table's own."""
    found = store.division_row(club_id=club.pk, pk=int(pk))
    if found is None:
        raise Division.DoesNotExist("Division matching query does not exist.")
    division, season, rules = found
    Division._meta.get_field("season").set_cached_value(division, season)
    Division._meta.get_field("club").set_cached_value(division, club)
    # None: ``division.tiebreaker_rules`` raises RelatedObjectDoesNotExist, as after
    # select_related; the defaults apply.
    Division._meta.get_field("tiebreaker_rules").set_cached_value(division, rules)
    if rules is not None:
        TiebreakerRules._meta.get_field("division").set_cached_value(rules, division)
    return division


def division_tiebreakers(division: Division) -> list[str]:
    try:
        return list(division.tiebreaker_rules.tiebreakers)
    except Division.tiebreaker_rules.RelatedObjectDoesNotExist:
        return list(DEFAULT_TIEBREAKERS)


#: The tiebreakers that compare points scored: a division whose games are played by more
#: than one rule set (an inter-club division, each fixture by its home club's rules) cannot
#: compare them, since a 1,000-point game and a 1,500-point one do not add up.
POINTS_TIEBREAKERS = ("points_difference", "points_for")


def comparable_tiebreakers(division: Division, tiebreakers: list[str]) -> tuple[list[str], bool]:
    """The rule for a division played by different rules: its table is ordered by match
    points and the tiebreakers that do not compare points scored (games, sets,
    head-to-head), the points ones skipped; points for and against are still shown as
    scored. Returns the tiebreakers used and whether some were skipped. One query, and
    only when a points tiebreaker is chosen."""
    if not any(t in POINTS_TIEBREAKERS for t in tiebreakers):
        return tiebreakers, False
    rules = Game.objects.filter(division=division).order_by().values_list("rules", flat=True)
    rules = rules.distinct()
    if len(rules[:2]) < 2:
        return tiebreakers, False
    return [t for t in tiebreakers if t not in POINTS_TIEBREAKERS], True


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
    #: Its games are played by more than one rule set: points scored break no tie.
    mixed_rules: bool = False
    #: The cache key of its order (``table_key``): equal keys, equal lines.
    key: str = ""


def _line(
    team_id: int, name: str, counters: dict[str, int], points: dict[str, int], carried: int = 0
) -> Line:
    """A team's line; its match points include those it carried over (``Team.carried_points``,
    a season already under way), which ``extra["carried"]`` shows."""
    return Line(
        team_id=team_id,
        name=name,
        counters=counters,
        match_points=match_points(
            counters, win=points["win"], tie=points["tie"], loss=points["loss"]
        )
        + (carried or 0),
        extra={"carried": carried or 0},
    )


def standings_table(*, division: Division) -> Table:
    """The division's table in order, from the aggregate rows.

    One hand-written query, whatever the number of teams (``bench/standings.py`` holds this
    within twice the cost of the best hand-written SQL over the same rows): the teams with
    their aggregate rows and, only when the league breaks ties head-to-head, the results
    between teams level on match points (no other team's matches can change the order).
    """
    points = season_points(division.season)
    tiebreakers, mixed = comparable_tiebreakers(division, division_tiebreakers(division))
    rows = store.table_rows(
        club_id=division.club_id,
        division_id=division.pk,
        points=points,
        head_to_head="head_to_head" in tiebreakers,
    )
    key = table_key(tiebreakers, points, rows)
    ordered = cache.get(key)
    if ordered is None:
        ordered = _ordered(rows, tiebreakers, points)
        cache.set(key, ordered, TABLE_CACHE_SECONDS)
    return Table(
        division=division,
        lines=ordered,
        tiebreakers=tiebreakers,
        explanation=explain(tiebreakers, **points),
        unconfirmed=unconfirmed_games(division=division, lines=ordered),
        points=points,
        key=key,
        mixed_rules=mixed,
    )


#: How long an ordered table stays in the cache unread. It can never be stale (its key is
#: everything it is computed from), so this only bounds the memory of tables no one reads.
TABLE_CACHE_SECONDS = 3600
#: Part of every table's key: bump it when the order computed from the same rows changes
#: (``ordering.py``, ``_line``), so a shared cache (Redis) serves no table of older code.
TABLE_CACHE_VERSION = 2


def table_key(tiebreakers: Sequence[str], points: dict[str, int], rows: Sequence[tuple]) -> str:
    """The cache key of a table: a digest of every input of its order, the aggregate rows
    as read (teams' names and counters, the head-to-head results), the tiebreakers and the
    season's points. Any change to any of them (a finished game, a forfeit, a correction,
    a rebuild or a restore, a renamed team, a team moved, other points or tiebreakers) is a
    new key, so a cached table is never stale and nothing has to invalidate it; reading
    the rows is one indexed query, ordering them is what the cache saves."""
    data = repr((TABLE_CACHE_VERSION, list(tiebreakers), sorted(points.items()), rows))
    return "standings-table:" + hashlib.blake2b(data.encode(), digest_size=20).hexdigest()


def _ordered(rows: Sequence[tuple], tiebreakers: list[str], points: dict[str, int]) -> list[Line]:
    names = Counters.COUNTERS
    lines, h2h = [], {}
    for kind, team_id, opponent_id, name, carried, *values in rows:
        if kind == 0:
            counters = {n: (v or 0) for n, v in zip(names, values, strict=True)}
            lines.append(_line(team_id, name, counters, points, carried))
        else:
            won, tied, lost = values[:3]
            h2h[(team_id, opponent_id)] = (
                won * points["win"] + tied * points["tie"] + lost * points["loss"]
            )
    return order_lines(lines, tiebreakers, h2h)


def unconfirmed_games(*, division: Division, lines: list[Line]) -> int:
    """Games of the division that count in its table but are not confirmed yet, each once:
    a game is on the line of every team that played it, so the lines cannot be summed.
    No query when no line has one (every result confirmed); else one, written once (the
    standings page polls it every 10 s on a league night)."""
    if not any(line.counters["games_unconfirmed"] for line in lines):
        return 0
    return store.unconfirmed_count(club_id=division.club_id, division_id=division.pk)


@dataclass
class LiveGame:
    pk: int
    sides: list[tuple[str, str, int]]  # (side, team name, score)
    deal_count: int


@dataclass
class DivisionNow:
    """What is happening in a division today: its games at the table, with their running
    scores, and whether tonight is a league night (a game of the division played or a
    fixture due today), when the standings page refreshes itself."""

    live: list[LiveGame]
    tonight: bool


def division_now(*, division: Division) -> DivisionNow:
    """The division's games in progress and its league-night flag: one query, written once
    (the standings page reads it on every refresh)."""
    rows = store.division_now_rows(
        club_id=division.club_id, division_id=division.pk, today=timezone.localdate()
    )
    games: dict[int, LiveGame] = {}
    tonight = False
    for game_id, side, team, a, b, c, deals, night in rows:
        if game_id is None:  # the league-night row
            tonight = bool(night)
            continue
        live = games.setdefault(game_id, LiveGame(pk=game_id, sides=[], deal_count=deals))
        score = {"A": a, "B": b, "C": c}.get(side) or 0
        live.sides.append((side, team or gettext("Side {side}").format(side=side), score))
    return DivisionNow(live=list(games.values()), tonight=tonight)


# --- charts ----------------------------------------------------------------------------------


def positions_by_round(*, division: Division) -> dict[str, Any]:
    """Each team's place after each round (or each league night, where the division plays
    games outside a schedule), ordered exactly as the table is."""
    points = season_points(division.season)
    tiebreakers, _mixed = comparable_tiebreakers(division, division_tiebreakers(division))
    teams = list(Team.objects.filter(division=division).values_list("pk", "name", "carried_points"))
    names = {pk: name for pk, name, _ in teams}
    carried = {pk: points_before for pk, _, points_before in teams}
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
        lines = [_line(t, names[t], dict(c), points, carried[t]) for t, c in totals.items()]
        for line in order_lines(lines, tiebreakers, h2h):
            places[line.team_id].append(line.position)
    if by_round:
        labels = [gettext("Round {number}").format(number=s) for s in steps]
    else:
        short = local_format("j M")
        labels = [date_format(s, short) for s in steps]
    return {
        "type": "line",
        "labels": labels,
        "reverse": True,
        "yTitle": gettext("Place"),
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
    running = team.carried_points  # a season already under way starts from these
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
    short = local_format("j M")
    labels = [
        pgettext("round, short", "R{number}").format(number=m["row"].round_number)
        if m["row"].round_number
        else (date_format(m["row"].played_on, short) if m["row"].played_on else "")
        for m in matches
    ]
    chart = {
        "type": "bar",
        "labels": labels,
        "datasets": [
            {
                "label": gettext("Points difference"),
                "data": [m["difference"] for m in matches],
                "type": "bar",
                "yAxisID": "y",
            },
            {
                "label": gettext("Match points, running"),
                "data": [m["running"] for m in matches],
                "type": "line",
                "yAxisID": "y1",
            },
        ],
        "twoAxes": True,
    }
    return {"matches": matches, "chart": chart}


# --- leaderboards ----------------------------------------------------------------------------

#: A leaderboard row's numbers, added up from the totals (``LeaderboardTotal``): one row
#: per division and player or partnership, so a season's board reads one row or two each
#: and the all-time board the few of each career.
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


#: Above this many games a win % rounded in SQL (``store._TENTHS``) may differ from Python's
#: rounding of the float (a tie 2000 games can hold); such a board is ordered in Python.
EXACT_GAMES = 2000


class Leaderboard(Sequence):
    """A leaderboard, best first, read a page at a time from the totals.

    Its order is win % as shown (rounded), games, points per deal as shown, name (as shown
    to the reader). The first two are read from the database: one query counts the rows of
    each (win %, games) in order, so the board's length and where each such group starts
    are known without reading its rows; reading a slice fetches only the groups it
    overlaps (one query, with their names) and orders each group in Python on the rest.
    Groups fetched once are kept, so the chart's top 12 on the first page cost nothing
    more. Iterating reads every row at once (the API and the CSV). Django's ``Paginator``
    pages it as it is. A board with a row of ``EXACT_GAMES`` games or more is read and
    ordered whole in Python (see ``store._TENTHS``).
    """

    def __init__(self, board: str, *, club: Club, season: Season | None, to_member: bool):
        self._board, self._to_member = board, to_member
        self._ident = len(store.BOARD_IDENT[board])
        self._query = store.BoardRows(
            board=board, club_id=club.pk, season_id=season.pk if season is not None else None
        )
        self._groups = self._query.groups()
        self._starts = [0]
        for *_, count in self._groups:
            self._starts.append(self._starts[-1] + count)
        self._read: dict[int, list[dict[str, Any]]] = {}  # group index -> its rows, in order
        if any(games >= EXACT_GAMES for _, games, _ in self._groups):
            self._read_whole()

    def __len__(self) -> int:
        return self._starts[-1]

    def __getitem__(self, index: int | slice) -> Any:  # type: ignore[override]
        positions = range(len(self))
        if isinstance(index, slice):
            return self._rows(positions[index])
        at = positions[index]
        return self._rows(range(at, at + 1))[0]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if len(self._read) < len(self._groups):
            self._read_whole()
        return iter(self._rows(range(len(self))))

    def _rows(self, positions: range) -> list[dict[str, Any]]:
        if not positions:
            return []
        first, last = min(positions[0], positions[-1]), max(positions[0], positions[-1])
        wanted = range(
            bisect.bisect_right(self._starts, first) - 1,
            bisect.bisect_right(self._starts, last),
        )
        missing = [g for g in wanted if g not in self._read]
        if missing:
            self._fetch(missing)
        return [self._at(i) for i in positions]

    def _at(self, position: int) -> dict[str, Any]:
        group = bisect.bisect_right(self._starts, position) - 1
        row = self._read[group][position - self._starts[group]]
        return {**row, "place": position + 1}

    def _fetch(self, groups: list[int]) -> None:
        """Read the rows of these groups (one query) and order each."""
        fetched = self._query.rows([self._groups[g][:2] for g in groups])
        self._store(fetched, {self._groups[g][:2]: g for g in groups})

    def _read_whole(self) -> None:
        """Every row at once, ordered in Python (the API, the CSV, a very long career)."""
        rows = [self._row(r) for r in self._query.rows()]
        rows.sort(key=lambda r: r["order"])
        self._read = {0: rows}
        self._groups, self._starts = [(None, None, len(rows))], [0, len(rows)]
        for row in rows:
            row.pop("order")

    def _store(self, fetched: list[tuple], group_of: dict[tuple, int]) -> None:
        by_group: dict[int, list[dict[str, Any]]] = {g: [] for g in group_of.values()}
        for raw in fetched:
            by_group[group_of[(raw[0], raw[self._ident + 1])]].append(self._row(raw))
        for group, rows in by_group.items():
            rows.sort(key=lambda r: r["order"])
            for row in rows:
                row.pop("order")
            self._read[group] = rows

    def _row(self, raw: tuple) -> dict[str, Any]:
        """A board row from one fetched row: tenths, ident columns, the sums, the names."""
        n = self._ident
        ident, sums, names = (
            raw[1 : 1 + n],
            raw[1 + n : 1 + n + len(STAT_SUMS)],
            raw[1 + n + len(STAT_SUMS) :],
        )
        numbers = dict(zip(STAT_SUMS, (int(v) for v in sums), strict=True))
        if self._board == LeaderboardTotal.Board.PLAYERS:
            name, public, mu, sigma = names
            shown_name = shown(name, public, to_member=self._to_member)
            rating = round(mu - 3 * sigma, 2) if mu is not None else None
            row = {"player_id": ident[0], **numbers, "name": shown_name, "rating": rating}
        else:
            parts = [
                shown(names[i], names[i + 1] is not False, to_member=self._to_member)
                for i in range(0, len(names), 2)
                if names[i] is not None
            ]
            shown_name = " & ".join(n for n in parts if n)
            row = {"key": ident[0], **numbers, "name": shown_name}
        row = _derive(row)
        row["order"] = _place_key(
            row["games"], row["wins"], row["points"], row["deals"], shown_name
        )
        return row


def player_leaderboard(
    *, club: Club, season: Season | None = None, to_member: bool = True
) -> Leaderboard:
    """Per player over counted games of a season (or all time), best first, from the season
    totals (a row per player and division, however many games): one query for the board's
    groups, one for the rows read. Names as shown to a member of the club (``to_member``)
    or to anyone (``clubs.privacy``)."""
    return Leaderboard(store.PLAYERS, club=club, season=season, to_member=to_member)


def partnership_leaderboard(
    *, club: Club, season: Season | None = None, to_member: bool = True
) -> Leaderboard:
    """Per partnership (the same two or three players on one side), best first: as
    ``player_leaderboard``."""
    return Leaderboard(store.PARTNERSHIPS, club=club, season=season, to_member=to_member)


def leaderboard_chart(rows: Sequence[dict[str, Any]], *, top: int = 12) -> dict[str, Any]:
    shown = rows[:top]
    return {
        "type": "bar",
        "horizontal": True,
        "labels": [r["name"] for r in shown],
        "datasets": [{"label": gettext("Win %"), "data": [r["win_pct"] or 0 for r in shown]}],
        "yTitle": gettext("Win %"),
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
    # The player's games as every page counts them: the league's counted games (the
    # leaderboards' "Games", the sum of the seasons below) and, apart, the confirmed games
    # outside a league (club nights, cups, friendlies), which move only the rating.
    league_games = sum(r["games"] or 0 for r in season_rows)
    outside = sum(1 for c in history if c.game.division_id is None)
    chart = {
        "type": "line",
        "labels": [
            pgettext("rating chart", "start"),
            *[gettext("Game {number}").format(number=c.game_id) for c in history],
        ],
        "datasets": [
            {
                "label": gettext("Rating (mu - 3 sigma)"),
                "data": [
                    round(history[0].ordinal_before, 2) if history else 0,
                    *[round(c.ordinal, 2) for c in history],
                ],
            }
        ],
        "yTitle": gettext("Rating"),
    }
    return {
        "rating": rating,
        "history": history,
        "seasons": season_rows,
        "chart": chart,
        "games": {"league": league_games, "outside": outside, "all": league_games + outside},
    }


def seasons_with_stats(*, club: Club) -> QuerySet[Season]:
    return Season.objects.filter(club=club).order_by("-start_date", "name")


def division_counters(*, division: Division) -> dict[int, dict[str, int]]:
    """Stored aggregate rows by team (tests and exports)."""
    return {s.team_id: s.counters() for s in TeamStanding.objects.filter(division=division)}
