"""Seeing problems (issue 31): a request id on every response, in the API's error bodies and
on the 500 page; JSON log lines with the request id, the duration and the real client;
Sentry only with a DSN; Prometheus metrics never on the public port, and on the operator's
address when asked for."""

import gzip
import http.server
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clabber_league.clubs import api as clubs_api
from clabber_league.core.logs import JsonFormatter, RequestIdFilter
from clabber_league.core.metrics import metrics_address
from clabber_league.site import views as site_views

ROOT = Path(__file__).resolve().parents[2]
HEX_ID = re.compile(r"[0-9a-f]{32}")

pytestmark = pytest.mark.django_db


def test_every_response_has_a_request_id_of_its_own():
    client = Client()
    first, second = client.get("/healthz"), client.get("/rules/")
    assert HEX_ID.fullmatch(first["X-Request-ID"])
    assert HEX_ID.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_the_proxys_request_id_is_kept_and_a_forged_one_is_replaced():
    client = Client()
    kept = client.get("/healthz", HTTP_X_REQUEST_ID="3f1c0a9e-nginx.42")
    assert kept["X-Request-ID"] == "3f1c0a9e-nginx.42"
    for forged in ["a b", "x" * 65, 'id" level=ERROR', ""]:
        answer = client.get("/healthz", HTTP_X_REQUEST_ID=forged)
        assert HEX_ID.fullmatch(answer["X-Request-ID"]), forged


def test_api_error_bodies_carry_the_request_id_beside_the_errors(club, scorer):
    api = APIClient()
    api.force_authenticate(scorer)
    answers = [
        api.get("/api/no-such-thing/"),  # the API's own 404 view
        api.post(f"/api/clubs/{club.slug}/players/", {"name": ""}, format="json"),  # 400/403
        api.get(f"/api/clubs/{club.slug}/leaderboards/?season=%00"),  # a middleware's 400
        APIClient().post(f"/api/clubs/{club.slug}/players/", {}, format="json"),  # 401/403
    ]
    for response in answers:
        assert response.status_code >= 400
        body = response.json()
        assert body["errors"] and all(set(e) == {"field", "message"} for e in body["errors"])
        assert body["request_id"] == response["X-Request-ID"]


