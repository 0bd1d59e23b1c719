"""No stack trace ever reaches a user: a lost database is a 503 with a JSON body on the
API and a friendly page in the browser; any other failure a plain 500."""

import pytest
from django.db import OperationalError

from clabber_league.clubs import api as clubs_api
from clabber_league.core.api import INTERNAL_ERROR
from clabber_league.site import views as site_views

pytestmark = pytest.mark.django_db


@pytest.fixture
def failing(monkeypatch):
    """Make every page and API call fail the way a database restart does."""

    def set_failure(exc: Exception) -> None:
        def boom(*args, **kwargs):
            raise exc

        # Patch where it is used; the modules are imported above, before any patching.
        monkeypatch.setattr(site_views, "public_clubs", boom)
        monkeypatch.setattr(clubs_api, "clubs_for_user", boom)

    return set_failure


@pytest.fixture
def client(client):
    client.raise_request_exception = False  # answer as a user would see it
    return client


def test_a_lost_database_is_a_json_503_on_the_api(failing, client):
    failing(OperationalError("server closed the connection unexpectedly"))
    response = client.get("/api/clubs/")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "unavailable"
    assert "try again" in response.json()["errors"][0]["message"]
    assert response["Retry-After"] == "5"


def test_a_lost_database_is_a_friendly_503_page_in_the_browser(failing, client):
    failing(OperationalError("connection refused"))
    response = client.get("/")
    assert response.status_code == 503
    body = response.content.decode()
    assert "Back in a moment" in body
    assert "Traceback" not in body and "OperationalError" not in body


def test_any_other_failure_is_a_plain_500_without_a_trace(failing, client):
    failing(ZeroDivisionError("oops"))
    response = client.get("/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()
    assert "ZeroDivisionError" not in response.content.decode()
    api = client.get("/api/clubs/")
    assert api.status_code == 500
    assert api.json()["errors"] == [{"field": "", "message": INTERNAL_ERROR}]


def test_a_request_body_over_the_size_limit_is_refused_without_a_trace(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = '{"ruleset": "clabber", "padding": "' + "x" * 4096 + '"}'
    response = client.post("/api/rules/score/", body, content_type="application/json")
    assert response.status_code in (400, 413)
    assert "Traceback" not in response.content.decode()
