"""Deal entry's small faults of issue 30 stay fixed, on a 390 px phone: the buttons that
say who named trump show each player's whole name ("Ada Kessler", not "Ada Kessle"), no
suit spills out of its button ("Diamonds"), a three-hand game's hint asks for the points
of all sides but one, a saved deal does not land on ``#error-summary``, and axe-core
(with ``label-content-name-mismatch``) passes deal entry and a correction."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.games import services
from tests.browser.conftest import assert_accessible, log_in
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
NAMES = ["Ada Kessler", "Bartholomew Higginbotham", "Mary-Lou Featherstone", "Bud Hartig"]

#: Labels whose text does not fit their box (cut off, or spilling out of it).
CUT_OFF = """selector => [...document.querySelectorAll(selector)]
    .filter(el => el.offsetParent !== null)
    .filter(el => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
        || getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
    .map(el => el.textContent.trim())"""


def _game(names, rules):
    club = ClubFactory(slug="kessler", name="Kessler Club")
    MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="marge"))
    players = [PlayerFactory(club=club, name=name) for name in names]
    return services.game_start(club=club, seats=players, rules=rules)


def _open(page, live_server, game, path="deal/"):
    log_in(page, live_server.url, "marge", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/{path}")


def test_whole_names_on_the_maker_buttons_and_every_suit_in_its_button(live_server, page):
    game = _game(NAMES, "clabber")
    _open(page, live_server, game)
    makers = page.locator(".makers label")
    expect(makers).to_have_count(4)
    for name in NAMES:
        expect(page.locator(".makers label", has_text=name)).to_be_visible()
    assert page.evaluate(CUT_OFF, ".makers label") == []
    expect(page.locator(".trump label", has_text="Diamonds")).to_be_visible()
    assert page.evaluate(CUT_OFF, ".trump label") == []
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
    assert_accessible(page)


def test_a_saved_deal_does_not_land_on_the_error_summary_and_a_correction_passes_axe(
    live_server, page
):
    game = _game(NAMES, "clabber")
    _open(page, live_server, game)
    page.locator("label[for=id_trump_2]").click()
    page.locator("label[for=id_maker_seat_0]").click()
    page.get_by_label(re.compile(r"^Card points, Ada Kessler")).fill("100")
    page.locator("label[for=id_last_trick_0]").click()
    expect(page.locator("#preview")).to_contain_text("Deal 1")
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    assert "#" not in page.url, page.url
    # The link to the sheet is named by the words it shows (names, totals, "Sheet").
    expect(page.get_by_role("link", name=re.compile(r"^Ada Kessler & Mary-Lou"))).to_contain_text(
        "Sheet"
    )
    assert_accessible(page)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/deals/1/edit/")
    expect(page.get_by_role("heading", name="Correct deal 1")).to_be_visible()
    expect(page.get_by_role("button", name="More melds for Ada Kessler")).to_be_visible()
    assert_accessible(page)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/")
    expect(page.get_by_role("link", name="Fix deal 1")).to_be_visible()
    assert_accessible(page)


def test_a_three_hand_games_hint_asks_for_all_sides_but_one(live_server, page):
    game = _game(NAMES[:3], "clabber-3")
    _open(page, live_server, game)
    hint = page.locator("#preview")
    expect(hint).to_contain_text("the card points of all sides but one")
    expect(hint).not_to_contain_text("the other side gets the rest")
    assert page.evaluate(CUT_OFF, ".makers label") == []
    assert_accessible(page)
