"""Every error is an RFC 9457 problem with a documented code: the page each ``type`` points
at documents every code, and a 403 names the role the action needs."""

import re
from pathlib import Path

import pytest

from clabber_league.core.api import PROBLEMS
from tests.clients import api_client

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "api-errors.md"


def test_every_code_is_documented_on_the_one_page_and_only_those():
    text = DOC.read_text()
    sections = re.findall(r"^## (\S+)$", text, flags=re.MULTILINE)
    assert sections == list(PROBLEMS)
    for code, (status, title) in PROBLEMS.items():
        assert f"**{status} {title}.**" in text, code


def test_the_type_url_serves_the_page(client):
    response = client.get("/api/docs/errors/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/markdown")
    assert b"## idempotency_key_reused" in response.content
    # A browser gets it as a page of the site, each code's section its anchor.
    page = client.get("/api/docs/errors/", HTTP_ACCEPT="text/html,*/*;q=0.8")
    assert page["Content-Type"].startswith("text/html")
    assert b'<h2 id="idempotency_key_reused">idempotency_key_reused</h2>' in page.content


def test_an_unknown_url_and_malformed_json_are_problems_with_their_codes(scorer, game):
    missing = api_client(scorer, token=True).get("/api/no-such-thing/")
    assert missing["Content-Type"] == "application/problem+json"
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_url")
    assert missing.json()["instance"] == "/api/no-such-thing/"
    broken = api_client(scorer, token=True).post(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/",
        "{not json",
        content_type="application/json",
    )
    assert (broken.status_code, broken.json()["code"]) == (400, "malformed_json")


def test_a_403_names_the_role_needed_and_the_callers(viewer, club):
    response = api_client(viewer, token=True).post(
        f"/api/clubs/{club.slug}/teams/", {"name": "X"}, format="json"
    )
    body = response.json()
    assert (response.status_code, body["code"]) == (403, "forbidden")
    assert body["detail"] == (
        "This needs the club admin role in this club (or a higher one); yours is viewer."
    )


def test_a_401_says_how_to_authenticate(club):
    club.is_public = True
    club.save()
    response = api_client().post(f"/api/clubs/{club.slug}/teams/", {"name": "X"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"]


def test_an_error_a_view_answers_itself_is_a_problem_too(game, scorer):
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"
    response = api_client(scorer, token=True).post(url, {"rows": "no"}, format="json")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "invalid" and body["errors"][0]["field"] == "rows"
    assert body["request_id"] == response["X-Request-ID"]
