"""/healthz (issue 10): anonymous callers learn whether the service is up, never host
names, ports or error text."""

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
    assert anonymous.status_code == staff.status_code == 503
    body = json.loads(anonymous.content)
    assert body == {"status": "unavailable", "database": {"ok": True}, "broker": {"ok": False}}
    assert b"secret-broker" not in anonymous.content
    assert json.loads(staff.content)["broker"]["detail"]  # staff still get the reason
