"""The deal API's side of offline entry (issue 14): a phone sends the number it gave a
deal, and is told with 409, nothing recorded, when another phone recorded that deal
first; a deal a person chose not to keep is set aside into the game's history."""

import pytest

from clabber_league.games import services
from clabber_league.games.models import DealRevision
from tests.clients import api_client

from .conftest import made

pytestmark = pytest.mark.django_db


def _deals_url(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def test_the_deal_at_its_number_is_recorded(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals_url(game) + "?number=1", made(), format="json"
    )
    assert response.status_code == 201
    assert response.json()["number"] == 1


def test_a_number_another_phone_recorded_first_is_a_conflict_and_nothing_is_recorded(game, scorer):
    client = api_client(scorer, token=True)
    client.post(_deals_url(game) + "?number=1", made(), format="json")
    response = client.post(_deals_url(game) + "?number=1", made(), format="json")
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {
            "field": "number",
            "message": services.DEAL_NUMBER_TAKEN.format(number=1, count=1, next=2),
        }
    ]
    assert game.deals.count() == 1


def test_a_number_past_the_next_deal_is_a_conflict(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals_url(game) + "?number=3", made(), format="json"
    )
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "number"
    assert game.deals.count() == 0


def test_a_number_that_is_not_whole_is_a_400_on_its_field(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals_url(game) + "?number=two", made(), format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "number"


def test_a_retry_of_a_sent_deal_with_its_key_is_not_a_conflict(game, scorer):
    client = api_client(scorer, token=True)
    first = client.post(
        _deals_url(game) + "?number=1", made(), format="json", HTTP_IDEMPOTENCY_KEY="phone-1"
    )
    retry = client.post(
        _deals_url(game) + "?number=1", made(), format="json", HTTP_IDEMPOTENCY_KEY="phone-1"
    )
    assert (first.status_code, retry.status_code) == (201, 201)
    assert game.deals.count() == 1


def test_a_set_aside_deal_is_kept_in_the_history_and_the_sheet_is_unchanged(game, scorer):
    client = api_client(scorer, token=True)
    client.post(_deals_url(game), made(), format="json")
    deal = {**made(), "points": {"A": 90}, "maker_seat": 0}
    response = client.post(
        _deals_url(game) + "set-aside/", {"number": 1, "deal": deal}, format="json"
    )
    assert response.status_code == 201, response.content
    revision = DealRevision.objects.get(game=game, action="delete")
    assert revision.before["set_aside"] is True
    assert revision.before["data"]["points"] == {"A": 90, "B": 62}
    assert revision.before["score"] == {"A": 100, "B": 62}
    assert game.deals.count() == 1


def test_setting_aside_needs_a_deal_object_and_a_number(game, scorer):
    client = api_client(scorer, token=True)
    response = client.post(_deals_url(game) + "set-aside/", {"deal": []}, format="json")
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} >= {"number"}
