"""Live scores from anywhere (issue 35): a deal saved at a table appears on a second,
logged-out browser's live page without a reload, and on the stream overlay; axe-core on
the live page and the overlay at 390 px.

The test server is WSGI: the page's stream answers 204 there and the page polls the
board's JSON, the path every browser falls back to behind a buffering proxy or while
Redis is down (the SSE path itself is tested in tests/live/test_stream.py)."""

from __future__ import annotations

import datetime as dt

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
