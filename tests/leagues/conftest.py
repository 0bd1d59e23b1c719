"""Two partnerships of the shared division (tests/conftest.py)."""

import pytest


@pytest.fixture
def teams(division):
    from tests.factories import TeamFactory

    return TeamFactory(division=division, name="Aces"), TeamFactory(division=division, name="Bells")
