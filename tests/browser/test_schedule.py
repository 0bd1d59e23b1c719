"""The club secretary sets up a season on a phone and generates its schedule.

She logs in, opens the club's schedule, adds a venue, a season, a division and its five
teams, chooses Monday nights and the venue, and generates the schedule. The progress bar
on the run's page follows the Celery task (a real worker on Redis when REDIS_URL is set,
in-process otherwise) without reloading the page, and the fixtures follow.
"""

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.leagues.services import venue_create
from clabber_league.scheduling.models import Fixture, ScheduleRun
from clabber_league.scheduling.services.generation import (
    schedule_config_save,
    schedule_run_execute,
)
from tests.browser.conftest import assert_accessible
from tests.factories import (
    ClubFactory,
    DivisionFactory,
    MembershipFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
TEAMS = {
    "Jack & Nine": "Ada Kessler, Bud Hartig",
    "Mules": "Carl Wempe, Dot Schnur",
    "Turkey Tracks": "Earl Mattingly, Fern Goebel",
    "Dad 'n' Bell": "Gus Reitz, Hazel Stoll",
    "Hicksters": "Ike Rexing, June Folz",
}


@pytest.fixture
def club():
    club = ClubFactory(name="Evansville Clabber Club", slug="evansville", is_public=False)
    secretary = UserFactory(username="marge", password=PASSWORD)
    MembershipFactory(club=club, user=secretary, role=Role.ADMIN)
    return club


def test_the_secretary_generates_a_season_and_sees_its_fixtures(
    live_server, page, club, celery_worker_process, logged_in_page
):
    base = live_server.url
    logged_in_page("marge", PASSWORD)

    page.goto(f"{base}/clubs/{club.slug}/")
    page.get_by_role("link", name="Schedule").click()
    expect(page.get_by_role("heading", name="Schedule", exact=True)).to_be_visible()

    venue_form = page.get_by_role("form", name="Add a venue")
    venue_form.get_by_label("Name").fill("Knights of St. John Hall")
    venue_form.get_by_label("Tables").fill("2")
    venue_form.get_by_role("button", name="Add venue").click()
    expect(page.get_by_text("Knights of St. John Hall (2 tables) added.")).to_be_visible()

    season_form = page.get_by_role("form", name="New season")
    season_form.get_by_label("Name").fill("Winter 2027")
    season_form.get_by_label("Start date").fill("2027-01-04")
    season_form.get_by_label("Points for a win").fill("2")
    season_form.get_by_role("button", name="Create season").click()
    expect(page.get_by_role("heading", name="Winter 2027")).to_be_visible()

    division_form = page.get_by_role("form", name="Add a division")
    division_form.get_by_label("Name").fill("Monday Night")
    division_form.get_by_role("button", name="Add division").click()
    expect(page.get_by_role("heading", name="Set up Monday Night")).to_be_visible()

    for name, players in TEAMS.items():
        team_form = page.get_by_role("form", name="Register a team")
        team_form.get_by_label("Team name").fill(name)
        team_form.get_by_label("Players").fill(players)
        team_form.get_by_role("button", name="Register team").click()
        expect(page.get_by_text(f"{name} registered.")).to_be_visible()
    expect(page.get_by_role("heading", name="Teams (5)")).to_be_visible()

    settings = page.get_by_role("form", name="Schedule settings")
    settings.get_by_role("radio", name="Round robin").check()
    settings.get_by_label("Single or double").select_option("1")
    settings.get_by_label("League night", exact=True).select_option(label="Monday")
    settings.get_by_label("First league night on or after").fill("2027-01-04")
    settings.get_by_label("Play starts at").fill("19:00")
    settings.get_by_label("Knights of St. John Hall").check()
    settings.get_by_label("Nights without play").fill("2027-01-18 MLK day")
    settings.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Schedule settings saved.")).to_be_visible()

    page.get_by_role("button", name="Generate schedule").click()
    expect(page.get_by_role("heading", name="Schedule of Monday Night")).to_be_visible()
    # Mark this page: if it were reloaded to show progress, the mark would be gone.
    page.evaluate("window.__stillTheSamePage = true")
    status = page.locator("#run-status")
    expect(status).to_have_attribute("data-state", "done", timeout=90_000)
    expect(page.locator("#run-progress")).to_have_attribute("value", "100")
    expect(page.locator(".run-percent")).to_have_text("100%")
    assert page.evaluate("window.__stillTheSamePage === true")
    run = ScheduleRun.objects.get()
    assert run.state == "done" and run.fixtures_created == 10
    # Two tables for two fixtures a round: the schedule fits, and says nothing moved.
    expect(page.locator(".run-message")).to_contain_text("10 fixtures planned")

    page.get_by_role("link", name="See the fixtures").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 1"))).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 5"))).to_be_visible()
    round_one = page.locator("#round-1")
    expect(round_one).to_contain_text("Monday 4 January 2027")
    expect(round_one.locator("tbody tr")).to_have_count(2)
    expect(round_one.locator(".byes")).to_contain_text("Bye:")
    # The night of 18 January is skipped: round 3 is on the 25th.
    expect(page.locator("#round-3")).to_contain_text("Monday 25 January 2027")
    assert Fixture.objects.count() == 10

    # A team's own page, with its calendar feed: a private club's member gets their own link.
    page.get_by_role("link", name="Mules").first.click()
    expect(page.get_by_role("heading", name="Mules")).to_be_visible()
    page.get_by_role("button", name="Get a calendar link").click()
    expect(page.get_by_role("link", name="Calendar (.ics)")).to_have_attribute(
        "href", re.compile(r"/calendar\.ics\?key=")
    )
    # The secretary (a club admin) may also revoke everyone's links to the team.
    expect(page.get_by_role("button", name=re.compile(r"^Revoke everyone"))).to_be_visible()
    expect(page.get_by_role("button", name="New calendar link")).to_be_visible()
    assert_accessible(page)


def test_a_visitor_steps_through_a_long_season_on_a_phone_a_page_of_rounds_at_a_time(
    live_server, page, club
):
    """Ten rounds (five teams, twice round): five a page, each page named by its rounds in
    the pager, to print the season a page at a time."""
    club.is_public = True
    club.save()
    division = DivisionFactory(
        season=SeasonFactory(club=club, start_date=dt.date(2027, 1, 4)), name="Monday Night"
    )
    for name in TEAMS:
        TeamFactory(division=division, name=name)
    hall = venue_create(club=club, name="Knights of St. John Hall", tables=2)
    schedule_config_save(
        division=division, cycles=2, weekday=0, start_date=dt.date(2027, 1, 4), venues=[hall]
    )
    # Generated here and now rather than queued: the page needs the fixtures, not the queue.
    run = ScheduleRun.objects.create(club=club, division=division, message="Queued.")
    schedule_run_execute(run_id=run.pk, today=dt.date(2027, 1, 1))

    page.goto(f"{live_server.url}/clubs/{club.slug}/schedule/divisions/{division.pk}/")
    expect(page.get_by_role("heading", name=re.compile(r"^Round 5"))).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 6"))).to_have_count(0)
    expect(page.get_by_role("button", name="Print rounds 1\u20135")).to_be_visible()
    pages = page.get_by_role("navigation", name="Every page of rounds")
    expect(pages.get_by_role("link", name="Rounds 1\u20135")).to_have_attribute(
        "aria-current", "page"
    )
    pages.get_by_role("link", name="Rounds 6\u201310").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 10"))).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Round 5"))).to_have_count(0)
    expect(page.get_by_role("button", name="Print rounds 6\u201310")).to_be_visible()
    # The pager fits the phone's width.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert_accessible(page)
