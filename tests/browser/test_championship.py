"""A federation admin seeds a championship final from two member clubs' club nights on a
phone, then reads where each entrant qualified from; both pages pass axe-core and fit
390 px without scrolling sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.federation.models import Federation, FederationClub, Officer
from clabber_league.ranking import interclub
from tests.browser.test_federation import PASSWORD, check
from tests.factories import DivisionFactory, MembershipFactory, UserFactory
from tests.ranking.test_championship import cut_without_tie, finished_night, members_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nights():
    federation = Federation.objects.create(
        name="Nationale Klaverjas Unie", slug="nku", number_prefix="N", is_public=True
    )
    Officer.objects.create(
        federation=federation,
        user=UserFactory(username="maria", password=PASSWORD),
        role=Officer.Role.ADMIN,
    )
    entries = []
    for label in ("north", "south"):
        club = DivisionFactory(ruleset="clabber", slug=label).club
        FederationClub.objects.create(federation=federation, club=club)
        admin = UserFactory(username=f"{label}-admin")
        MembershipFactory(club=club, user=admin, role=Role.ADMIN)
        entries.append({"club": club, "admin": admin})
    interclub.organiser_space_create(federation=federation)
    north = finished_night(entries[0], members_of(federation, entries[0], "North"), "North night")
    south = finished_night(
        entries[1], members_of(federation, entries[1], "South"), "South night", day=2
    )
    return north, south


def test_an_admin_seeds_a_final_of_club_nights_on_a_phone(
    live_server, page, logged_in_page, nights
):
    north, south = nights
    n = cut_without_tie(north)
    logged_in_page("maria", PASSWORD)
    page.goto(f"{live_server.url}/federations/nku/")
    page.get_by_role("link", name="New championship final").click()
    expect(page.get_by_role("heading", name="New championship final")).to_be_visible()
    check(page)
    page.get_by_label("Name of the final").fill("National final")
    page.get_by_label("Rule set").select_option("clabber-2")
    page.get_by_label("Qualifier 1", exact=True).select_option(f"night:{north.pk}")
    page.get_by_label("Players through from qualifier 1").fill(str(n))
    page.get_by_label("Qualifier 2", exact=True).select_option(f"night:{south.pk}")
    page.get_by_role("button", name="Seed the final").click()
    expect(page.get_by_role("heading", name="National final")).to_be_visible()
    table = page.get_by_role("table", name="Entrants and where they qualified from")
    expect(table.get_by_role("row")).to_have_count(n + 2)  # the heading row, n + 1 entrants
    expect(table).to_contain_text("Club night North night")
    expect(table).to_contain_text("Club night South night")
    check(page)
