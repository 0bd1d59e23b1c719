"""A member makes an API token on their settings page on a phone: names it, picks its
scope, sees the key once, uses it, and revokes it; the page passes axe-core throughout."""

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import ApiToken, Role
from tests.browser.conftest import assert_accessible, log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


def test_a_member_creates_uses_and_revokes_an_api_token_on_a_phone(live_server, page):
    club = ClubFactory()
    MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="marge"))
    user = club.memberships.get().user
    user.set_password(PASSWORD)
    user.save()
    base = live_server.url
    log_in(page, base, "marge", PASSWORD)
    page.goto(base + "/me/settings/")
    expect(page.get_by_role("heading", name="API tokens")).to_be_visible()
    expect(page.locator("#no-tokens")).to_be_visible()
    assert_accessible(page)

    page.get_by_role("button", name="Create a token").click()  # no name yet
    expect(page.locator(".has-error")).to_contain_text(re.compile("required", re.I))
    page.get_by_label("Token name").fill("Results board in the hall")
    page.get_by_label("Scope").select_option("read")
    page.get_by_role("button", name="Create a token").click()
    key = page.locator("#new-token").inner_text().strip()
    assert key.startswith("clb_")
    expect(page.locator(".token-list")).to_contain_text("Results board in the hall")
    expect(page.locator(".token-list")).to_contain_text(key[:12])
    assert_accessible(page)
    # The key fits the phone's width (it wraps), and the page scrolls no sideways.
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    answer = page.request.get(base + "/api/whoami/", headers={"Authorization": f"Bearer {key}"})
    assert answer.status == 200 and answer.json() == {"username": "marge"}
    assert answer.headers["ratelimit"].startswith('"api";r=')

    page.goto(base + "/me/settings/")  # shown once: not on the next visit
    expect(page.locator("#new-token")).to_have_count(0)
    assert key not in page.content()
    page.get_by_role("button", name="Revoke Results board in the hall").click()
    expect(page.locator(".messages")).to_contain_text("revoked")
    expect(page.locator("#no-tokens")).to_be_visible()
    assert_accessible(page)
    assert not ApiToken.objects.exists()
    answer = page.request.get(base + "/api/whoami/", headers={"Authorization": f"Bearer {key}"})
    assert answer.status == 401
