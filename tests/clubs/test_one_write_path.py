"""Members and players are written by clubs.services for the API and the pages (joining by
invitation) alike: the same names are refused, the same way, and nothing is written."""

import pytest

from clabber_league.clubs import services
from clabber_league.clubs.models import Membership, Player, Role
from clabber_league.members import services as members
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_api_refuses_a_player_name_the_join_page_refuses(club, admin, api_client_for):
    PlayerFactory(club=club, name="Maria Lutz")
    url = f"/api/clubs/{club.slug}/players/"
    response = api_client_for(admin).post(url, {"name": "maria  LUTZ"}, format="json")
    assert response.status_code == 409
    message = services.PLAYER_NAME_TAKEN.format(name="Maria Lutz")
    assert response.json()["errors"] == [{"field": "name", "message": message}]
    assert club.players.count() == 1

    invitation = members.invitation_create(club=club, role=Role.PLAYER, created_by=admin)
    with pytest.raises(members.MemberError) as caught:
        members.invitation_accept(
            key=members.invitation_key(invitation), user=UserFactory(), new_name="maria  LUTZ"
        )
    assert caught.value.errors == [{"field": "new_name", "message": members.JOIN_NAME_TAKEN}]
    assert club.players.count() == 1


def test_a_player_name_is_stored_on_one_line_with_single_spaces(club, admin, api_client_for):
    url = f"/api/clubs/{club.slug}/players/"
    response = api_client_for(admin).post(url, {"name": "  Ann   Lee "}, format="json")
    assert response.status_code == 201, response.content
    assert Player.objects.get(pk=response.json()["id"]).name == "Ann Lee"


def test_renaming_a_player_onto_another_is_409_and_changes_nothing(club, admin, api_client_for):
    PlayerFactory(club=club, name="Ann")
    bob = PlayerFactory(club=club, name="Bob")
    url = f"/api/clubs/{club.slug}/players/{bob.pk}/"
    response = api_client_for(admin).patch(url, {"name": "ANN"}, format="json")
    assert response.status_code == 409
    message = services.PLAYER_NAME_TAKEN.format(name="Ann")
    assert response.json()["errors"] == [{"field": "name", "message": message}]
    bob.refresh_from_db()
    assert bob.name == "Bob"
    assert api_client_for(admin).patch(url, {"active": False}, format="json").status_code == 200
    bob.refresh_from_db()
    assert (bob.name, bob.active) == ("Bob", False)


def test_a_player_and_its_login_are_written_together_or_not_at_all(club, admin, api_client_for):
    outsider = UserFactory(username="outsider")
    url = f"/api/clubs/{club.slug}/players/"
    response = api_client_for(admin).post(url, {"name": "Cy", "user": "outsider"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "user"
    assert not Player.objects.filter(club=club, name="Cy").exists()
    MembershipFactory(club=club, user=outsider, role=Role.PLAYER)
    response = api_client_for(admin).post(url, {"name": "Cy", "user": "outsider"}, format="json")
    assert response.status_code == 201, response.content
    assert Player.objects.get(club=club, name="Cy").user == outsider


def test_adding_a_member_twice_is_409_naming_the_username(club, admin, api_client_for):
    url = f"/api/clubs/{club.slug}/members/"
    UserFactory(username="maria")
    first = api_client_for(admin).post(
        url, {"username": "maria", "role": Role.SCORER}, format="json"
    )
    assert first.status_code == 201, first.content
    again = api_client_for(admin).post(
        url, {"username": "maria", "role": Role.PLAYER}, format="json"
    )
    assert again.status_code == 409
    assert again.json()["errors"] == [{"field": "username", "message": services.ALREADY_MEMBER}]
    assert Membership.objects.get(club=club, user__username="maria").role == Role.SCORER


def test_moving_a_membership_onto_another_member_is_409(club, admin, scorer, api_client_for):
    mine = Membership.objects.get(club=club, user=scorer)
    url = f"/api/clubs/{club.slug}/members/{mine.pk}/"
    response = api_client_for(admin).patch(url, {"username": admin.username}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"] == [{"field": "username", "message": services.ALREADY_MEMBER}]
    mine.refresh_from_db()
    assert mine.user == scorer
