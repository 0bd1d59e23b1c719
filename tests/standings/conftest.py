"""A division of four partnerships, and helpers that play whole games.

The club and its scorer, admin and viewer are the fixtures of tests/conftest.py, built on
the division below; ``made`` is the deal builder of the games tests."""

from __future__ import annotations

import pytest

from clabber_league.clubs.access import access_for
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.leagues.models import Team
from clabber_league.scheduling.models import Fixture
from tests.factories import DivisionFactory, TeamFactory
from tests.games.conftest import made


@pytest.fixture
def division(db):
    return DivisionFactory(ruleset="clabber", name="Premier", slug="premier")


@pytest.fixture
def teams(division):
    return [
        TeamFactory(division=division, name=name) for name in ("Aces", "Bells", "Dads", "Mules")
    ]


#: Four deals in which side A takes every card point: A 608, B 40 (A wins).
A_WINS = [made("A", 142)] * 4
#: Four deals in which side B takes every card point: B 608, A 40 (B wins).
B_WINS = [made("B", 10, last="B")] * 4


def start(division, home: Team, away: Team, *, user, fixture: Fixture | None = None, number=1):
    a = [m.player for m in home.members.order_by("position")]
    b = [m.player for m in away.members.order_by("position")]
    return services.game_start(
        club=division.club,
        division=division,
        sides={"A": home, "B": away},
        seats=[a[0], b[0], a[1], b[1]],
        fixture=fixture,
        number=number,
        user=user,
    )


def play(division, home, away, deals, *, user, confirm_by=None, fixture=None, number=1) -> Game:
    """Start a game, record ``deals`` (maker seat: the maker side's first player) and
    optionally confirm it."""
    game = start(division, home, away, user=user, fixture=fixture, number=number)
    for deal in deals:
        seat = "ABC".index(deal["maker"]) if deal.get("maker") else None
        services.deal_record(game_id=game.pk, data=deal, maker_seat=seat, user=user)
    game.refresh_from_db()
    if confirm_by is not None:
        game = services.game_confirm(
            game=game, user=confirm_by, access=access_for(club=game.club, user=confirm_by)
        )
    return game
