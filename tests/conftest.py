"""Test-session wiring: which services the suite runs against, and a real Celery worker.

- ``DATABASE_URL`` set: pytest-django creates ``test_<name>`` on that server (PostgreSQL in
  CI); unset: SQLite.
- ``REDIS_URL`` set: Redis must answer, and tests marked ``worker`` send tasks through a real
  ``celery worker`` process started here; unset: tasks run eagerly in-process.
- ``CI=true``: PostgreSQL and Redis are required; a missing one fails the run, never skips.

Django is imported lazily so that ``tests/rules`` also runs with ``-p no:django``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _redis_answers(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379), 2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def pytest_sessionstart(session: pytest.Session) -> None:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if IN_CI and not database_url.startswith(("postgres://", "postgresql://")):
        pytest.exit(
            "CI=true but DATABASE_URL is not a PostgreSQL URL: CI must test on PostgreSQL", 3
        )
    if IN_CI and not redis_url:
        pytest.exit("CI=true but REDIS_URL is unset: CI must test with a real Celery worker", 3)
    if redis_url and not _redis_answers(redis_url):
        pytest.exit(f"REDIS_URL is set ({redis_url}) but Redis does not answer", 3)


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [
        f"database: {os.environ.get('DATABASE_URL') or 'SQLite (DATABASE_URL unset)'}",
        f"celery: {os.environ.get('REDIS_URL') or 'eager, in-process (REDIS_URL unset)'}",
        f"browser: {chromium_path() or 'none found: browser tests are skipped (CI: fail)'}",
    ]


def chromium_path() -> str | None:
    candidates = [
        os.environ.get("CHROMIUM_PATH", ""),
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
    ]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium")


# --- a real Celery worker ---------------------------------------------------------------


@pytest.fixture(scope="session")
def _celery_worker_session(django_db_setup, django_db_blocker) -> Iterator[dict | None]:
    """A ``celery worker`` subprocess on Redis, using the test database; None when eager.

    Each test session listens on a queue of its own so that no other worker on the same
    Redis (a developer's, say) can take its tasks. Tasks reach it only during a test that
    asks for ``celery_worker_process``: see there.
    """
    from django.conf import settings
    from django.db import connection

    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield None
        return

    from clabber_league.config.celery import app

    queue = f"test-{uuid.uuid4().hex[:10]}"
    # The site's routes (settings: draws and schedules on queues of their own), each on a
    # queue of this session's; the worker consumes them all, as a site's worker does.
    routes = {
        name: {"queue": f"{queue}.{route['queue']}"}
        for name, route in settings.CELERY_TASK_ROUTES.items()
    }
    queues = ",".join(dict.fromkeys([queue, *(r["queue"] for r in routes.values())]))
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "clabber_league.config.settings.test"
    env["DATABASE_URL"] = _test_database_url(os.environ["DATABASE_URL"], connection)
    log = ROOT / ".pytest_cache" / f"celery-{queue}.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "clabber_league.config",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "-Q",
                queues,
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"{queue}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"celery worker exited at start:\n{log.read_text()[-3000:]}")
            replies = app.control.ping(destination=[f"{queue}@{socket.gethostname()}"], timeout=1)
            if replies:
                break
            if time.monotonic() > deadline:
                pytest.fail(f"celery worker did not answer in 60 s:\n{log.read_text()[-3000:]}")
        yield {"queue": queue, "routes": routes, "pid": proc.pid, "log": log}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        import redis  # the tasks nobody was to run, and the parked queue's exchange

        parked = f"{queue}.parked"
        with redis.Redis.from_url(app.conf.broker_url) as client:
            client.delete(parked, f"_kombu.binding.{parked}", f"_kombu.binding_permanent.{parked}")


@pytest.fixture
def celery_worker_process(_celery_worker_session) -> Iterator[dict | None]:
    """The session's worker takes this test's tasks; None when tasks run eagerly.

    Outside such a test, tasks queued on Redis wait on queues nobody reads: were the worker
    to take them, it could still be writing (a ranking's replay, say) while a transactional
    test's database is flushed, which PostgreSQL ends as a deadlock.
    """
    if _celery_worker_session is None:
        yield None
        return
    from clabber_league.config.celery import app

    worker = _celery_worker_session
    app.conf.task_default_queue = worker["queue"]
    use_routes(app, worker["routes"])
    try:
        yield worker
    finally:
        parked = f"{worker['queue']}.parked"
        app.conf.task_default_queue = parked
        use_routes(app, {name: {"queue": parked} for name in worker["routes"]})


@contextlib.contextmanager
def tasks_eager() -> Iterator[None]:
    """Tasks queued in the block run in this process (as with eager Celery), on PostgreSQL
    and Redis too (CI): otherwise they go to the broker, where nobody runs them (see
    ``celery_worker_process``) or a worker runs them after the page is read."""
    from clabber_league.config.celery import app

    # An override of the app's own, taken back after: setting the value read before would
    # leave an override behind that hides the Django setting from every later test.
    overridden = "task_always_eager" in app.conf.changes
    before = app.conf.changes.get("task_always_eager")
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        if overridden:
            app.conf.task_always_eager = before
        else:
            app.conf.changes.pop("task_always_eager", None)


@pytest.fixture
def tasks_in_process() -> Iterator[None]:
    """The test's queued tasks run in this process (``tasks_eager``)."""
    with tasks_eager():
        yield


@pytest.fixture
def redis_down(settings) -> Iterator[str]:
    """Redis unreachable (issue 31): the cache and the Celery broker both on a closed port,
    tasks no longer eager. Yields that Redis URL."""
    from clabber_league.config.celery import app

    with socket.socket() as probe:  # a port nothing listens on once the socket is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"redis://127.0.0.1:{port}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "clabber_league.core.cache.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "clabber",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1},
        }
    }
    settings.CELERY_TASK_ALWAYS_EAGER = False
    previous = (app.conf.broker_url, app.conf.result_backend)

    def use_redis(broker: str, results: str) -> None:
        # the app keeps its pools and its result backend: start afresh on each URL
        app.conf.broker_url = broker
        app.conf.result_backend = results
        app._pool = None
        app.amqp._producer_pool = None
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)

    use_redis(url, url)
    try:
        yield url
    finally:
        use_redis(*previous)


