"""Limits on size (issue 10): a game takes at most CLABBER_MAX_DEALS_PER_GAME deals, one
paper-sheet request and one POST /api/rules/game at most as many; each answers 400 with
the error body at once. The score sheet renders at most that many rows. Web requests run
under a PostgreSQL statement_timeout."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.calculator.api import TOO_MANY_DEALS
from clabber_league.games import api, services
from clabber_league.games.models import Deal, Game

from .conftest import made

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
WSGI = "from clabber_league.config import wsgi"


def _deals(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def test_the_default_cap_is_200_deals(settings):
    assert settings.CLABBER_MAX_DEALS_PER_GAME == 200


@override_settings(CLABBER_MAX_DEALS_PER_GAME=3)
def test_a_game_takes_no_more_deals_than_the_cap(game, scorer, api_client_for):
    client = api_client_for(scorer)
    for _ in range(3):
        assert client.post(_deals(game), made("A", 100), format="json").status_code == 201
    response = client.post(_deals(game), made("A", 100), format="json")
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {"field": "game", "message": services.GAME_FULL.format(cap=3, count=3)}
    ]
    assert game.deals.count() == 3


@override_settings(CLABBER_MAX_DEALS_PER_GAME=3)
def test_a_paper_sheet_request_with_too_many_rows_is_refused_before_any_work(
    game, scorer, api_client_for
):
    client = api_client_for(scorer)
    rows = [{"sheet": {"A": 110, "B": 52}, "maker": "A", "mark": "made"}] * 4
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, {"rows": rows}, format="json")
    # who is asking and for which club, then the answer: the game is not even read
    assert not [q["sql"] for q in queries.captured_queries if "games_" in q["sql"]]
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "rows", "message": services.ROWS_TOO_MANY.format(cap=3)}
    ]
    # two rows fit, but not two more after them
    assert client.post(url, {"rows": rows[:2]}, format="json").status_code == 201
    response = client.post(url, {"rows": rows[:2]}, format="json")
    assert response.status_code == 409  # a full game is a conflict with what is stored
    assert response.json()["errors"][0]["message"] == services.GAME_FULL.format(cap=3, count=2)
    assert Deal.objects.count() == 2


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("seats", api.SEATS_TOO_MANY.format(cap=6, given=5000)),
        ("sides", api.SIDES_TOO_MANY.format(cap=3, given=5000)),
    ],
)
def test_starting_a_game_with_thousands_of_seats_or_sides_is_refused_before_any_read(
    club, division, teams, scorer, field, message, api_client_for
):
    a, b = teams
    body = {"division": division.pk, "sides": {"A": a.pk, "B": b.pk}, "seats": [1, 2, 3, 4]}
    body[field] = list(range(1, 5001)) if field == "seats" else {f"S{i}": a.pk for i in range(5000)}
    client = api_client_for(scorer)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/clubs/{club.slug}/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": field, "message": message}]
    # who is asking and for which club (a session: the user, then the club), nothing more
    assert len(queries) <= 3, [q["sql"] for q in queries.captured_queries]
    assert not Game.objects.exists()


def test_the_rules_calculator_refuses_a_game_of_more_deals_than_the_cap():
    body = {"ruleset": "clabber", "deals": [{"passed": True}] * 201}
    response = APIClient().post("/api/rules/game/", body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "deals", "message": TOO_MANY_DEALS.format(cap=200)}
    ]
    body["deals"] = body["deals"][:200]
    assert APIClient().post("/api/rules/game/", body, format="json").status_code == 200


def test_the_score_sheet_renders_at_most_the_cap(client, game, scorer):
    for _ in range(3):
        services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    client.force_login(scorer)
    url = reverse("games:detail", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    with override_settings(CLABBER_MAX_DEALS_PER_GAME=2):
        page = client.get(url)
    assert len(page.context["sheet"].rows) == 2
    assert "1 more are in the CSV export" in page.content.decode()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL)")
def test_web_requests_run_under_a_statement_timeout():
    code = (
        f"{WSGI}\n"
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('SHOW statement_timeout')\n"
        "    print(c.fetchone()[0])\n"
    )
    parts = urlsplit(os.environ["DATABASE_URL"])
    test_db = urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))
    env = {
        **os.environ,
        "DATABASE_URL": test_db,
        "DJANGO_SECRET_KEY": "x" * 60,
        "DJANGO_ALLOWED_HOSTS": "localhost",
    }
    env.pop("DATABASE_STATEMENT_TIMEOUT_MS", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    web = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert web.stdout.strip() == "15s", web.stderr[-2000:]
    worker = subprocess.run(
        [sys.executable, "-c", code.replace(WSGI, "import django; django.setup()")],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.production"},
        capture_output=True,
        text=True,
    )
    assert worker.stdout.strip() == "0", worker.stderr[-2000:]
