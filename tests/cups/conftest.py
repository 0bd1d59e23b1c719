"""Fixtures of the cups tests."""

import pytest

from tests.factories import DivisionFactory

from .builders import teams_of


@pytest.fixture
def league(club):
    """A second division of the club's season with six teams, A best to F worst."""
    division = DivisionFactory(season__club=club, club=club, name="Premier")
    teams = teams_of(division, ["Aces", "Bells", "Clubs", "Dads", "Eights", "Fifties"])
    return division, teams
