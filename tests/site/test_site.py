"""The site's skeleton: home page, health check, admin, API schema and docs."""

import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_names_the_product_and_links_the_rules(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "League night, without the paper" in body
    assert reverse("rules") in body
    assert 'name="viewport"' in body  # usable on a phone


def test_home_page_lists_public_clubs_only_to_anonymous_visitors(client, club_factory):
    club_factory(name="Evansville Clabber Club", is_public=True)
    club_factory(name="Private Parlour", is_public=False)
    body = client.get(reverse("home")).content.decode()
    assert "Evansville Clabber Club" in body
    assert "Private Parlour" not in body


def test_healthz_reports_database_and_broker_as_json(client, settings, user_factory):
    client.force_login(user_factory(username="ops", is_staff=True))  # staff see the details
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = json.loads(response.content)
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["status"] == "ok"
        assert "in-process" in body["broker"]["detail"]
        assert "in-process" in body["workers"]["detail"]
    else:  # whether a worker listens on this Redis is not this test's business
        assert body["status"] in ("ok", "degraded")
        assert body["broker"]["detail"] == "redis"
        assert "worker(s)" in body["workers"]["detail"]


def test_healthz_stays_ready_when_the_broker_is_unreachable(client, settings):
    """The load balancer keeps the node: the pages work without Redis (issue 31)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from clabber_league.config.celery import app

    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        response = client.get("/healthz")
    finally:
        app.conf.broker_url = previous
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["status"] == "degraded"
    assert body["broker"]["ok"] is False
    assert body["workers"]["ok"] is False
    assert body["database"]["ok"] is True


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/rules/score/" in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
    assert b"cdn" not in docs.content.lower()  # served from our own static files


def test_admin_login_page_is_served(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200


def test_login_page_has_a_csrf_protected_form(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
