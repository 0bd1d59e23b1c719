"""A person opens the site on a phone."""

import pytest

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