def use_routes(app, routes: dict) -> None:
    """Route tasks by ``routes`` from now on (Celery builds its router once)."""
    app.conf.task_routes = routes
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)


def _test_database_url(url: str, connection) -> str:
    """The same server, the test database's name."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


# --- factories as fixtures ----------------------------------------------------------------


@pytest.fixture
def club_factory():
    from tests.factories import ClubFactory

    return ClubFactory


@pytest.fixture
def user_factory():
    from tests.factories import UserFactory

    return UserFactory


# --- a club with a scorer, a viewer, an admin, two partnerships and a game at the table ---


@pytest.fixture
def division(db):
    from tests.factories import DivisionFactory

    return DivisionFactory(ruleset="clabber")


@pytest.fixture
def club(division):
    return division.club


@pytest.fixture
def scorer(club):
    from clabber_league.clubs.models import Role
    from tests.factories import MembershipFactory, UserFactory

    return MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="scorer")).user


@pytest.fixture
def viewer(club):
    from clabber_league.clubs.models import Role
    from tests.factories import MembershipFactory, UserFactory

    return MembershipFactory(club=club, role=Role.VIEWER, user=UserFactory(username="viewer")).user


@pytest.fixture
def admin(club):
    from clabber_league.clubs.models import Role
    from tests.factories import MembershipFactory, UserFactory

    return MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="clubadmin")
    ).user


@pytest.fixture
def teams(division):
    from tests.factories import TeamFactory

    return TeamFactory(division=division, name="Mules"), TeamFactory(division=division, name="Dads")


@pytest.fixture
def game(club, division, teams, scorer):
    from clabber_league.games import services

    a, b = teams
    a_players = [m.player for m in a.members.order_by("position")]
    b_players = [m.player for m in b.members.order_by("position")]
    seats = [a_players[0], b_players[0], a_players[1], b_players[1]]
    return services.game_start(
        club=club, division=division, sides={"A": a, "B": b}, seats=seats, user=scorer
    )


# --- the API as a person --------------------------------------------------------------------


@pytest.fixture
def api_client_for(db):
    """``api_client_for(user)``: ``tests.clients.api_client`` as a fixture (a session;
    ``token=True``: the user's API token; ``None``: anonymous)."""
    from tests.clients import api_client

    return api_client
