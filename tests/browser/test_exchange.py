"""A federation's officer on a phone: uploads a club's results file (a bad one first, its
problems listed), reads the imported file with its flagged number, opens and closes a
period. axe-core passes on each page and nothing scrolls sideways."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from clabber_league.exchange.models import ResultFile
from clabber_league.federation.models import Federation, FederationClub, Officer
from tests.browser.conftest import assert_accessible, log_in
from tests.exchange.files import night_file
from tests.factories import ClubFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "results-file-42"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


def test_an_officer_uploads_a_results_file_on_a_phone(live_server, page, tmp_path):
    club = ClubFactory(slug="de-klaver", name="De Klaver")
    federation = Federation.objects.create(name="Klaverjas Union", slug="nku")
    FederationClub.objects.create(federation=federation, club=club)
    Officer.objects.create(
        federation=federation, user=UserFactory(username="officer", password=PASSWORD)
    )
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(night_file("elsewhere", numbers={})))
    good = tmp_path / "night.json"
    good.write_text(json.dumps(night_file("de-klaver", numbers={1: "NKU-404"})))
    base = live_server.url
    log_in(page, base, "officer", PASSWORD)

    page.goto(f"{base}/federations/nku/results/")
    expect(page.get_by_role("heading", name="Results", exact=True)).to_be_visible()
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_label("Results file", exact=True).set_input_files(str(bad))
    page.get_by_role("button", name="Import the file").click()
    expect(page.get_by_role("alert")).to_contain_text("nothing was imported")
    expect(page.get_by_role("alert")).to_contain_text("sender.club.slug")
    assert_accessible(page)
    assert page.evaluate(FITS)
    assert not ResultFile.objects.exists()

    page.get_by_label("Results file", exact=True).set_input_files(str(good))
    page.get_by_role("button", name="Import the file").click()
    expect(page.get_by_role("heading", name="Tuesday night")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("Results file imported")
    expect(page.get_by_role("table")).to_contain_text("Ann Smit")
    expect(page.get_by_text("Unknown number").first).to_be_visible()
    assert_accessible(page)
    assert page.evaluate(FITS)

    page.get_by_role("link", name="Results", exact=True).click()
    page.get_by_label("First day").fill("2026-12-01")
    page.get_by_label("Last day").fill("2026-12-31")
    page.get_by_role("button", name="Open the period").click()
    expect(page.locator(".messages")).to_contain_text("Period opened")
    page.get_by_role("button", name="Close the period").click()
    expect(page.locator(".messages")).to_contain_text("1 results file is final")
    expect(page.get_by_role("table")).to_contain_text("Final")
    assert_accessible(page)
    assert page.evaluate(FITS)


def test_a_secretary_finds_the_results_files_on_a_phone(live_server, page):
    from clabber_league.clubs.models import Role
    from clabber_league.events.models import Event
    from tests.factories import MembershipFactory

    club = ClubFactory(slug="de-klaver", name="De Klaver")
    MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    )
    night = Event.objects.create(
        club=club, name="Tuesday night", date="2026-12-01", rules="clabber", status="finished"
    )
    base = live_server.url
    log_in(page, base, "sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/settings/")
    page.get_by_role("link", name="The club's results files").click()
    expect(page.get_by_role("heading", name="Results files", exact=True)).to_be_visible()
    link = page.get_by_role("link", name="Tuesday night: JSON file")
    expect(link).to_have_attribute("href", f"/clubs/{club.slug}/exchange/night/{night.pk}.json")
    assert_accessible(page)
    assert page.evaluate(FITS)
    with page.expect_download() as download:
        page.get_by_role("link", name="Tuesday night: XML file").click()
    assert download.value.suggested_filename == f"de-klaver-night-{night.pk}.xml"
