"""Deal entry with no network (issue 14): a phone opens a game online (through the table's
QR link, no account), loses the network,
records the rest of the game with the rules engine running on the phone (Pyodide), reloads
the page with no network, and sends everything once the network is back; two phones that
recorded the same deals offline are shown the clash and a person keeps one sequence."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.handlers.wsgi import WSGIHandler
from playwright.sync_api import expect

from clabber_league.games import services, table_links
from clabber_league.games.models import DealRevision, Game
from clabber_league.standings.models import TeamStanding
from tests.browser.conftest import PHONE, assert_accessible, log_in, mules_v_dads

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
TABLE = "the table link"  # a phone that scanned the table's QR code, no account
MARY_LOU = 2


@pytest.fixture
def game(db):
    return mules_v_dads("marge", "homer", password=PASSWORD)


#: Waits (up to 120 s) until the service worker is active and has kept ``url``.
KEPT = """async (url) => {
    const until = Date.now() + 120000;
    while (Date.now() < until) {
        const ready = await navigator.serviceWorker.ready;
        const kept = await (await caches.open('clabber-pages-v1')).match(url);
        if (ready.active && kept) return true;
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return false;
}"""


@pytest.fixture
def phones(browser, live_server, game):
    """Phones that opened the game's deal page online; closed after the test, so that
    none goes on sending to a server that has stopped."""
    opened = []

    def open_phone(username=TABLE):
        context, page = phone(browser, live_server, game, username)
        opened.append(context)
        return context, page

    yield open_phone
    for context in opened:
        context.close()
    # The requests they sent just before they closed are waited for by the browser
    # conftest before the database is emptied.


#: Resolves once the page's pending callbacks (an answer just read) have run.
SETTLED = "() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))"

#: The page fits the phone's width: nothing scrolls sideways.
FITS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"


#: How many deals the phone's outbox holds (IndexedDB, static/js/outbox.js).
OUTBOX_SIZE = """() => new Promise((resolve, reject) => {
    const request = indexedDB.open('clabber-offline', 1);
    request.onsuccess = () => {
        const count = request.result.transaction('outbox').objectStore('outbox').count();
        count.onsuccess = () => resolve(count.result);
    };
    request.onerror = () => reject(request.error);
})"""


def phone(browser, live_server, game, username=TABLE):
    """A phone that opened the game's deal page online and is ready to lose the network:
    through the game's table link (no account), or as a scorer who logged in."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30_000)
    url = f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/deal/"
    if username == TABLE:
        link = table_links.table_link_live(game=game) or table_links.table_link_issue(
            game=game, table_label="3"
        )
        page.goto(live_server.url + table_links.table_link_path(link))
        page.wait_for_url(url)
    else:
        log_in(page, live_server.url, username, PASSWORD)
        page.goto(url)
    # The service worker has precached the assets and the engine, and kept this page.
    kept = page.evaluate(KEPT, url)
    assert kept, "the service worker did not keep the deal page"
    return context, page


def engine_on_the_phone(page) -> None:
    """Wait for the rules engine (Pyodide) the page starts when the network goes; it
    starts in the background and the form works meanwhile."""
    failed = page.evaluate(
        """() => Promise.race([
            window.ClabberEngine.ready().then(() => null, (error) => error.message),
            new Promise((resolve) => setTimeout(() => resolve("not ready in 180 s"), 180000)),
        ])"""
    )
    assert failed is None, failed


def go_offline(context, *pages) -> None:
    context.set_offline(True)
    for page in pages or context.pages:
        engine_on_the_phone(page)


def enter(page, card_points_mules: int) -> None:
    """Hearts named by Mary-Lou; Mules take ``card_points_mules`` and the last trick."""
    page.locator("label[for=id_trump_2]").click()
    page.locator(f"label[for=id_maker_seat_{MARY_LOU}]").click()
    page.get_by_label("Card points, Mules").fill(str(card_points_mules))
    page.locator("label[for=id_last_trick_0]").click()


def save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.locator("h1")).to_have_text(f"Deal {number + 1}")


