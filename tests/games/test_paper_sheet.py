"""Copying an old paper sheet: every row checked, all saved or none."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.games import services
from clabber_league.games.models import Deal

pytestmark = pytest.mark.django_db

ROWS = [
    {"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"},
    {"passed": True},
    {"sheet": {"A": 110, "B": 52}, "maker": "A", "mark": "made"},
]


def test_rows_are_recorded_with_their_marks_and_running_totals(game, scorer):
    deals = services.sheet_rows_record(game=game, rows=ROWS, user=scorer)
    assert [d.outcome for d in deals] == ["set", "passed", "made"]
    assert [d.running for d in deals] == [
        {"A": 0, "B": 162},
        {"A": 0, "B": 162},
        {"A": 110, "B": 214},
    ]
    assert [d.dealer for d in deals] == [0, 1, 2]
    assert game.revisions.count() == 3


def test_one_impossible_row_saves_none_and_names_the_row(game, scorer):
    rows = [*ROWS, {"sheet": {"A": 151, "B": 1}, "maker": "A", "mark": "made"}]
    with pytest.raises(services.GameError) as caught:
        services.sheet_rows_record(game=game, rows=rows, user=scorer)
    assert caught.value.errors[0]["field"].startswith("rows[3]")
    assert Deal.objects.count() == 0


def test_the_page_shows_the_message_on_the_row_and_saves_nothing(client, game, scorer):
    client.force_login(scorer)
    url = reverse("games:sheet-rows", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    response = client.post(
        url,
        {
            "row_0_maker": "A",
            "row_0_mark": "set",
            "row_0_A": "0",
            "row_0_B": "162",
            "row_1_maker": "B",
            "row_1_mark": "made",
            "row_1_A": "152",
            "row_1_B": "10",
        },
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "row_1_B" in errors  # the maker's number must be ahead in a made row
    assert Deal.objects.count() == 0
    response = client.post(
        url,
        {
            "row_0_maker": "A",
            "row_0_mark": "set",
            "row_0_A": "0",
            "row_0_B": "162",
            "row_1_maker": "B",
            "row_1_mark": "made",
            "row_1_A": "10",
            "row_1_B": "152",
        },
    )
    assert response.status_code == 302
    assert [d.scores for d in Deal.objects.order_by("number")] == [
        {"A": 0, "B": 162},
        {"A": 10, "B": 152},
    ]


def test_the_api_takes_rows_and_answers_errors_by_row(game, scorer):
    client = APIClient()
    client.force_authenticate(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"
    bad = client.post(
        url, {"rows": [{"sheet": {"A": 0, "B": 1}, "maker": "A", "mark": "set"}]}, format="json"
    )
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"].startswith("rows[0]")
    good = client.post(url, {"rows": ROWS}, format="json")
    assert good.status_code == 201
    assert [d["number"] for d in good.json()] == [1, 2, 3]


def test_the_api_refuses_a_row_given_as_a_list_and_saves_nothing(game, scorer):
    # A list read by position would be a guess at which number is whose (RULES.md 5).
    client = APIClient()
    client.force_authenticate(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"
    rows = [ROWS[0], {"sheet": [110, 52], "maker": "A", "mark": "made"}]
    response = client.post(url, {"rows": rows}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "rows[1].sheet"
    assert Deal.objects.count() == 0
