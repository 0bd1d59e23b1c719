"""The standings' hand-written SQL, in one place: every statement the standings, the
leaderboards and their write-through run that the ORM does not build.

Each function runs one statement (or, on PostgreSQL, a few as one) and returns model
instances or plain rows; the services and selectors decide what to read and write and hold
no SQL. Why by hand: these run on every deal that finishes a game and on every view of a
table, where building the query through the ORM cost more CPU than running it
(``bench/standings.py``, ``bench/record.py``). ``standings/reference.py`` holds the ORM
query each one must agree with; ``tests/standings/test_store_parity.py`` checks that they
do, on SQLite and PostgreSQL.

Reads that a standings page makes go through ``read_connection()`` (the replica where the
request may use it, ``core/dbrouter.py``); everything the write-through reads, it reads on
the primary, locked where it says so.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.utils import timezone

from clabber_league.clubs.models import Player
from clabber_league.core import rows as hand_written
from clabber_league.core.store import read_connection
from clabber_league.games.models import Deal, Game, GameSeat, GameSide
from clabber_league.leagues.models import Division, Season, Team
from clabber_league.scheduling.models import Fixture

from .models import (
    Counters,
    GameStat,
    LeaderboardTotal,
    PartnershipGameStat,
    PlayerGameStat,
    PlayerRating,
    StandingContribution,
    TeamStanding,
    TiebreakerRules,
)

PLAYERS, PARTNERSHIPS = LeaderboardTotal.Board.PLAYERS, LeaderboardTotal.Board.PARTNERSHIPS
PLAYER_COLUMNS = ("player_id", "seat")
PARTNERSHIP_COLUMNS = ("key", "player_1_id", "player_2_id", "player_3_id")
#: The columns of a game's line, besides its player or partnership.
LINE_COLUMNS = (
    "club_id",
    "season_id",
    "division_id",
    "game_id",
    "team_id",
    "side",
    "played_on",
    *GameStat.STATS,
)
TOTAL_KEY = (
    "club_id",
    "season_id",
    "division_id",
    "board",
    "key",
    "player_1_id",
    "player_2_id",
    "player_3_id",
)
TOTAL_COLUMNS = (*TOTAL_KEY, *LeaderboardTotal.SUMS, "best_meld")
#: The columns of a contribution besides its club, division, team and match.
CONTRIBUTION_FIELDS = (*Counters.COUNTERS, "opponent_id", "played_on", "fixture_id", "round_number")
#: The columns :func:`contributions_write` writes.
CONTRIBUTION_COLUMNS = ("club_id", "division_id", "team_id", "match_key", *CONTRIBUTION_FIELDS)

Ident = tuple[str, str]  # (board, key)


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _date(value: Any) -> Any:
    """SQLite hands a raw SELECT's date as text."""
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def _json(value: Any) -> Any:
    """A JSON column read by a raw query: text on SQLite (and as Django has psycopg load
    it), already decoded otherwise."""
    return json.loads(value) if isinstance(value, str) else value


# --- the division and its table (the standings page; the replica where allowed) ----------


def division_row(
    *, club_id: int, pk: int
) -> tuple[Division, Season, TiebreakerRules | None] | None:
    """The club's division ``pk`` with its season and tiebreaker rules (None: the
    defaults); None when the club has no such division."""
    if not 0 < pk <= hand_written.MAX_ID:  # no row has it (nor can the database be asked)
        return None
    with read_connection().cursor() as cursor:
        cursor.execute(_division_sql(), [club_id, pk])
        row = cursor.fetchone()
    if row is None:
        return None
    division_width = len(Division._meta.concrete_fields)
    season_width = len(Season._meta.concrete_fields)
    division = hand_written.instance(Division, row[:division_width])
    season = hand_written.instance(Season, row[division_width : division_width + season_width])
    rules_values = row[division_width + season_width :]
    rules = hand_written.instance(TiebreakerRules, rules_values) if rules_values[0] else None
    return division, season, rules


