"""A club of a federation with a finished fixture and a finished club night, its players
linked to federation numbers; helpers to export them and to import into a federation."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.federation.models import (
    Federation,
    FederationClub,
    FederationPlayer,
    Officer,
    PlayerLink,
)
from tests.events.conftest import play_out
from tests.factories import (
    DivisionFactory,
    FixtureFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tests.standings.conftest import A_WINS, B_WINS, play

PASSWORD = "results-file-42"


@pytest.fixture
def division(db):
    return DivisionFactory(ruleset="clabber", name="Premier", slug="premier")


@pytest.fixture
def secretary(club):
    return MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="secretary", password=PASSWORD)
    ).user


@pytest.fixture
def federation(club):
    federation = Federation.objects.create(name="Klaverjas Union", slug="nku", number_prefix="NKU-")
    FederationClub.objects.create(federation=federation, club=club)
    return federation


@pytest.fixture
def officer(federation):
    user = UserFactory(username="officer", password=PASSWORD)
    Officer.objects.create(federation=federation, user=user)
    return user


def link(federation, player, number: str, *, active: bool = True) -> FederationPlayer:
    record = FederationPlayer.objects.create(
        federation=federation, number=number, name=player.name, active=active
    )
    PlayerLink.objects.create(
        federation=federation,
        federation_player=record,
        player=player,
        status=PlayerLink.Status.APPROVED,
    )
    return record


@pytest.fixture
def fixture(division, scorer, secretary, federation):
    """Aces beat Bells 2-0 on 7 September; three of their four players are linked."""
    home = TeamFactory(division=division, name="Aces")
    away = TeamFactory(division=division, name="Bells")
    fixture = FixtureFactory(home=home, away=away, date=dt.date(2026, 9, 7), games_planned=2)
    for number in (1, 2):
        play(
            division,
            home,
            away,
            A_WINS,
            fixture=fixture,
            number=number,
            user=scorer,
            confirm_by=secretary,
        )
    players = [m.player for t in (home, away) for m in t.members.order_by("position")]
    for i, player in enumerate(players[:3], start=1):
        link(federation, player, f"NKU-{i}")
    fixture.refresh_from_db()
    return fixture


@pytest.fixture
def night(club, secretary, federation):
    """A finished club night of eight players, three rounds."""
    members = [PlayerFactory(club=club, name=f"Member {i:02d}") for i in range(1, 9)]
    for i, player in enumerate(members, start=11):
        link(federation, player, f"NKU-{i}")
    night = event_services.event_create(
        club=club,
        user=secretary,
        name="Tuesday night",
        date=dt.date(2026, 12, 1),
        rules="clabber",
        rounds=2,
        seed="123456",
    )
    for player in members:
        checkin.entry_check_in(event=night, player=player)
    access = access_for(club=club, user=secretary)
    for _ in range(2):
        play_out(rounds.round_draw(event=night, access=access))
    from clabber_league.events.models import Round

    rounds.round_finish(round_=Round.objects.get(event=night, number=2), access=access)
    night.refresh_from_db()
    return night


__all__ = ["A_WINS", "B_WINS"]
