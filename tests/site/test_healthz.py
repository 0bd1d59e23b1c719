"""/healthz (issue 10): anonymous callers learn whether the service is up, never host
names, ports or error text. /livez and /readyz (issue 31): the process answers; the
database answers, whatever Redis does."""

import json

import pytest


@pytest.mark.django_db
def test_an_anonymous_caller_sees_no_host_or_error_text(client, settings, user_factory):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from clabber_league.config.celery import app

    previous = app.conf.broker_url
    app.conf.broker_url = "redis://secret-broker.internal:1/0"
    try:
        anonymous = client.get("/healthz")
        client.force_login(user_factory(username="ops", is_staff=True))
        staff = client.get("/healthz")
    finally:
        app.conf.broker_url = previous
    assert anonymous.status_code == staff.status_code == 200
    body = json.loads(anonymous.content)
    assert body == {
        "status": "degraded",
        "database": {"ok": True},
        "broker": {"ok": False},
        "workers": {"ok": False},
    }
    assert b"secret-broker" not in anonymous.content
    assert json.loads(staff.content)["broker"]["detail"]  # staff still get the reason


def test_liveness_answers_without_touching_the_database(client):
    response = client.get("/livez")  # no django_db mark: a query would raise
    assert response.status_code == 200
    assert json.loads(response.content) == {"status": "ok"}


@pytest.mark.django_db
def test_readiness_follows_the_database_and_only_reports_redis(client, redis_down):
    response = client.get("/readyz")
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["database"] == {"ok": True}
    assert body["broker"] == {"ok": False}
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_readiness_is_503_without_the_database(client, monkeypatch):
    from clabber_league.core.health import Check
    from clabber_league.site import views

    monkeypatch.setattr(views, "database_check", lambda: Check(False, "refused", 1.0))
    response = client.get("/readyz")
    assert response.status_code == 503
    assert json.loads(response.content)["status"] == "unavailable"
