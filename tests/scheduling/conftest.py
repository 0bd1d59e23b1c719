"""A club with a secretary (club admin), a viewer, a season, a division of teams and venues.

Django is imported inside the fixtures and helpers, so that ``test_planning.py`` (the
pure planner) also runs without it: ``pytest tests/scheduling/test_planning.py -p no:django``.
"""

from __future__ import annotations

import datetime as dt

import pytest

MONDAY = 0
SEASON_START = dt.date(2026, 9, 1)  # a Tuesday: the first Monday night is 7 Sep


@pytest.fixture
def season(db):
    from tests.factories import SeasonFactory

    return SeasonFactory(start_date=SEASON_START, points_win=3, points_tie=1, points_loss=0)


@pytest.fixture
def club(season):
    return season.club


@pytest.fixture
def division(season):
    from tests.factories import DivisionFactory

    return DivisionFactory(season=season, ruleset="clabber", name="Monday Night")


def _member(club, role: str, username: str):
    from tests.factories import MembershipFactory, UserFactory

    return MembershipFactory(club=club, role=role, user=UserFactory(username=username)).user


@pytest.fixture
def secretary(club):
    return _member(club, "admin", "secretary")


@pytest.fixture
def viewer(club):
    return _member(club, "viewer", "viewer")


@pytest.fixture
def scorer(club):
    return _member(club, "scorer", "scorer")


def make_teams(division, count: int) -> list:
    from tests.factories import TeamFactory

    return [TeamFactory(division=division, name=f"Team {i + 1:02d}") for i in range(count)]


@pytest.fixture
def teams(division):
    return make_teams(division, 6)


@pytest.fixture
def hall(club):
    from clabber_league.leagues.models import Venue

    return Venue.objects.create(club=club, name="The Hall", tables=2)


@pytest.fixture
def annex(club):
    from clabber_league.leagues.models import Venue

    return Venue.objects.create(club=club, name="The Annex", tables=4)


def configure(division, venues=(), **kwargs):
    from clabber_league.scheduling.services.generation import schedule_config_save

    options = {"weekday": MONDAY, "start_date": SEASON_START, **kwargs}
    return schedule_config_save(division=division, venues=list(venues), **options)


@pytest.fixture
def generate(django_capture_on_commit_callbacks):
    """Queue a run as a page does, then do the task's work here (whatever the broker): the
    tests of the worker itself are in ``test_worker.py``. "Today" is the season's start, so
    the nights planned do not depend on the day the tests run."""

    from clabber_league.scheduling.services.generation import (
        schedule_generate,
        schedule_run_execute,
    )

    def run(division, user=None, today=SEASON_START):
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            queued = schedule_generate(division=division, user=user)
        assert len(callbacks) == 1  # the task is sent once the transaction commits
        return schedule_run_execute(run_id=queued.pk, today=today)

    return run
