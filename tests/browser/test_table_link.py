"""The phone at a table, on a 390x844 viewport, with no account (issue 14): it opens its
game through the table link, records a deal, and the history says "entered at table 3
(table link)"; the game's page and its table card pass axe-core; a link that no longer
works says why."""

import pytest
from playwright.sync_api import expect

from clabber_league.games import table_links
from clabber_league.games.models import Game
from tests.browser.conftest import assert_accessible, mules_v_dads

pytestmark = pytest.mark.django_db(transaction=True)

#: True when the page scrolls sideways on the phone.
SIDEWAYS = "() => document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth + 1"


@pytest.fixture
def game(db):
    return mules_v_dads("marge")  # a private club: the phone reads it through its link only


def test_the_table_phone_scores_through_its_link_without_logging_in(live_server, page, game):
    link = table_links.table_link_issue(game=game, table_label="3")
    game_url = f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/"

    page.goto(live_server.url + table_links.table_link_path(link))

    assert page.url == game_url + "deal/"
    expect(page.locator(".messages")).to_contain_text(f"You score game {game.pk} at table 3")
    page.locator("label[for=id_trump_2]").click()
    page.locator("label[for=id_maker_seat_0]").click()
    page.get_by_label("Card points, Mules").fill("100")
    page.locator("label[for=id_last_trick_0]").click()
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    deal = game.deals.get()
    assert deal.entered_at_table == "3" and deal.created_by is None

    page.goto(game_url)
    expect(page.locator(".history")).to_contain_text("entered at table 3 (table link)")
    expect(page.locator(".table-link-panel svg[role=img]")).to_be_visible()
    assert not page.evaluate(SIDEWAYS)
    assert_accessible(page)

    page.goto(game_url + "table-card/")
    card = page.locator(".table-card")
    expect(card).to_contain_text("Table 3")
    expect(card).to_contain_text("Deals first: Tom")
    expect(card.locator("svg[role=img]")).to_have_attribute(
        "aria-label", f"Table 3: scan to score game {game.pk}"
    )
    assert not page.evaluate(SIDEWAYS)
    assert_accessible(page)


def test_a_revoked_link_says_why_on_the_phone(live_server, page, game):
    link = table_links.table_link_issue(game=game, table_label="3")
    page.goto(live_server.url + table_links.table_link_path(link))
    table_links.table_link_revoke(game=game)

    page.get_by_label("Card points, Mules").fill("100")
    page.get_by_role("button", name="Save deal 1").click()

    expect(page.locator("main")).to_contain_text("revoked by a club admin")
    assert not game.deals.exists()
    page.goto(live_server.url + table_links.table_link_path(link))
    expect(page.get_by_role("heading", level=1)).to_have_text("This table link does not work")
    expect(page.locator("main")).to_contain_text("revoked by a club admin")
    assert_accessible(page)


def test_a_confirmed_game_closes_its_link(live_server, page, game):
    link = table_links.table_link_issue(game=game, table_label="3")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CONFIRMED)
    page.goto(live_server.url + table_links.table_link_path(link))
    expect(page.locator("main")).to_contain_text("This game is confirmed")


def test_a_fixtures_link_starts_its_game_at_the_table_then_scores_it(live_server, page, game):
    from clabber_league.scheduling.models import Fixture

    fixture = Fixture.objects.create(
        club=game.club,
        division=game.division,
        round_number=2,
        home=game.sides.get(side="A").team,
        away=game.sides.get(side="B").team,
        table=5,
    )
    link = table_links.fixture_link_issue(fixture=fixture)

    page.goto(live_server.url + table_links.table_link_path(link))

    expect(page.get_by_role("heading", level=1)).to_have_text("Table 5: start the game")
    expect(page.locator(".match")).to_contain_text("Mules v Dads")
    assert not page.evaluate(SIDEWAYS)
    assert_accessible(page)
    page.get_by_text("Seat 2: Ann").click()
    page.get_by_role("button", name="Start the game").click()

    started = Game.objects.get(fixture=fixture)
    assert page.url == f"{live_server.url}/clubs/{game.club.slug}/games/{started.pk}/deal/"
    expect(page.locator(".messages")).to_contain_text("Game started at table 5")
    assert started.first_dealer == 1
    page.locator("label[for=id_trump_2]").click()
    page.locator("label[for=id_maker_seat_1]").click()
    page.get_by_label("Card points, Dads").fill("100")
    page.locator("label[for=id_last_trick_1]").click()
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    assert started.deals.get().entered_at_table == "5"
    assert_accessible(page)
