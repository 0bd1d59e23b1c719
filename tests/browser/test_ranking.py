"""A visitor reads a federation's national ranking on a phone: the ranking (a private
player without their name), a player's history, the page that explains the ranking; and a
scorer of a home club opens an inter-club fixture's entry page. Each passes axe-core and
fits 390 px without scrolling sideways."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from clabber_league.federation.models import Federation, FederationPlayer
from clabber_league.ranking.compute import EventResult, SideResult
from clabber_league.ranking.services import ranking_recompute, ranking_settings_update
from tests.browser.conftest import assert_accessible

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]

SIDEWAYS = "() => document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth + 1"


@pytest.fixture
def ranked():
    federation = Federation.objects.create(name="Nationale Klaverjas Unie", slug="nku")
    names = ["Anna de Vries", "Bram Jansen", "Cor Visser", "Dirk Bakker"]
    for i, name in enumerate(names):
        FederationPlayer.objects.create(
            federation=federation, number=f"NKU-{i + 1}", name=name, is_public=i != 1
        )
    ranking_settings_update(federation=federation, placing_points={"night": [5, 3]})
    day = dt.date(2026, 11, 3)
    events = [
        EventResult(
            key=f"night-{n}",
            date=day + dt.timedelta(days=7 * n),
            category="night",
            rules="clabber · 1000",
            target=1000,
            sides=(
                SideResult(("NKU-1", "NKU-2"), 1032 - n),
                SideResult(("NKU-3", "NKU-4"), 871 + n),
            ),
        )
        for n in range(3)
    ]
    ranking_recompute(federation=federation, events=events)
    return federation


def test_a_visitor_reads_the_ranking_a_history_and_the_explanation(live_server, page, ranked):
    page.goto(f"{live_server.url}/federations/nku/ranking/")
    expect(
        page.get_by_role("heading", name="National ranking of Nationale Klaverjas Unie")
    ).to_be_visible()
    table = page.get_by_role("table", name="National ranking")
    expect(table).to_contain_text("Anna de Vries")
    expect(table).to_contain_text("Private player")
    expect(table).not_to_contain_text("Bram Jansen")
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)

    page.get_by_role("link", name="Anna de Vries").click()
    expect(page.get_by_role("heading", name="Anna de Vries NKU-1")).to_be_visible()
    expect(page.get_by_role("table", name="Rating history").locator("tbody tr")).to_have_count(3)
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)

    page.get_by_role("link", name="National ranking").click()
    page.get_by_role("link", name="How the ranking is computed").click()
    expect(page.get_by_role("heading", name="Results under different house rules")).to_be_visible()
    expect(page.get_by_role("table", name="Placing points")).to_contain_text("5, 3")
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)


def test_a_home_clubs_scorer_opens_an_inter_club_fixture_on_a_phone(
    live_server, page, logged_in_page
):
    from clabber_league.clubs.models import Role
    from clabber_league.federation.models import FederationClub
    from clabber_league.ranking import interclub
    from clabber_league.scheduling.services.fixture_changes import fixture_create
    from tests.factories import DivisionFactory, MembershipFactory, UserFactory
    from tests.ranking.conftest import linked_team

    federation = Federation.objects.create(name="Nationale Klaverjas Unie", slug="nku")
    space = interclub.organiser_space_create(federation=federation)
    division = DivisionFactory(season__club=space.club, club=space.club, name="Eredivisie")
    teams = []
    for label in ("Aces", "Bells"):
        home = DivisionFactory(ruleset="clabber").club
        FederationClub.objects.create(federation=federation, club=home)
        own = linked_team(federation, DivisionFactory(season__club=home, club=home), label)
        people = [m.player.federation_links.get().federation_player for m in own.members.all()]
        teams.append(
            interclub.interclub_team_register(
                federation=federation,
                division=division,
                name=label,
                home_club=home,
                players=people,
            )
        )
    scorer = UserFactory(username="bells-scorer", password="table-talk-42")
    MembershipFactory(club=teams[1].interclub.home_club, user=scorer, role=Role.SCORER)
    fixture = fixture_create(division=division, round_number=1, home=teams[0], away=teams[1])

    logged_in_page("bells-scorer", "table-talk-42")
    page.goto(f"{live_server.url}/federations/nku/fixtures/{fixture.pk}/enter/")
    expect(page.get_by_role("heading", name="Aces \u2013 Bells")).to_be_visible()
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)
    page.get_by_role("button", name="Enter this fixture's games").click()
    page.wait_for_url("**/t/**")
    assert_accessible(page)


def test_the_space_admin_sets_a_teams_home_venue_and_rules_on_a_phone(
    live_server, page, logged_in_page
):
    from clabber_league.federation.models import FederationClub, Officer
    from clabber_league.leagues.models import HouseRules, Venue
    from clabber_league.ranking import interclub
    from clabber_league.scheduling.services.fixture_changes import fixture_create
    from tests.factories import DivisionFactory, UserFactory
    from tests.ranking.conftest import linked_team

    federation = Federation.objects.create(name="Nationale Klaverjas Unie", slug="nku")
    admin = UserFactory(username="fed-admin", password="table-talk-42")
    Officer.objects.create(federation=federation, user=admin, role=Officer.Role.ADMIN)
    space = interclub.organiser_space_create(federation=federation)
    division = DivisionFactory(season__club=space.club, club=space.club, name="Eredivisie")
    teams = []
    for label in ("Aces", "Bells"):
        home = DivisionFactory(ruleset="clabber").club
        FederationClub.objects.create(federation=federation, club=home)
        own = linked_team(federation, DivisionFactory(season__club=home, club=home), label)
        people = [m.player.federation_links.get().federation_player for m in own.members.all()]
        teams.append(
            interclub.interclub_team_register(
                federation=federation,
                division=division,
                name=label,
                home_club=home,
                players=people,
            )
        )
    home_club = teams[0].interclub.home_club
    Venue.objects.create(club=home_club, name="De Gouden Leeuw", tables=6)
    HouseRules.objects.create(
        club=home_club, name="Short games", base="clabber", options={"target": 300}
    )
    fixture = fixture_create(division=division, round_number=1, home=teams[0], away=teams[1])

    logged_in_page("fed-admin", "table-talk-42")
    page.goto(f"{live_server.url}/federations/nku/teams/{teams[0].pk}/home/")
    expect(page.get_by_role("heading", name="Aces")).to_be_visible()
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)
    page.get_by_label("Home venue").select_option(label="De Gouden Leeuw")
    page.get_by_label("The home club's house rules").select_option(label="Short games")
    page.get_by_label("Or a built-in rule set").select_option("clabber-2")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("not both")
    assert_accessible(page)
    page.get_by_label("Or a built-in rule set").select_option("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    assert_accessible(page)
    page.goto(f"{live_server.url}/federations/nku/fixtures/{fixture.pk}/enter/")
    expect(page.locator(".venue")).to_contain_text("De Gouden Leeuw")
    expect(page.locator(".rules")).to_contain_text("Short games")
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)

    # Aces play at home to 300, Bells at home by the division's rules (500): the table
    # says why points scored break no tie, on a phone too.
    from clabber_league.games.services import game_start

    back = fixture_create(division=division, round_number=2, home=teams[1], away=teams[0])
    for played in (fixture, back):
        home = [m.player for m in played.home.members.order_by("position")]
        away = [m.player for m in played.away.members.order_by("position")]
        game_start(
            club=space.club,
            division=division,
            sides={"A": played.home, "B": played.away},
            seats=[home[0], away[0], home[1], away[1]],
            fixture=played,
        )
    page.goto(f"{live_server.url}/clubs/{space.club.slug}/standings/divisions/{division.pk}/")
    expect(page.locator(".mixed-rules")).to_contain_text("more than one rule set")
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)


def test_a_federation_admin_sets_the_placing_points_on_a_phone(
    live_server, page, logged_in_page, ranked
):
    from clabber_league.federation.models import Officer
    from tests.factories import UserFactory

    admin = UserFactory(username="fed-admin", password="table-talk-42")
    Officer.objects.create(federation=ranked, user=admin, role=Officer.Role.ADMIN)
    logged_in_page("fed-admin", "table-talk-42")
    page.goto(f"{live_server.url}/federations/nku/ranking/settings/")
    expect(page.get_by_role("heading", name="Ranking settings")).to_be_visible()
    page.get_by_label("Points per placing, by kind of event").fill("night: five")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text('as "night: 5, 3, 2, 1"')
    assert_accessible(page)
    assert not page.evaluate(SIDEWAYS)
    page.get_by_label("Points per placing, by kind of event").fill("night: 6, 4\nleague: 2")
    page.get_by_label("Players who keep their profile private").select_option("hide")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    assert_accessible(page)
    page.goto(f"{live_server.url}/federations/nku/ranking/about/")
    expect(page.get_by_role("table", name="Placing points")).to_contain_text("6, 4")
