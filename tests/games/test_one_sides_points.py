"""The API takes one side's card points as the deal page does: the rules engine's
``complete_points`` gives the other side the rest."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_api_accepts_one_sides_points_and_the_other_side_gets_the_rest(game, scorer):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=scorer).key}")
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    body = {"maker": "A", "trump": "hearts", "points": {"A": 100}, "last_trick": "A"}
    response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["score"] == {"A": 110, "B": 52}
    assert game.deals.get().data["points"] == {"A": 100, "B": 52}
