"""A club admin sets up a webhook on a phone: from the club's settings to the webhooks
page, adds one for results (its secret shown once), sends a test event that the
receiving server gets, reads the try in the log, pauses it and deletes it. axe-core
passes on each page and nothing scrolls sideways."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from standardwebhooks import Webhook

from clabber_league.clubs.models import Role
from clabber_league.webhooks.models import Subscription
from tests.browser.conftest import assert_accessible, log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.webhooks.conftest import receiver  # noqa: F401 (the receiving server)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "hook-line-42"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


def test_a_club_admin_adds_tests_pauses_and_deletes_a_webhook(
    live_server,
    page,
    receiver,  # noqa: F811
    tasks_in_process,
):
    club = ClubFactory(slug="hooks", name="Hooked Clabber Club")
    MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    )
    base = live_server.url
    log_in(page, base, "sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/settings/")
    page.get_by_role("link", name="The club's webhooks").click()
    expect(page.get_by_role("heading", name="Webhooks", exact=True)).to_be_visible()
    page.get_by_label("URL").fill(receiver.url)
    page.get_by_label("Description").fill("Our website")
    page.get_by_label("A club night's round is drawn").uncheck()
    page.get_by_label("A club night is finished").uncheck()
    assert_accessible(page)
    assert page.evaluate(FITS)
    page.get_by_role("button", name="Add the webhook").click()

    expect(page.get_by_role("heading", name="Our website")).to_be_visible()
    subscription = Subscription.objects.get()
    assert subscription.events == ["result.confirmed", "fixture.changed"]
    expect(page.get_by_role("textbox", name="Secret")).to_have_value(subscription.secret)
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_role("button", name="Send a test event").click()
    expect(page.locator(".messages")).to_contain_text("Test event sent")
    assert len(receiver.received) == 1
    Webhook(subscription.secret).verify(receiver.received[0].body, receiver.received[0].headers)
    expect(page.get_by_role("textbox", name="Secret")).to_have_count(0)  # shown once
    delivery = page.locator("details.delivery").first
    expect(delivery).to_contain_text("Delivered")
    delivery.locator("summary").click()
    expect(delivery).to_contain_text("HTTP 204")
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_role("button", name="Pause").click()
    expect(page.locator(".messages")).to_contain_text("Webhook paused.")
    expect(page.get_by_role("button", name="Resume")).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("No webhooks yet.")).to_be_visible()
    assert not Subscription.objects.exists()
