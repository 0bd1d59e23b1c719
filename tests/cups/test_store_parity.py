"""``cups/store.py``'s ``write_rows`` (COPY on PostgreSQL) leaves the rows ``bulk_create``
leaves, on entrants hypothesis makes up, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clabber_league.cups import store
from clabber_league.cups.models import Cup, Entrant
from tests.factories import PlayerFactory
from tests.parity import PARITY, after, names, rolled_back

pytestmark = pytest.mark.django_db

COLUMNS = ("cup_id", "seed", "team_id", "player_id", "name", "note", "note_data")


@PARITY
@given(
    entrants=st.lists(
        st.tuples(names, st.text("abc \t\\\n'é", max_size=12)), max_size=8, unique_by=lambda e: e[0]
    )
)
def test_write_rows_writes_what_bulk_create_writes(db, entrants):
    with rolled_back():
        _compare(entrants)


def _compare(entrants) -> None:
    player = PlayerFactory()
    cup = Cup.objects.create(
        club=player.club, name="Knockout", entrant_kind=Cup.Kind.PLAYERS, rules="clabber"
    )
    players = [PlayerFactory(club=player.club) for _ in entrants]
    rows = [
        # The note's stored sentence (a JSON column) goes through COPY as jsonb.
        (cup.pk, seed, None, p.pk, name, note, [{"template": "{x} é", "params": {"x": note}}])
        for seed, (p, (name, note)) in enumerate(zip(players, entrants, strict=True), start=1)
    ]

    def by_store() -> None:
        assert store.write_rows(Entrant, COLUMNS, iter(rows)) == len(rows)

    def by_orm() -> None:
        Entrant.objects.bulk_create(Entrant(**dict(zip(COLUMNS, row, strict=True))) for row in rows)

    assert after(by_store, Entrant) == after(by_orm, Entrant)
