"""The leaderboards' totals (``LeaderboardTotal``, a row per division and player or
partnership): kept by the write-through, recomputed by a rebuild or an import, checked
against the game lines.

A game's leaderboard lines (``PlayerGameStat``, ``PartnershipGameStat``) change only in
``write_through._store_stats``, which hands this module the lines before and after; the
difference (:func:`totals_deltas`) goes to the totals with one ``INSERT ... ON CONFLICT DO
UPDATE SET x = x + excluded.x`` (``store.game_lines_write``; rows in key order, so two
tables finishing at once lock them in one order), as ``store.standings_add`` does for the
team standings. The best meld is a maximum, not a sum:
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

from .. import reference, store
from ..models import LeaderboardTotal

PLAYERS, PARTNERSHIPS = store.PLAYERS, store.PARTNERSHIPS
TOTAL_COLUMNS = store.TOTAL_COLUMNS

Ident = store.Ident


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


def totals_rebuild(*, division_ids: Iterable[int]) -> None:
    """Throw the totals of these divisions away and add them up again from the lines."""
    ids = sorted(set(division_ids))
    if not ids:
        return
    LeaderboardTotal.objects.filter(division_id__in=ids).delete()
    store.totals_insert_summed(division_ids=ids)


def totals_differences(*, division_ids: list[int] | None = None) -> list[str]:
    """Where the stored totals differ from their sums over the lines (empty: they agree),
    the sums computed by the ORM (``reference.totals_summed``)."""
    stored_rows = LeaderboardTotal.objects.all()
    if division_ids is not None:
        if not division_ids:
            return []
        stored_rows = stored_rows.filter(division_id__in=division_ids)
    # The ORM's sums (``reference``), not the store's: the check must not share its SQL.
    wanted = {(r[2], r[3], r[4]): r for r in reference.totals_summed(division_ids=division_ids)}
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
