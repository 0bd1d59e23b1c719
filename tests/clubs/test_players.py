"""A player's name is matched without regard to case: "tom smith" is Tom Smith, on the
pages and in the API alike; two players who are one person are merged through the API."""

import pytest
from django.db import IntegrityError, transaction

from clabber_league.clubs import services
from clabber_league.clubs.models import Player, PlayerMerge
from clabber_league.leagues.services import team_register
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_name_the_club_has_in_another_case_is_refused_by_the_api(club, admin, api_client_for):
    PlayerFactory(club=club, name="Tom Smith")
    response = api_client_for(admin, token=True).post(
        f"/api/clubs/{club.slug}/players/", {"name": "tom  SMITH "}, format="json"
    )
    assert response.status_code == 409
    message = services.PLAYER_NAME_TAKEN.format(name="Tom Smith")
    assert response.json()["errors"] == [{"field": "name", "message": message}]
    assert Player.objects.filter(club=club).count() == 1


def test_renaming_onto_another_players_name_in_any_case_is_refused(club, admin, api_client_for):
    PlayerFactory(club=club, name="Tom Smith")
    mary = PlayerFactory(club=club, name="Mary")
    url = f"/api/clubs/{club.slug}/players/{mary.pk}/"
    response = api_client_for(admin, token=True).patch(url, {"name": "TOM SMITH"}, format="json")
    assert response.status_code == 409
    mary.refresh_from_db()
    assert mary.name == "Mary"
    # Her own name in another case is hers to take.
    assert (
        api_client_for(admin, token=True).patch(url, {"name": "MARY"}, format="json").status_code
        == 200
    )


def test_a_new_name_is_stored_without_stray_spaces(club, admin, api_client_for):
    response = api_client_for(admin, token=True).post(
        f"/api/clubs/{club.slug}/players/", {"name": "  Mary   Lou "}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Mary Lou"


def test_a_team_registered_by_names_finds_the_players_in_any_case(division, club):
    tom = PlayerFactory(club=club, name="Tom Smith")
    team = team_register(division=division, name="Aces", player_names=["tom smith", "Mary"])
    assert next(m.player for m in team.members.order_by("position")) == tom
    assert Player.objects.filter(club=club, name__iexact="tom smith").count() == 1


def test_the_database_holds_the_rule_against_two_requests_at_once(club):
    PlayerFactory(club=club, name="Tom Smith")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="TOM SMITH")


def test_the_same_name_in_another_club_is_another_player(club):
    PlayerFactory(name="Tom Smith")
    assert services.player_create(club=club, name="tom smith").name == "tom smith"


def test_merging_through_the_api_answers_the_record_and_needs_a_club_admin(
    club, admin, scorer, api_client_for
):
    stays = PlayerFactory(club=club, name="Tom Smith")
    goes = PlayerFactory(club=club, name="T. Smith")
    url = f"/api/clubs/{club.slug}/players/{goes.pk}/merge/"
    assert (
        api_client_for(scorer, token=True).post(url, {"into": stays.pk}, format="json").status_code
        == 403
    )
    response = api_client_for(admin, token=True).post(url, {"into": stays.pk}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["target"], body["source_id"], body["source_name"], body["merged_by"]) == (
        stays.pk,
        goes.pk,
        "T. Smith",
        admin.username,
    )
    assert not Player.objects.filter(pk=goes.pk).exists()
    assert PlayerMerge.objects.get().target == stays


def test_merging_into_a_player_of_another_club_is_a_400_naming_into(club, admin, api_client_for):
    goes = PlayerFactory(club=club, name="T. Smith")
    stranger = PlayerFactory(name="Tom Smith")
    url = f"/api/clubs/{club.slug}/players/{goes.pk}/merge/"
    response = api_client_for(admin, token=True).post(url, {"into": stranger.pk}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["into"]
    assert Player.objects.filter(pk=goes.pk).exists()
