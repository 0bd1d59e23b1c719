"""The schedule, the standings and the overdue job read one result; the fixture's status
follows it in the transaction of the game that decides it."""

import datetime as dt

import pytest

from clabber_league.games import services as games
from clabber_league.scheduling import selectors
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.jobs import fixtures_flag_overdue
from clabber_league.standings.models import TeamStanding
from tests.factories import FixtureFactory
from tests.standings.conftest import A_WINS, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture(division, teams):
    home, away = teams
    return FixtureFactory(home=home, away=away, date=dt.date(2026, 9, 7), games_planned=2)


def _matches_played(team) -> int:
    row = TeamStanding.objects.filter(team=team).first()
    return row.matches_played if row else 0


def test_with_two_games_planned_and_one_finished_schedule_and_standings_agree_undecided(
    division, teams, fixture, scorer
):
    home, away = teams
    play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=1)
    outcome = selectors.fixture_outcomes(division=division, fixtures=[fixture])[fixture.pk]
    assert (outcome.counted, outcome.decided, outcome.home_points) == (1, False, 0)
    assert _matches_played(home) == 0 and _matches_played(away) == 0
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_the_game_that_decides_a_fixture_makes_it_played_at_once(division, teams, fixture, scorer):
    home, away = teams
    play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=1)
    second = play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=2)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED  # no nightly job needed
    outcome = selectors.fixture_outcomes(division=division, fixtures=[fixture])[fixture.pk]
    assert outcome.decided and outcome.winner == home.pk
    assert _matches_played(home) == 1 and TeamStanding.objects.get(team=home).matches_won == 1

    games.deal_delete(deal=second.deals.get(number=4), user=scorer)  # reopened at the table
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    assert _matches_played(home) == 0


def test_the_overdue_job_marks_decided_fixtures_played_and_flags_ones_without_games(
    division, teams, fixture, scorer
):
    home, away = teams
    idle = FixtureFactory(
        home=away, away=home, round_number=2, date=dt.date(2026, 9, 14), games_planned=2
    )
    play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=1)
    play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=2)
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.SCHEDULED)  # older row
    assert fixtures_flag_overdue(today=dt.date(2026, 10, 1)) == 1
    fixture.refresh_from_db()
    idle.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and fixture.flagged_at is None
    assert idle.status == Fixture.Status.SCHEDULED and idle.flagged_at is not None


def test_a_half_played_fixture_is_neither_played_nor_flagged(division, teams, fixture, scorer):
    home, away = teams
    play(division, home, away, A_WINS, user=scorer, fixture=fixture, number=1)
    assert fixtures_flag_overdue(today=dt.date(2026, 10, 1)) == 0
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.flagged_at is None