def test_a_game_recorded_offline_reaches_the_server_once(phones, game):
    context, page = phones()
    go_offline(context)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text("No network")

    enter(page, 80)
    # The engine on the phone previews the deal, with no network.
    expect(page.locator("#preview")).to_contain_text("Deal 1: made")
    expect(page.locator("#preview")).to_contain_text("Mules 90")
    save(page, 1)
    expect(status).to_contain_text("1 deal waiting to send")
    enter(page, 80)
    save(page, 2)

    # A deal the rules refuse: its message shows, offline, and nothing is kept.
    enter(page, 200)
    page.get_by_role("button", name="Save deal 3").click()
    expect(page.locator("#offline-errors")).to_contain_text("Card points must be a whole number")
    assert_accessible(page)
    page.get_by_label("Card points, Mules").fill("80")
    save(page, 3)
    expect(status).to_contain_text("3 deals waiting to send")
    assert_accessible(page)

    page.reload()  # no network: the page, its scripts and the engine come from the phone
    expect(page.locator("h1")).to_have_text("Deal 4")
    engine_on_the_phone(page)
    expect(status).to_contain_text("3 deals waiting to send")
    for number in (4, 5):
        enter(page, 80)
        save(page, number)
    enter(page, 80)
    page.get_by_role("button", name="Save deal 6").click()
    expect(page.locator("#offline-over")).to_contain_text("Game over: won by Mules")
    expect(status).to_contain_text("6 deals waiting to send")
    assert_accessible(page)
    assert game.deals.count() == 0

    context.set_offline(False)
    page.wait_for_url(f"**/games/{game.pk}/")  # every deal sent: the server's sheet
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert list(game.deals.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]
    assert DealRevision.objects.filter(game=game, action="create").count() == 6
    assert set(game.deals.values_list("entered_at_table", flat=True)) == {"3"}
    assert game.scores == {"A": 540, "B": 432}
    total = page.locator(".sheet").inner_text()
    assert "540" in total and "432" in total
    standings = TeamStanding.objects.filter(division=game.division)
    assert sum(s.games_played for s in standings) == 2  # the standings moved


def test_two_phones_offline_on_one_game_see_the_clash_and_lose_nothing(phones, game):
    first, page_one = phones("marge")
    second, page_two = phones("homer")
    go_offline(first)
    go_offline(second)
    for number in (1, 2):
        enter(page_one, 80)
        save(page_one, number)
    enter(page_two, 100)
    save(page_two, 1)

    first.set_offline(False)
    expect(page_one.locator("h1")).to_have_text("Deal 3")  # sent: the server's page again
    expect(page_one.locator("#outbox-status")).to_contain_text("All deals sent")
    assert game.deals.count() == 2

    second.set_offline(False)
    clash = page_two.locator("#outbox-status")
    expect(clash).to_contain_text("Another phone already recorded deal 1")
    # Both phones' deals side by side, by the sides' names, with the totals each ends on.
    theirs = list(game.deals.order_by("number"))
    table = clash.locator("table.clash")
    expect(table.locator("tr", has_text="Totals")).to_contain_text(
        f"Mules {theirs[-1].running_a}, Dads {theirs[-1].running_b}"
    )
    first_row = table.locator("tr").nth(1)
    expect(first_row.locator("td").nth(1)).to_contain_text(
        f"Mules {theirs[0].score_a}, Dads {theirs[0].score_b}"
    )
    mine_cell = first_row.locator("td").nth(0)
    expect(mine_cell).to_contain_text("Mules ")
    assert mine_cell.inner_text() != first_row.locator("td").nth(1).inner_text()
    expect(table.locator("tr", has=page_two.locator("th", has_text="2"))).to_contain_text(
        f"Mules {theirs[1].score_a}"
    )
    assert_accessible(page_two)
    assert page_two.evaluate(FITS), "the clash scrolls sideways on a phone"
    assert game.deals.count() == 2  # nothing was recorded over the other phone's deals

    with page_two.expect_navigation():  # done: the server's page again
        page_two.get_by_role("button", name="Keep the server's deals").click()
    expect(page_two.locator("h1")).to_have_text("Deal 3")
    expect(page_two.locator("#outbox-status")).to_contain_text(
        "You kept the other phone's deals: this phone's deal 1 is kept in the game's history"
    )
    aside = DealRevision.objects.get(game=game, action="delete")
    assert aside.before["set_aside"] and aside.before["data"]["points"]["A"] == 100
    assert [d.data["points"]["A"] for d in game.deals.all()] == [80, 80]

    # The phone whose deals were kept is told too (it reads the game's history now and then).
    told = page_one.locator("#outbox-status")
    expect(told).to_contain_text(
        "Another phone recorded this game's deals too: its deal 1 was set aside", timeout=30_000
    )
    expect(told.get_by_role("link", name="See the game's history")).to_be_visible()
    assert_accessible(page_one)
    page_one.get_by_role("button", name="Got it").click()
    expect(told).not_to_contain_text("set aside")
    page_one.reload()  # dismissed on this phone: not shown again
    expect(page_one.locator("h1")).to_have_text("Deal 3")
    expect(told).not_to_contain_text("set aside")


