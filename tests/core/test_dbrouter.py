"""Several machines (issue 31): the standings' reads go to a read replica, a member's own
reads after a write go to the primary; PgBouncer's transaction pooling and the replica
are set from the environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connections
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clabber_league.core import dbrouter
from clabber_league.core.dbrouter import PIN_COOKIE, ReplicaRouter
from clabber_league.leagues.models import Division

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def with_replica(settings):
    """A second connection named ``replica`` to the test database (a replica that is never
    behind), and the router switched on as DATABASE_REPLICA_URL switches it on."""
    replica = connections.create_connection("default")
    replica.alias = "replica"
    connections["replica"] = replica
    settings.DATABASE_REPLICA_ALIAS = "replica"
    settings.DATABASE_ROUTERS = ["clabber_league.core.dbrouter.ReplicaRouter"]
    yield replica
    replica.close()
    del connections["replica"]


def _standings_url(division: Division) -> str:
    return reverse(
        "standings:division",
        kwargs={"club_slug": division.club.slug, "pk": division.pk},
    )


def _page(client: Client, url: str, replica) -> tuple[int, int, int]:
    """Status, and how many statements reading the standings tables the replica and the
    primary ran for one page (who may see the club is always read on the primary)."""
    with (
        CaptureQueriesContext(replica) as on_replica,
        CaptureQueriesContext(connections["default"]) as on_primary,
    ):
        response = client.get(url)

    def standings(captured: CaptureQueriesContext) -> int:
        return sum("standings_" in q["sql"] for q in captured.captured_queries)

    return response.status_code, standings(on_replica), standings(on_primary)


@pytest.mark.django_db(transaction=True)
def test_standings_read_from_the_replica_until_the_member_writes(with_replica, division):
    division.club.is_public = True
    division.club.save()
    url = _standings_url(division)
    client = Client()
    status, replica_reads, primary_reads = _page(client, url, with_replica)
    assert status == 200
    assert replica_reads > 0 and primary_reads == 0

    # Any write pins this browser to the primary for a few seconds.
    wrote = client.post(reverse("login"), {"login": "nobody", "password": "wrong"})
    assert wrote.cookies[PIN_COOKIE].value == "1"
    assert int(wrote.cookies[PIN_COOKIE]["max-age"]) == 10
    status, replica_reads, primary_reads = _page(client, url, with_replica)
    assert status == 200
    assert replica_reads == 0 and primary_reads > 0

    # Another browser, which wrote nothing, still reads from the replica.
    status, replica_reads, primary_reads = _page(Client(), url, with_replica)
    assert status == 200 and replica_reads > 0 and primary_reads == 0


@pytest.mark.django_db(transaction=True)
def test_other_pages_and_writes_use_the_primary(with_replica, division):
    division.club.is_public = True
    division.club.save()
    with CaptureQueriesContext(with_replica) as on_replica:
        assert Client().get(reverse("home")).status_code == 200
    assert len(on_replica) == 0


def test_without_a_replica_everything_uses_the_primary(settings, rf):
    settings.DATABASE_REPLICA_ALIAS = ""
    router = ReplicaRouter()
    seen = []

    def view(request):
        seen.append(router.db_for_read(Division) or "default")
        return HttpResponse("ok")

    view.__module__ = "clabber_league.standings.views"
    middleware = dbrouter.ReplicaMiddleware(lambda request: view(request))
    response = middleware(rf.post("/"))
    assert seen == ["default"]
    assert PIN_COOKIE not in response.cookies


def test_the_router_in_one_request(settings, rf):
    settings.DATABASE_REPLICA_ALIAS = "replica"
    router = ReplicaRouter()
    seen: list[str | None] = []

    def standings_view(request):
        seen.append(router.db_for_read(Division) or "default")
        router.db_for_write(Division)  # a write mid-request...
        seen.append(router.db_for_read(Division) or "default")  # ...sends the rest to the primary
        return HttpResponse("ok")

    standings_view.__module__ = "clabber_league.standings.api"

    def handler(request):
        middleware.process_view(request, standings_view, (), {})
        return standings_view(request)

    middleware = dbrouter.ReplicaMiddleware(handler)
    response = middleware(rf.get("/"))
    assert seen == ["replica", "default"]
    assert response.cookies[PIN_COOKIE].value == "1"  # a GET that wrote pins too
    assert dbrouter.read_alias() == "default"  # nothing leaks past the request

    assert router.allow_migrate("replica", "games") is False
    assert router.allow_migrate("default", "games") is None
    assert router.db_for_write(Division) == "default"


# --- settings from the environment ----------------------------------------------------------

SETTINGS_PROBE = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({
    "default": {k: settings.DATABASES["default"].get(k) for k in
                ("HOST", "PORT", "CONN_MAX_AGE", "DISABLE_SERVER_SIDE_CURSORS", "OPTIONS")},
    "replica": {k: settings.DATABASES.get("replica", {}).get(k) for k in
                ("HOST", "PORT", "NAME", "DISABLE_SERVER_SIDE_CURSORS", "OPTIONS", "TEST")},
    "routers": settings.DATABASE_ROUTERS,
}, default=str))
"""


def _settings(**env: str) -> dict:
    full = {
        k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "SENTRY_", "METRICS_"))
    }
    full.update({"DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.test", **env})
    result = subprocess.run(
        [sys.executable, "-c", SETTINGS_PROBE],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_pgbouncer_transaction_pooling_from_the_environment():
    probe = _settings(
        DATABASE_URL="postgres://web@127.0.0.1:6432/clabber",
        DATABASE_PGBOUNCER="true",
        DATABASE_CONN_MAX_AGE="0",
        DATABASE_STATEMENT_TIMEOUT_MS="15000",
    )
    default = probe["default"]
    assert default["PORT"] == 6432 and default["CONN_MAX_AGE"] == 0
    # Nothing outlives a transaction: no server-side cursor, no prepared statement, no
    # startup option (PgBouncer refuses it).
    assert default["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert default["OPTIONS"]["prepare_threshold"] is None
    assert "options" not in default["OPTIONS"]
    assert probe["routers"] == []


def test_without_pgbouncer_the_direct_connection_keeps_its_options():
    probe = _settings(
        DATABASE_URL="postgres://web@127.0.0.1:5432/clabber",
        DATABASE_STATEMENT_TIMEOUT_MS="15000",
    )
    assert probe["default"]["DISABLE_SERVER_SIDE_CURSORS"] is False
    assert probe["default"]["OPTIONS"] == {"options": "-c statement_timeout=15000"}
    # One switch alone, for a pooler that keeps prepared statements (PgBouncer 1.21+).
    alone = _settings(
        DATABASE_URL="postgres://web@127.0.0.1:6432/clabber",
        DATABASE_DISABLE_SERVER_SIDE_CURSORS="true",
    )
    assert alone["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert "prepare_threshold" not in alone["default"]["OPTIONS"]


def test_a_replica_from_the_environment():
    probe = _settings(
        DATABASE_URL="postgres://web@10.0.0.5:6432/clabber",
        DATABASE_REPLICA_URL="postgres://web@10.0.0.6:6432/clabber",
        DATABASE_PGBOUNCER="true",
    )
    replica = probe["replica"]
    assert replica["HOST"] == "10.0.0.6" and replica["NAME"] == "clabber"
    assert replica["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert replica["OPTIONS"]["prepare_threshold"] is None
    assert replica["TEST"]["MIRROR"] == "default"
    assert probe["routers"] == ["clabber_league.core.dbrouter.ReplicaRouter"]
