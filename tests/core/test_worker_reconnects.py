"""Workers reconnect by themselves (issue 31): a worker started while Redis is down waits
for it instead of exiting, connects once Redis answers, and connects again after Redis
goes away and comes back. A Redis of the test's own on a free port; a real worker."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid

import pytest
from django.db import connection

from tests.conftest import ROOT, _test_database_url

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WAIT = 90  # seconds for each step on a slow machine


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _redis(port: int) -> subprocess.Popen:
    command = [shutil.which("redis-server") or "redis-server", "--port", str(port)]
    command += ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL)


def _wait_for(log, text: str, count: int, worker: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while log.read_text(errors="replace").count(text) < count:
        assert worker.poll() is None, f"the worker exited:\n{log.read_text()[-2000:]}"
        assert time.monotonic() < deadline, f"no {text!r} in {WAIT} s:\n{log.read_text()[-2000:]}"
        time.sleep(0.2)


def test_a_worker_waits_out_redis_and_reconnects(celery_worker_process):
    if celery_worker_process is None:
        pytest.skip("needs a real Celery worker (set REDIS_URL): eager runs in-process")
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server to start a Redis of the test's own")
    port = _free_port()
    name = f"reconnect-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="clabber_league.config.settings.test",
        DATABASE_URL=_test_database_url(os.environ["DATABASE_URL"], connection),
        REDIS_URL=f"redis://127.0.0.1:{port}/0",
    )
    log = ROOT / ".pytest_cache" / f"celery-{name}.log"
    log.parent.mkdir(exist_ok=True)
    command = [sys.executable, "-m", "celery", "-A", "clabber_league.config", "worker"]
    command += ["--pool=solo", "--without-gossip", "--without-mingle", "--loglevel=INFO"]
    command += ["-Q", name, "-n", f"{name}@%h"]
    with log.open("wb") as out:
        worker = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    redis = None
    try:
        _wait_for(log, "Cannot connect to redis", 1, worker)  # Redis is down: it waits
        redis = _redis(port)
        _wait_for(log, "Connected to redis", 1, worker)
        redis.terminate()
        redis.wait(timeout=10)
        redis = _redis(port)  # gone and back
        _wait_for(log, "Connected to redis", 2, worker)
        assert worker.poll() is None
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
