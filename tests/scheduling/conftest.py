"""A club with a secretary (club admin), a viewer, a season, a division of teams and venues."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.clubs.models import Role
from clabber_league.scheduling import services
from clabber_league.scheduling.models import ScheduleRun, Venue
from tests.factories import (
    DivisionFactory,
    MembershipFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

MONDAY = 0
SEASON_START = dt.date(2026, 9, 1)  # a Tuesday: the first Monday night is 7 Sep


@pytest.fixture
def season(db):
    return SeasonFactory(start_date=SEASON_START, points_win=3, points_tie=1, points_loss=0)


@pytest.fixture
def club(season):
    return season.club


@pytest.fixture
def division(season):
    return DivisionFactory(season=season, ruleset="clabber", name="Monday Night")


@pytest.fixture
def secretary(club):
    return MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="secretary")
    ).user


@pytest.fixture
def viewer(club):
    return MembershipFactory(club=club, role=Role.VIEWER, user=UserFactory(username="viewer")).user


@pytest.fixture
def scorer(club):
    return MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="scorer")).user


def make_teams(division, count: int) -> list:
    return [TeamFactory(division=division, name=f"Team {i + 1:02d}") for i in range(count)]


@pytest.fixture
def teams(division):
    return make_teams(division, 6)


@pytest.fixture
def hall(club):
    return Venue.objects.create(club=club, name="The Hall", tables=2)


@pytest.fixture
def annex(club):
    return Venue.objects.create(club=club, name="The Annex", tables=4)


def configure(division, venues=(), **kwargs):
    options = {"weekday": MONDAY, "start_date": SEASON_START, **kwargs}
    return services.schedule_config_save(division=division, venues=list(venues), **options)


@pytest.fixture
def generate(django_capture_on_commit_callbacks):
    """Queue a run as a page does, then do the task's work here (whatever the broker): the
    tests of the worker itself are in ``test_worker.py``. "Today" is the season's start, so
    the nights planned do not depend on the day the tests run."""

    def run(division, user=None, today=SEASON_START) -> ScheduleRun:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            queued = services.schedule_generate(division=division, user=user)
        assert len(callbacks) == 1  # the task is sent once the transaction commits
        return services.schedule_run_execute(run_id=queued.pk, today=today)

    return run
