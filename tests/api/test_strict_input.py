"""A value of the wrong JSON type is refused with a 400 that names the field, wherever it
is sent: a boolean that is 0, a whole number that is a string, a string that is a number,
a part of a deal that is null, a page size that is not a number."""

import pytest
from rest_framework.test import APIClient

from clabber_league.games.models import Deal
from tests.clients import api_client
from tests.games.conftest import made

pytestmark = pytest.mark.django_db


def _fields(response) -> dict[str, str]:
    assert response.status_code == 400, response.content
    return {e["field"]: e["message"] for e in response.json()["errors"]}


@pytest.mark.parametrize("value", [0, 1, "true", "yes", None])
def test_a_boolean_must_be_true_or_false(scorer, value):
    response = api_client(scorer, token=True).patch(
        "/api/me/settings/", {"name_public": value}, format="json"
    )
    fields = _fields(response)
    assert set(fields) == {"name_public"}
    if value is not None:
        assert fields["name_public"].startswith("Must be true or false")


def test_a_true_boolean_still_goes_through(scorer):
    response = api_client(scorer, token=True).patch(
        "/api/me/settings/", {"name_public": True}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["name_public"] is True


def test_whole_numbers_and_strings_are_not_coerced(admin, club):
    body = {
        "name": 2027,
        "slug": "winter-2027",
        "start_date": "2027-01-04",
        "end_date": "2027-04-26",
        "points_win": "2",
    }
    response = api_client(admin, token=True).post(
        f"/api/clubs/{club.slug}/seasons/", body, format="json"
    )
    fields = _fields(response)
    assert fields["name"] == "Must be a string, not 2027."
    assert fields["points_win"] == 'Must be a whole number, not "2".'
    body["points_win"] = 2.0
    response = api_client(admin, token=True).post(
        f"/api/clubs/{club.slug}/seasons/", body, format="json"
    )
    assert _fields(response)["points_win"] == "Must be a whole number, not 2.0."


@pytest.mark.parametrize("part", ["melds", "points", "tricks", "renege"])
def test_a_part_of_a_deal_is_left_out_not_null(game, scorer, part):
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    response = api_client(scorer, token=True).post(url, made(**{part: None}), format="json")
    assert list(_fields(response)) == [part]
    assert not Deal.objects.filter(game=game).exists()


@pytest.mark.parametrize("size", ["null", "0", "ten", "-1", "2.5"])
def test_a_page_size_that_is_no_page_size_is_refused(scorer, club, size):
    response = api_client(scorer, token=True).get(f"/api/clubs/{club.slug}/teams/?page_size={size}")
    assert set(_fields(response)) == {"page_size"}
    assert size in _fields(response)["page_size"]


def test_a_query_string_keeps_its_text_values(scorer, club):
    response = api_client(scorer, token=True).get(
        f"/api/clubs/{club.slug}/teams/?page_size=2&page=1"
    )
    assert response.status_code == 200, response.content


def test_a_filter_by_an_id_that_names_nothing_matches_nothing(db):
    """``?division=`` of no division of the club is an empty page (the schema says an
    integer, and it is one); a value that is not a whole number is still a 400."""

    from tests.factories import ClubFactory, DivisionFactory

    club = ClubFactory(is_public=True)
    other = DivisionFactory()
    api = APIClient()
    for value in (999_999, other.pk, -3):
        answer = api.get(f"/api/clubs/{club.slug}/fixtures/?division={value}")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["count"] == 0
    wrong = api.get(f"/api/clubs/{club.slug}/fixtures/?division=two")
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["field"] == "division"
