"""Behind a reverse proxy (issue 10): a spoofed X-Forwarded-For neither bypasses the
calculator's throttle nor locks a username out for everyone; throttle counts live in the
shared cache (Redis when REDIS_URL is set)."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.core.proxy import ClientScopedRateThrottle

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
PROXY = "10.0.0.2"  # REMOTE_ADDR of every request: the reverse proxy


def _address() -> str:
    """A client address no other test (or earlier run on a shared cache) has used."""
    return f"198.{random.randint(0, 255)}.{random.randint(0, 255)}.{random.randint(1, 254)}"


@pytest.fixture
def three_a_minute(monkeypatch, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setattr(ClientScopedRateThrottle, "THROTTLE_RATES", {"calculator": "3/minute"})


def _score(forwarded_for: str):
    body = {"ruleset": "clabber", "deals": []}
    return APIClient().post(
        "/api/rules/game/",
        body,
        format="json",
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def test_a_spoofed_forwarded_for_does_not_bypass_the_calculators_throttle(three_a_minute):
    client = _address()
    statuses = [_score(f"{_address()}, {client}").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert _score(_address()).status_code == 200  # another client has a count of its own


def test_with_no_proxy_configured_the_header_is_ignored(three_a_minute, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    client = APIClient()
    address = _address()
    statuses = [
        client.post(
            "/api/rules/game/",
            {"ruleset": "clabber", "deals": []},
            format="json",
            REMOTE_ADDR=address,
            HTTP_X_FORWARDED_FOR=_address(),
        ).status_code
        for _ in range(4)
    ]
    assert statuses == [200, 200, 200, 429]


def _login(client, username, password, forwarded_for):
    return client.post(
        reverse("login"),
        {"login": username, "password": password},  # allauth's form
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


def test_a_lockout_behind_the_proxy_locks_the_attacker_not_everyone(client, user_factory, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    user_factory(username="marge", password="right-password-42")
    attacker = _address()
    for _ in range(5):  # each try with another made-up address on the left
        _login(client, "marge", "wrong", f"{_address()}, {attacker}")
    assert _login(client, "marge", "right-password-42", attacker).status_code == 429
    # Marge, from her own address through the same proxy, still logs in
    assert _login(client, "marge", "right-password-42", _address()).status_code == 302


def test_the_cache_is_redis_when_redis_url_is_set():
    code = (
        "import django; django.setup()\n"
        "from django.core.cache import caches\n"
        "from django.core.cache.backends.redis import RedisCache\n"
        "print(isinstance(caches['default'], RedisCache))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.local",
        "REDIS_URL": "redis://127.0.0.1:6379/1",
    }
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.stdout.strip() == "True", done.stderr[-2000:]
