"""On a phone: a member chooses their notifications and quiet hours on their settings page
and removes a device; a secretary reads the night's report written when the night ended,
edits it and approves it (a club that asks for approval), and a visitor then reads it on
the club's page. axe-core passes on each page and nothing scrolls sideways."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.notify.models import NotifySettings, PushSubscription
from clabber_league.reports import services as report_services
from clabber_league.reports.models import Report
from tests.browser.conftest import assert_accessible
from tests.events.conftest import play_out
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]

PASSWORD = "night-owl-42"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


def test_a_member_chooses_their_notifications_and_quiet_hours_on_a_phone(
    live_server, page, logged_in_page, settings
):
    settings.CLABBER_VAPID_PUBLIC_KEY = "BPublicKeyForTheBrowser"
    settings.CLABBER_VAPID_PRIVATE_KEY = "private"
    club = ClubFactory(slug="tuesday")
    user = UserFactory(username="marge", password=PASSWORD)
    MembershipFactory(club=club, role=Role.PLAYER, user=user)
    PushSubscription.objects.create(
        user=user,
        endpoint="https://push.example.org/x",
        p256dh="a",
        auth="b",
        label="Firefox on Android",
    )
    base = live_server.url
    logged_in_page("marge", PASSWORD)
    page.goto(base + "/me/settings/")
    expect(page.get_by_role("heading", name="Notifications", exact=True)).to_be_visible()
    expect(page.locator(".device-list")).to_contain_text("Firefox on Android")
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_label("Email: The night's results").check()
    page.get_by_label("Push: The draw is out").uncheck()
    page.get_by_label("Quiet from").fill("22:30")
    page.get_by_role("button", name="Save my notification choices").click()
    expect(page.get_by_role("heading", name="Notifications", exact=True)).to_be_visible()
    expect(page.locator(".has-error")).to_contain_text("both the start and the end")
    assert_accessible(page)
    assert not NotifySettings.objects.exists()

    page.get_by_label("Quiet from").fill("22:30")
    page.get_by_label("Quiet until").fill("07:00")
    page.get_by_label("Email: The night's results").check()
    page.get_by_label("Push: The draw is out").uncheck()
    page.get_by_role("button", name="Save my notification choices").click()
    expect(page.locator(".messages")).to_contain_text("notification choices are saved")
    saved = NotifySettings.objects.get(user=user)
    assert saved.chosen("results") == ["push", "email"] and saved.chosen("draw") == []
    assert (saved.quiet_start, saved.quiet_end) == (dt.time(22, 30), dt.time(7, 0))
    expect(page.get_by_label("Email: The night's results")).to_be_checked()
    assert_accessible(page)

    page.get_by_role("button", name="Remove Firefox on Android").click()
    expect(page.locator("#no-devices")).to_be_visible()
    assert not PushSubscription.objects.exists()
    assert_accessible(page)


def test_the_secretary_approves_the_nights_report_and_a_visitor_reads_it(
    live_server, page, logged_in_page, browser
):
    club = ClubFactory(slug="friday", name="Friday Clabber Club", is_public=True)
    secretary = UserFactory(username="sec", password=PASSWORD)
    MembershipFactory(club=club, role=Role.ADMIN, user=secretary)
    report_services.report_settings_save(club=club, needs_approval=True)
    night = event_services.event_create(
        club=club, name="Friday night", date=dt.date(2026, 12, 4), rules="clabber", rounds=1
    )
    for i in range(1, 5):
        checkin.entry_check_in(event=night, player=PlayerFactory(club=club, name=f"Player {i}"))
    from clabber_league.clubs.access import access_for

    access = access_for(club=club, user=secretary)
    drawn = rounds.round_draw(event=night, access=access)
    play_out(drawn)
    rounds.round_finish(round_=drawn, access=access)
    report = Report.objects.get()
    assert not report.published

    base = live_server.url
    logged_in_page("sec", PASSWORD)
    page.goto(f"{base}/clubs/friday/reports/")
    expect(page.locator(".report-list")).to_contain_text("Awaiting approval")
    assert_accessible(page)
    assert page.evaluate(FITS)
    page.get_by_role("link", name=f"Edit {report.title}").click()
    expect(page.get_by_role("heading", name="Edit the report")).to_be_visible()
    assert "shared first place in Friday night" in page.get_by_label("Text").input_value()
    assert_accessible(page)
    assert page.evaluate(FITS)
    page.get_by_label("Text").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".has-error")).to_contain_text("required")
    page.get_by_label("Text").fill("Players 3 and 4 won every deal. Well played!")
    page.get_by_role("button", name="Approve and publish").click()
    expect(page.locator("#report-state")).to_contain_text("Published")
    assert_accessible(page)

    visitor = browser.new_page(viewport={"width": 390, "height": 844})
    visitor.goto(f"{base}/clubs/friday/")
    visitor.get_by_role("link", name=report.title).click()
    expect(visitor.locator(".report-text")).to_contain_text("Well played!")
    assert_accessible(visitor)
    assert visitor.evaluate(FITS)
    visitor.close()
