"""Set up Django for a benchmark on a database of its own (created and migrated here).

``BENCH_DATABASE_URL`` names it; the default is a PostgreSQL database on this machine.
The benchmark's tables are dropped and made again on every run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/{name}"


def setup(name: str, *, keep: bool = False) -> str:
    """Point Django at a fresh ``name`` database (``keep``: the one there is), migrate it,
    return its URL."""
    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL.format(name=name)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.test")
    sys.path.insert(0, str(ROOT))
    if url.startswith(("postgres://", "postgresql://")) and not keep:
        _recreate_postgres(url)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    return url


def _recreate_postgres(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    db = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{db}"')


def settled_backend() -> int:
    """``VACUUM ANALYZE`` the bench database, as autovacuum would leave a club played for a
    while, and return this connection's PostgreSQL backend pid (to read its CPU time):
    ``core.store.database_settle``."""
    from clabber_league.core.store import database_settle

    return database_settle()
