"""A club with a scorer, a viewer, two partnerships and a game at the table."""

import pytest

from clabber_league.clubs.models import Role
from clabber_league.games import services
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory


@pytest.fixture
def division(db):
    return DivisionFactory(ruleset="clabber")


@pytest.fixture
def club(division):
    return division.club


@pytest.fixture
def scorer(club):
    return MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="scorer")).user


@pytest.fixture
def viewer(club):
    return MembershipFactory(club=club, role=Role.VIEWER, user=UserFactory(username="viewer")).user


@pytest.fixture
def admin(club):
    return MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="clubadmin")
    ).user


@pytest.fixture
def teams(division):
    return TeamFactory(division=division, name="Mules"), TeamFactory(division=division, name="Dads")


@pytest.fixture
def game(club, division, teams, scorer):
    a, b = teams
    a_players = [m.player for m in a.members.order_by("position")]
    b_players = [m.player for m in b.members.order_by("position")]
    seats = [a_players[0], b_players[0], a_players[1], b_players[1]]
    return services.game_start(
        club=club, division=division, sides={"A": a, "B": b}, seats=seats, user=scorer
    )


def made(maker: str = "A", a: int = 100, last: str = "A", **extra) -> dict:
    """A played-out clabber deal: ``a`` card points for side A, the rest for B."""
    return {
        "maker": maker,
        "trump": "hearts",
        "points": {"A": a, "B": 152 - a},
        "last_trick": last,
        **extra,
    }