@functools.cache
def _division_sql() -> str:
    select = (
        hand_written.columns(Division, "d")
        + hand_written.columns(Season, "s")
        + hand_written.columns(TiebreakerRules, "t")
    )
    return (
        f"SELECT {', '.join(select)} FROM {Division._meta.db_table} d "
        f"JOIN {Season._meta.db_table} s ON s.id = d.season_id "
        f"LEFT JOIN {TiebreakerRules._meta.db_table} t ON t.division_id = d.id "
        "WHERE d.club_id = %s AND d.id = %s"
    )


def table_rows(
    *, club_id: int, division_id: int, points: dict[str, int], head_to_head: bool
) -> list[tuple]:
    """A division's table as rows: each team of the division (kind 0: ``(0, team id, None,
    name, carried points, *Counters.COUNTERS)``, the counters None without a standing row)
    and, with ``head_to_head``, the match results between every two teams level on match
    points (kind 1: ``(1, team id, opponent id, None, None, won, tied, lost, None...)``)."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            _table_sql(head_to_head=head_to_head),
            {"club": club_id, "division": division_id, **points},
        )
        return cursor.fetchall()


@functools.cache
def _table_sql(*, head_to_head: bool) -> str:
    team, standing = Team._meta.db_table, TeamStanding._meta.db_table
    counters = ", ".join(f"s.{name}" for name in Counters.COUNTERS)
    sql = (
        f"SELECT 0, t.id, NULL, t.name, t.carried_points, {counters} FROM {team} t "
        f"LEFT JOIN {standing} s ON s.team_id = t.id "
        "WHERE t.club_id = %(club)s AND t.division_id = %(division)s"
    )
    if not head_to_head:
        return sql
    contribution = StandingContribution._meta.db_table
    padding = ", NULL" * (len(Counters.COUNTERS) - 3)

    def points(alias: str) -> str:  # a team's match points, with those it carried over
        return (
            f"({alias}.matches_won * %(win)s + {alias}.matches_tied * %(tie)s"
            f" + {alias}.matches_lost * %(loss)s + t{alias}.carried_points)"
        )

    return (
        f"{sql} UNION ALL "
        "SELECT 1, c.team_id, c.opponent_id, NULL, NULL, SUM(c.matches_won), "
        f"SUM(c.matches_tied), SUM(c.matches_lost){padding} FROM {contribution} c "
        f"JOIN {standing} a ON a.team_id = c.team_id "
        f"JOIN {standing} b ON b.team_id = c.opponent_id "
        f"JOIN {team} ta ON ta.id = c.team_id "
        f"JOIN {team} tb ON tb.id = c.opponent_id "
        "WHERE c.club_id = %(club)s AND c.division_id = %(division)s "
        f"AND {points('a')} = {points('b')} GROUP BY c.team_id, c.opponent_id"
    )


def unconfirmed_count(*, club_id: int, division_id: int) -> int:
    """The division's finished, not yet confirmed games that have a team on a side."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            _unconfirmed_sql(),
            {"club": club_id, "division": division_id, "finished": Game.Status.FINISHED.value},
        )
        return cursor.fetchone()[0]


@functools.cache
def _unconfirmed_sql() -> str:
    game, side = Game._meta.db_table, GameSide._meta.db_table
    return (
        f"SELECT COUNT(*) FROM {game} g "
        "WHERE g.club_id = %(club)s AND g.division_id = %(division)s "
        "AND g.status = %(finished)s "
        f"AND EXISTS (SELECT 1 FROM {side} s WHERE s.game_id = g.id AND s.team_id IS NOT NULL)"
    )


