"""A person opens the site on a phone."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_shows_the_product_and_its_menu(live_server, page):
    page.goto(live_server.url + "/")
    assert page.title() == "Clabber League"
    assert page.get_by_role("heading", name="League night, without the paper").is_visible()
    # On a phone the menu is folded behind the toggle; it opens with a tap.
    rules_link = page.get_by_role("link", name="Rules", exact=True)
    assert not rules_link.is_visible()
    page.locator("label.nav-toggle-label").click()
    assert rules_link.is_visible()
    # htmx is vendored and loads without a CDN.
    page.wait_for_function("() => window.htmx !== undefined")


def test_a_visitor_finds_a_public_club_from_the_home_page(live_server, page):
    from tests.factories import ClubFactory

    ClubFactory(name="Evansville Clabber Club", slug="evansville", is_public=True)
    ClubFactory(name="Private Parlour", slug="parlour", is_public=False)
    page.goto(live_server.url + "/")
    public = page.locator("article", has=page.get_by_role("heading", name="Public clubs"))
    expect(public.get_by_role("link", name="Private Parlour")).to_have_count(0)
    public.get_by_role("link", name="Evansville Clabber Club").click()
    expect(page.get_by_role("heading", name="Evansville Clabber Club", level=1)).to_be_visible()
    # The Clubs menu leads to the club too, not back to the home page.
    page.locator("label.nav-toggle-label").click()
    page.locator(".club-switcher summary").click()
    page.locator(".club-switcher").get_by_role("link", name="Evansville Clabber Club").click()
    expect(page).to_have_url(live_server.url + "/clubs/evansville/")
    # The tab has an icon.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert page.request.get(live_server.url + icon).ok


def test_a_member_sees_their_own_clubs_first(live_server, page, logged_in_page):
    from clabber_league.clubs.models import Role
    from tests.factories import ClubFactory, MembershipFactory, UserFactory

    club = ClubFactory(name="Parlour Club", slug="parlour", is_public=False)
    MembershipFactory(
        club=club, user=UserFactory(username="dot", password="pw-table-42"), role=Role.PLAYER
    )
    ClubFactory(name="Fifty Club", slug="fifty", is_public=True)
    logged_in_page("dot", "pw-table-42")
    page.goto(live_server.url + "/")
    mine = page.locator("article", has=page.get_by_role("heading", name="Your clubs"))
    expect(mine.get_by_role("link", name="Parlour Club")).to_be_visible()
    expect(mine.get_by_role("link", name="Fifty Club")).to_have_count(0)
    # A search narrows the public clubs.
    page.get_by_label("Find a club by name or town").fill("fifty")
    page.get_by_role("button", name="Find").click()
    public = page.locator("article", has=page.get_by_role("heading", name="Public clubs"))
    expect(public.get_by_role("link", name="Fifty Club")).to_be_visible()