def test_keeping_this_phones_deals_corrects_the_others_into_the_history(phones, game):
    first, page_one = phones("marge")
    second, page_two = phones("homer")
    go_offline(first)
    go_offline(second)
    for number in (1, 2):
        enter(page_one, 80)
        save(page_one, number)
    enter(page_two, 100)
    save(page_two, 1)
    first.set_offline(False)
    # The first phone's deals are on the server before the second phone has a network
    # (its heading says "Deal 3" already offline, so wait for the outbox to be empty).
    expect(page_one.locator("#outbox-status")).to_contain_text("All deals sent")
    assert game.deals.count() == 2
    second.set_offline(False)
    expect(page_two.locator("#outbox-status")).to_contain_text(
        "Another phone already recorded deal 1"
    )
    with page_two.expect_navigation():  # done: the server's page again
        page_two.get_by_role("button", name="Keep this phone's deals").click()
    expect(page_two.locator("h1")).to_have_text("Deal 2")
    assert [d.data["points"]["A"] for d in game.deals.all()] == [100]
    history = {(r.action, r.deal_number) for r in DealRevision.objects.filter(game=game)}
    assert {("create", 1), ("create", 2), ("update", 1), ("delete", 2)} <= history
    # The phone whose deals were kept is told just that, never that its deals were replaced.
    kept = page_two.locator("#outbox-status")
    expect(kept).to_contain_text("You kept this phone's deal 1")
    with page_two.expect_response(lambda r: "/history/" in r.url):  # the page reads it
        page_two.reload()
    page_two.evaluate(SETTLED)
    expect(kept).to_contain_text("You kept this phone's deal 1")
    expect(kept).not_to_contain_text("replaced")

    # The phone whose deals were replaced is told too (it reads the game's history), and
    # ends on the server's totals, not the ones it had worked out.
    told = page_one.locator("#outbox-status")
    expect(told).to_contain_text("this phone's deals 1-2 were replaced", timeout=30_000)
    server = Game.objects.get(pk=game.pk)
    expect(page_one.locator(".deal-head .totals")).to_contain_text(f"Mules {server.score_a}")
    expect(page_one.locator("h1")).to_have_text("Deal 2")
    assert_accessible(page_one)
    page_one.get_by_role("button", name="Got it").click()
    expect(told).not_to_contain_text("replaced")


#: Clicks Save and reads, in the same task (before any engine answer can arrive), what the
#: page says and whether the form still takes input.
SAVE_AND_LOOK = """() => {
    document.querySelector('.deal-form button.save').click();
    const form = document.querySelector('.deal-form');
    return { said: document.getElementById('preview').textContent, held: form.inert };
}"""


