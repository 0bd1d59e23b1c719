"""The secretary runs a club night on a phone: sets it up, ticks 13 players in with one
tap each (so one table of three: clabber has a three-hand form), draws round 1, each
table's two deals are scored through its deal entry, round 2 is drawn and scored the same
way, and the night's ranking shows every player. axe-core passes on the night's pages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.events.models import Event, Round
from clabber_league.games.models import Game
from tests.browser.conftest import PHONE, assert_accessible
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "night-owl-42"


@pytest.fixture
def club():
    club = ClubFactory(slug="tuesday", name="Tuesday Clabber Club")
    secretary = UserFactory(username="sec", password=PASSWORD)
    MembershipFactory(club=club, user=secretary, role=Role.ADMIN)
    for i in range(1, 14):
        PlayerFactory(club=club, name=f"Player {i:02d}")
    return club


def _score_table(page, sides: int) -> None:
    """One deal at the open deal entry: the maker's side takes most of the points."""
    page.locator("label[for=id_maker_seat_0]").click()
    page.locator("label[for=id_trump_2]").click()  # hearts
    page.fill("#id_points_A", "100")
    if sides == 3:
        page.fill("#id_points_B", "30")
    page.locator("label[for=id_last_trick_0]").click()
    expect(page.locator("#preview")).to_contain_text(re.compile(r"Running|Not saved"))
    page.get_by_role("button", name=re.compile(r"^Save")).click()
    expect(page.locator(".messages")).to_contain_text("saved")


def _play_round(page, browser, base: str, event: Event, number: int) -> None:
    """Each table's phone (no login) opens its table link from the night's page and
    scores the round's two deals."""
    round_ = Round.objects.get(event=event, number=number)
    page.goto(f"{base}/clubs/{event.club.slug}/events/{event.pk}/")
    links = {
        t.number: page.get_by_role(
            "link", name=f"Table link of table {t.number} (for the phone at the table)"
        ).get_attribute("href")
        for t in round_.tables.all()
    }
    for table in round_.tables.order_by("number"):
        phone = browser.new_context(viewport=PHONE)
        at_table = phone.new_page()
        at_table.set_default_timeout(15_000)
        at_table.goto(links[table.number])
        for _ in range(2):  # a round is two deals
            _score_table(at_table, len(table.seats))
        phone.close()
        assert Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED
    return links


def test_the_secretary_runs_a_night_of_thirteen(live_server, browser, page, club, logged_in_page):
    base = live_server.url
    logged_in_page("sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/events/")
    assert_accessible(page)
    page.get_by_role("link", name="New night").click()
    page.fill("#id_name", "Tuesday night")
    page.select_option("#id_round_kind", "deals")
    page.fill("#id_round_deals", "2")
    page.fill("#id_rounds", "2")
    assert_accessible(page)
    page.get_by_role("button", name="Create the night").click()
    expect(page.get_by_role("heading", name="Tuesday night")).to_be_visible()
    event = Event.objects.get()

    for i in range(1, 14):
        page.get_by_role("button", name=f"Player {i:02d} is here").click()
        expect(page.locator(".messages")).to_contain_text(f"Player {i:02d} is in")
    expect(page.locator("#check-in-title")).to_contain_text("13 here")
    assert_accessible(page)

    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is drawn")
    sizes = sorted(len(t.seats) for t in Round.objects.get(event=event).tables.all())
    assert sizes == [3, 3, 3, 4]  # one table of four and three of three
    expect(page.locator(".table-card")).to_have_count(4)
    assert_accessible(page)

    first_links = _play_round(page, browser, base, event, 1)
    page.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/")
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is drawn")
    _play_round(page, browser, base, event, 2)
    # Round 1 is over (its games confirmed by the draw): its table cards score no more.
    stale = browser.new_context(viewport=PHONE).new_page()
    stale.goto(first_links[1])
    expect(stale.locator("body")).to_contain_text("Round 1 of")
    expect(stale.locator("body")).to_contain_text("is over: its tables are closed")
    assert (
        Game.objects.get(
            pk=Round.objects.get(event=event, number=1).tables.get(number=1).game_id
        ).deal_count
        == 2
    )

    page.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/")
    page.get_by_role("button", name="Finish the night").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is finished")
    expect(page.locator("#ranking tbody tr")).to_have_count(13)
    assert_accessible(page)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
