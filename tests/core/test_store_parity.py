"""``core/store.py``, the kernel's connection questions, against Django's own answers, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

from clabber_league.core import store
from clabber_league.leagues.models import Venue
from tests.factories import ClubFactory


def test_the_vendor_and_the_transaction_are_django_s(db):
    assert store.is_postgresql() == (connection.vendor == "postgresql")
    assert store.in_transaction() == connection.in_atomic_block
    with transaction.atomic():
        assert store.in_transaction()


def test_the_ping_answers_as_the_orm_s_query_does(db):
    """The health check's round trip names the vendor Django names, and a row the ORM
    wrote is there for the same connection to read."""
    venue = Venue.objects.create(club=ClubFactory(), name="Hall")
    assert store.database_ping() == connection.vendor
    assert Venue.objects.filter(pk=venue.pk).exists()


def test_hand_written_reads_go_to_the_primary_without_a_replica(db):
    assert store.read_connection() is connections[DEFAULT_DB_ALIAS]


@pytest.mark.django_db(transaction=True)
def test_a_connection_of_its_own_sees_committed_rows_only():
    """What the ORM committed, it reads; what this thread's open transaction wrote, it does
    not (PostgreSQL: SQLite's one writer is why the stores ask before using one)."""
    if not store.is_postgresql():
        pytest.skip("a second connection matters on PostgreSQL")
    club = ClubFactory()
    Venue.objects.create(club=club, name="The Crown")
    own = store.connection_of_its_own("parity")
    try:
        with transaction.atomic():
            Venue.objects.create(club=club, name="Not yet")
            with own.cursor() as cursor:
                cursor.execute(f"SELECT name FROM {Venue._meta.db_table} ORDER BY name")
                assert [r[0] for r in cursor.fetchall()] == ["The Crown"]
    finally:
        own.close()


@pytest.mark.django_db(transaction=True)
def test_settling_gathers_the_statistics_of_the_rows_the_orm_wrote():
    """After ``database_settle`` the planner counts the rows the ORM has just written, and
    the backend pid is the one this connection's own query names (PostgreSQL)."""
    club = ClubFactory()
    Venue.objects.bulk_create([Venue(club=club, name=f"Hall {i}") for i in range(40)])
    pid = store.database_settle()
    with connection.cursor() as cursor:
        if store.is_postgresql():
            cursor.execute(
                "SELECT reltuples FROM pg_class WHERE relname = %s", [Venue._meta.db_table]
            )
            assert cursor.fetchone()[0] == Venue.objects.count() == 40
            cursor.execute("SELECT pg_backend_pid()")
            assert pid == cursor.fetchone()[0]
        else:
            cursor.execute("SELECT stat FROM sqlite_stat1 WHERE tbl = %s", [Venue._meta.db_table])
            assert any(row[0].startswith("40") for row in cursor.fetchall())
            assert pid is None
