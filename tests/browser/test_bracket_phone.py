"""The bracket page on a phone (issue 16): one round per screen, reached by swiping or by
the round links (which work without JavaScript too); printed, every round on one page;
news from the club swapped in without losing the round on screen; axe-core passes.

A public club's cup of 12 teams (four byes, a third-place match), drawn, its four played
first-round ties decided by walkovers.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services.progress import tie_walkover
from clabber_league.cups.services.setup import cup_create, cup_draw
from tests.browser.conftest import PHONE, assert_accessible
from tests.factories import DivisionFactory, TeamFactory

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = ["Round 1", "Quarter-finals", "Semi-finals", "Final", "Third place"]


@pytest.fixture
def cup() -> Cup:
    division = DivisionFactory(name="Monday Night")
    club = division.club
    club.is_public = True
    club.save()
    teams = [TeamFactory(division=division, name=f"Team {i:02d}") for i in range(1, 13)]
    cup = cup_create(club=club, name="Winter Cup", teams=teams, third_place=True)
    cup_draw(cup=cup)
    for tie in cup.ties.filter(round=1, bracket="main").exclude(status=Tie.Status.BYE):
        tie_walkover(tie=tie, absent="away")
    return cup


def bracket_url(base: str, cup: Cup) -> str:
    return f"{base}/clubs/{cup.club.slug}/cups/{cup.pk}/bracket/"


# Whether the round headed ``title`` is the one the board shows, edge to edge.
ON_SCREEN = """title => {
  const h = [...document.querySelectorAll('.bracket-round h2')]
    .find(h => h.textContent.trim() === title);
  const board = document.querySelector('.bracket-board').getBoundingClientRect();
  const box = h.closest('.bracket-round').getBoundingClientRect();
  return Math.abs(box.left - board.left) < 2;
}"""


def swipe_left(page, element) -> None:
    """A finger drawn 250 px to the left across ``element`` (touch events, as on a phone)."""
    cdp = page.context.new_cdp_session(page)
    box = element.bounding_box()
    x, y = int(box["x"] + box["width"] - 60), int(box["y"] + 150)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x - 25 * step, "y": y}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def wait_on_screen(page, title: str) -> None:
    """Wait until the board shows the round headed ``title`` (a scroll may be smooth)."""
    page.wait_for_function(ON_SCREEN, arg=title)


def test_a_phone_shows_one_round_per_screen_and_swipes_between_them(live_server, browser, cup):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(bracket_url(live_server.url, cup))
    headings = page.locator(".bracket-round h2")
    expect(headings).to_have_text(ROUNDS)
    board = page.locator(".bracket-board")
    width = board.evaluate("el => el.clientWidth")
    first = page.locator(".bracket-round").first.bounding_box()
    assert abs(first["width"] - width) < 2  # a round fills the screen
    wait_on_screen(page, "Round 1")
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")

    swipe_left(page, board)  # a thumb's swipe snaps to the next round, whole
    wait_on_screen(page, "Quarter-finals")

    # the next-round link of a round, then a round picked from the list above
    page.locator("#round-2 a[rel=next]").click()
    wait_on_screen(page, "Semi-finals")
    page.get_by_role("navigation", name="Rounds of the bracket").get_by_role(
        "link", name="Final", exact=True
    ).click()
    wait_on_screen(page, "Final")
    assert_accessible(page)
    context.close()


def test_the_round_links_work_without_javascript(live_server, browser, cup):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(bracket_url(live_server.url, cup))
    page.get_by_role("navigation", name="Rounds of the bracket").get_by_role(
        "link", name="Semi-finals"
    ).click()
    expect(page.locator("#round-3-title")).to_be_in_viewport(ratio=1)
    expect(page.locator("#round-1-title")).not_to_be_in_viewport()
    page.locator("#round-3 a[rel=prev]").click()
    expect(page.locator("#round-2-title")).to_be_in_viewport(ratio=1)
    expect(page.locator("#round-3-title")).not_to_be_in_viewport()
    context.close()


def test_every_tie_links_to_its_page_and_the_winner_goes_through(live_server, page, cup):
    page.goto(bracket_url(live_server.url, cup))
    decided = cup.ties.filter(status=Tie.Status.WALKOVER).first()
    tie = page.locator(f"#tie-{decided.key}")
    expect(tie.locator(".entrant-winner")).to_contain_text(decided.winner.name)
    tie.locator("a.tie-sides").click()
    expect(page).to_have_url(re.compile(rf"/cups/{cup.pk}/ties/{decided.pk}/$"))


def test_printed_every_round_is_on_one_page(live_server, page, cup):
    page.goto(bracket_url(live_server.url, cup))
    page.emulate_media(media="print")
    expect(page.locator(".bracket-rounds")).to_be_hidden()
    tops = page.locator(".bracket-round").evaluate_all(
        "els => els.map(e => getComputedStyle(e).display)"
    )
    assert tops == ["flex"] * len(ROUNDS)
    pdf = page.pdf(prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1


def test_news_is_swapped_in_and_the_phone_keeps_its_round(live_server, page, cup):
    page.goto(bracket_url(live_server.url, cup) + "#round-2")
    wait_on_screen(page, "Quarter-finals")
    expect(page.locator("#bracket-poll")).to_have_attribute("hx-trigger", "every 20s")

    quarter = cup.ties.filter(bracket="main", round=2).order_by("order").first()
    tie_walkover(tie=quarter, absent="away")
    page.evaluate(  # what the poll does every 20 s, now
        "() => htmx.ajax('GET', location.pathname, {source: '#bracket-poll', swap: 'none'})"
    )
    expect(page.locator(f"#tie-{quarter.key} .entrant-winner")).to_contain_text(quarter.home.name)
    wait_on_screen(page, "Quarter-finals")  # still on screen
