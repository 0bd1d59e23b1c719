"""``scheduling/store.py`` against the ORM it replaces, on fixtures, games and schedules
hypothesis makes up, on SQLite and on PostgreSQL: the locked fixture with its season's
points, a fixture's games with their teams, the COPY of a schedule (``bulk_create``
elsewhere), and a run's progress."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from clabber_league.core import store as kernel
from clabber_league.games.models import Game, GameSide
from clabber_league.leagues.models import Venue
from clabber_league.scheduling import store
from clabber_league.scheduling.models import Fixture, ScheduleRun
from clabber_league.scheduling.planning import Meeting, Placement
from tests.factories import DivisionFactory, SeasonFactory, TeamFactory
from tests.parity import PARITY, after, dates, fields_of, rolled_back, small

pytestmark = pytest.mark.django_db

STATUSES = st.sampled_from([s.value for s in Fixture.Status])
GAME_STATUSES = st.sampled_from([s.value for s in Game.Status])


@pytest.fixture
def league(db):
    season = SeasonFactory(points_win=3, points_tie=1, points_loss=0)
    division = DivisionFactory(season=season)
    teams = [TeamFactory(division=division, members=0) for _ in range(4)]
    venue = Venue.objects.create(club=division.club, name="The Crown", tables=4)
    return division, teams, venue


fixtures = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.integers(1, 3),
        STATUSES,
        st.none() | dates,
        st.booleans(),
        st.none() | st.integers(1, 4),
        small,
    ),
    min_size=1,
    max_size=4,
)


def _fixtures(division, teams, venue, specs) -> list[Fixture]:
    made = []
    for home, shift, status, date, at_venue, table, round_number in specs:
        made.append(
            Fixture.objects.create(
                club_id=division.club_id,
                division=division,
                round_number=round_number + 1,
                home=teams[home],
                away=teams[(home + shift) % 4],
                status=status,
                date=date,
                venue=venue if at_venue else None,
                table=table,
                games_planned=1 + round_number % 3,
                forfeit_winner=teams[home] if status == Fixture.Status.FORFEIT else None,
            )
        )
    return made


@PARITY
@given(specs=fixtures, points=st.tuples(small, small, small))
def test_fixture_locked_with_points_is_the_orm_s(league, specs, points):
    division, teams, venue = league
    with rolled_back():
        season = division.season
        season.points_win, season.points_tie, season.points_loss = points
        season.save()
        for fixture in _fixtures(division, teams, venue, specs):
            found = store.fixture_locked_with_points(fixture_id=fixture.pk)
            wanted = Fixture.objects.select_related("division__season").get(pk=fixture.pk)
            got, *got_points = found
            assert fields_of(got) == fields_of(wanted)
            s = wanted.division.season
            assert got_points == [s.points_win, s.points_tie, s.points_loss]
        assert store.fixture_locked_with_points(fixture_id=10**9) is None


@PARITY
@given(
    specs=fixtures,
    games=st.lists(
        st.tuples(
            st.integers(0, 3),
            GAME_STATUSES,
            st.sampled_from(["", "A", "B", "tie"]),
            st.none() | dates,
            st.lists(st.none() | st.integers(0, 3), max_size=2),
        ),
        max_size=6,
    ),
)
def test_fixture_game_rows_are_the_orm_s_games_with_their_teams(league, specs, games):
    division, teams, venue = league
    with rolled_back():
        made = _fixtures(division, teams, venue, specs)
        for which, status, winner, played_on, sides in games:
            game = Game.objects.create(
                club_id=division.club_id,
                division=division,
                fixture=made[which % len(made)],
                rules="clabber",
                status=status,
                winner=winner,
                played_on=played_on,
            )
            for side, team in zip("AB", sides, strict=False):
                GameSide.objects.create(
                    game=game, side=side, team=teams[team] if team is not None else None
                )
        for fixture in made:
            wanted = []
            for game in Game.objects.filter(fixture=fixture).order_by("pk"):
                base = (game.pk, game.fixture_id, game.status, game.winner, game.played_on)
                sides = game.sides.filter(team__isnull=False).order_by("side")
                wanted += [(*base, s.side, s.team_id) for s in sides] or [(*base, None, None)]
            assert [tuple(r) for r in store.fixture_game_rows(fixture_id=fixture.pk)] == wanted


@PARITY
@given(
    placements=st.lists(
        st.tuples(
            st.integers(1, 9),
            st.integers(0, 3),
            st.integers(1, 3),
            dates,
            st.booleans(),
            st.integers(1, 4),
        ),
        max_size=8,
    ),
    planned=st.integers(1, 3),
)
def test_write_fixtures_writes_what_bulk_create_writes(league, placements, planned):
    division, teams, venue = league
    made = [
        Placement(
            meeting=Meeting(round=r, home=teams[h].pk, away=teams[(h + s) % 4].pk),
            date=date,
            venue=venue.pk if at_venue else None,
            table=table,
        )
        for r, h, s, date, at_venue, table in placements
    ]
    batches = []

    def by_store() -> None:
        count = store.write_fixtures(
            iter(made),
            club_id=division.club_id,
            division_id=division.pk,
            games_planned=planned,
            on_batch=batches.append,
        )
        assert count == len(made)

    def by_orm() -> None:
        Fixture.objects.bulk_create(
            Fixture(
                club_id=division.club_id,
                division_id=division.pk,
                round_number=p.meeting.round,
                home_id=p.meeting.home,
                away_id=p.meeting.away,
                date=p.date,
                venue_id=p.venue,
                table=p.table,
                games_planned=planned,
            )
            for p in made
        )

    assert after(by_store, Fixture) == after(by_orm, Fixture)
    assert batches[-1] == len(made)


@pytest.mark.django_db(transaction=True)
def test_progress_writer_writes_what_the_orm_update_writes(league):
    """On PostgreSQL the progress goes on a connection of its own, committed at once (so
    this test commits its rows); on SQLite through the ORM, outside a transaction only."""
    division, _, _ = league
    run = ScheduleRun.objects.create(
        club_id=division.club_id, division=division, state=ScheduleRun.State.RUNNING
    )
    at = dt.datetime(2027, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    data = {
        "parts": [
            {
                "template": "Writing fixtures: {written} of {total}.",
                "params": {"written": {"number": 1200}, "total": {"number": 4000}},
            }
        ]
    }
    writer = store.ProgressWriter(run.pk)
    try:
        writer.write(percent=42, message="Planning the rounds." * 20, at=at, data=data)
    finally:
        writer.close()
    run.refresh_from_db()
    message = "Planning the rounds." * 20
    assert (run.progress, run.heartbeat_at) == (42, at)
    assert run.message == message[:300]
    assert run.message_data == data  # the JSON column, as the ORM reads it back
    with transaction.atomic():  # a finished run is not written (PostgreSQL), nor mid-transaction
        ScheduleRun.objects.filter(pk=run.pk).update(state=ScheduleRun.State.DONE)
        if not kernel.is_postgresql():
            writer = store.ProgressWriter(run.pk)
            writer.write(percent=50, message="x", at=at)
            writer.close()
    if kernel.is_postgresql():
        writer = store.ProgressWriter(run.pk)
        writer.write(percent=50, message="x", at=at)
        writer.close()
    run.refresh_from_db()
    assert run.progress == 42
