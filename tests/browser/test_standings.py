"""A visitor reads a public club's standings and leaderboards on a phone; a club admin
changes the tiebreakers and sees the table follow them."""

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.standings import views
from tests.browser.conftest import assert_accessible
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory
from tests.standings.conftest import A_WINS, made, play

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
NARROW_A = [made("A", 100)] * 5  # 550 to 260


@pytest.fixture
def league():
    """A public club; Aces and Bells level on match points: Aces won their match,
    Bells have the better points difference (see tests/standings/test_pages.py)."""
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    club.is_public = True
    club.save()
    scorer = UserFactory(username="marge")
    MembershipFactory(club=club, user=scorer, role=Role.SCORER)
    admin = UserFactory(username="homer", password=PASSWORD)
    MembershipFactory(club=club, user=admin, role=Role.ADMIN)
    aces, bells, dads, mules = (
        TeamFactory(division=division, name=n) for n in ("Aces", "Bells", "Dads", "Mules")
    )
    play(division, aces, bells, NARROW_A, user=scorer, confirm_by=admin)
    play(division, bells, dads, A_WINS, user=scorer, confirm_by=admin)
    play(division, mules, aces, A_WINS, user=scorer, confirm_by=admin)
    play(division, mules, dads, A_WINS, user=scorer, confirm_by=admin)
    return club, division


def _order(page) -> list[str]:
    return page.locator("table.standings tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.team)"
    )


def _chart_drawn(page, canvas_id: str) -> None:
    page.wait_for_function(
        f"() => window.Chart && window.Chart.getChart(document.getElementById('{canvas_id}'))"
    )
    points = page.evaluate(
        f"() => window.Chart.getChart(document.getElementById('{canvas_id}'))"
        ".data.datasets[0].data.length"
    )
    assert points > 0


def test_the_leaderboard_shows_its_chart_to_a_visitor(live_server, page, league):
    club, _ = league
    page.goto(f"{live_server.url}/clubs/{club.slug}/standings/leaderboards/")
    expect(page.get_by_role("heading", name="Leaderboards")).to_be_visible()
    expect(page.locator("#leaderboard-chart")).to_be_visible()
    _chart_drawn(page, "leaderboard-chart")
    expect(page.get_by_role("table", name="Player leaderboard")).to_contain_text("100.0")


def test_the_standings_follow_the_tiebreakers_the_admin_chooses(live_server, page, league):
    club, division = league
    url = f"{live_server.url}/clubs/{club.slug}/standings/divisions/{division.pk}/"
    page.goto(url)
    # the default order: head-to-head first, so Aces (who beat Bells) are second
    assert _order(page) == ["Mules", "Aces", "Bells", "Dads"]
    expect(page.locator("ol.explain")).to_contain_text("separated by head-to-head")
    _chart_drawn(page, "positions-chart")  # loaded by htmx, drawn by Chart.js

    page.goto(live_server.url + "/accounts/login/?next=" + url + "tiebreakers/")
    page.fill("#id_username", "homer")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.select_option("#id_step_0", "points_difference")
    page.select_option("#id_step_1", "head_to_head")
    for step in range(2, 8):
        page.select_option(f"#id_step_{step}", "")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("ol.explain")).to_contain_text("separated by points difference")
    assert _order(page) == ["Mules", "Bells", "Aces", "Dads"]


def test_a_long_leaderboard_pages_on_a_phone(live_server, page, league, monkeypatch):
    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 3)  # the live server runs in this process
    club, _ = league
    page.goto(f"{live_server.url}/clubs/{club.slug}/standings/leaderboards/")
    players = page.get_by_role("table", name="Player leaderboard")
    expect(players.locator("tbody tr")).to_have_count(3)
    pager = page.get_by_role("navigation", name="Player leaderboard pages")
    expect(pager).to_contain_text("Places 1\u20133 of 8")
    assert_accessible(page)
    pager.get_by_role("link", name="Lower places →").click()
    expect(players.locator("tbody tr")).to_have_count(3)
    expect(players.locator("tbody tr").first.locator("td").first).to_have_text("4")
    expect(page.get_by_role("navigation", name="Player leaderboard pages")).to_contain_text(
        "Higher places"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    assert_accessible(page)
