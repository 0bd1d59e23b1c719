"""``backup/store.py``: the export's read-only snapshot and the import's sequence reset,
against what the ORM sees, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.db.models import Max
from hypothesis import given
from hypothesis import strategies as st

from clabber_league.backup import store
from clabber_league.core import store as kernel
from clabber_league.leagues.models import Venue
from tests.factories import ClubFactory
from tests.parity import PARITY, rolled_back


@pytest.mark.django_db
@PARITY
@given(ids=st.sets(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=5))
def test_after_the_reset_the_orm_s_next_id_comes_after_every_row_written_with_its_own(ids):
    with rolled_back():
        club = ClubFactory()
        Venue.objects.bulk_create(Venue(pk=pk, club=club, name=f"Hall {pk}") for pk in ids)
        store.sequences_reset([Venue])
        highest = Venue.objects.aggregate(top=Max("pk"))["top"]
        assert Venue.objects.create(club=club, name="New hall").pk > highest


@pytest.mark.django_db(transaction=True)
def test_the_export_s_snapshot_reads_what_the_orm_reads_and_writes_nothing():
    club = ClubFactory()
    Venue.objects.create(club=club, name="The Crown")
    with transaction.atomic():
        store.snapshot_read_only()  # the transaction's first statement, as the export's
        assert list(Venue.objects.values_list("name", flat=True)) == ["The Crown"]
        if kernel.is_postgresql():
            with pytest.raises(DatabaseError), transaction.atomic():
                Venue.objects.create(club=club, name="The Bell")
    assert Venue.objects.count() == 1
