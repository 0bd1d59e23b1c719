"""On a phone, two-factor sign-in's pages (allauth.mfa, in the site's own layout): turning
on an authenticator app, the recovery codes, signing in with a code, and the club's
setting that requires it of admins. Each fits the screen and passes axe-core."""

import re

import pytest
from allauth.mfa.totp.internal.auth import (
    format_hotp_value,
    hotp_value,
    yield_hotp_counters_from_time,
)

from clabber_league.clubs.models import Role
from tests.browser.conftest import assert_accessible, log_in_through_the_form
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


def _code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def page_codes() -> list[str]:
    from allauth.mfa.models import Authenticator
    from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes

    found = Authenticator.objects.get(type=Authenticator.Type.RECOVERY_CODES)
    return RecoveryCodes(found).get_unused_codes()


def looks_right(page) -> None:
    """The site's layout (its header and stylesheet), no sideways scroll, axe-core clean."""
    assert page.locator("link[href*='site']").count() >= 1, page.url
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390, page.url
    assert_accessible(page)


def test_turning_on_an_authenticator_app_and_signing_in_with_it(live_server, page):
    club = ClubFactory(name="Card Club")
    MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="marge"))
    base = live_server.url
    log_in_through_the_form(page, base, "marge", PASSWORD)

    page.goto(f"{base}/clubs/{club.slug}/members/security/")
    looks_right(page)
    page.get_by_role("link", name="Two-factor sign-in on your account").click()
    page.wait_for_url("**/2fa/")
    looks_right(page)

    page.goto(f"{base}/accounts/2fa/totp/activate/")
    page.wait_for_url("**/reauthenticate/**")
    looks_right(page)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url("**/totp/activate/")
    looks_right(page)
    secret = page.locator("#authenticator_secret").input_value()
    assert re.fullmatch(r"[A-Z2-7]{32}", secret)
    page.fill("input[name=code]", _code(secret))
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url("**/recovery-codes/**")
    looks_right(page)

    page.goto(f"{base}/clubs/{club.slug}/members/security/")
    page.get_by_label("Require two-factor sign-in of the club's admins").check()
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    assert page.get_by_label("Require two-factor sign-in of the club's admins").is_checked()

    page.context.clear_cookies()
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "marge")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/2fa/authenticate/")
    looks_right(page)
    # A recovery code (the app's code of this half-minute was spent turning it on).
    codes = page_codes()
    page.fill("input[name=code]", codes[0])
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")
    assert "Successfully signed in as marge" in page.content()
    page.goto(f"{base}/clubs/{club.slug}/members/invitations/")
    assert page.get_by_role("heading", name="Invite members").is_visible()
