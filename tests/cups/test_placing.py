"""A knockout round on league nights and tables, with the league's clash checks."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.cups.services import placing, setup
from clabber_league.leagues.models import Venue
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.generation import schedule_config_save

pytestmark = pytest.mark.django_db

MONDAY = dt.date(2027, 1, 4)


@pytest.fixture
def nights(club, league):
    division, teams = league
    hall = Venue.objects.create(club=club, name="Hall", tables=2)
    schedule_config_save(division=division, weekday=0, start_date=MONDAY, venues=[hall])
    # Aces play a league fixture at table 1 on the first Monday.
    Fixture.objects.create(
        club=club,
        division=division,
        round_number=9,
        home=teams[0],
        away=teams[5],
        date=MONDAY,
        venue=hall,
        table=1,
    )
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    return cup, division, hall


def test_a_round_goes_on_league_nights_around_the_leagues_fixtures(nights):
    cup, division, hall = nights
    ties = placing.round_place(cup=cup, round=1, division=division, start=MONDAY)
    where = {t.key: (t.date, t.venue_id, t.table) for t in ties}
    aces_tie = next(t for t in ties if t.home.name == "Aces" or t.away.name == "Aces")
    other = next(t for t in ties if t is not aces_tie)
    # Aces play in the league that night: their tie waits a week; the other tie takes the
    # one table the league left free.
    assert where[aces_tie.key][0] == MONDAY + dt.timedelta(days=7)
    assert where[other.key] == (MONDAY, hall.pk, 2)


def test_a_tie_put_on_a_taken_table_is_refused(nights):
    cup, _, hall = nights
    tie = cup.ties.exclude(home__name="Aces").filter(round=1).first()
    with pytest.raises(ServiceError) as err:
        placing.tie_place(tie=tie, date=MONDAY, venue=hall, table=1)
    assert err.value.status == 409
    assert err.value.errors[0]["field"] == "table"
    tie.refresh_from_db()
    assert tie.date is None


def test_a_team_playing_that_night_cannot_have_its_tie_then(nights):
    cup, _, hall = nights
    tie = cup.ties.get(home__name="Aces", round=1)
    with pytest.raises(ServiceError) as err:
        placing.tie_place(tie=tie, date=MONDAY, venue=hall, table=2)
    assert err.value.status == 409
    assert "Aces already plays that night" in err.value.errors[0]["message"]


def test_two_ties_on_one_table_are_refused(nights):
    cup, _, hall = nights
    first, second = cup.ties.filter(round=1).order_by("order")
    later = MONDAY + dt.timedelta(days=7)
    placing.tie_place(tie=first, date=later, venue=hall, table=2)
    with pytest.raises(ServiceError) as err:
        placing.tie_place(tie=second, date=later, venue=hall, table=2)
    assert err.value.errors[0]["message"].startswith("Table 2 at Hall is taken that night")


# --- the other way round: league fixtures see the cup ties (scheduling.hooks.night_bookings)


def _league_fixture(club, division, home, away, date=None):
    return Fixture.objects.create(
        club=club, division=division, round_number=8, home=home, away=away, date=date
    )


def test_a_league_fixture_moved_onto_a_cup_ties_table_is_refused(club, league, nights):
    from clabber_league.scheduling.services.fixture_changes import fixture_move

    cup, division, hall = nights
    _, teams = league
    later = MONDAY + dt.timedelta(days=7)
    tie = cup.ties.get(round=1, home__name="Bells")
    placing.tie_place(tie=tie, date=later, venue=hall, table=2)
    fixture = _league_fixture(club, division, teams[4], teams[5])
    with pytest.raises(ServiceError) as err:
        fixture_move(fixture=fixture, date=later, venue=hall, table=2)
    assert err.value.status == 409
    assert err.value.errors[0]["field"] == "table"
    message = err.value.errors[0]["message"]
    assert message.startswith("Table 2 at Hall is taken that night by the cup tie K")
    assert "Bells v Clubs" in message
    fixture.refresh_from_db()
    assert fixture.date is None
    # The other table that night is free: the move goes through.
    fixture_move(fixture=fixture, date=later, venue=hall, table=1)
    fixture.refresh_from_db()
    assert (fixture.date, fixture.table) == (later, 1)


def test_a_team_with_a_cup_tie_that_night_cannot_have_a_league_fixture_then(club, league, nights):
    from clabber_league.scheduling.services.fixture_changes import fixture_move

    cup, division, hall = nights
    _, teams = league
    later = MONDAY + dt.timedelta(days=7)
    placing.tie_place(tie=cup.ties.get(round=1, home__name="Bells"), date=later)
    fixture = _league_fixture(club, division, teams[1], teams[4])  # Bells v Eights
    with pytest.raises(ServiceError) as err:
        fixture_move(fixture=fixture, date=later, venue=hall, table=1)
    assert err.value.status == 409
    assert err.value.errors[0]["field"] == "date"
    assert err.value.errors[0]["message"].startswith(
        "Bells already plays that night (the cup tie K"
    )


def test_a_schedule_generated_leaves_a_cup_ties_table_and_teams_alone(
    club, league, nights, django_capture_on_commit_callbacks
):
    from clabber_league.scheduling.services.generation import (
        schedule_generate,
        schedule_run_execute,
    )

    cup, division, hall = nights
    Fixture.objects.filter(division=division).delete()
    tie = cup.ties.get(round=1, home__name="Bells")
    placing.tie_place(tie=tie, date=MONDAY, venue=hall, table=2)
    with django_capture_on_commit_callbacks(execute=False):
        run = schedule_generate(division=division)
    schedule_run_execute(run_id=run.pk, today=MONDAY - dt.timedelta(days=7))
    that_night = Fixture.objects.filter(division=division, date=MONDAY)
    assert that_night.exists()
    assert not that_night.filter(venue=hall, table=2).exists()
    assert not that_night.filter(home__name__in=["Bells", "Clubs"]).exists()
    assert not that_night.filter(away__name__in=["Bells", "Clubs"]).exists()


def test_a_table_of_three_waits_for_a_night_its_third_player_is_free(nights, club):
    from tests.factories import PlayerFactory

    _, division, hall = nights
    aces = division.teams.get(name="Aces")
    busy = aces.members.first().player  # plays the league fixture on the first Monday
    players = [PlayerFactory(club=club, name="Una"), PlayerFactory(club=club, name="Vic"), busy]
    cup = setup.cup_draw(
        cup=setup.cup_create(
            club=club, name="Threes", rules="clabber-3", entrant_kind="players", players=players
        )
    )
    table = cup.ties.get(key="M1-1")
    assert table.third.player == busy
    (placed,) = placing.round_place(cup=cup, round=1, division=division, start=MONDAY)
    assert placed.date == MONDAY + dt.timedelta(days=7)
    with pytest.raises(ServiceError) as err:
        placing.tie_place(tie=table, date=MONDAY, venue=hall, table=2)
    assert err.value.status == 409
