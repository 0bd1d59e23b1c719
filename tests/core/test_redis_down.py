"""Redis is not the site (issue 31): with Redis unreachable (the cache and the broker on a
closed port) the pages and API calls that do not need the broker answer as usual, and the
limits against guessing passwords still hold. The PIN hand-over: tests/members/
test_without_redis.py."""

import time

import pytest
from django.urls import reverse

from tests.calculator.test_calculator_api import SECTION_6_DEAL
from tests.games.conftest import made
from tests.members.conftest import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(game, scorer):
    """The division's game, finished: the standings have a line to show."""
    finish(game, scorer)
    return game


def test_the_standings_page_and_api_answer(client, redis_down, viewer, division, played):
    client.force_login(viewer)
    slug = division.club.slug
    page = client.get(reverse("standings:division", kwargs={"club_slug": slug, "pk": division.pk}))
    assert page.status_code == 200
    assert page.context["table"].lines  # the table was computed, not read from the cache
    api = client.get(f"/api/clubs/{slug}/standings/{division.pk}/")
    assert api.status_code == 200
    assert api.json()  # the same table as JSON
    again = client.get(f"/api/clubs/{slug}/standings/{division.pk}/")
    assert again.json() == api.json()


def test_the_calculator_answers_and_its_throttle_still_counts(client, redis_down):
    first = client.post(reverse("rules-score"), SECTION_6_DEAL, content_type="application/json")
    second = client.post(reverse("rules-score"), SECTION_6_DEAL, content_type="application/json")
    assert first.status_code == second.status_code == 200
    assert first.json()["outcome"] == "set"

    def remaining(response) -> int:
        return int(response["RateLimit"].split("r=")[1].split(";")[0])

    # Counted in this process's memory while Redis is away: one try fewer left.
    assert remaining(second) == remaining(first) - 1


def test_logins_still_lock_out_without_redis(client, redis_down, user_factory):
    user_factory(username="marge", password="right-password-42")
    url = reverse("login")
    for _ in range(5):
        client.post(url, {"login": "marge", "password": "wrong"})
    response = client.post(url, {"login": "marge", "password": "right-password-42"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_recording_a_deal_answers_at_once(client, redis_down, game, scorer):
    client.force_login(scorer)
    started = time.monotonic()
    response = client.post(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/",
        made("A", 142),
        content_type="application/json",
    )
    assert response.status_code == 201
    assert time.monotonic() - started < 2
