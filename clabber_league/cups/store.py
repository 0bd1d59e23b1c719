"""The cups' hand-written SQL: writing a cup's many rows (its entrants, its bracket's ties)
fast, inside the caller's transaction.

On PostgreSQL the rows stream through ``COPY ... FROM STDIN`` on the same connection
(as ``scheduling.store`` writes fixtures): no model instances are made and every row goes
in one statement. Elsewhere they go through ``bulk_create`` in batches. Nothing is
committed here, and no ids come back: the caller reads the rows again if it needs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models

from clabber_league.core import store as kernel

#: Rows per ``bulk_create`` batch off PostgreSQL (within SQLite's 32,766 parameters).
BATCH = 1500


def write_rows(
    model: type[models.Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (values in the order of ``columns``, attribute names such as
    ``cup_id``) into ``model``'s table; returns how many. The columns left out must be
    nullable. Must run inside a transaction."""
    if not kernel.is_postgresql():
        made = model.objects.bulk_create(
            (model(**dict(zip(columns, row, strict=True))) for row in rows), batch_size=BATCH
        )
        return len(made)
    from psycopg.types.json import Jsonb

    meta = model._meta
    quote = connection.ops.quote_name
    fields = [_field(meta, name) for name in columns]
    names = ", ".join(quote(field.column) for field in fields)
    sql = f"COPY {quote(meta.db_table)} ({names}) FROM STDIN"
    # A JSON column's value (a stored sentence's template and values) goes as jsonb.
    json_at = [i for i, field in enumerate(fields) if isinstance(field, models.JSONField)]
    written = 0
    connection.ensure_connection()
    with connection.connection.cursor() as cursor, cursor.copy(sql) as copy:
        for row in rows:
            if json_at:
                row = list(row)
                for i in json_at:
                    row[i] = Jsonb(row[i])
            copy.write_row(row)
            written += 1
    return written


def _field(meta: Any, name: str) -> models.Field:
    """A field by its attribute name (``cup_id``) or its name (``cup``)."""
    for field in meta.concrete_fields:
        if name in (field.attname, field.name):
            return field
    raise LookupError(name)
