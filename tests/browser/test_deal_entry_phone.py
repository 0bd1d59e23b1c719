"""Deal entry at the table on a 390x844 phone (issue 12).

A plain deal fits one screen with its preview above Save; sides and players appear by
name, in the form and in the messages; a meld is a chip and a suit; passed-out is one big
toggle; a renege needs no card points; a rejected save brings the summary of what is wrong
into view; a correction previews the deal corrected; a deal is deleted and a game
abandoned after a confirmation page, both kept in the history; without JavaScript the
same page is a plain form that still records melds.
"""

import re

import pytest
from playwright.sync_api import expect

from clabber_league.games import services
from clabber_league.games.models import DealRevision, Game
from tests.browser.conftest import PHONE, assert_accessible, log_in, mules_v_dads

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
TOM, ANN, MARY_LOU, BOB = 0, 1, 2, 3

#: True when the element is inside the viewport and nothing (a sticky bar) covers it.
ON_SCREEN = """el => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (el.contains(hit) || el.control === hit);
}"""


@pytest.fixture
def game(db):
    return mules_v_dads("marge", password=PASSWORD)


def open_deal_page(page, live_server, game, path="deal/"):
    log_in(page, live_server.url, "marge", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/{path}")


def on_screen(locator) -> bool:
    return locator.evaluate(ON_SCREEN)


def wait_for_preview(page):
    page.wait_for_timeout(450)  # the preview follows typing after 400 ms
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")


def test_a_plain_deal_fits_one_screen_with_its_preview_above_save(live_server, page, game):
    open_deal_page(page, live_server, game)
    controls = {
        "trump": page.locator("label[for=id_trump_2]"),
        "maker": page.get_by_text("Mary-Lou", exact=True).first,
        "card points": page.get_by_label("Card points, Mules"),
        "last trick": page.locator("label[for=id_last_trick_0]"),
    }
    for name, control in controls.items():
        assert on_screen(control), f"{name} is not on the first screen"
        control.click()
        if name == "card points":
            page.keyboard.type("100")
        if name == "trump":
            # Half-way through, the preview says what is still needed; no red beside the
            # fields not filled in yet (Save would list them).
            wait_for_preview(page)
            expect(page.locator("#preview")).to_contain_text("Still to fill in: Card points")
            expect(page.locator("#err-maker_seat")).to_be_empty()
    wait_for_preview(page)
    preview, save = page.locator("#preview"), page.get_by_role("button", name="Save deal 1")
    expect(preview).to_contain_text("Deal 1: made")
    expect(preview).to_contain_text("Mules 110")  # 100 + 10 for the last trick
    expect(preview).to_contain_text("next dealer")
    assert on_screen(preview) and on_screen(save)
    assert preview.bounding_box()["y"] + preview.bounding_box()["height"] <= (
        save.bounding_box()["y"] + 1
    ), "the preview sits above Save"
    assert page.evaluate("() => window.scrollY") == 0  # nothing needed a scroll
    save.click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    deal = game.deals.get()
    assert (deal.maker_seat, deal.data["points"], deal.data["trump"]) == (
        MARY_LOU,
        {"A": 100, "B": 52},
        "hearts",
    )
    assert_accessible(page)


def test_sides_and_players_are_named_never_a_b_or_seat_numbers(live_server, page, game):
    open_deal_page(page, live_server, game)
    form = page.locator("form.deal-form")
    for name in ("Mules", "Dads", "Tom", "Mary-Lou", "Ann", "Bob"):
        expect(form).to_contain_text(name)
    # Every label and heading but the top cards of a run (an A there is the Ace).
    labels = " | ".join(
        form.locator("label:not([data-top]), span.field-label, h2").all_inner_texts()
    )
    assert not re.search(r"\b(Side [AB]|[AB])\b|\(\s*[AB]\s*\)|Seat \d", labels), labels

    # Tom's run A-K-Q of hearts holds the King and Queen of trumps: Ann cannot have the bell.
    page.locator("label[for=id_trump_2]").click()
    page.locator("label[for=id_maker_seat_0]").click()
    page.get_by_label("Card points, Mules").fill("100")
    page.locator("label[for=id_last_trick_0]").click()
    page.get_by_role("button", name="Run 3 for Tom").click()
    page.locator("[data-meld-row='0'] [data-suit=hearts]").click()
    page.get_by_role("button", name="Bell for Ann").click()
    page.get_by_role("button", name="Save deal 1").click()

    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("Tom's run of 3")
    expect(summary).to_contain_text("so Dads cannot hold the bell")
    text = summary.inner_text()
    assert "melds." not in text and not re.search(r"\b(side|player) [A-C0-9]\b", text), text
    assert game.deals.count() == 0


def test_a_meld_is_a_chip_and_a_suit_with_the_likeliest_top_card_picked(live_server, page, game):
    open_deal_page(page, live_server, game)
    page.locator("label[for=id_trump_1]").click()
    page.locator("label[for=id_maker_seat_2]").click()
    page.get_by_label("Card points, Mules").fill("100")
    page.locator("label[for=id_last_trick_0]").click()
    taps = 0
    page.get_by_role("button", name="Run 3 for Tom").click()
    taps += 1
    card = page.locator("[data-meld-row='0']")
    expect(card.locator("legend")).to_have_text("Tom · Run of 3 (dad)")
    expect(card.locator("input[name=meld_0_top]:checked")).to_have_value("A")
    expect(card.locator("label[data-top='10']")).to_be_hidden()  # no run of 3 tops at 10
    card.locator("[data-suit=spades]").click()
    taps += 1
    assert taps <= 3
    wait_for_preview(page)
    expect(page.locator("#preview")).to_contain_text("Mules 130")  # 100 + 10 + 20
    assert_accessible(page)  # with a meld card open
    page.get_by_role("button", name="Four J for Bob").click()  # one tap: no suit, no top
    expect(page.locator("[data-meld-row='1'] .meld-suit")).to_be_hidden()
    page.get_by_role("button", name="Remove meld 2").click()
    # A rarer meld: "More", then the meld from the list; a run of 5 can only top at A or K.
    page.get_by_role("button", name="More melds for Mary-Lou").click()
    page.get_by_label("Meld 2: meld").select_option("run-5")
    rarer = page.locator("[data-meld-row='1']")
    expect(rarer.locator("legend")).to_have_text("Mary-Lou · Run of 5")
    expect(rarer.locator("input[name=meld_1_top]:checked")).to_have_value("A")
    expect(rarer.locator("label[data-top='Q']")).to_be_hidden()
    page.get_by_role("button", name="Remove meld 2").click()
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    assert game.deals.get().data["melds"] == {
        "A": [{"kind": "sequence", "suit": "spades", "top": "A", "length": 3, "player": TOM}]
    }


def test_passed_out_is_one_big_toggle(live_server, page, game):
    open_deal_page(page, live_server, game)
    toggle = page.locator(".passed-toggle label")
    assert toggle.bounding_box()["height"] >= 44
    toggle.click()
    expect(page.locator(".played-only")).to_be_hidden()
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved (passed out")
    assert game.deals.get().outcome == "passed"


def test_a_renege_needs_no_card_points(live_server, page, game):
    open_deal_page(page, live_server, game)
    page.locator("label[for=id_trump_3]").click()
    page.locator("label[for=id_maker_seat_1]").click()
    page.locator("label[for=id_renege_0]").click()  # Mules reneged
    wait_for_preview(page)
    expect(page.locator("#preview")).to_contain_text("renege")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved (renege")
    deal = game.deals.get()
    assert deal.outcome == "renege" and "points" not in deal.data


def test_a_rejected_save_brings_its_summary_into_view(live_server, page, game):
    open_deal_page(page, live_server, game)
    page.locator("label[for=id_trump_0]").click()
    page.get_by_label("Card points, Dads").fill("151")  # the other side cannot hold 1
    page.get_by_role("button", name="Save deal 1").click()
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    assert on_screen(summary.locator("h2"))
    expect(summary).to_contain_text("Who named trump")
    expect(summary).to_contain_text("Last trick")
    summary.get_by_role("link", name="Who named trump").click()
    assert game.deals.count() == 0
    assert_accessible(page)


def test_a_corrections_preview_is_for_the_deal_corrected(live_server, page, game):
    scorer = game.created_by
    for a in (100, 90, 80):
        services.deal_record(
            game_id=game.pk,
            data={"maker": "A", "trump": "hearts", "points": {"A": a}, "last_trick": "A"},
            maker_seat=TOM,
            user=scorer,
        )
    open_deal_page(page, live_server, game, "deals/2/edit/")
    expect(page.get_by_label("Card points, Mules")).to_have_value("90")
    page.get_by_label("Card points, Mules").fill("70")
    wait_for_preview(page)
    preview = page.locator("#preview")
    # Deal 1: 110 to 52; deal 2 corrected: Mules 70 + 10 = 80 against 82, so set (XX);
    # the running totals are those after deal 2, and the game's after the deals after it.
    expect(preview).to_contain_text("Deal 2, corrected: set")
    expect(preview).to_contain_text("Mules XX")
    expect(preview).to_contain_text(re.compile(r"Running\s+Mules 110\s*Dads 134"))
    expect(preview).to_contain_text("after deal 3: Mules 200, Dads 206")
    expect(preview).not_to_contain_text("Deal 4")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".messages")).to_contain_text("Deal 2 corrected")


def test_deleting_a_deal_and_abandoning_the_game_ask_first_and_stay_in_the_history(
    live_server, page, game
):
    services.deal_record(
        game_id=game.pk,
        data={"maker": "A", "trump": "hearts", "points": {"A": 100}, "last_trick": "A"},
        user=game.created_by,
    )
    open_deal_page(page, live_server, game, "deals/1/edit/")
    page.get_by_role("link", name="Delete deal 1").click()
    expect(page.get_by_role("heading", name="Delete deal 1?")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Delete deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 deleted")
    expect(page.locator(".history-list")).to_contain_text("Deleted deal 1")
    assert game.deals.count() == 0

    page.get_by_role("link", name="Abandon the game").click()
    expect(page.get_by_role("heading", name=f"Abandon game {game.pk}?")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("button", name="Abandon the game").click()
    expect(page.locator(".messages")).to_contain_text("Game abandoned")
    expect(page.locator(".history-list")).to_contain_text("Abandoned the game")
    expect(page.get_by_role("link", name=re.compile("Enter deal"))).to_have_count(0)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert DealRevision.objects.filter(game=game).count() == 3  # recorded, deleted, abandoned


def test_without_javascript_the_page_is_a_plain_form_that_records_melds(browser, live_server, game):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        open_deal_page(page, live_server, game)
        expect(page.locator("[data-meld-chips]").first).to_be_hidden()
        page.locator("label[for=id_trump_2]").click()
        page.locator("label[for=id_maker_seat_1]").click()
        page.get_by_label("Card points, Dads").fill("100")
        page.locator("label[for=id_last_trick_1]").click()
        page.get_by_label("Meld 1: player").select_option(label="Bob")
        page.get_by_label("Meld 1: meld").select_option("run-4")
        page.locator("label[for=id_meld_0_suit_0]").click()
        page.locator("label[for=id_meld_0_top_0]").click()
        page.locator("label[for=id_bell_2]").click()  # Ann, seat 1
        page.get_by_role("button", name="Save deal 1").click()
        expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
        deal = game.deals.get()
        assert deal.data["melds"]["B"][0]["player"] == BOB
        assert deal.data["bell"] == "B"
    finally:
        context.close()