def test_save_answers_at_once_and_never_wipes_the_next_deal(phones, game):
    context, page = phones()
    context.set_offline(True)  # the engine may still be starting: Save says so at once
    enter(page, 80)
    answer = page.evaluate(SAVE_AND_LOOK)
    assert "Saving deal 1 on this phone" in answer["said"]
    assert answer["held"], "the form must take no input while the deal is being saved"
    expect(page.locator("#preview")).to_contain_text("Deal 1 saved on this phone", timeout=180_000)
    expect(page.locator("h1")).to_have_text("Deal 2")
    expect(page.locator("#outbox-status")).to_contain_text("1 deal waiting to send")

    # The scorer starts deal 2; the network comes back and deal 1 is sent meanwhile: the
    # page does not reload under the scorer's fingers, and nothing typed is lost.
    page.locator("label[for=id_trump_1]").click()
    page.get_by_label("Card points, Mules").fill("70")
    context.set_offline(False)
    expect(page.locator("#outbox-status")).to_contain_text("All deals sent")
    assert game.deals.count() == 1
    expect(page.get_by_label("Card points, Mules")).to_have_value("70")
    expect(page.locator("h1")).to_have_text("Deal 2")
    page.locator(f"label[for=id_maker_seat_{MARY_LOU}]").click()
    page.locator("label[for=id_last_trick_0]").click()
    page.get_by_role("button", name="Save deal 2").click()  # online: to the server
    expect(page.locator("h1")).to_have_text("Deal 3")
    assert [d.data["points"]["A"] for d in game.deals.order_by("number")] == [80, 70]
    assert_accessible(page)


def test_a_deal_the_server_now_refuses_waits_for_a_person(phones, game):
    context, page = phones()
    go_offline(context)
    enter(page, 80)
    save(page, 1)
    services.game_abandon(game=Game.objects.get(pk=game.pk))  # meanwhile, on the server
    context.set_offline(False)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text("Deal 1 was refused by the server: This game was abandoned")
    assert_accessible(page)
    page.wait_for_timeout(3000)  # the outbox is tried again meanwhile: the deal stays
    expect(status).to_contain_text("Deal 1 was refused by the server")
    assert page.evaluate(OUTBOX_SIZE) == 1
    with page.expect_navigation():  # a person decides; the server's page again
        page.get_by_role("button", name="Discard deal 1").click()
    assert page.evaluate(OUTBOX_SIZE) == 0
    assert game.deals.count() == 0


def test_a_correction_made_offline_waits_in_the_outbox_with_the_deals(phones, game):
    context, page = phones()
    for number in (1, 2):  # online: straight to the server
        enter(page, 80)
        save(page, number)
    deal_page = page.url.split("#")[0]
    fix_page = deal_page.removesuffix("deal/") + "deals/1/edit/"
    page.goto(fix_page)  # opened online: the service worker keeps it
    assert page.evaluate(KEPT, fix_page), "the correction's page was not kept"
    go_offline(context)
    status = page.locator("#outbox-status")

    page.get_by_label("Card points, Mules").fill("200")  # the engine on the phone says no
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#offline-errors")).to_contain_text("Card points must be a whole number")
    page.get_by_label("Card points, Mules").fill("100")
    page.get_by_role("button", name="Save correction").click()
    expect(status).to_contain_text("1 correction waiting to send")
    expect(page.locator("#preview")).to_contain_text("Correction of deal 1 saved on this phone")
    assert_accessible(page)

    page.goto(deal_page)  # no network: the kept deal page; the next deal waits behind it
    expect(page.locator("h1")).to_have_text("Deal 3")
    engine_on_the_phone(page)
    expect(status).to_contain_text("1 correction waiting to send")
    enter(page, 80)
    save(page, 3)
    expect(status).to_contain_text("1 deal and 1 correction waiting to send")
    assert [d.data["points"]["A"] for d in game.deals.all()] == [80, 80]

    with page.expect_navigation(timeout=60_000):  # all sent: the server's page again
        context.set_offline(False)
    expect(page.locator("h1")).to_have_text("Deal 4")
    expect(status).to_contain_text("All deals sent")
    assert [d.data["points"]["A"] for d in game.deals.all()] == [100, 80, 80]
    fixed = DealRevision.objects.filter(game=game, action="update")
    assert [(r.deal_number, r.after["data"]["points"]["A"]) for r in fixed] == [(1, 100)]
    assert page.evaluate(OUTBOX_SIZE) == 0