def division_now_rows(*, club_id: int, division_id: int, today: datetime.date) -> list[tuple]:
    """Each side of each game in progress in the division (game, side, team name, the three
    scores, deals so far, None), in game and side order, then one row ``(None, ..., night)``
    whose last column says whether a game was played or a fixture is due ``today``."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            _now_sql(),
            {
                "club": club_id,
                "division": division_id,
                "in_progress": Game.Status.IN_PROGRESS.value,
                "today": connection.ops.adapt_datefield_value(today),
            },
        )
        return cursor.fetchall()


@functools.cache
def _now_sql() -> str:
    game, side, team = Game._meta.db_table, GameSide._meta.db_table, Team._meta.db_table
    fixture = Fixture._meta.db_table
    return (
        "SELECT * FROM ("
        "SELECT g.id, s.side, t.name, g.score_a, g.score_b, g.score_c, g.deal_count, "
        "NULL AS night "
        f"FROM {side} s JOIN {game} g ON g.id = s.game_id "
        f"LEFT JOIN {team} t ON t.id = s.team_id "
        "WHERE g.club_id = %(club)s AND g.division_id = %(division)s "
        "AND g.status = %(in_progress)s "
        "UNION ALL "
        "SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
        f"(EXISTS (SELECT 1 FROM {game} p WHERE p.club_id = %(club)s "
        "AND p.division_id = %(division)s AND p.played_on = %(today)s) "
        f"OR EXISTS (SELECT 1 FROM {fixture} f WHERE f.club_id = %(club)s "
        "AND f.division_id = %(division)s AND f.date = %(today)s))"
        ") now ORDER BY 1, 2"
    )


# --- leaderboards (read from the totals) --------------------------------------------------

#: A board row's sums, in this order, as the selector's ``STAT_SUMS`` names them.
BOARD_SUMS = (
    ("games", "games"),
    ("wins", "won"),
    ("ties", "tied"),
    ("losses", "lost"),
    ("deals", "deals"),
    ("points", "points"),
    ("calls", "calls"),
    ("calls_made", "calls_made"),
    ("calls_set", "calls_set"),
    ("melds", "melds"),
    ("meld_deals", "meld_deals"),
    ("best_meld", "best_meld"),
    ("reneges", "reneges"),
)
_SUM_SQL = ", ".join(
    f"{'MAX' if name == 'best_meld' else 'SUM'}(t.{_q(column)}) AS {_q(name)}"
    for name, column in BOARD_SUMS
)
#: The columns naming a board's row.
BOARD_IDENT = {
    PLAYERS: ("player_1_id",),
    PARTNERSHIPS: ("key", "player_1_id", "player_2_id", "player_3_id"),
}
_PLAYER = _q(Player._meta.db_table)
#: The joins and columns giving a board row its names (and a player's rating).
_BOARD_NAMES = {
    PLAYERS: (
        f"JOIN {_PLAYER} p ON p.id = s.player_1_id "
        f"LEFT JOIN {_q(PlayerRating._meta.db_table)} r ON r.player_id = s.player_1_id",
        ("p.name", "p.name_public", "r.mu", "r.sigma"),
    ),
    PARTNERSHIPS: (
        f"JOIN {_PLAYER} p1 ON p1.id = s.player_1_id "
        f"LEFT JOIN {_PLAYER} p2 ON p2.id = s.player_2_id "
        f"LEFT JOIN {_PLAYER} p3 ON p3.id = s.player_3_id",
        ("p1.name", "p1.name_public", "p2.name", "p2.name_public", "p3.name", "p3.name_public"),
    ),
}

#: A board row's win % in tenths, as ``selectors._pct`` rounds it (half to even) for fewer
#: than ``selectors.EXACT_GAMES`` games, from integer columns ``wins`` and ``games`` (no
#: ``%``: the drivers' placeholders): q = 1000 w div g, r its remainder.
_Q = "(1000 * s.wins / s.games)"
_R = f"(1000 * s.wins - {_Q} * s.games)"
_TENTHS = (
    f"CASE WHEN s.games = 0 THEN 0 ELSE {_Q} + CASE WHEN 2 * {_R} > s.games OR "
    f"(2 * {_R} = s.games AND {_Q} - ({_Q} / 2) * 2 = 1) THEN 1 ELSE 0 END END"
)


class BoardRows:
    """One board's rows (``board``: players or partnerships) of a club, of a season or all
    time, summed over the divisions from the totals: ``groups()`` counts them by (win % in
    tenths, games), best first; ``rows(groups)`` reads the rows of those groups (None:
    all), each ``(tenths, *BOARD_IDENT[board], *sums in BOARD_SUMS order, *names)``."""

    def __init__(self, *, board: str, club_id: int, season_id: int | None) -> None:
        self.board = board
        where = f"t.club_id = %s AND t.{_q('board')} = %s"
        self._params: list[Any] = [club_id, board]
        if season_id is not None:
            where += " AND t.season_id = %s"
            self._params.append(season_id)
        idents = ", ".join(f"t.{c}" for c in BOARD_IDENT[board])
        self._sums = (
            f"SELECT {idents}, {_SUM_SQL} FROM {_q(LeaderboardTotal._meta.db_table)} t "
            f"WHERE {where} GROUP BY {idents}"
        )

    def groups(self) -> list[tuple[int, int, int]]:
        """(win % in tenths, games, rows), best first."""
        with read_connection().cursor() as cursor:
            cursor.execute(
                f"SELECT {_TENTHS}, s.games, COUNT(*) FROM ({self._sums}) s "
                "GROUP BY 1, 2 ORDER BY 1 DESC, 2 DESC",
                self._params,
            )
            return [tuple(row) for row in cursor.fetchall()]

    def rows(self, groups: Iterable[tuple[int, int]] | None = None) -> list[tuple]:
        joins, names = _BOARD_NAMES[self.board]
        where = ""
        if groups is not None:
            groups = list(groups)
            if not groups:
                return []
            where = "WHERE " + " OR ".join(
                f"({_TENTHS} = {int(tenths)} AND s.games = {int(games)})"
                for tenths, games in groups
            )
        sql = f"SELECT {_TENTHS}, s.* , {', '.join(names)} FROM ({self._sums}) s {joins} {where}"
        with read_connection().cursor() as cursor:
            cursor.execute(sql, self._params)
            return cursor.fetchall()


# --- a match's games (the write-through and the rebuild) ---------------------------------


def game_parts(*, game_ids: Sequence[int], counted: Sequence[int]) -> list[tuple]:
    """The sides and seats of the games ``game_ids`` and the deals of those of them
    ``counted``, in one statement: ``(0, game, side, team)``, ``(1, game, side, player,
    seat)``, ``(2, game, outcome, maker seat, number, maker, data, result)``, all padded
    to eight columns, in kind, game, then seat or deal number order."""
    if not game_ids:
        return []
    q = connection.ops.quote_name
    branches, params = [], []
    if counted:  # first: its JSON columns give the union's types (a NULL would be text)
        fields = ", ".join(q(name) for name in ("outcome", "maker_seat", "number", "maker"))
        branches.append(
            f"SELECT 2, game_id, {fields}, {q('data')}, {q('result')} "
            f"FROM {q(Deal._meta.db_table)} WHERE game_id IN ({', '.join(['%s'] * len(counted))})"
        )
        params += list(counted)
    ids = ", ".join(["%s"] * len(game_ids))
    branches.append(
        f"SELECT 0, game_id, side, team_id, NULL, NULL, NULL, NULL "
        f"FROM {q(GameSide._meta.db_table)} WHERE game_id IN ({ids})"
    )
    branches.append(
        f"SELECT 1, game_id, side, player_id, seat, NULL, NULL, NULL "
        f"FROM {q(GameSeat._meta.db_table)} WHERE game_id IN ({ids})"
    )
    params += [*game_ids, *game_ids]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(branches) + " ORDER BY 1, 2, 5", params)
        found = cursor.fetchall()
    return [
        (*row[:6], _json(row[6]), _json(row[7])) if row[0] == 2 else tuple(row) for row in found
    ]


def fixture_other_games(*, fixture_id: int, game_id: int) -> list[Game]:
    """The games of fixture ``fixture_id`` but ``game_id``, as they are stored."""
    with connection.cursor() as cursor:
        cursor.execute(_fixture_games_sql(), [fixture_id, game_id])
        return [hand_written.instance(Game, values) for values in cursor.fetchall()]


@functools.cache
def _fixture_games_sql() -> str:
    return (
        f"SELECT {', '.join(hand_written.columns(Game, 'g'))} FROM {Game._meta.db_table} g "
        "WHERE g.fixture_id = %s AND g.id <> %s"
    )


# --- contributions and team standings -----------------------------------------------------


def contributions_locked(*, key: str) -> list[StandingContribution]:
    """The stored contributions of match ``key``, their rows locked, in team order (so two
    writers lock them in one order)."""
    with connection.cursor() as cursor:
        cursor.execute(_contributions_sql(), [key])
        return [hand_written.instance(StandingContribution, v) for v in cursor.fetchall()]


@functools.cache
def _contributions_sql() -> str:
    return (
        f"SELECT {', '.join(hand_written.columns(StandingContribution, 'c'))} "
        f"FROM {StandingContribution._meta.db_table} c WHERE c.match_key = %s "
        f"ORDER BY c.team_id{hand_written.for_update()}"
    )


def contributions_write(changed: list[dict[str, Any]], *, upsert: bool) -> None:
    """INSERT the contribution rows ``changed`` (dicts of ``CONTRIBUTION_COLUMNS``), or with
    ``upsert`` replace the stored row of the same team and match: one statement."""
    if not changed:
        return
    fields = [StandingContribution._meta.get_field(name) for name in CONTRIBUTION_COLUMNS]
    params = [
        field.get_db_prep_save(row[name], connection)
        for row in changed
        for name, field in zip(CONTRIBUTION_COLUMNS, fields, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(_contributions_write_sql(len(changed), upsert), params)


@functools.lru_cache(maxsize=16)
def _contributions_write_sql(count: int, upsert: bool) -> str:
    q = connection.ops.quote_name
    one = "(" + ", ".join(["%s"] * len(CONTRIBUTION_COLUMNS)) + ")"
    sql = (
        f"INSERT INTO {q(StandingContribution._meta.db_table)} "
        f"({', '.join(q(c) for c in CONTRIBUTION_COLUMNS)}) VALUES {', '.join([one] * count)}"
    )
    if upsert:
        changes = ", ".join(f"{q(c)} = excluded.{q(c)}" for c in CONTRIBUTION_FIELDS)
        sql += f" ON CONFLICT ({q('team_id')}, {q('match_key')}) DO UPDATE SET {changes}"
    return sql


def standings_add(deltas: dict[int, dict[str, int]], rows: dict[int, dict[str, Any]]) -> None:
    """Add each team's difference to its standing row, created when missing: one
    ``INSERT ... ON CONFLICT (team) DO UPDATE SET x = x + excluded.x`` (PostgreSQL and
    SQLite), its rows in team order so two writers lock them in one order (no deadlock).
    A new row takes the club and division of ``rows[team]``."""
    if not deltas:
        return
    table = TeamStanding._meta.db_table
    q = connection.ops.quote_name
    names = Counters.COUNTERS
    columns = ["team_id", "club_id", "division_id", "updated_at", *names]
    now = timezone.now()
    params: list[Any] = []
    for team_id in sorted(deltas):
        row = rows[team_id]
        params += [team_id, row["club_id"], row["division_id"], now]
        params += [deltas[team_id].get(name, 0) for name in names]
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    changes = ", ".join(f"{q(n)} = {q(table)}.{q(n)} + excluded.{q(n)}" for n in names)
    sql = (
        f"INSERT INTO {q(table)} ({', '.join(q(c) for c in columns)}) "
        f"VALUES {', '.join([one] * len(deltas))} "
        f"ON CONFLICT ({q('team_id')}) DO UPDATE SET {changes}, "
        f"{q('updated_at')} = excluded.{q('updated_at')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# --- a game's leaderboard lines and the totals ----------------------------------------------


def game_lines(*, game_id: int) -> tuple[list[dict], list[dict]]:
    """The game's stored leaderboard lines, player lines and partnership lines (dicts of
    ``LINE_COLUMNS`` and the model's own): one query."""
    line = ", ".join(_q(c) for c in LINE_COLUMNS)
    sql = (
        f"SELECT 0, {line}, player_id, seat, NULL, NULL, NULL, NULL "
        f"FROM {_q(PlayerGameStat._meta.db_table)} WHERE game_id = %s UNION ALL "
        f"SELECT 1, {line}, NULL, NULL, {_q('key')}, player_1_id, player_2_id, player_3_id "
        f"FROM {_q(PartnershipGameStat._meta.db_table)} WHERE game_id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, game_id])
        found = cursor.fetchall()
    players, sides = [], []
    for kind, *values in found:
        row = dict(zip((*LINE_COLUMNS, *PLAYER_COLUMNS, *PARTNERSHIP_COLUMNS), values, strict=True))
        row["played_on"] = _date(row["played_on"])
        own = PLAYER_COLUMNS if kind == 0 else PARTNERSHIP_COLUMNS
        keep = {c: row[c] for c in (*LINE_COLUMNS, *own)}
        (players if kind == 0 else sides).append(keep)
    return players, sides


def game_lines_write(
    *,
    players: list[dict],
    sides: list[dict],
    club_id: int,
    season_id: int,
    division_id: int,
    totals: list[tuple],
) -> None:
    """INSERT a game's new leaderboard lines and add ``totals`` (rows of ``TOTAL_COLUMNS``
    but club, season and division, in key order) to the division's totals; on PostgreSQL
    as one statement (the inserts in a ``WITH``), elsewhere one by one. The best meld is a
    maximum: the greater of the stored and the added is kept."""
    statements = [
        _line_insert(model, lines)
        for model, lines in ((PlayerGameStat, players), (PartnershipGameStat, sides))
        if lines
    ]
    if totals:
        statements.append(_totals_upsert(club_id, season_id, division_id, totals))
    if not statements:
        return
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            for sql, params in statements:
                cursor.execute(sql, params)
            return
        *first, (last, params) = statements
        if first:  # a WITH runs each of them once, whatever the last one reads
            ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
            last = f"WITH {ctes} {last}"
            params = [p for _, ps in first for p in ps] + params
        cursor.execute(last, params)


def _line_insert(model: type[PlayerGameStat | PartnershipGameStat], lines: list[dict]) -> tuple:
    own = PLAYER_COLUMNS if model is PlayerGameStat else PARTNERSHIP_COLUMNS
    columns = (*LINE_COLUMNS, *own)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {_q(model._meta.db_table)} ({', '.join(_q(c) for c in columns)}) "
        f"VALUES {', '.join([one] * len(lines))}"
    )
    return sql, [line[c] for line in lines for c in columns]


