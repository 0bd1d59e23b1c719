"""A federation of two member clubs whose players are linked to federation numbers, and
helpers that play and confirm whole games in a club."""

from __future__ import annotations

import pytest

from clabber_league.clubs.models import Role
from clabber_league.federation.models import (
    Federation,
    FederationClub,
    FederationPlayer,
    PlayerLink,
)
from clabber_league.leagues.models import Team
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory
from tests.standings.conftest import A_WINS, B_WINS, play  # noqa: F401

_numbers = iter(range(1, 100000))


def number_for(federation: Federation, player, *, public: bool = True, name: str | None = None):
    """Give ``player`` (a club's row) a federation number, linked and approved."""
    person = FederationPlayer.objects.create(
        federation=federation,
        number=f"{federation.number_prefix}{next(_numbers)}",
        name=name or player.name,
        home_club=player.club,
        is_public=public,
    )
    PlayerLink.objects.create(
        federation=federation,
        federation_player=person,
        player=player,
        status=PlayerLink.Status.APPROVED,
    )
    return person


def linked_team(federation: Federation, division, name: str, *, public: bool = True) -> Team:
    team = TeamFactory(division=division, name=name)
    for member in team.members.all():
        number_for(federation, member.player, public=public)
    return team


@pytest.fixture
def federation(db):
    return Federation.objects.create(name="Nationale Klaverjas Unie", slug="nku", number_prefix="N")


@pytest.fixture
def clubs(federation):
    """Two member clubs, each with a division and a scorer who also confirms."""
    out = []
    for label in ("north", "south"):
        division = DivisionFactory(ruleset="clabber", name=f"{label} league", slug=label)
        club = division.club
        FederationClub.objects.create(federation=federation, club=club)
        scorer = UserFactory(username=f"{label}-scorer")
        MembershipFactory(club=club, user=scorer, role=Role.SCORER)
        admin = UserFactory(username=f"{label}-admin")
        MembershipFactory(club=club, user=admin, role=Role.ADMIN)
        out.append({"club": club, "division": division, "scorer": scorer, "admin": admin})
    return out