def test_a_correction_the_server_refuses_waits_for_a_person(phones, game):
    context, page = phones()
    enter(page, 80)
    save(page, 1)
    fix_page = page.url.split("#")[0].removesuffix("deal/") + "deals/1/edit/"
    page.goto(fix_page)
    assert page.evaluate(KEPT, fix_page), "the correction's page was not kept"
    go_offline(context)
    page.get_by_label("Card points, Mules").fill("100")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#outbox-status")).to_contain_text("1 correction waiting to send")
    services.game_abandon(game=Game.objects.get(pk=game.pk))  # meanwhile, on the server
    context.set_offline(False)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text(
        "The correction of deal 1 was refused by the server: This game was abandoned"
    )
    assert_accessible(page)
    assert page.evaluate(OUTBOX_SIZE) == 1
    with page.expect_navigation():  # a person decides; the server's sheet again
        page.get_by_role("button", name="Discard correction of deal 1").click()
    assert page.evaluate(OUTBOX_SIZE) == 0
    assert [d.data["points"]["A"] for d in game.deals.all()] == [80]


@pytest.mark.parametrize("username", [TABLE, "marge"])
def test_the_table_link_opened_again_offline_lands_on_the_kept_deal_entry(
    phones, game, live_server, username
):
    link = table_links.table_link_live(game=game) or table_links.table_link_issue(
        game=game, table_label="3"
    )
    context, page = phones(username)  # opened online: by the link, or by a scorer
    link_url = live_server.url + table_links.table_link_path(link)
    alias = live_server.url + "/__table-link__" + table_links.table_link_path(link)
    assert page.evaluate(KEPT, alias), "the service worker did not keep the table link"
    go_offline(context)

    page.goto(link_url)

    assert page.url == f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/deal/"
    expect(page.locator("h1")).to_have_text("Deal 1")
    engine_on_the_phone(page)
    enter(page, 80)
    save(page, 1)
    expect(page.locator("#outbox-status")).to_contain_text("1 deal waiting to send")
    assert game.deals.count() == 0


#: The service worker's wait for a network that carries nothing (templates/site/sw.js).
NETWORK_TIMEOUT_S = 4


def test_a_wifi_that_carries_nothing_gives_the_kept_page_after_a_few_seconds(
    phones, game, monkeypatch
):
    """A hall's Wi-Fi that is connected but answers nothing: the phone reloads the deal page
    and gets the copy it kept once the network has had its few seconds, not after the
    browser's own timeout of minutes. The live server holds the page's request unanswered
    (in this process, until the test lets it go) to stand for that Wi-Fi."""
    _context, page = phones()
    deal_path = f"/clubs/{game.club.slug}/games/{game.pk}/deal/"
    let_go = threading.Event()
    held = []
    answer = WSGIHandler.__call__

    def dead_wifi(handler, environ, start_response):
        if environ["PATH_INFO"] == deal_path:
            held.append(deal_path)
            let_go.wait(120)
        return answer(handler, environ, start_response)

    monkeypatch.setattr(WSGIHandler, "__call__", dead_wifi)
    try:
        started = time.monotonic()
        page.reload(timeout=30_000)
        waited = time.monotonic() - started
        expect(page.locator("h1")).to_have_text("Deal 1")
        assert held and not let_go.is_set()  # the server has not answered: the kept copy
        assert waited >= NETWORK_TIMEOUT_S - 0.5  # the network had its chance first
        expect(page.get_by_role("button", name="Save deal 1")).to_be_enabled()
    finally:
        let_go.set()
