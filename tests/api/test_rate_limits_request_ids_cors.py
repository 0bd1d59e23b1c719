"""Headers a client reads: ``RateLimit``/``RateLimit-Policy`` on every authenticated API
answer (each API token counted on its own, a person's session on theirs), 429 with
``Retry-After``; ``X-Request-ID`` on every answer, pages and errors included; CORS for the
origins a site names, on API paths only."""

import random
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clabber_league.clubs import tokens
from clabber_league.core import throttling
from tests.games.conftest import made

pytestmark = pytest.mark.django_db

LIMIT = re.compile(r'"api";r=(\d+);t=(\d+)')
HEX_ID = re.compile(r"[0-9a-f]{32}")
#: A clock of its own for each test (and run: Redis keeps counts a minute): its counts start
#: in a window nobody used.
_CLOCKS = random.SystemRandom()


@pytest.fixture
def api_rate(settings, monkeypatch):
    """The ``api`` limit at 3 a minute, in a minute of this test's own."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "api": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    start = 60 * (66_000_000 + _CLOCKS.randrange(10**9))  # a minute's start of its own
    monkeypatch.setattr(throttling, "_now", lambda: start + 10.0)
    return 3


def _bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def _remaining(response) -> int:
    match = LIMIT.fullmatch(response["RateLimit"])
    assert match, response["RateLimit"]
    assert response["RateLimit-Policy"] == '"api";q=3;w=60'
    assert int(match.group(2)) == 50  # seconds until the window ends
    return int(match.group(1))


def test_every_authenticated_answer_says_where_its_caller_stands(api_rate, game, scorer):
    client = _bearer(tokens.token_create(user=scorer, name="a", scope="read")[1])
    club = game.club.slug
    assert _remaining(client.get("/api/whoami/")) == 2
    forbidden = client.post(f"/api/clubs/{club}/games/{game.pk}/deals/", made(), format="json")
    assert forbidden.status_code == 403 and _remaining(forbidden) == 2  # read, not counted
    missing = client.get("/api/clubs/no-such-club/games/")
    assert missing.status_code == 404 and _remaining(missing) == 2
    assert _remaining(client.get(f"/api/clubs/{club}/games/")) == 1


def test_anonymous_answers_are_not_counted_by_the_api_limit(api_rate, game):
    game.club.is_public = True
    game.club.save()
    response = APIClient().get(f"/api/clubs/{game.club.slug}/games/")
    assert response.status_code == 200
    assert not response.has_header("RateLimit")


def test_each_token_counts_on_its_own_and_the_session_on_its_own(api_rate, scorer):
    first = _bearer(tokens.token_create(user=scorer, name="a", scope="read")[1])
    second = _bearer(tokens.token_create(user=scorer, name="b", scope="read")[1])
    session = APIClient()
    session.force_login(scorer)
    assert [_remaining(first.get("/api/whoami/")) for _ in range(3)] == [2, 1, 0]
    assert _remaining(second.get("/api/whoami/")) == 2
    assert _remaining(session.get("/api/whoami/")) == 2


def test_past_the_limit_it_is_429_with_retry_after(api_rate, scorer):
    client = _bearer(tokens.token_create(user=scorer, name="a", scope="read")[1])
    for _ in range(3):
        assert client.get("/api/whoami/").status_code == 200
    refused = client.get("/api/whoami/")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert refused["Retry-After"] == "50"
    assert _remaining(refused) == 0


def test_the_schema_documents_the_rate_limit_headers_on_authenticated_operations():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    whoami = schema["paths"]["/api/whoami/"]["get"]["responses"]
    assert {"RateLimit", "RateLimit-Policy", "X-Request-ID"} <= set(whoami["200"]["headers"])
    assert "Retry-After" in whoami["429"]["headers"]
    create = schema["paths"]["/api/me/tokens/"]["post"]["responses"]
    assert {"Location", "RateLimit", "X-Request-ID"} <= set(create["201"]["headers"])
    assert "key" in schema["components"]["schemas"]["ApiTokenCreated"]["properties"]


# --- X-Request-ID on every answer ----------------------------------------------------------


def test_every_answer_has_a_request_id_pages_and_errors_included(scorer, game):
    api = APIClient()
    page = Client()
    answers = [
        api.get("/api/whoami/"),  # 401
        api.get("/api/no-such-thing/"),  # 404
        api.get(f"/api/clubs/{game.club.slug}/games/"),  # 404: a private club
        api.post("/api/rules/score/", {"ruleset": "clabber"}, format="json"),  # 400
        page.get("/"),
        page.get("/no/such/page/"),
        page.get("/me/settings/"),  # 302 to the login
    ]
    api.force_login(scorer)
    answers.append(api.get("/api/me/tokens/"))
    answers.append(api.delete("/api/whoami/"))  # 405
    for response in answers:
        assert HEX_ID.fullmatch(response["X-Request-ID"]), response


# --- CORS -----------------------------------------------------------------------------------

APP = "https://app.example.org"


def _preflight(client: Client, path: str, origin: str):
    return client.options(
        path,
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, api-version",
    )


def test_no_origin_is_allowed_unless_the_site_names_it(settings, game):
    assert settings.CLABBER_CORS_ALLOWED_ORIGINS == []
    response = _preflight(Client(), "/api/clubs/", APP)
    assert not response.has_header("Access-Control-Allow-Origin")


def test_a_named_origin_may_call_the_api_and_read_its_headers(settings, scorer):
    settings.CORS_ALLOWED_ORIGINS = [APP]
    preflight = _preflight(Client(), "/api/me/tokens/", APP)
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == APP
    allowed = {h.strip() for h in preflight["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "api-version", "idempotency-key"} <= allowed
    assert "Access-Control-Allow-Credentials" not in preflight
    key = tokens.token_create(user=scorer, name="app", scope="read")[1]
    answer = Client().get("/api/whoami/", HTTP_ORIGIN=APP, HTTP_AUTHORIZATION=f"Bearer {key}")
    assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip() for h in answer["Access-Control-Expose-Headers"].split(",")}
    assert {
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
        "X-Request-ID",
        "ETag",
        "Location",
        "API-Version",
    } <= exposed


def test_another_origin_and_the_pages_get_no_cors_headers(settings):
    settings.CORS_ALLOWED_ORIGINS = [APP]
    other = _preflight(Client(), "/api/clubs/", "https://evil.example.net")
    assert not other.has_header("Access-Control-Allow-Origin")
    page = Client().get("/", HTTP_ORIGIN=APP)
    assert not page.has_header("Access-Control-Allow-Origin")
    page_preflight = _preflight(Client(), "/me/settings/", APP)
    assert not page_preflight.has_header("Access-Control-Allow-Origin")
