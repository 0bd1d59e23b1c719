"""Klaverjas deal entry with no network (issue 36): the phone at the table reads the tally
sheet's form into the same deal as the server and scores it with the rules engine running
on the phone (Pyodide): the preview, a roem claim, a pit; the deals reach the server when
the network is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_klaverjas_phone import klaverjas_game
from tests.browser.test_offline_entry import go_offline, phone

pytestmark = pytest.mark.django_db(transaction=True)


def test_klaverjas_deals_recorded_offline_reach_the_server(browser, live_server):
    game = klaverjas_game()
    context, page = phone(browser, live_server, game)
    try:
        go_offline(context)
        expect(page.locator("#outbox-status")).to_contain_text("No network")
        # Deal 1: Dads play in clubs, 90 with the last trick and a run of 3 in trick 2.
        page.locator("label[for=id_trump_0]").click()
        page.locator("label[for=id_maker_seat_1]").click()
        page.get_by_label("Points with the last trick, Dads").fill("90")
        page.locator("label[for=id_last_trick_1]").click()
        page.get_by_role("button", name="Run of 3 for Dads").click()
        page.locator(".claim-rows .meld-card:not(.is-empty)").last.locator(
            "[data-trick='2']"
        ).click()
        expect(page.locator("#preview")).to_contain_text("Dads 110")
        page.get_by_role("button", name="Save deal 1").click()
        expect(page.locator("h1")).to_have_text("Deal 2")
        # Deal 2: Mules take every trick.
        page.locator("label[for=id_trump_2]").click()
        page.locator("label[for=id_maker_seat_0]").click()
        page.get_by_text("All tricks (pit)").first.click()
        expect(page.locator("#preview")).to_contain_text("Mules 262")
        page.get_by_role("button", name="Save deal 2").click()
        expect(page.locator("#outbox-status")).to_contain_text("2 deals waiting to send")
        assert game.deals.count() == 0

        context.set_offline(False)
        expect(page.locator("#outbox-status")).not_to_contain_text("waiting", timeout=60_000)
        game.refresh_from_db()
        assert game.deal_count == 2
        assert game.scores == {"A": 72 + 262, "B": 110}
        assert game.deals.get(number=2).result["pit"] == "A"
    finally:
        context.close()
