"""A push service for the notifications' tests: a real HTTP server on 127.0.0.1 (ports
8720-8729) that decrypts what it receives with the device's own keys, as a browser would;
VAPID keys made for the session; and members with a login at a club night."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from clabber_league.notify.management.commands.vapid_keys import key_pair
from tests.events.conftest import access, secretary  # noqa: F401


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Device:
    """A browser's push subscription: its keys, and what its push service received."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    received: list[dict] = field(default_factory=list)
    headers: list[dict] = field(default_factory=list)

    @property
    def p256dh(self) -> str:
        return b64(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def keys(self) -> dict[str, str]:
        return {"p256dh": self.p256dh, "auth": b64(self.auth)}


@dataclass
class PushService:
    base: str
    devices: dict[str, Device] = field(default_factory=dict)
    #: path -> the status it answers (201 by default: the push service took it).
    statuses: dict[str, int] = field(default_factory=dict)

    def device(self, name: str) -> Device:
        path = f"/push/{name}"
        found = Device(self.base + path, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))
        self.devices[path] = found
        return found


def _serve(handler: type) -> ThreadingHTTPServer:
    for port in range(8720, 8730):
        try:
            return ThreadingHTTPServer(("127.0.0.1", port), handler)
        except OSError:
            continue
    return ThreadingHTTPServer(("127.0.0.1", 0), handler)


@pytest.fixture
def push_service() -> Iterator[PushService]:
    import http_ece

    box: dict[str, PushService] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            service = box["s"]
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status = service.statuses.get(self.path, 201)
            device = service.devices.get(self.path)
            if device is not None and status < 400:
                plain = http_ece.decrypt(
                    body, private_key=device.private_key, auth_secret=device.auth
                )
                device.received.append(json.loads(plain))
                device.headers.append(dict(self.headers.items()))
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = _serve(Handler)
    box["s"] = PushService(base=f"http://127.0.0.1:{server.server_port}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield box["s"]
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def vapid() -> tuple[str, str]:
    return key_pair()


@pytest.fixture(autouse=True)
def _push_keys(settings, vapid) -> None:
    settings.CLABBER_VAPID_PUBLIC_KEY, settings.CLABBER_VAPID_PRIVATE_KEY = vapid
    settings.CLABBER_VAPID_SUBJECT = "mailto:secretary@example.org"


@pytest.fixture(autouse=True)
def _eager(tasks_in_process) -> None:
    """Notifications are sent in this process (as with eager Celery)."""


@pytest.fixture
def players(club):
    """Eight members of the club, each with a login and a player."""
    from clabber_league.clubs.models import Role
    from tests.factories import MembershipFactory, PlayerFactory, UserFactory

    out = []
    for i in range(1, 9):
        user = UserFactory(username=f"member{i}")
        MembershipFactory(club=club, user=user, role=Role.PLAYER)
        out.append(PlayerFactory(club=club, name=f"Member {i:02d}", user=user))
    return out
