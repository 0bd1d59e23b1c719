"""The kernel's database access, for the few things every app needs from the connection
itself rather than from a model: which database this is, whether a transaction is open, a
second connection of one's own, the replica's connection for a hand-written read, and the
planner's statistics gathered at once (for a benchmark's freshly loaded rows).

Everything else that needs the connection lives in the store module of its aggregate
(``<app>/store.py``); ``ruff``'s banned-API rule (TID251, ``pyproject.toml``) keeps
``django.db.connection`` and ``connections`` out of every other module.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections

from .dbrouter import read_alias


def database_ping() -> str:
    """One round trip to the default database (``SELECT 1``), for the health check; its
    vendor's name. Raises the driver's error when the database does not answer."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return connection.vendor


def is_postgresql() -> bool:
    """Whether the default database is PostgreSQL (row locks, COPY, concurrent writers);
    else it is SQLite, which serialises writers itself."""
    return connection.vendor == "postgresql"


def in_transaction() -> bool:
    """Whether the default connection is inside ``transaction.atomic``."""
    return connection.in_atomic_block


def read_connection() -> Any:
    """The connection for a hand-written read statement of a store (``with
    read_connection().cursor()``): the replica where ``core.dbrouter`` sends this moment's
    reads, else the primary."""
    return connections[read_alias()]


def connection_of_its_own(alias: str) -> Any:
    """A new connection to the default database, apart from this thread's (``alias`` names
    it in errors): what it writes commits at once, whatever transaction this thread has
    open. The caller closes it."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    return type(wrapper)(copy.deepcopy(wrapper.settings_dict), alias=alias)


def close_thread_connection() -> None:
    """Close this thread's connection (a thread of one's own ends with it)."""
    connection.close()


def database_settle() -> int | None:
    """Gather the planner's statistics now, as a database in use for a while has them from
    autovacuum (``VACUUM ANALYZE`` on PostgreSQL, outside a transaction; ``ANALYZE`` on
    SQLite): a benchmark times its reads on rows it has just bulk-loaded. Returns this
    connection's PostgreSQL backend pid (None on SQLite), whose CPU time the benchmark
    reads from ``/proc``."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if is_postgresql() else "ANALYZE")
    return connection.connection.info.backend_pid if is_postgresql() else None
