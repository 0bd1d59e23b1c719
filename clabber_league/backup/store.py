"""The backups' statements the ORM has no word for: a read-only snapshot to export from,
and the id sequences moved past the rows an import wrote with their own ids."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.management.color import no_style
from django.db import connection, models

from clabber_league.core import store as kernel


def snapshot_read_only() -> None:
    """Make the transaction just opened read one consistent snapshot, read-only (REPEATABLE
    READ must be its first statement). PostgreSQL only: SQLite's one writer is as good."""
    if kernel.is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")


def sequences_reset(models_: Iterable[type[models.Model]]) -> None:
    """After rows were inserted with their own ids, the next id the database hands out
    must come after them (PostgreSQL's sequences; SQLite's AUTOINCREMENT does it itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), list(models_))
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
