"""Hostile text (issue 10): a NUL byte, a lone surrogate or a control character in a name,
a query parameter or a deal field answers 400 with the error body, never a 500; names
stay one line; free-text notes keep their newlines."""

import pytest
from rest_framework.test import APIClient

from clabber_league.clubs.models import Player
from clabber_league.core import text
from clabber_league.games.models import Deal

pytestmark = pytest.mark.django_db


def test_a_nul_byte_in_a_query_parameter_is_a_400_not_a_500_even_anonymously(client, club):
    club.is_public = True
    club.save()
    response = client.get(f"/clubs/{club.slug}/standings/leaderboards/?season=%00")
    assert response.status_code == 400
    assert text.NUL_OR_CONTROL in response.content.decode()
    api = APIClient().get(f"/api/clubs/{club.slug}/leaderboards/?season=%00")
    assert api.status_code == 400
    assert api.json()["errors"] == [{"field": "season", "message": text.NUL_OR_CONTROL}]


def test_a_nul_byte_in_the_path_is_a_400(client, club):
    club.is_public = True
    club.save()
    assert client.get(f"/clubs/{club.slug}/schedule/nights/%00/").status_code == 400


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ann\x00", text.NUL_OR_CONTROL),
        ("Ann\x1b[2J", text.NUL_OR_CONTROL),
        ("Ann\r\nBcc: all@example.org", text.ONE_LINE),
    ],
)
def test_a_player_name_with_hostile_characters_is_refused_by_field(
    club, admin, name, message, api_client_for
):
    response = api_client_for(admin).post(
        f"/api/clubs/{club.slug}/players/", {"name": name}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "name", "message": message}]
    assert not Player.objects.filter(name__startswith="Ann").exists()


def test_a_lone_surrogate_in_json_is_refused(club, admin, api_client_for):
    response = api_client_for(admin).post(
        f"/api/clubs/{club.slug}/players/",
        b'{"name": "Ann \\ud800"}',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "name", "message": text.LONE_SURROGATE}]


def test_a_nul_byte_in_a_deal_field_is_refused_and_nothing_is_recorded(
    game, scorer, api_client_for
):
    deal = {"maker": "A", "trump": "hearts\x00", "points": {"A": 100, "B": 52}, "last_trick": "A"}
    response = api_client_for(scorer).post(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/", deal, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "trump", "message": text.NUL_OR_CONTROL}]
    assert not Deal.objects.exists()


def test_the_rules_calculator_refuses_a_nul_byte_in_a_nested_key():
    body = {"ruleset": "clabber", "points": {"A\x00": 1}}
    response = APIClient().post("/api/rules/score/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"] == text.NUL_OR_CONTROL


def test_a_page_form_with_a_nul_byte_is_a_400_page(client, club, admin):
    client.force_login(admin)
    response = client.post(f"/clubs/{club.slug}/schedule/seasons/new/", {"name": "Fall\x00"})
    assert response.status_code == 400
    assert "name" in response.content.decode()


def test_free_text_keeps_its_newlines_but_names_do_not():
    assert text.text_problem("Snow.\r\nPlayed next week.", single_line=False) is None
    assert text.text_problem("Snow.\r\nPlayed next week.", single_line=True) == text.ONE_LINE
    assert list(text.data_errors({"note": "a\nb", "team_name": "a\nb"})) == [
        {"field": "team_name", "message": text.ONE_LINE}
    ]
