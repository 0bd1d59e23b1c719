"""Faults: a broker that is down, a database that goes away and comes back.

Recording a deal never needs the broker. A database that cannot be reached answers 503
(JSON on the API, a friendly page in the browser) and the service recovers by itself
once it is back, without a restart. The database tests run against a live server on
PostgreSQL (CI); on SQLite they are skipped with that reason.
"""

import json
import urllib.error
import urllib.request

import pytest
from django.db import connection, connections

from tests.games.conftest import made


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return (
                response.status,
                response.headers.get("Content-Type", ""),
                response.read().decode(),
            )
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode()


@pytest.mark.django_db
def test_recording_a_deal_works_with_the_broker_down(client, game, scorer, settings):
    from clabber_league.config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens there
    try:
        client.force_login(scorer)
        url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
        response = client.post(url, made(), content_type="application/json")
        health = client.get("/healthz")
    finally:
        app.conf.broker_url = previous
    assert response.status_code == 201
    assert game.deals.count() == 1
    # The node stays in the load balancer (issue 31); the broker is reported down.
    assert health.status_code == 200 and json.loads(health.content)["broker"]["ok"] is False


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): the test cuts real connections")


def test_a_database_that_goes_away_is_a_503_and_the_service_recovers(
    postgres, live_server, club_factory
):
    club_factory(slug="open", is_public=True)
    api = live_server.url + "/api/clubs/"
    assert _get(api)[0] == 200

    # The database becomes unreachable: the server's next connection attempt fails.
    real = dict(connections["default"].settings_dict)
    _terminate_other_backends()
    connections["default"].settings_dict["PORT"] = "1"
    try:
        status, content_type, body = _get(api)
        assert status == 503
        assert content_type == "application/problem+json"  # RFC 9457, as every API error
        assert "try again" in json.loads(body)["errors"][0]["message"]
        page_status, _, page = _get(live_server.url + "/")
        assert page_status == 503 and "Back in a moment" in page and "Traceback" not in page
    finally:
        connections["default"].settings_dict.update(real)

    # Back again: the very next request reconnects by itself.
    status, _, body = _get(api)
    assert status == 200
    assert json.loads(body)["results"][0]["slug"] == "open"


def test_connections_cut_by_a_restart_are_replaced_without_an_error(
    postgres, live_server, club_factory
):
    club_factory(slug="open", is_public=True)
    api = live_server.url + "/api/clubs/"
    assert _get(api)[0] == 200
    _terminate_other_backends()  # what a PostgreSQL restart does to open connections
    assert _get(api)[0] == 200  # the health check notices and reconnects


def _terminate_other_backends() -> None:
    """Cut the live server's connections (this test's own one is kept for its teardown)."""
    import psycopg

    connection.ensure_connection()
    own = connection.connection.info.backend_pid
    settings = connections["default"].settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid() AND pid <> %s",
            (settings["NAME"], own),
        )
