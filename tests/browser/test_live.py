"""Live scores from anywhere (issue 35): a deal saved at a table appears on a second,
logged-out browser's live page without a reload, and on the stream overlay; axe-core on
the live page and the overlay at 390 px.

The test server is WSGI: the page's stream answers 204 there and the page polls the
board's JSON, the path every browser falls back to behind a buffering proxy or while
Redis is down (the SSE path itself is tested in tests/live/test_stream.py)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games
from tests.browser.conftest import assert_accessible
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}


@pytest.fixture
def night():
    club = ClubFactory(name="De Lentemorgen", is_public=True)
    event = event_services.event_create(
        club=club,
        name="Tuesday club night",
        date=dt.date(2026, 12, 5),
        rules="clabber",
        rounds=2,
        seed="000001",
    )
    for name in ["Anna", "Bram", "Cor", "Dirk", "Els", "Fenna", "Gerrit", "Hanna"]:
        checkin.entry_check_in(event=event, player=PlayerFactory(club=club, name=name))
    rounds.round_draw(event=event)
    return event


def _game(event, number):
    return event.round_set.get(number=1).tables.get(number=number).game


def test_a_saved_deal_appears_on_a_visitors_live_page_without_reload(live_server, page, night):
    club = night.club
    page.goto(f"{live_server.url}/clubs/{club.slug}/live/night/{night.pk}/")
    expect(page.get_by_role("heading", name="Tuesday club night")).to_be_visible()
    first = page.locator('.live-table[data-number="1"]')
    expect(first.locator(".s-waiting")).to_be_visible()
    expect(first.locator(".deals")).to_have_text("0")
    assert_accessible(page)
    page.evaluate("() => { window.stillTheSamePage = true; }")

    games.deal_record(game_id=_game(night, 1).pk, data=DEAL)  # table 1's phone saves a deal

    expect(first.locator(".score").first).to_have_text("152", timeout=5_000)
    expect(first.locator(".score").nth(1)).to_have_text("10")
    expect(first.locator(".deals")).to_have_text("1")
    expect(first.locator(".s-playing")).to_be_visible()
    expect(page.locator("#live-top li").first.locator(".name")).not_to_have_text("")
    second = page.locator('.live-table[data-number="2"]')
    expect(second.locator(".deals")).to_have_text("0")  # the other table as it was
    assert page.evaluate("() => window.stillTheSamePage === true")  # patched, not reloaded
    assert_accessible(page)


def test_the_overlay_shows_one_table_and_the_top_five(live_server, page, night):
    club = night.club
    base = f"{live_server.url}/clubs/{club.slug}/live/night/{night.pk}/overlay/"
    page.goto(base + "?table=2")
    expect(page.get_by_role("heading", name="Table 2")).to_be_visible()
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background in ("rgba(0, 0, 0, 0)", "transparent")  # for a browser source
    assert_accessible(page)

    games.deal_record(game_id=_game(night, 2).pk, data=DEAL)
    expect(page.locator(".score").first).to_have_text("152", timeout=5_000)

    page.goto(base + "?show=top")
    expect(page.locator("#live-top li")).to_have_count(5)
    expect(page.locator("#live-top li").first.locator(".points")).not_to_have_text("0")
    assert_accessible(page)


def test_a_club_admin_keeps_the_live_pages_for_members(
    live_server, page, browser, night, logged_in_page
):
    from clabber_league.clubs.models import Role
    from tests.browser.conftest import PHONE
    from tests.factories import MembershipFactory, UserFactory

    club = night.club
    admin = UserFactory(username="secretary", password="table-talk-42")
    MembershipFactory(club=club, user=admin, role=Role.ADMIN)
    logged_in_page("secretary", "table-talk-42")
    page.goto(f"{live_server.url}/clubs/{club.slug}/live/")
    expect(page.get_by_role("link", name="Tuesday club night")).to_be_visible()
    assert_accessible(page)
    page.get_by_label("Members only").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Saved: who may follow the live pages.")).to_be_visible()
    expect(page.get_by_label("Members only")).to_be_checked()
    assert_accessible(page)

    visitor = browser.new_context(viewport=PHONE).new_page()
    try:
        visitor.goto(f"{live_server.url}/clubs/{club.slug}/live/night/{night.pk}/")
        expect(visitor).to_have_url(re.compile(r"/accounts/login/"))
    finally:
        visitor.context.close()


# --- the stream itself, through uvicorn ----------------------------------------------------


@pytest.fixture
def uvicorn_server(settings, night):
    """The site under uvicorn (ASGI) on the test database and the test Redis, as `make run`
    serves it: the page's stream works there. Needs PostgreSQL (the server is another
    process) and Redis; skipped without them or without uvicorn installed."""
    import importlib.util
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    import uuid
    from pathlib import Path

    from django.db import connection

    from tests.conftest import _test_database_url

    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if importlib.util.find_spec("uvicorn") is None:
        pytest.skip("uvicorn is not installed")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        pytest.skip(
            "the stream through uvicorn needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)"
        )
    prefix = f"test:live:{uuid.uuid4().hex[:8]}:"
    settings.LIVE_REDIS_URL, settings.LIVE_KEY_PREFIX = redis_url, prefix
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.local",  # static files
        "DATABASE_URL": _test_database_url(database_url, connection),
        "LIVE_REDIS_URL": redis_url,
        "LIVE_KEY_PREFIX": prefix,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "clabber_league.config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=root,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/livez", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("uvicorn did not start")
                time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_a_saved_deal_comes_through_the_stream_under_uvicorn(uvicorn_server, page, night):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{uvicorn_server}/clubs/{night.club.slug}/live/night/{night.pk}/")
    expect(page.locator("#live-status")).to_have_text("Live: each deal appears as it is saved.")
    first = page.locator('.live-table[data-number="1"]')

    games.deal_record(game_id=_game(night, 1).pk, data=DEAL)

    expect(first.locator(".score").first).to_have_text("152", timeout=2_000)  # within 2 s
    expect(first.locator(".deals")).to_have_text("1")
    assert not [url for url in asked if url.endswith("board.json")]  # the stream, no polling