def test_a_failure_shows_its_request_id_on_the_page_and_in_the_api_body(monkeypatch):
    def boom(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(site_views, "public_clubs", boom)
    monkeypatch.setattr(clubs_api, "clubs_for_user", boom)
    client = Client(raise_request_exception=False)
    page = client.get("/", HTTP_X_REQUEST_ID="req-500-page")
    assert page.status_code == 500
    assert "req-500-page" in page.content.decode()
    api = client.get("/api/clubs/", HTTP_X_REQUEST_ID="req-500-api")
    assert api.status_code == 500
    assert api.json()["request_id"] == "req-500-api"


@pytest.fixture
def json_log():
    """The JSON lines the site's loggers write during the test."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    previous = root.level
    root.setLevel(logging.INFO)
    lines: list[dict] = []

    def read() -> list[dict]:
        lines[:] = [json.loads(line) for line in stream.getvalue().splitlines() if line]
        return lines

    yield read
    root.removeHandler(handler)
    root.setLevel(previous)


def test_the_access_line_is_json_with_duration_real_client_and_request_id(
    json_log, settings, club, scorer
):
    settings.TRUSTED_PROXY_COUNT = 1
    api = APIClient()
    api.force_authenticate(scorer)
    response = api.get(
        f"/api/clubs/{club.slug}/players/",
        REMOTE_ADDR="10.0.0.2",  # the proxy
        HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7",  # a made-up entry, then the real one
    )
    assert response.status_code == 200
    access = [line for line in json_log() if line["logger"] == "clabber_league.access"]
    assert len(access) == 1
    line = access[0]
    assert line["request_id"] == response["X-Request-ID"]
    assert line["method"] == "GET" and line["path"] == f"/api/clubs/{club.slug}/players/"
    assert line["status"] == 200 and line["level"] == "INFO"
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["client_ip"] == "203.0.113.7"
    assert line["user_id"] == scorer.pk
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["time"])


def test_an_error_logged_during_a_request_carries_its_id_and_traceback(json_log, monkeypatch):
    def boom(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(clubs_api, "clubs_for_user", boom)
    response = Client(raise_request_exception=False).get("/api/clubs/")
    assert response.status_code == 500
    errors = [line for line in json_log() if line["logger"] == "clabber_league.core.api"]
    assert errors and errors[0]["level"] == "ERROR"
    assert errors[0]["request_id"] == response["X-Request-ID"]
    assert "ZeroDivisionError" in errors[0]["exc_info"]
    access = [line for line in json_log() if line["logger"] == "clabber_league.access"]
    assert access[0]["status"] == 500 and access[0]["level"] == "WARNING"


def test_a_line_outside_any_request_says_so():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "beat tick", None, None)
    RequestIdFilter().filter(record)
    assert json.loads(JsonFormatter().format(record))["request_id"] == "-"


# --- Sentry -------------------------------------------------------------------------------

SENTRY_PROBE = """
import django, json, sentry_sdk
django.setup()
from django.conf import settings
client = sentry_sdk.get_client()
print(json.dumps({
    "enabled": settings.SENTRY_ENABLED,
    "active": client.is_active(),
    "integrations": sorted(getattr(client, "integrations", {})),
}))
if client.is_active():
    sentry_sdk.capture_message("clabber sentry probe")
    sentry_sdk.flush(timeout=5)
"""


def _settings_process(code: str, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("SENTRY_", "METRICS_"))}
    full.update({"DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.test", **env})
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_sentry_is_off_without_a_dsn():
    result = _settings_process(SENTRY_PROBE, SENTRY_DSN="")
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    assert probe == {"enabled": False, "active": False, "integrations": []}


def test_sentry_with_a_dsn_reports_to_it_from_web_and_workers_alike():
    received: list[bytes] = []

    class Collector(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            encoding = self.headers.get("Content-Encoding", "")
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "br":
                import brotli

                body = brotli.decompress(body)
            received.append(body)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        result = _settings_process(SENTRY_PROBE, SENTRY_DSN=f"http://key@127.0.0.1:{port}/1")
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout.strip().splitlines()[-1])
    assert probe["enabled"] is True and probe["active"] is True
    assert {"django", "celery"} <= set(probe["integrations"])
    assert any(b"clabber sentry probe" in body for body in received)


# --- Prometheus ---------------------------------------------------------------------------


def test_metrics_are_off_and_not_a_url_of_the_site_by_default(settings):
    assert metrics_address({}) is None
    assert settings.METRICS_ADDRESS is None or "METRICS_ADDRESS" in os.environ
    assert "django_prometheus" not in settings.INSTALLED_APPS
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics/").status_code == 404


def test_metrics_address_is_host_and_port():
    assert metrics_address({"METRICS_ADDRESS": "10.1.2.3:9100"}) == ("10.1.2.3", 9100)
    assert metrics_address({"METRICS_ADDRESS": ":9100"}) == ("127.0.0.1", 9100)
    assert metrics_address({"METRICS_ADDRESS": "[::1]:9100"}) == ("::1", 9100)
    with pytest.raises(ValueError, match="host:port"):
        metrics_address({"METRICS_ADDRESS": "9100x"})


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_gunicorn_serves_every_workers_metrics_on_the_chosen_address_only(tmp_path):
    web, metrics = _free_port(), _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SENTRY_", "REDIS_URL"))}
    env.update(
        DJANGO_SETTINGS_MODULE="clabber_league.config.settings.test",
        DATABASE_URL=f"sqlite:///{tmp_path / 'metrics.sqlite3'}",
        METRICS_ADDRESS=f"127.0.0.1:{metrics}",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prom"),
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "clabber_league.config.wsgi:application",
         "-c", "python:clabber_league.config.gunicorn", "--bind", f"127.0.0.1:{web}",
         "--workers", "2"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if _get(f"http://127.0.0.1:{web}/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("gunicorn did not start")
        for _ in range(6):
            assert _get(f"http://127.0.0.1:{web}/healthz")[0] == 200
        assert _get(f"http://127.0.0.1:{web}/metrics")[0] == 404  # never on the site's port
        status, text = _get(f"http://127.0.0.1:{metrics}/metrics")
        assert status == 200
        counted = re.search(
            r'^django_http_responses_total_by_status_total\{status="200"\} (\d+\.\d+)$',
            text,
            re.M,
        )
        assert counted and float(counted.group(1)) >= 7, text[:2000]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_celery_tasks_log_lines_carry_the_tasks_id():
    from celery.signals import task_postrun, task_prerun

    from clabber_league.core.logs import current_request_id

    task_prerun.send(sender=None, task_id="5d0c7a1e-task", task=None)
    try:
        record = logging.LogRecord("x", logging.INFO, __file__, 1, "drawn", None, None)
        RequestIdFilter().filter(record)
        assert record.request_id == "5d0c7a1e-task"
    finally:
        task_postrun.send(sender=None, task_id="5d0c7a1e-task", task=None)
    assert current_request_id() is None


def test_the_plain_format_carries_the_request_id_too():
    from django.conf import settings
    from django.utils.module_loading import import_string

    config = dict(settings.LOGGING["formatters"]["plain"])
    formatter = import_string(config.pop("()"))(config["format"])
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None)
    assert formatter.format(record).endswith(" INFO x [-] hello")
