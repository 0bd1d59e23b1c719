"""A player looks up the rules on a phone: the rule sets, how melds compare (Zensa's
value-length), the clarified points and the limits, readable and accessible."""

import pytest

from tests.browser.conftest import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)


def test_rules_page_explains_zensas_runs_and_the_limits_on_a_phone(live_server, page):
    page.goto(live_server.url + "/rules/")
    assert page.get_by_role("heading", name="The rule sets we score").is_visible()
    zensa = page.locator("section#zensa")
    zensa.scroll_into_view_if_needed()
    assert "value-length" in zensa.inner_text()
    compare = page.locator("section#meld-compare")
    compare.scroll_into_view_if_needed()
    assert compare.get_by_text("seven beats six").is_visible()
    limits = page.locator("section#limits")
    limits.scroll_into_view_if_needed()
    assert limits.get_by_role("cell", name="deals in one game").is_visible()
    assert limits.get_by_role("cell", name="200", exact=True).is_visible()
    assert_accessible(page)
