"""A member's own settings through the API (``/api/me/settings/``), as on ``/me/settings/``:
the confirmation PIN the handover asks for, and their name on public pages."""

import pytest
from django.contrib.auth.hashers import check_password

from clabber_league.members import services
from clabber_league.members.models import MemberProfile
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

URL = "/api/me/settings/"


def test_a_member_sets_a_pin_and_reads_their_settings(club, viewer, api_client_for):
    assert api_client_for(viewer).get(URL).json() == {
        "has_pin": False,
        "name_public": True,
        "language": "",
    }
    response = api_client_for(viewer).patch(URL, {"pin": "4821"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["has_pin"] is True and "pin" not in response.json()
    profile = MemberProfile.objects.get(user=viewer)
    assert check_password("4821", profile.pin_hash)  # stored hashed, as the page does
    assert "4821" not in profile.pin_hash


def test_a_new_pin_replaces_the_old_one_and_null_removes_it(viewer, api_client_for):
    services.profile_set_pin(user=viewer, pin="1111")
    changed = api_client_for(viewer).patch(URL, {"pin": "2222"}, format="json").json()
    assert changed["has_pin"] is True
    assert check_password("2222", MemberProfile.objects.get(user=viewer).pin_hash)
    removed = api_client_for(viewer).patch(URL, {"pin": None}, format="json").json()
    assert removed["has_pin"] is False


def test_the_name_on_public_pages_is_chosen_for_every_club(club, viewer, api_client_for):
    mine = [PlayerFactory(club=club, user=viewer), PlayerFactory(user=viewer)]
    response = api_client_for(viewer).patch(URL, {"name_public": False}, format="json")
    assert response.status_code == 200 and response.json()["name_public"] is False
    for player in mine:
        player.refresh_from_db()
        assert player.name_public is False


def test_a_bad_pin_is_400_naming_it_and_nothing_changes(club, viewer, api_client_for):
    player = PlayerFactory(club=club, user=viewer)
    body = {"pin": "12ab", "name_public": False}
    response = api_client_for(viewer).patch(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "pin", "message": services.PIN_FORMAT}]
    player.refresh_from_db()
    assert player.name_public is True  # all of it or nothing
    assert not MemberProfile.objects.filter(user=viewer).exclude(pin_hash="").exists()


def test_settings_need_a_login(club, api_client_for):
    response = api_client_for().get(URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert api_client_for().patch(URL, {"pin": "4821"}, format="json").status_code == 401


def test_a_member_chooses_the_language_of_their_pages_and_emails(viewer, api_client_for):
    client = api_client_for(viewer)
    response = client.patch(URL, {"language": "nl"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["language"] == "nl"
    assert client.get(URL).json()["language"] == "nl"
    assert services.profile_language(user_id=viewer.pk) == "nl"
    back = client.patch(URL, {"language": ""}, format="json")  # follow the club again
    assert back.json()["language"] == ""
    assert services.profile_language(user_id=viewer.pk) == ""


@pytest.mark.parametrize("language", ["tlh", "xx-yy", "NL ", 7])
def test_an_unknown_language_is_refused_naming_the_field_and_nothing_is_written(
    viewer, api_client_for, language
):
    client = api_client_for(viewer)
    client.patch(URL, {"language": "de"}, format="json")
    response = client.patch(URL, {"language": language, "name_public": False}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [error["field"] for error in errors] == ["language"]
    assert "languages" in errors[0]["message"]
    assert client.get(URL).json() == {"has_pin": False, "name_public": True, "language": "de"}
