"""The heartbeat of a row a task works on (core.heartbeat, issue 31): it beats from a thread
of its own while the work goes on, and stops when the work ends."""

import pytest
from django.db import connection

from clabber_league.core import heartbeat
from clabber_league.scheduling.models import ScheduleRun
from tests.factories import DivisionFactory


@pytest.mark.skipif(connection.vendor != "postgresql", reason="workers beat on PostgreSQL")
@pytest.mark.django_db(transaction=True)  # the beating thread has a connection of its own
def test_a_heartbeat_beats_while_the_work_goes_on(monkeypatch):
    monkeypatch.setattr(heartbeat, "HEARTBEAT_EVERY", 0.05)
    division = DivisionFactory()
    run = ScheduleRun.objects.create(
        club=division.club, division=division, state=ScheduleRun.State.RUNNING
    )
    running = ScheduleRun.objects.filter(pk=run.pk, state=ScheduleRun.State.RUNNING)
    with heartbeat.Heartbeat(running) as beating:
        seen = set()
        while len(seen) < 3:  # three different beats
            beating.stop.wait(0.05)
            run.refresh_from_db()
            if run.heartbeat_at is not None:
                seen.add(run.heartbeat_at)
    assert beating.thread is not None and not beating.thread.is_alive()
    last = run.heartbeat_at
    run.refresh_from_db()
    stopped_at = run.heartbeat_at
    beating.stop.wait(0.2)
    run.refresh_from_db()
    assert run.heartbeat_at == stopped_at and stopped_at >= last  # no beat after the end
