"""A federation on phones (issue 34): a visitor reads its home and a public player's page;
a club admin proposes linking a player to a new number; the player approves it on their
own page, makes their profile public and downloads what is held about them; an officer
sees the players, merges two likely duplicates and undoes it, and looks at the clubs.
Every page passes axe-core and none scrolls sideways at 390 px."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.federation import services
from clabber_league.federation.access import access_for
from clabber_league.federation.models import FederationClub, FederationPlayer, PlayerLink
from tests.browser.conftest import assert_accessible
from tests.browser.test_accessibility import SIDEWAYS
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


def check(page) -> None:
    assert_accessible(page)
    wide = [item for item in page.evaluate(SIDEWAYS) if not item["allowed"]]
    assert not wide, f"{page.url} scrolls sideways at 390 px: {wide}"


@pytest.fixture
def federation():
    officer = UserFactory(username="olga", password=PASSWORD)
    nku = services.federation_create(
        name="Klaverjas Unie", slug="ku", number_prefix="KU-", admin=officer
    )
    club = ClubFactory(name="De Troef", slug="de-troef", is_public=True)
    FederationClub.objects.create(federation=nku, club=club)
    MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    )
    jose = UserFactory(username="jose", password=PASSWORD)
    MembershipFactory(club=club, role=Role.PLAYER, user=jose)
    PlayerFactory(club=club, name="José van Dijk", user=jose)
    access = access_for(federation=nku, user=officer)
    public = services.player_create(access=access, name="Anna de Boer", home_club=club)
    FederationPlayer.objects.filter(pk=public.pk).update(is_public=True)
    services.player_create(access=access, name="Piet Jansen", birth_year=1960)
    services.player_create(access=access, name="piet  jansen")
    return nku


def test_federation_pages_on_a_phone(live_server, page, logged_in_page, federation):
    base = live_server.url
    page.goto(base + "/federations/")
    check(page)
    page.get_by_role("link", name="Klaverjas Unie").click()
    expect(page.get_by_role("heading", name="Member clubs")).to_be_visible()
    expect(page.get_by_role("link", name="De Troef")).to_be_visible()
    check(page)
    page.goto(base + "/federations/ku/players/KU-000001/")
    expect(page.get_by_role("heading", name="Anna de Boer")).to_be_visible()
    check(page)
    assert page.goto(base + "/federations/ku/players/KU-000002/").status == 404  # private

    # The club admin proposes a link to a new number.
    admin_page = logged_in_page("sec", PASSWORD)
    admin_page.goto(base + "/federations/ku/")
    admin_page.get_by_role("link", name=re.compile("Link the players of De Troef")).click()
    check(admin_page)
    admin_page.get_by_label("Player", exact=True).select_option(label="José van Dijk")
    admin_page.get_by_label("Birth year (for a new number, optional)").fill("1970")
    admin_page.get_by_role("button", name="Propose the link").click()
    expect(admin_page.get_by_text("The link is proposed")).to_be_visible()
    expect(admin_page.get_by_text("KU-000004")).to_be_visible()
    check(admin_page)
    admin_page.context.clear_cookies()

    # The player approves it, makes the profile public, downloads the export.
    me = logged_in_page("jose", PASSWORD)
    me.goto(base + "/federations/me/")
    check(me)
    me.get_by_role("button", name="Approve").click()
    expect(me.get_by_role("heading", name=re.compile("KU-000004"))).to_be_visible()
    assert PlayerLink.objects.get().status == PlayerLink.Status.APPROVED
    check(me)
    me.get_by_role("button", name="Make my profile public").click()
    expect(me.get_by_text("Your profile is public.")).to_be_visible()
    with me.expect_download() as download:
        me.get_by_role("link", name="Download all of it (JSON)").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["federation_records"][0]["number"] == "KU-000004"
    assert data["federation_records"][0]["birth_year"] == 1970
    me.get_by_role("link", name="Erase my record").click()
    check(me)
    me.context.clear_cookies()

    # The officer: players, duplicates (merge, then undo), links, clubs.
    officer = logged_in_page("olga", PASSWORD)
    officer.goto(base + "/federations/ku/")
    officer.get_by_role("link", name="Players").click()
    expect(officer.get_by_text("KU-000002 Piet Jansen")).to_be_visible()
    check(officer)
    officer.get_by_role("link", name="KU-000002").click()
    expect(officer.get_by_role("button", name="Record that the player left")).to_be_visible()
    check(officer)
    officer.go_back()
    officer.get_by_role("link", name="Duplicates").click()
    check(officer)
    officer.get_by_role("button", name="Merge KU-000003 into KU-000002").click()
    expect(officer.get_by_text("The players are merged.")).to_be_visible()
    assert FederationPlayer.objects.get(number="KU-000003").merged_into.number == "KU-000002"
    check(officer)
    officer.get_by_role("button", name="Undo").click()
    expect(officer.get_by_text("The merge is undone.")).to_be_visible()
    assert FederationPlayer.objects.get(number="KU-000003").merged_into is None
    officer.get_by_role("link", name="Links awaiting approval").click()
    expect(officer.get_by_text("Nothing awaits approval.")).to_be_visible()
    check(officer)
    officer.get_by_role("link", name="Clubs and officers").click()
    expect(officer.get_by_text("De Troef · Member")).to_be_visible()
    check(officer)
