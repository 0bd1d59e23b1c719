"""The schedule's hand-written SQL, in one place: what the ORM does not say, or says at a
cost on a hot path.

- ``fixture_locked_with_points`` and ``fixture_game_rows`` run on every deal that finishes
  a fixture's game (written once, ``core.rows``: built by the ORM they cost more CPU than
  their round trip);
- ``write_fixtures`` inserts a generated schedule: on PostgreSQL the rows stream through
  ``COPY ... FROM STDIN`` on the same connection (a million fixtures in seconds, in
  constant memory); elsewhere through ``bulk_create`` in batches. Nothing is committed
  here: the caller's transaction makes the schedule all or nothing;
- ``ProgressWriter`` writes a schedule run's progress on a connection of its own, so it is
  seen at once while the generating transaction is still open.

Each returns model instances or plain rows; ``tests/scheduling/test_store_parity.py``
holds each to the ORM's answer on SQLite and PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection

from clabber_league.core import rows
from clabber_league.core import store as kernel
from clabber_league.leagues.models import Division, Season

from .models import Fixture, ScheduleRun
from .planning import Placement

# --- a fixture and its games (every deal that finishes a fixture's game) -----------------


def fixture_locked_with_points(*, fixture_id: int) -> tuple[Fixture, int, int, int] | None:
    """The fixture, its row locked, and its season's points for a win, a tie and a loss;
    None when there is no such fixture."""
    with connection.cursor() as cursor:
        cursor.execute(_locked_with_points_sql(), [fixture_id])
        row = cursor.fetchone()
    if row is None:
        return None
    *values, win, tie, loss = row
    return rows.instance(Fixture, values), win, tie, loss


@functools.cache
def _locked_with_points_sql() -> str:
    return (
        f"SELECT {', '.join(rows.columns(Fixture, 'f'))}, s.points_win, s.points_tie, "
        f"s.points_loss FROM {Fixture._meta.db_table} f "
        f"JOIN {Division._meta.db_table} d ON d.id = f.division_id "
        f"JOIN {Season._meta.db_table} s ON s.id = d.season_id "
        f"WHERE f.id = %s{rows.for_update('f')}"
    )


def fixture_game_rows(*, fixture_id: int) -> list[tuple]:
    """The games started for the fixture, each joined to its sides that have a team:
    ``(game id, fixture id, status, winner, played on, side, team id)`` (side and team None
    for a game with no such side), in game then side order."""
    with connection.cursor() as cursor:
        cursor.execute(_fixture_games_sql(), [fixture_id])
        found = cursor.fetchall()
    return [(*row[:4], _date(row[4]), *row[5:]) for row in found]


def _date(value: Any) -> Any:
    """SQLite hands a raw SELECT's date as text."""
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


@functools.cache
def _fixture_games_sql() -> str:
    # The games app sits above this one: its tables are reached through the relations.
    game = Fixture._meta.get_field("games").related_model
    side = game._meta.get_field("sides").related_model
    q = connection.ops.quote_name
    return (
        "SELECT g.id, g.fixture_id, g.status, g.winner, g.played_on, s.side, s.team_id "
        f"FROM {q(game._meta.db_table)} g LEFT JOIN {q(side._meta.db_table)} s "
        "ON s.game_id = g.id AND s.team_id IS NOT NULL "
        "WHERE g.fixture_id = %s ORDER BY g.id, s.side"
    )


# --- a schedule run's progress -------------------------------------------------------------


class ProgressWriter:
    """Writes a running schedule run's progress on a connection of its own (PostgreSQL),
    committed at once whatever transaction the generation holds open. Without one (SQLite,
    one writer) it writes on this thread's connection, and only outside a transaction."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.side = (
            kernel.connection_of_its_own("scheduling-progress") if kernel.is_postgresql() else None
        )

    def write(
        self, *, percent: int, message: str, at: dt.datetime, data: dict | None = None
    ) -> None:
        """``message`` is the English text (the API's); ``data`` the same sentence's
        template and values (``ScheduleRun.message_data``), for pages in other languages."""
        data = data or {}
        if self.side is None:
            if not kernel.in_transaction():
                ScheduleRun.objects.filter(pk=self.run_id).update(
                    progress=percent, message=message[:300], message_data=data, heartbeat_at=at
                )
            return
        table = ScheduleRun._meta.db_table
        with self.side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET progress = %s, message = %s, message_data = %s::jsonb, "
                "heartbeat_at = %s WHERE id = %s AND state = %s",
                [
                    percent,
                    message[:300],
                    json.dumps(data),
                    at,
                    self.run_id,
                    ScheduleRun.State.RUNNING,
                ],
            )

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


# --- writing a schedule ---------------------------------------------------------------------

#: Rows per COPY chunk / bulk_create batch; progress is reported once per batch.
BATCH = 20_000
COLUMNS = (
    "club",
    "division",
    "round_number",
    "home",
    "away",
    "date",
    "venue",
    "table",
    "games_planned",
    "status",
    "note",
)


def write_fixtures(
    placements: Iterable[Placement],
    *,
    club_id: int,
    division_id: int,
    games_planned: int,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Insert one fixture per placement; returns how many. Must run inside a transaction."""
    if kernel.is_postgresql():
        return _copy(placements, club_id, division_id, games_planned, on_batch)
    return _bulk_create(placements, club_id, division_id, games_planned, on_batch)


def _copy(
    placements: Iterable[Placement],
    club_id: int,
    division_id: int,
    games_planned: int,
    on_batch: Callable[[int], None] | None,
) -> int:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Fixture._meta.get_field(name).column) for name in COLUMNS)
    sql = f"COPY {quote(Fixture._meta.db_table)} ({columns}) FROM STDIN"
    fixed = f"{club_id}\t{division_id}\t"
    tail = f"\t{games_planned}\t{Fixture.Status.SCHEDULED}\t\n"
    written = 0
    lines: list[str] = []
    connection.ensure_connection()
    with connection.connection.cursor() as cursor, cursor.copy(sql) as copy:
        for p in placements:
            m = p.meeting
            venue = r"\N" if p.venue is None else p.venue
            table = r"\N" if p.table is None else p.table
            lines.append(
                f"{fixed}{m.round}\t{m.home}\t{m.away}\t{p.date.isoformat()}\t{venue}\t{table}"
                + tail
            )
            if len(lines) >= BATCH:
                copy.write("".join(lines))
                written += len(lines)
                lines.clear()
                if on_batch:
                    on_batch(written)
        if lines:
            copy.write("".join(lines))
            written += len(lines)
    if on_batch:
        on_batch(written)
    return written


def _bulk_create(
    placements: Iterable[Placement],
    club_id: int,
    division_id: int,
    games_planned: int,
    on_batch: Callable[[int], None] | None,
) -> int:
    written = 0
    batch: list[Fixture] = []
    for p in placements:
        batch.append(
            Fixture(
                club_id=club_id,
                division_id=division_id,
                round_number=p.meeting.round,
                home_id=p.meeting.home,
                away_id=p.meeting.away,
                date=p.date,
                venue_id=p.venue,
                table=p.table,
                games_planned=games_planned,
            )
        )
        if len(batch) >= BATCH:
            Fixture.objects.bulk_create(batch)
            written += len(batch)
            batch.clear()
            if on_batch:
                on_batch(written)
    if batch:
        Fixture.objects.bulk_create(batch)
        written += len(batch)
    if on_batch:
        on_batch(written)
    return written
