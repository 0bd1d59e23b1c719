"""Builders for the cups tests: teams, a round robin, a season finished by forfeits."""

from __future__ import annotations

import datetime as dt

from clabber_league.leagues.models import Division, Team
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.fixture_changes import fixture_create, fixture_forfeit
from tests.factories import TeamFactory


def teams_of(division: Division, names: list[str]) -> list[Team]:
    return [TeamFactory(division=division, name=name) for name in names]


def round_robin(division: Division, teams: list[Team]) -> list[Fixture]:
    """Every pairing of ``teams`` once, as fixtures without a night."""
    fixtures = []
    number = 1
    for i, home in enumerate(teams):
        for away in teams[i + 1 :]:
            fixtures.append(
                fixture_create(division=division, round_number=number, home=home, away=away)
            )
            number += 1
    return fixtures


def finish_by_forfeits(fixtures: list[Fixture], order: list[Team]) -> None:
    """Decide every fixture for the team earlier in ``order`` (so ``order`` is the table)."""
    rank = {t.pk: i for i, t in enumerate(order)}
    for f in fixtures:
        winner = f.home if rank[f.home_id] < rank[f.away_id] else f.away
        fixture_forfeit(fixture=f, winner=winner)


DAY = dt.date(2027, 1, 4)
