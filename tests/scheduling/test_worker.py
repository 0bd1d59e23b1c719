"""Generation through a real Celery worker on Redis (eagerly in-process without REDIS_URL).

The schedule is all or nothing: a generation that dies partway through inserting — the
database refusing a row, or the worker process killed while it writes — leaves the
schedule exactly as it was, and the run can be retried. These tests wait for the run's
state in the database; they never sleep for a fixed time.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections import Counter
from itertools import combinations

import pytest
from django.db import connection, transaction

from clabber_league.scheduling.models import Fixture, ScheduleRun
from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
from clabber_league.scheduling.services.generation import (
    STALE_AFTER,
    WORKER_LOST,
    schedule_generate,
    schedule_run_retry,
)
from tests.conftest import ROOT, _test_database_url, use_routes

from .conftest import configure, make_teams

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT = 120  # seconds a run may take on a slow machine before the test gives up


def _queue(division) -> ScheduleRun:
    with transaction.atomic():
        return schedule_generate(division=division)


def _wait(run: ScheduleRun, *states: str) -> ScheduleRun:
    deadline = time.monotonic() + WAIT
    while True:
        run.refresh_from_db()
        if run.state in states:
            return run
        if time.monotonic() > deadline:
            pytest.fail(f"run {run.pk} still {run.state} ({run.message}) after {WAIT} s")
        time.sleep(0.1)


def _snapshot(division) -> list[tuple]:
    return sorted(
        Fixture.objects.filter(division=division).values_list(
            "id", "round_number", "home_id", "away_id", "date", "table", "status"
        )
    )


def _right_number_of_meetings(division, cycles: int) -> None:
    teams = list(division.teams.values_list("id", flat=True))
    met = Counter(
        frozenset(p)
        for p in Fixture.objects.filter(division=division).values_list("home_id", "away_id")
    )
    assert met == Counter({frozenset(p): cycles for p in combinations(teams, 2)})


def test_a_worker_generates_a_season(celery_worker_process, division):
    make_teams(division, 12)
    configure(division, cycles=2)
    run = _wait(_queue(division), "done", "failed")
    assert (run.state, run.progress, run.fixtures_created) == ("done", 100, 132)
    assert run.started_at and run.finished_at
    _right_number_of_meetings(division, 2)
    if celery_worker_process is not None:  # it really went through Redis to the worker
        log = celery_worker_process["log"].read_text()
        assert "scheduling.generate_schedule" in log


def _install_trigger(sql_vendor: str, body_pg: str, when_round: int) -> list[str]:
    """A trigger on fixture inserts; returns the statements that drop it."""
    with connection.cursor() as cursor:
        if sql_vendor == "postgresql":
            cursor.execute(
                "CREATE OR REPLACE FUNCTION scheduling_test_trigger() RETURNS trigger AS $$ "
                f"BEGIN IF NEW.round_number = {when_round} THEN {body_pg} END IF; "
                "RETURN NEW; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                "CREATE TRIGGER scheduling_test_trigger BEFORE INSERT ON scheduling_fixture "
                "FOR EACH ROW EXECUTE FUNCTION scheduling_test_trigger()"
            )
            return [
                "DROP TRIGGER IF EXISTS scheduling_test_trigger ON scheduling_fixture",
                "DROP FUNCTION IF EXISTS scheduling_test_trigger()",
            ]
        cursor.execute(
            "CREATE TRIGGER scheduling_test_trigger BEFORE INSERT ON scheduling_fixture "
            f"WHEN NEW.round_number = {when_round} "
            "BEGIN SELECT RAISE(ABORT, 'boom: the disk is full'); END"
        )
        return ["DROP TRIGGER IF EXISTS scheduling_test_trigger"]


def _drop(statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def test_a_failure_partway_through_inserting_leaves_the_old_schedule(
    celery_worker_process, division
):
    make_teams(division, 8)
    configure(division, cycles=2)
    assert _wait(_queue(division), "done", "failed").state == "done"
    first = Fixture.objects.filter(division=division, round_number=1).first()
    fixture_forfeit(fixture=first, winner=first.home)  # round 1 is kept
    before = _snapshot(division)

    # The database refuses the first fixture of round 10: rounds 2 to 9 of the new plan
    # are already written (and the old ones deleted) inside the transaction by then.
    drop = _install_trigger(
        connection.vendor, "RAISE EXCEPTION 'boom: the disk is full';", when_round=10
    )
    try:
        run = _wait(_queue(division), "done", "failed")
    finally:
        _drop(drop)
    assert run.state == "failed"
    assert run.message.startswith("Generating the schedule failed; nothing was changed.")
    assert "boom: the disk is full" in run.message
    assert _snapshot(division) == before  # not one row added, changed or deleted

    retried = _wait(schedule_run_retry(run=run), "done", "failed")
    assert retried.state == "done" and retried.fixtures_kept == 4
    _right_number_of_meetings(division, 2)


def _start_worker(queue: str) -> subprocess.Popen:
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "clabber_league.config.settings.test"
    env["DATABASE_URL"] = _test_database_url(os.environ["DATABASE_URL"], connection)
    log = ROOT / ".pytest_cache" / f"celery-{queue}.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("wb") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clabber_league.config",
                "worker",
                "--pool=solo",
                "-Q",
                queue,
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{queue}@%h",
                "--loglevel=INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def test_killing_the_worker_while_it_writes_leaves_no_partial_schedule(
    celery_worker_process, division
):
    if celery_worker_process is None:
        pytest.skip("needs a real Celery worker on Redis (set REDIS_URL): eager runs in-process")
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): it holds the writer on a lock")
    from clabber_league.config.celery import app

    make_teams(division, 10)
    configure(division, cycles=2)
    queue = f"test-kill-{uuid.uuid4().hex[:8]}"
    worker = _start_worker(queue)
    # The writer stops at round 12 until this test lets go of advisory lock 4242: by then
    # rounds 1 to 11 are in its transaction, and the worker is killed mid-write.
    drop = _install_trigger("postgresql", "PERFORM pg_advisory_xact_lock(4242);", when_round=12)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(4242)")
    routes = app.conf.task_routes
    try:
        deadline = time.monotonic() + WAIT
        while not app.control.ping(destination=[f"{queue}@{socket.gethostname()}"], timeout=1):
            assert worker.poll() is None, "the worker exited at start"
            assert time.monotonic() < deadline, "the worker did not answer"
        use_routes(app, {**routes, "scheduling.generate_schedule": {"queue": queue}})
        run = _queue(division)
        use_routes(app, routes)
        blocked = _wait_for_blocked_writer()
        run.refresh_from_db()
        assert run.state == "running" and run.progress < 100
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    finally:
        use_routes(app, routes)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(4242)")
        if worker.poll() is None:
            worker.kill()
        _drop(drop)
    _wait_for_backend_gone(blocked)
    assert Fixture.objects.filter(division=division).count() == 0  # nothing was committed
    run.refresh_from_db()
    assert run.state == "running"  # it never finished: after a while it counts as stalled
    ScheduleRun.objects.filter(pk=run.pk).update(heartbeat_at=run.heartbeat_at - STALE_AFTER * 2)
    run.refresh_from_db()
    retried = _wait(schedule_run_retry(run=run), "done", "failed")
    run.refresh_from_db()
    assert (run.state, run.message) == ("failed", WORKER_LOST)
    assert retried.state == "done"
    _right_number_of_meetings(division, 2)


def _wait_for_blocked_writer() -> int:
    """The pid of the backend waiting on the advisory lock (the worker's transaction)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND wait_event = 'advisory'"
            )
            row = cursor.fetchone()
        if row:
            return row[0]
        time.sleep(0.1)
    pytest.fail("the worker never reached the locked round")


def _wait_for_backend_gone(pid: int) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone() is None:
                return
        time.sleep(0.1)
    pytest.fail(f"backend {pid} of the killed worker is still there")