def _totals_upsert(club_id: int, season_id: int, division_id: int, rows: list[tuple]) -> tuple:
    table = _q(LeaderboardTotal._meta.db_table)
    greatest = "GREATEST" if connection.vendor == "postgresql" else "MAX"
    one = "(" + ", ".join(["%s"] * len(TOTAL_COLUMNS)) + ")"
    changes = ", ".join(
        f"{_q(n)} = {table}.{_q(n)} + excluded.{_q(n)}" for n in LeaderboardTotal.SUMS
    )
    best = _q("best_meld")
    sql = (
        f"INSERT INTO {table} ({', '.join(_q(c) for c in TOTAL_COLUMNS)}) "
        f"VALUES {', '.join([one] * len(rows))} "
        f"ON CONFLICT ({_q('division_id')}, {_q('board')}, {_q('key')}) DO UPDATE SET "
        f"{changes}, {best} = {greatest}({table}.{best}, excluded.{best})"
    )
    return sql, [v for row in rows for v in (club_id, season_id, division_id, *row)]


def _where_idents(division_id: int, idents: set[Ident]) -> tuple[str, list]:
    clauses, params = [], [division_id]
    for board in (PLAYERS, PARTNERSHIPS):
        keys = sorted(key for b, key in idents if b == board)
        if keys:
            marks = ", ".join(["%s"] * len(keys))
            clauses.append(f"({_q('board')} = %s AND {_q('key')} IN ({marks}))")
            params += [board, *keys]
    return f"{_q('division_id')} = %s AND ({' OR '.join(clauses)})", params


