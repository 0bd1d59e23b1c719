"""Writing many fixtures fast, inside the caller's transaction.

On PostgreSQL the rows stream through ``COPY ... FROM STDIN`` on the same connection
(a million fixtures in seconds, in constant memory); elsewhere through ``bulk_create``
in batches. Either way nothing is committed here: the caller's transaction makes the
schedule all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import connection

from .models import Fixture
from .planning import Placement

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
    if connection.vendor == "postgresql":
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
            lines.append(
                f"{fixed}{m.round}\t{m.home}\t{m.away}\t{p.date.isoformat()}\t{venue}\t{p.table}"
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
