"""A club's secretary on a phone through a season: merges a player entered twice, edits a
team, withdraws one; prints a blank score sheet and the night sheet. Each page passes
axe-core and fits 390 px."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clabber_league.clubs.models import Player, PlayerMerge, Role
from clabber_league.games import services as game_services
from clabber_league.scheduling.models import Fixture, ScheduleConfig, Venue
from tests.browser.conftest import assert_accessible
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "green-baize-2026"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


@pytest.fixture
def league():
    """Aces (Tom Smith and Mary) and Dads (T. Smith, the same Tom entered again, and Dan),
    a game of Dads at the table; a club admin, "sec"."""
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    admin = MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    ).user
    aces, bells, dads = (TeamFactory(division=division, name=n) for n in ("Aces", "Bells", "Dads"))
    names = {aces: ("Tom Smith", "Mary"), bells: ("Bea", "Bill"), dads: ("T. Smith", "Dan")}
    for team, pair in names.items():
        for member, name in zip(team.members.order_by("position"), pair, strict=True):
            member.player.name = name
            member.player.save()
    d = [m.player for m in dads.members.order_by("position")]
    b = [m.player for m in bells.members.order_by("position")]
    game = game_services.game_start(
        club=club, division=division, sides={"A": dads, "B": bells}, seats=[d[0], b[0], d[1], b[1]]
    )
    game_services.deal_record(game_id=game.pk, data=made("A", 142))
    return {"club": club, "division": division, "admin": admin, "teams": (aces, bells, dads)}


def test_a_player_entered_twice_is_merged_from_the_players_page(
    live_server, page, league, logged_in_page
):
    club = league["club"]
    logged_in_page("sec", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/members/players/")
    page.get_by_role("link", name="Merge T. Smith into another player").click()
    expect(page.get_by_role("heading", name="T. Smith is the same person as…")).to_be_visible()
    assert page.evaluate(FITS)
    assert_accessible(page)
    page.get_by_role("button", name="Merge into Tom Smith").click()
    expect(page.locator(".messages")).to_contain_text("T. Smith is now Tom Smith.")
    expect(page.get_by_text("T. Smith into Tom Smith")).to_be_visible()
    assert not Player.objects.filter(club=club, name="T. Smith").exists()
    tom = Player.objects.get(club=club, name="Tom Smith")
    assert tom.seats.count() == 1 and tom.teams.count() == 2
    assert PlayerMerge.objects.get(club=club).merged_by == league["admin"]


def test_a_team_is_edited_and_withdrawn_on_a_phone(live_server, page, league, logged_in_page):
    club, division = league["club"], league["division"]
    aces, bells, _ = league["teams"]
    later = Fixture.objects.create(
        club=club,
        division=division,
        round_number=2,
        home=bells,
        away=aces,
        date=timezone.localdate() + dt.timedelta(days=7),
    )
    logged_in_page("sec", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/schedule/divisions/{division.pk}/setup/")
    page.get_by_role("link", name="Edit or withdraw Aces").click()
    assert page.evaluate(FITS)
    assert_accessible(page)
    page.fill("#id_name", "Ace High")
    page.fill("#id_players", "tom smith\nMary Lou")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Ace High saved.")
    expect(page.locator("#id_players")).to_have_value("Tom Smith\nMary Lou")
    # Withdrawing before the season starts is refused beside the date; then it withdraws.
    page.fill("#id_on", "2026-01-05")
    page.get_by_role("button", name="Withdraw Ace High").click()
    expect(page.locator(".errorlist")).to_contain_text("cannot withdraw before its season")
    assert_accessible(page)
    page.fill("#id_on", f"{timezone.localdate():%Y-%m-%d}")
    page.get_by_role("button", name="Withdraw Ace High").click()
    expect(page.locator(".messages")).to_contain_text("1 fixture turned into a walkover")
    today = timezone.localdate()
    withdrew = f"withdrew on {today.day} {today:%b %Y}"
    expect(page.locator("p.muted").filter(has_text=withdrew)).to_be_visible()
    later.refresh_from_db()
    assert (later.status, later.forfeit_winner) == (Fixture.Status.FORFEIT, bells)


def _pdf_pages(page) -> int:
    """How many A4 pages the page prints on (Chromium's own print to PDF)."""
    return len(re.findall(rb"/Type\s*/Page\b", page.pdf(format="A4")))


def test_a_blank_score_sheet_fits_a_phone_and_prints_on_one_page(live_server, page):
    page.goto(f"{live_server.url}/rules/")
    page.locator("#clabber").get_by_role("link", name="A blank score sheet to print").click()
    expect(page.get_by_role("heading", name=re.compile("Clabber"))).to_be_visible()
    table = page.get_by_role("table", name="Blank score sheet")
    expect(table.get_by_role("columnheader", name="Check")).to_be_visible()
    expect(table.get_by_role("columnheader", name="Total B")).to_be_visible()
    assert page.evaluate(FITS)
    assert_accessible(page)
    assert _pdf_pages(page) == 1


def test_the_night_sheet_shows_byes_and_start_time_and_prints_on_one_page(
    live_server, page, league, logged_in_page
):
    club, division = league["club"], league["division"]
    aces, bells, _ = league["teams"]
    night = timezone.localdate() + dt.timedelta(days=3)
    ScheduleConfig.objects.create(
        club=club, division=division, start_date=night, start_time=dt.time(19, 30)
    )
    hall = Venue.objects.create(club=club, name="Knights Hall", tables=4)
    Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=aces,
        away=bells,
        date=night,
        venue=hall,
        table=1,
    )
    logged_in_page("sec", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/schedule/nights/{night:%Y-%m-%d}/")
    page.get_by_role("link", name=re.compile("Night sheet")).click()
    expect(page.get_by_text("play starts 19:30")).to_be_visible()
    expect(page.get_by_text("Bye: Dads")).to_be_visible()
    expect(page.get_by_role("cell", name="Knights Hall · 1")).to_be_visible()
    assert page.evaluate(FITS)
    assert_accessible(page)
    assert _pdf_pages(page) == 1