def totals_settle(*, division_id: int, lowered: set[Ident], shrunk: set[Ident]) -> None:
    """Read the best meld of the ``lowered`` totals again from their lines and delete the
    ``shrunk`` totals that have no game left."""
    table = _q(LeaderboardTotal._meta.db_table)
    with connection.cursor() as cursor:
        if lowered:
            where, params = _where_idents(division_id, lowered)
            player, side = _q(PlayerGameStat._meta.db_table), _q(PartnershipGameStat._meta.db_table)
            best, same = _q("best_meld"), f"s.division_id = {table}.division_id"
            cursor.execute(
                f"UPDATE {table} SET {best} = CASE WHEN {_q('board')} = %s THEN COALESCE(("
                f"SELECT MAX(s.{best}) FROM {player} s WHERE {same} "
                f"AND s.player_id = {table}.player_1_id), 0) ELSE COALESCE(("
                f"SELECT MAX(s.{best}) FROM {side} s WHERE {same} "
                f"AND s.{_q('key')} = {table}.{_q('key')}), 0) END WHERE {where}",
                [PLAYERS, *params],
            )
        if shrunk:
            where, params = _where_idents(division_id, shrunk)
            cursor.execute(f"DELETE FROM {table} WHERE {_q('games')} = 0 AND {where}", params)


