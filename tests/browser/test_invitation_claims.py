"""On a phone: an invitation for an email address asks the person to confirm that address
first, and joining as a player the invitation does not name waits for a club admin, who
approves it on the invitation's page. Each page fits the screen and passes axe-core."""

import pytest
from allauth.account.models import EmailAddress

from clabber_league.clubs.models import Role
from clabber_league.members import services
from tests.browser.conftest import assert_accessible
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


def fits_the_phone(page) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390, page.url


def test_a_claim_waits_for_the_admin_who_approves_it(live_server, page, logged_in_page):
    club = ClubFactory(name="Card Club")
    admin = MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="marge"))
    irma = PlayerFactory(club=club, name="Irma")
    walt = UserFactory(username="walt", email="walt@example.org")
    EmailAddress.objects.create(user=walt, email="walt@example.org", verified=False, primary=True)
    base = live_server.url

    by_email = services.invitation_create(
        club=club, created_by=admin.user, email="walt@example.org"
    )
    logged_in_page("walt", PASSWORD)
    page.goto(base + services.invitation_url(invitation=by_email))
    assert page.get_by_text("only an account that has confirmed that address").is_visible()
    fits_the_phone(page)
    assert_accessible(page)
    EmailAddress.objects.filter(user=walt).update(verified=True)

    page.goto(base + services.invitation_url(invitation=by_email))
    page.select_option("#id_player", str(irma.pk))
    page.get_by_role("button", name="Join Card Club").click()
    page.wait_for_url("**/me/settings/")
    assert "A club admin checks that you are Irma" in page.content()
    irma.refresh_from_db()
    assert irma.user is None

    page.context.clear_cookies()
    logged_in_page("marge", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/members/invitations/{by_email.pk}/")
    assert page.get_by_text("Awaits your approval").is_visible()
    fits_the_phone(page)
    assert_accessible(page)
    page.get_by_role("button", name="Approve: link the login to this player").click()
    page.wait_for_load_state()
    assert page.get_by_text("Approved", exact=True).is_visible()
    irma.refresh_from_db()
    assert irma.user == walt
