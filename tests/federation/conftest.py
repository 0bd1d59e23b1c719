"""A federation with two member clubs, an admin, an officer, a club admin and a player
with a login; and a second federation with its own officer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from clabber_league.clubs.models import Role
from clabber_league.federation import services
from clabber_league.federation.access import access_for
from clabber_league.federation.models import Federation, FederationClub, Officer
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

PASSWORD = "table-talk-42"


@dataclass
class World:
    nku: Federation
    kbn: Federation
    club: Any
    other_club: Any
    fed_admin: Any
    officer: Any
    kbn_officer: Any
    club_admin: Any
    member: Any  # a member of `club` whose login is linked to `player`
    player: Any
    stranger: Any

    def access(self, user: Any, federation: Federation | None = None):
        return access_for(federation=federation or self.nku, user=user)


def member_of(federation: Federation, club) -> FederationClub:
    return FederationClub.objects.create(
        federation=federation, club=club, status=FederationClub.Status.MEMBER
    )


@pytest.fixture
def world(db) -> World:
    fed_admin, officer, kbn_officer = UserFactory(), UserFactory(), UserFactory()
    nku = services.federation_create(
        name="Nederlandse Klaverjas Unie", slug="nku", number_prefix="NKU-", admin=fed_admin
    )
    kbn = services.federation_create(
        name="Klaverjasbond Nederland", slug="kbn", number_prefix="KBN-", admin=kbn_officer
    )
    Officer.objects.create(federation=nku, user=officer, role=Officer.Role.OFFICER)
    club = ClubFactory(name="De Troef", slug="de-troef", is_public=True)
    other_club = ClubFactory(name="Ons Genoegen", slug="ons-genoegen")
    member_of(nku, club)
    member_of(nku, other_club)
    member_of(kbn, other_club)
    club_admin = UserFactory()
    MembershipFactory(club=club, user=club_admin, role=Role.ADMIN)
    member = UserFactory()
    MembershipFactory(club=club, user=member, role=Role.PLAYER)
    player = PlayerFactory(club=club, name="José van Dijk", user=member)
    return World(
        nku=nku,
        kbn=kbn,
        club=club,
        other_club=other_club,
        fed_admin=fed_admin,
        officer=officer,
        kbn_officer=kbn_officer,
        club_admin=club_admin,
        member=member,
        player=player,
        stranger=UserFactory(),
    )