def _totals_select(divisions: str) -> str:
    """The totals of the divisions ``divisions`` (an SQL condition on ``division_id``, its
    parameters given twice) added up from the lines, as ``TOTAL_COLUMNS``."""
    sums = ", ".join(f"SUM({_q(n)})" for n in LeaderboardTotal.SUMS[1:])
    player, side = _q(PlayerGameStat._meta.db_table), _q(PartnershipGameStat._meta.db_table)
    key = _q("key")
    return (
        f"SELECT club_id, season_id, division_id, '{PLAYERS}', CAST(player_id AS TEXT), "
        f"player_id, NULL, NULL, COUNT(*), {sums}, MAX(best_meld) FROM {player} "
        f"WHERE {divisions} GROUP BY club_id, season_id, division_id, player_id "
        f"UNION ALL SELECT club_id, season_id, division_id, '{PARTNERSHIPS}', {key}, "
        f"player_1_id, player_2_id, player_3_id, COUNT(*), {sums}, MAX(best_meld) FROM {side} "
        f"WHERE {divisions} GROUP BY club_id, season_id, division_id, {key}, player_1_id, "
        "player_2_id, player_3_id"
    )


def totals_insert_summed(*, division_ids: Sequence[int]) -> None:
    """INSERT the totals of these divisions added up from their lines (the divisions have
    none stored: the caller deleted them)."""
    if not division_ids:
        return
    ids = list(division_ids)
    divisions = f"division_id IN ({', '.join(['%s'] * len(ids))})"
    columns = ", ".join(_q(c) for c in TOTAL_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_q(LeaderboardTotal._meta.db_table)} ({columns}) "
            + _totals_select(divisions),
            [*ids, *ids],
        )
