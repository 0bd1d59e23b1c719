"""A receiving server for the webhooks' tests: a real HTTP server on 127.0.0.1 in a thread
(the test settings allow private addresses: ``CLABBER_WEBHOOKS_ALLOW_PRIVATE``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from clabber_league.webhooks import services
from tests.conftest import tasks_eager

# A club night's fixtures: its secretary (an admin), their access, twenty players.
from tests.events.conftest import access, members, secretary  # noqa: F401

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "webhooks.schema.json"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


def schema_errors(body: bytes) -> list[str]:
    """What docs/webhooks.schema.json finds wrong with a delivery's body."""
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    return [
        f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(json.loads(body))
    ]


@dataclass
class Receiver:
    """What the server received, and the statuses it answers with (one per request, the
    last repeated)."""

    url: str
    received: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=lambda: [204])
    arrived: threading.Event = field(default_factory=threading.Event)
    #: Seconds the server waits before it answers (a receiver too slow for the timeout).
    delay: float = 0.0

    def wait(self, count: int = 1, timeout: float = 30.0) -> list[Received]:
        """Wait until ``count`` requests arrived (a real worker sends from its process)."""
        import time

        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            self.arrived.wait(0.1)
            self.arrived.clear()
        return self.received


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    box: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            rec = box["r"]
            if rec.delay:
                threading.Event().wait(rec.delay)
            rec.received.append(Received(self.path, dict(self.headers.items()), body))
            status = rec.statuses[min(len(rec.received), len(rec.statuses)) - 1]
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            rec.arrived.set()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    box["r"] = Receiver(url=f"http://127.0.0.1:{server.server_port}/hooks/clabber?x=1")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield box["r"]
    server.shutdown()
    server.server_close()


@pytest.fixture
def subscribe(club, admin):
    """Subscribe ``url`` to ``events`` (all of them by default) as the club's admin."""

    def make(url: str, events=None, **extra):
        return services.subscription_create(
            club=club,
            url=url,
            events=events or [str(e) for e in services.SUBSCRIBABLE],
            user=admin,
            **extra,
        )

    return make


@pytest.fixture(autouse=True)
def _deliveries_in_process(request) -> Iterator[None]:
    """Deliveries run in this process (as with eager Celery), on PostgreSQL and Redis too,
    except in the tests of the real worker (``@pytest.mark.worker``: test_worker.py)."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    with tasks_eager():
        yield
