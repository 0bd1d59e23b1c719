"""A club night's fixtures: a club with a secretary (club admin), members, and helpers to
play a round's games through the games services."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.events.models import Round
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games
from clabber_league.games.models import Game


@pytest.fixture
def secretary(club):
    from tests.factories import MembershipFactory, UserFactory

    return MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="secretary")
    ).user


@pytest.fixture
def access(club, secretary):
    return access_for(club=club, user=secretary)


@pytest.fixture
def members(club):
    from tests.factories import PlayerFactory

    return [PlayerFactory(club=club, name=f"Member {i:02d}") for i in range(1, 21)]


@pytest.fixture
def night(club, secretary):
    return event_services.event_create(
        club=club,
        user=secretary,
        name="Tuesday night",
        date=dt.date(2026, 12, 1),
        rules="clabber",
        rounds=3,
        seed="123456",
    )


def deal(maker: str = "A", a: int = 142) -> dict:
    """A played-out clabber deal: ``a`` card points for side A."""
    points = {"A": a, "B": 152 - a}
    return {"maker": maker, "trump": "hearts", "points": points, "last_trick": "A"}


def three_hand_deal() -> dict:
    """A clabber-for-three deal won by side A."""
    return {
        "maker": "A",
        "trump": "hearts",
        "points": {"A": 100, "B": 10, "C": 42},
        "last_trick": "A",
    }


def play_out(round_: Round) -> None:
    """Every game of the round played to its end (side A winning every deal)."""
    for table in round_.tables.select_related("game"):
        game = table.game
        while game.status == Game.Status.IN_PROGRESS:
            data = deal() if len(table.seats) == 4 else three_hand_deal()
            games.deal_record(game_id=game.pk, data=data)
            game = Game.objects.get(pk=game.pk)
