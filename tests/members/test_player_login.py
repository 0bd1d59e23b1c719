"""A login is linked to a player: by a club admin through the API or the players page,
shown to the club's members only (usernames are never public)."""

import pytest

from clabber_league.clubs import services as club_services
from clabber_league.clubs.models import Role
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_club_admin_links_a_members_login_to_a_player_through_the_api(
    club, admin, api_client_for
):
    member = MembershipFactory(club=club, role=Role.PLAYER, user=UserFactory(username="ida")).user
    player = PlayerFactory(club=club, name="Ida")
    url = f"/api/clubs/{club.slug}/players/{player.pk}/"
    response = api_client_for(admin).patch(url, {"user": "ida"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["user"] == "ida"
    player.refresh_from_db()
    assert player.user == member
    response = api_client_for(admin).patch(url, {"user": None}, format="json")
    assert response.status_code == 200 and response.json()["user"] is None
    player.refresh_from_db()
    assert player.user is None


def test_a_login_outside_the_club_is_refused_with_the_field_named(club, admin, api_client_for):
    UserFactory(username="stranger")
    player = PlayerFactory(club=club)
    response = api_client_for(admin).patch(
        f"/api/clubs/{club.slug}/players/{player.pk}/", {"user": "stranger"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "user", "message": club_services.PLAYER_LOGIN_NOT_MEMBER}
    ]
    player.refresh_from_db()
    assert player.user is None


def test_one_login_is_one_player_per_club(club, admin, api_client_for):
    ida = MembershipFactory(club=club, role=Role.PLAYER, user=UserFactory(username="ida")).user
    first = PlayerFactory(club=club, name="Ida", user=ida)
    second = PlayerFactory(club=club, name="Ida again")
    response = api_client_for(admin).patch(
        f"/api/clubs/{club.slug}/players/{second.pk}/", {"user": "ida"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {"field": "user", "message": club_services.PLAYER_LOGIN_TAKEN.format(player=first)}
    ]


def test_a_scorer_cannot_link_logins(club, scorer, api_client_for):
    player = PlayerFactory(club=club)
    response = api_client_for(scorer).patch(
        f"/api/clubs/{club.slug}/players/{player.pk}/", {"user": "scorer"}, format="json"
    )
    assert response.status_code == 403


def test_usernames_are_never_shown_to_the_public(club, api_client_for):
    club.is_public = True
    club.save()
    member = MembershipFactory(
        club=club, role=Role.PLAYER, user=UserFactory(username="secret")
    ).user
    PlayerFactory(club=club, name="Shown", user=member)
    rows = api_client_for().get(f"/api/clubs/{club.slug}/players/").json()["results"]
    assert rows and all("user" not in row for row in rows)
    rows = api_client_for(member).get(f"/api/clubs/{club.slug}/players/").json()["results"]
    assert [r["user"] for r in rows if r["name"] == "Shown"] == ["secret"]


def test_the_players_page_links_a_login(client, club, admin):
    MembershipFactory(club=club, role=Role.PLAYER, user=UserFactory(username="olga"))
    player = PlayerFactory(club=club, name="Olga")
    client.force_login(admin)
    client.post(f"/clubs/{club.slug}/members/players/", {"player": player.pk, "username": "olga"})
    player.refresh_from_db()
    assert player.user.username == "olga"
