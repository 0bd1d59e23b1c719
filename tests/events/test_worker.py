"""A large draw through a real Celery worker on Redis (eagerly in-process without
REDIS_URL): the round shows it is being drawn, then its tables. The test waits for the
round's status in the database; it never sleeps for a fixed time."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import transaction

from clabber_league.events.models import Round, Table
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from tests.factories import PlayerFactory

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT = 120  # seconds a draw may take on a slow machine before the test gives up


def _wait(round_: Round) -> Round:
    deadline = time.monotonic() + WAIT
    while True:
        round_.refresh_from_db()
        if round_.status != Round.Status.DRAWING:
            return round_
        if time.monotonic() > deadline:
            pytest.fail(f"round {round_.pk} still drawing ({round_.message}) after {WAIT} s")
        time.sleep(0.1)


def test_a_large_draw_runs_as_a_task_and_reports_its_end(celery_worker_process, club, settings):
    settings.CLABBER_EVENT_DRAW_IN_REQUEST = 8
    event = event_services.event_create(
        club=club, name="Big night", date=dt.date(2026, 12, 8), rules="clabber"
    )
    for i in range(24):
        checkin.entry_check_in(event=event, player=PlayerFactory(club=club, name=f"P{i:02d}"))
    with transaction.atomic():
        queued = rounds.round_draw(event=event)
        assert queued.status == Round.Status.DRAWING  # queued once the request commits
    drawn = _wait(queued)
    assert (drawn.status, drawn.progress) == (Round.Status.PLAYING, 100)
    seated = [p for t in Table.objects.filter(round=drawn) for p in t.seats]
    assert len(seated) == 24 and Table.objects.filter(round=drawn).count() == 6
    if celery_worker_process is not None:  # it really went through Redis to the worker
        assert "events.draw_round" in celery_worker_process["log"].read_text()
