"""The leaderboards' totals (``LeaderboardTotal``, a row per division and player or
partnership): kept by the write-through, recomputed by a rebuild or an import, checked
against the game lines.

A game's leaderboard lines (``PlayerGameStat``, ``PartnershipGameStat``) change only in
``write_through._store_stats``, which hands this module the lines before and after; the
difference goes to the totals with one ``INSERT ... ON CONFLICT DO UPDATE SET x = x +
excluded.x`` (rows in key order, so two tables finishing at once lock them in one order),
as ``_apply_deltas`` does for the team standings. The best meld is a maximum, not a sum:
the upsert keeps the greater of the two, and when a line's best meld went down or a line
went away, those rows' best meld is read again from their lines (a correction, an
abandoned or reopened game: never a deal at the table). Rows left with no line are
deleted. On PostgreSQL a finishing game's lines and their totals are one statement.

Everything else that writes the lines in bulk (``standings_rebuild``, a player merge
through it, a backup import) recomputes the totals of the divisions it touched
(``totals_rebuild``); ``totals_differences`` is the check (``manage.py standings_check``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection

from ..models import GameStat, LeaderboardTotal, PartnershipGameStat, PlayerGameStat

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

Ident = tuple[str, str]  # (board, key)


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def line_insert(model: type[PlayerGameStat | PartnershipGameStat], lines: list[dict]) -> tuple:
    """``INSERT`` of game lines (dicts of ``LINE_COLUMNS`` and the model's own): SQL and
    parameters, to run alone or inside a ``WITH``."""
    own = PLAYER_COLUMNS if model is PlayerGameStat else PARTNERSHIP_COLUMNS
    columns = (*LINE_COLUMNS, *own)
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (
        f"INSERT INTO {_q(model._meta.db_table)} ({', '.join(_q(c) for c in columns)}) "
        f"VALUES {', '.join([one] * len(lines))}"
    )
    return sql, [line[c] for line in lines for c in columns]


def _ident(line: dict[str, Any], board: str) -> tuple[Ident, tuple]:
    if board == PLAYERS:
        return (board, str(line["player_id"])), (line["player_id"], None, None)
    players = (line["player_1_id"], line["player_2_id"], line["player_3_id"])
    return (board, line["key"]), players


def _by_ident(players: Iterable[dict], sides: Iterable[dict]) -> dict[Ident, tuple[tuple, dict]]:
    out = {}
    for board, lines in ((PLAYERS, players), (PARTNERSHIPS, sides)):
        for line in lines:
            ident, who = _ident(line, board)
            out[ident] = (who, line)
    return out


def totals_deltas(
    *, old: tuple[list[dict], list[dict]], new: tuple[list[dict], list[dict]]
) -> tuple[list[tuple], set[Ident], set[Ident]]:
    """What one game's lines changing from ``old`` to ``new`` (player lines, partnership
    lines) does to the totals: the rows to add (``TOTAL_COLUMNS`` but club, season, division,
    in key order), the rows whose best meld must be read again, and the rows that lost a
    line (deleted if they have none left)."""
    before, after = _by_ident(*old), _by_ident(*new)
    rows, lowered, shrunk = [], set(), set()
    for ident in sorted(set(before) | set(after)):
        old_line = before.get(ident, (None, None))[1]
        who, new_line = after.get(ident) or before[ident]
        if new_line is old_line:  # only in ``before``: the line went away
            new_line = None
        add = [
            (1 if new_line else 0) - (1 if old_line else 0),
            *(
                (new_line[n] if new_line else 0) - (old_line[n] if old_line else 0)
                for n in LeaderboardTotal.SUMS[1:]
            ),
        ]
        best = new_line["best_meld"] if new_line else 0
        best_before = old_line["best_meld"] if old_line else 0
        if best_before > best:
            lowered.add(ident)
        if old_line and not new_line:
            shrunk.add(ident)
        if any(add) or best > best_before:
            rows.append((*ident, *who, *add, best))
    return rows, lowered, shrunk


def totals_upsert(
    *, club_id: int, season_id: int, division_id: int, rows: list[tuple]
) -> tuple[str, list]:
    """The upsert adding ``rows`` (from :func:`totals_deltas`) to the division's totals: SQL
    and parameters, to run alone or after a ``WITH``."""
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
    """After the upsert: read the best meld of ``lowered`` rows again from their lines and
    delete the ``shrunk`` rows that have no line left."""
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


def totals_rebuild(*, division_ids: Iterable[int]) -> None:
    """Throw the totals of these divisions away and add them up again from the lines."""
    ids = sorted(set(division_ids))
    if not ids:
        return
    LeaderboardTotal.objects.filter(division_id__in=ids).delete()
    divisions = f"division_id IN ({', '.join(['%s'] * len(ids))})"
    columns = ", ".join(_q(c) for c in TOTAL_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_q(LeaderboardTotal._meta.db_table)} ({columns}) "
            + _totals_select(divisions),
            [*ids, *ids],
        )


def totals_differences(*, division_ids: list[int] | None = None) -> list[str]:
    """Where the stored totals differ from their sums over the lines (empty: they agree)."""
    divisions, params = "1 = 1", []
    stored_rows = LeaderboardTotal.objects.all()
    if division_ids is not None:
        if not division_ids:
            return []
        divisions = f"division_id IN ({', '.join(['%s'] * len(division_ids))})"
        params = list(division_ids)
        stored_rows = stored_rows.filter(division_id__in=division_ids)
    with connection.cursor() as cursor:
        cursor.execute(_totals_select(divisions), params * 2)
        wanted = {(r[2], r[3], r[4]): tuple(r) for r in cursor.fetchall()}
    stored = {
        r[:3]: r[3:]
        for r in stored_rows.values_list("division_id", "board", "key", *TOTAL_COLUMNS).order_by()
    }
    out = []
    for key in sorted(set(stored) | set(wanted), key=str):
        have, want = stored.get(key), wanted.get(key)
        if have != want:
            out.append(f"leaderboard total {key}: stored {have}, recomputed {want}")
    return out
