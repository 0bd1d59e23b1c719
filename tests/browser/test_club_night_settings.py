"""The secretary chooses a night's tables and ranking on a phone: thirteen players at
tables of four only (one sits out in turn) instead of a table of four and three of three;
the ranking left at the game's default, a share of each table's points; the results page
explains the method, the sit-out's score and the tiebreaks. axe-core passes and nothing
scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.events.models import Event, Round
from clabber_league.events.services import checkin
from tests.browser.conftest import assert_accessible
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "night-owl-42"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


def test_the_secretary_seats_thirteen_at_tables_of_four_with_a_sit_out(
    live_server, page, logged_in_page
):
    club = ClubFactory(slug="friday", name="Friday Clabber Club")
    MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    )
    players = [PlayerFactory(club=club, name=f"Player {i:02d}") for i in range(1, 14)]
    base = live_server.url
    logged_in_page("sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/events/new/")
    page.fill("#id_name", "Friday night")
    page.get_by_label("Tables").select_option(label="Tables of four only, the rest sit out")
    expect(page.get_by_label("Ranking")).to_have_value("")  # the game's default
    assert_accessible(page)
    assert page.evaluate(FITS)
    page.get_by_role("button", name="Create the night").click()
    expect(page.get_by_role("heading", name="Friday night")).to_be_visible()
    event = Event.objects.get()
    assert (event.table_plan, event.ranking) == ("fours", "share")

    for player in players:
        checkin.entry_check_in(event=event, player=player)
    page.reload()
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is drawn")
    round_ = Round.objects.get(event=event)
    assert sorted(len(t.seats) for t in round_.tables.all()) == [4, 4, 4]
    assert round_.sit_outs.count() == 1
    expect(page.get_by_text("Sitting out:")).to_be_visible()
    expect(page.get_by_text("Share of the table's points")).to_be_visible()
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_role("link", name="How the night ranks, with its tiebreaks").click()
    rule = page.locator(".rule")
    expect(rule).to_contain_text("share of the points scored at their table")
    expect(rule).to_contain_text("the player's own average")
    expect(rule).to_contain_text("rounds won, then head-to-head")
    assert_accessible(page)
    assert page.evaluate(FITS)
