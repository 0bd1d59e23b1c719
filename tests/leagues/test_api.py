"""The league API writes through the same services as the pages: it refuses what they
refuse, with the one error body."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clabber_league.leagues import services
from clabber_league.leagues.models import Division, Season, Team
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(admin):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=admin).key}")
    return client


def _url(club, path: str) -> str:
    return f"/api/clubs/{club.slug}/{path}"


def test_a_season_whose_win_is_worth_less_than_a_loss_is_refused(api, club):
    body = {"name": "Odd", "start_date": "2027-01-04", "points_win": 0, "points_loss": 1}
    response = api.post(_url(club, "seasons/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "points_win", "message": services.POINTS_ORDER}]
    assert not Season.objects.filter(name="Odd").exists()


def test_a_season_without_a_slug_gets_one_as_on_the_page(api, club):
    body = {"name": "Winter 2027", "start_date": "2027-01-04"}
    response = api.post(_url(club, "seasons/"), body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "winter-2027"
    again = api.post(_url(club, "seasons/"), {**body, "slug": "winter-2027"}, format="json")
    assert again.status_code == 409
    assert again.json()["errors"] == [{"field": "slug", "message": services.SEASON_SLUG_TAKEN}]


def test_a_patch_that_breaks_the_points_order_is_refused(api, club, division):
    season = division.season
    response = api.patch(_url(club, f"seasons/{season.pk}/"), {"points_tie": 9}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == services.POINTS_ORDER
    season.refresh_from_db()
    assert season.points_tie == 1


def test_a_division_with_zero_games_per_fixture_is_refused(api, club, division):
    body = {"season": division.season_id, "name": "Zero", "games_per_fixture": 0}
    response = api.post(_url(club, "divisions/"), body, format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"games_per_fixture"}
    assert not Division.objects.filter(name="Zero").exists()
    ok = api.post(_url(club, "divisions/"), {**body, "games_per_fixture": 2}, format="json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["slug"] == "zero"


def test_a_division_of_an_unknown_rule_set_is_refused(api, club, division):
    body = {"season": division.season_id, "name": "Poker", "ruleset": "poker"}
    response = api.post(_url(club, "divisions/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "ruleset", "message": services.UNKNOWN_RULESET}]


def test_a_team_of_the_wrong_size_or_with_a_player_twice_is_refused(api, club, division):
    ada, bud = PlayerFactory(club=club), PlayerFactory(club=club)
    body = {"division": division.pk, "name": "Solo", "players": [ada.pk]}
    response = api.post(_url(club, "teams/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == services.TEAM_SIZE.format(
        ruleset="clabber", size=2, given=1
    )
    twice = api.post(_url(club, "teams/"), {**body, "players": [ada.pk, ada.pk]}, format="json")
    assert twice.status_code == 400
    assert services.PLAYER_TWICE in {e["message"] for e in twice.json()["errors"]}
    ok = api.post(_url(club, "teams/"), {**body, "players": [bud.pk, ada.pk]}, format="json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["players"] == [bud.pk, ada.pk]
    assert Team.objects.get(pk=ok.json()["id"]).members.count() == 2


def test_a_team_cannot_take_another_clubs_player(api, club, division):
    stranger = PlayerFactory(club=ClubFactory())
    body = {"division": division.pk, "name": "Mixed", "players": [stranger.pk, stranger.pk]}
    response = api.post(_url(club, "teams/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("players")


def test_house_rules_with_options_the_engine_refuses_are_refused(api, club):
    response = api.post(
        _url(club, "house-rules/"), {"name": "Ours", "base": "nonsense"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "base"
    ok = api.post(_url(club, "house-rules/"), {"name": "Ours", "base": "clabber"}, format="json")
    assert ok.status_code == 201, ok.content


def test_the_page_and_the_api_refuse_the_same_season(client, admin, club):
    client.force_login(admin)
    page = client.post(
        f"/clubs/{club.slug}/schedule/seasons/new/",
        {
            "name": "Odd",
            "start_date": "2027-01-04",
            "points_win": 0,
            "points_tie": 0,
            "points_loss": 1,
        },
    )
    assert page.status_code == 400
    assert str(services.POINTS_ORDER) in page.content.decode()
    assert not Season.objects.filter(name="Odd").exists()
