"""The language switcher at the foot of every page, on a phone (issue 33)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_a_visitor_switches_a_clubs_page_to_their_own_language(live_server, page):
    from tests.factories import ClubFactory

    ClubFactory(name="De Klaverheer", slug="klaverheer", is_public=True, language="nl")
    page.goto(live_server.url + "/clubs/klaverheer/")
    # The club's own language first, and the page says so.
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    switcher = page.locator("footer form.language-switcher")
    language = switcher.get_by_role("combobox")
    expect(language).to_have_value("nl")
    language.scroll_into_view_if_needed()
    expect(language).to_be_visible()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert_accessible(page)

    language.select_option("ja")
    switcher.get_by_role("button").click()
    # Back on the same page (the same URL: no language prefix), in Japanese.
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page).to_have_url(live_server.url + "/clubs/klaverheer/")
    expect(page.locator("footer form.language-switcher").get_by_role("combobox")).to_have_value(
        "ja"
    )
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert_accessible(page)
    # Everywhere else too, until they choose again.
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")


def test_a_member_chooses_their_language_in_their_settings(live_server, page, logged_in_page):
    from tests.factories import UserFactory

    UserFactory(username="dot", password="pw-table-42")
    logged_in_page("dot", "pw-table-42")
    page.goto(live_server.url + "/me/settings/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator("#id_language-language").select_option("de")
    page.locator("form", has=page.locator("#id_language-language")).get_by_role("button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#id_language-language")).to_have_value("de")
    expect(page.locator("footer form.language-switcher").get_by_role("combobox")).to_have_value(
        "de"
    )
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert_accessible(page)
