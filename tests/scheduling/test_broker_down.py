"""Broker down and dead workers (issue 10): with Redis unreachable, creating a schedule run
answers at once with the run failed and retryable; a running run whose worker stopped
beating is shown as stalled and retryable without waiting ten minutes."""

import datetime as dt
import time

import pytest
from django.db import connection
from django.utils import timezone

from clabber_league.scheduling.models import ScheduleRun
from clabber_league.scheduling.services.generation import (
    BROKER_DOWN,
    HEARTBEAT_STALE,
    STALE_AFTER,
    WORKER_LOST,
    schedule_run_stalled,
)

from .conftest import configure

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)  # the task is queued when the request commits
def test_with_the_broker_down_a_run_fails_at_once_and_is_retryable(
    club, division, teams, secretary, settings, api_client_for
):
    from clabber_league.config.celery import app

    def use_broker(url: str) -> None:
        # the app keeps its connection and producer pools: start afresh on each URL
        app.conf.broker_url = url
        app._pool = None
        app.amqp._producer_pool = None

    configure(division)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = app.conf.broker_url
    use_broker("redis://127.0.0.1:1/0")  # nothing listens there
    try:
        response = api_client_for(secretary).post(
            f"/api/clubs/{club.slug}/schedule-runs/", {"division": division.pk}, format="json"
        )
    finally:
        use_broker(previous)
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["state"], body["message"]) == ("failed", BROKER_DOWN)
    assert body["retryable"] is True


def _running(club, division, beat_ago: dt.timedelta) -> ScheduleRun:
    now = timezone.now()
    return ScheduleRun.objects.create(
        club=club,
        division=division,
        state=ScheduleRun.State.RUNNING,
        started_at=now - dt.timedelta(minutes=2),
        heartbeat_at=now - beat_ago,
        message="Planning the rounds.",
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the heartbeat runs on PostgreSQL")
def test_a_run_whose_worker_stopped_beating_is_stalled_and_retryable(
    club, division, teams, secretary, api_client_for
):
    configure(division)
    alive = _running(club, division, dt.timedelta(seconds=3))
    client = api_client_for(secretary)
    body = client.get(f"/api/clubs/{club.slug}/schedule-runs/{alive.pk}/").json()
    assert (body["stalled"], body["retryable"]) == (False, False)
    # A run still beating cannot be retried: a conflict with stored state, 409.
    assert client.post(f"/api/clubs/{club.slug}/schedule-runs/{alive.pk}/retry/").status_code == 409

    ScheduleRun.objects.filter(pk=alive.pk).update(
        heartbeat_at=timezone.now() - HEARTBEAT_STALE - dt.timedelta(seconds=1)
    )
    body = client.get(f"/api/clubs/{club.slug}/schedule-runs/{alive.pk}/").json()
    assert (body["stalled"], body["retryable"]) == (True, True)
    page = client.get(f"/clubs/{club.slug}/schedule/runs/{alive.pk}/").content.decode()
    assert "the worker seems to have stopped" in page and "Try again" in page
    retried = client.post(f"/api/clubs/{club.slug}/schedule-runs/{alive.pk}/retry/")
    assert retried.status_code == 202
    alive.refresh_from_db()
    assert (alive.state, alive.message) == ("failed", WORKER_LOST)


def test_on_sqlite_a_quiet_run_waits_the_full_stale_time(club, division):
    if connection.vendor == "postgresql":
        pytest.skip("SQLite has no heartbeat thread: one writer at a time")
    run = _running(club, division, dt.timedelta(seconds=31))
    assert schedule_run_stalled(run=run) is False
    ScheduleRun.objects.filter(pk=run.pk).update(
        heartbeat_at=timezone.now() - STALE_AFTER - dt.timedelta(seconds=1)
    )
    run.refresh_from_db()
    assert schedule_run_stalled(run=run) is True


@pytest.mark.django_db(transaction=True)  # the task is queued when the request commits
def test_with_redis_down_a_run_answers_within_2_s_and_nothing_blocks_a_retry(
    club, division, teams, secretary, redis_down, api_client_for
):
    """Issue 31: the cache and the broker both unreachable. The run answers at once as
    failed (no run left "queued" for ten minutes), and both a new run and the run's retry
    are accepted straight away."""
    configure(division)
    client = api_client_for(secretary)
    url = f"/api/clubs/{club.slug}/schedule-runs/"
    started = time.monotonic()
    response = client.post(url, {"division": division.pk}, format="json")
    assert time.monotonic() - started < 2
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["state"], body["message"], body["retryable"]) == ("failed", BROKER_DOWN, True)
    assert not ScheduleRun.objects.filter(state__in=ScheduleRun.ACTIVE).exists()

    retried = client.post(f"{url}{body['id']}/retry/")
    assert retried.status_code == 202, retried.content
    assert retried.json()["state"] == "failed"
    again = client.post(url, {"division": division.pk}, format="json")
    assert again.status_code == 202
    assert not ScheduleRun.objects.filter(state__in=ScheduleRun.ACTIVE).exists()
