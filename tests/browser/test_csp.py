"""Content-Security-Policy (issue 10): every page a person uses works under the policy with
no inline script, and the browser reports no violation on any of them."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from clabber_league.games.models import Game

from .conftest import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sourceFile || ""));
});
"""


@pytest.fixture
def demo():
    import io

    call_command("seed_demo", stdout=io.StringIO())
    return Game.objects.filter(club__slug="evansville")


def _violations(page) -> list[str]:
    return page.evaluate("() => window.__csp")


def test_every_page_runs_under_the_policy(live_server, page, demo, logged_in_page):
    page.add_init_script(LISTEN)
    base = live_server.url
    logged_in_page("admin", "clabber-demo")
    league_games = demo.filter(division__isnull=False).order_by("pk")  # not a club night's
    finished = league_games.exclude(status="in_progress").first()
    open_game = league_games.filter(status="in_progress").first()
    division = finished.division
    paths = [
        "/",
        "/rules/",
        "/clubs/evansville/",
        "/clubs/evansville/standings/",
        f"/clubs/evansville/standings/divisions/{division.pk}/",
        "/clubs/evansville/standings/leaderboards/",
        "/clubs/evansville/schedule/",
        f"/clubs/evansville/schedule/divisions/{division.pk}/",
        f"/clubs/evansville/games/{finished.pk}/",
        f"/clubs/evansville/games/{open_game.pk}/deal/",
        "/api/docs/",
        "/admin/",
    ]
    seen = {}
    for path in paths:
        response = page.goto(base + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")  # deferred scripts have run by then
        seen[path] = _violations(page)
    assert seen == {path: [] for path in paths}


def test_the_moved_scripts_still_work(live_server, page, demo, logged_in_page):
    page.add_init_script(LISTEN)
    base = live_server.url
    logged_in_page("scorer", "clabber-demo")
    open_game = demo.filter(status="in_progress").first()
    page.goto(f"{base}/clubs/evansville/games/{open_game.pk}/deal/")
    card = page.locator("[data-meld-row='0']")
    expect(card).to_be_hidden()
    page.locator("[data-meld-chips] button").first.click()  # deal_form.js opens a meld card
    expect(card).to_be_visible()
    page.locator(".passed-toggle label").click()  # and a passed-out deal hides the rest
    expect(page.locator(".played-only").first).to_be_hidden()

    page.goto(f"{base}/clubs/evansville/standings/leaderboards/")
    options = page.locator("#season option")
    if options.count() > 1:
        value = options.nth(1).get_attribute("value")
        with page.expect_navigation():
            page.select_option("#season", value)  # site.js submits the form on change
        assert f"season={value}" in page.url
    assert _violations(page) == []
    assert_accessible(page)
