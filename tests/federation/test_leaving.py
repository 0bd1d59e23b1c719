"""Leaving is recorded without an officer (issue 34): a person whose last membership in
the federation's member clubs ends has left (``left_at``), from the clubs' own services
through ``clubs.hooks.player_active_changed``; one who comes back has not; the retention
then erases the record of one who stayed away."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from clabber_league.clubs.models import Membership, Role
from clabber_league.clubs.services import membership_add, membership_remove, player_update
from clabber_league.federation.models import FederationClub, FederationPlayer, PlayerLink
from clabber_league.federation.services import departed_erase
from tests.exchange.conftest import federation, link  # noqa: F401
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs(club, federation):  # noqa: F811
    """The person plays at two member clubs (with a login at the second); a third club,
    not a member, has them too."""
    second = ClubFactory(slug="second")
    FederationClub.objects.create(federation=federation, club=second)
    login = UserFactory(username="ria")
    MembershipFactory(club=second, role=Role.PLAYER, user=login)
    first_row = PlayerFactory(club=club, name="Ria Bos")
    second_row = PlayerFactory(club=second, name="Ria Bos", user=login)
    record = link(federation, first_row, "NKU-7")
    PlayerLink.objects.create(
        federation=federation,
        federation_player=record,
        player=second_row,
        status=PlayerLink.Status.APPROVED,
    )
    outside = PlayerFactory(club=ClubFactory(slug="outside"), name="Ria Bos")
    PlayerLink.objects.create(
        federation=federation,
        federation_player=record,
        player=outside,
        status=PlayerLink.Status.APPROVED,
    )
    return record, first_row, second_row, login


def _left(record) -> bool:
    record.refresh_from_db()
    return record.left_at is not None


def test_the_last_membership_ending_records_that_the_person_left(two_clubs):
    record, first_row, second_row, login = two_clubs
    player_update(player=first_row, active=False)
    assert not _left(record)  # still a member at the second club
    membership_remove(membership=Membership.objects.get(club=second_row.club, user=login))
    assert _left(record) and not record.active  # the club outside does not count
    player_update(player=first_row, active=True)  # back at the first club
    assert not _left(record) and record.active


def test_a_login_back_in_the_club_is_back(two_clubs):
    record, first_row, second_row, login = two_clubs
    player_update(player=first_row, active=False)
    player_update(player=second_row, active=False)
    assert _left(record)
    player_update(player=second_row, active=True)
    membership_remove(membership=Membership.objects.get(club=second_row.club, user=login))
    assert _left(record)  # active row, but its login left the club
    membership_add(club=second_row.club, user=login)
    assert not _left(record)


def test_the_retention_erases_who_left_and_stayed_away(two_clubs, settings):
    record, first_row, second_row, _login = two_clubs
    player_update(player=first_row, active=False)
    player_update(player=second_row, active=False)
    days = settings.CLABBER_FEDERATION_RETENTION_DAYS
    assert departed_erase(now=timezone.now() + dt.timedelta(days=days - 1)) == 0
    assert departed_erase(now=timezone.now() + dt.timedelta(days=days + 1)) == 1
    record = FederationPlayer.objects.get(pk=record.pk)
    assert record.erased_at is not None and record.name == ""


def test_the_players_page_states_the_retention(client, two_clubs, settings):
    _record, first_row, second_row, login = two_clubs
    settings.CLABBER_FEDERATION_RETENTION_DAYS = 730
    client.force_login(login)
    text = client.get("/federations/me/").content.decode()
    assert "How long your record is kept" in text and "730 days" in text
    player_update(player=first_row, active=False)
    player_update(player=second_row, active=False)  # left: the page says since when
    text = client.get("/federations/me/").content.decode()
    assert "You left the federation" in text


def test_a_club_leaving_the_federation_takes_along_those_it_alone_held(two_clubs, federation):  # noqa: F811
    from clabber_league.federation.access import access_for
    from clabber_league.federation.models import Officer
    from clabber_league.federation.services import club_accept, club_remove, club_request

    record, first_row, second_row, _login = two_clubs
    officer = UserFactory(username="bondsbureau")
    Officer.objects.create(federation=federation, user=officer)
    player_update(player=first_row, active=False)
    assert not _left(record)  # still a member at the second club
    second = FederationClub.objects.get(federation=federation, club=second_row.club)
    club_remove(access=access_for(federation=federation, user=officer), row=second)
    assert _left(record)  # the club that held them is out of the federation
    admin = UserFactory(username="second-admin")
    MembershipFactory(club=second_row.club, role=Role.ADMIN, user=admin)
    row = club_request(
        access=access_for(federation=federation, user=admin), club=second_row.club, user=admin
    )
    club_accept(access=access_for(federation=federation, user=officer), row=row)
    assert not _left(record) and record.active  # back with their club
