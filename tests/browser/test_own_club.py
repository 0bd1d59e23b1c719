"""A club of its own, on a phone (issue 30): from an empty site, a secretary signs up,
confirms their address, creates the club, pastes the members (one line wrong, then put
right) and follows the guide to the first season; each page passes axe-core and none
scrolls sideways at 390 px. Then the club's settings: its backup and deleting it."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core import mail
from playwright.sync_api import expect

from clabber_league.clubs.models import Club, Membership, Player, Role
from tests.browser.conftest import assert_accessible
from tests.browser.test_accessibility import SIDEWAYS

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
MEMBERS = [
    "Ada Kessler, ada@example.org",
    "Bud Hartig",
    "Cora Lee",
    "Dan Ives",
    "Eve Moss",
    "Fay Noor",
    "Gil Ott",
    "Hal Pike",
    "Ida Quist",
    "Jon Roe",
    "Kim Tate",
    "Lou Vane",
    "Mo Webb",
]


def check(page) -> None:
    """The page as it stands passes axe-core and fits a phone's width."""
    assert_accessible(page)
    wide = [item for item in page.evaluate(SIDEWAYS) if not item["allowed"]]
    assert not wide, f"{page.url} scrolls sideways at 390 px: {wide}"


def confirmation_link() -> str:
    body = mail.outbox[-1].body
    return re.search(r"https?://\S+/accounts/confirm-email/\S+/", body).group(0)


def test_sign_up_create_a_club_paste_members_and_follow_the_guide(live_server, page):
    page.goto(live_server.url + "/")
    check(page)
    page.get_by_role("link", name="Sign up and create your club").click()
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    check(page)
    page.fill("#id_username", "secretary")
    page.fill("#id_email", f"secretary-{uuid.uuid4().hex[:8]}@example.org")  # one link per 3 min
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(re.compile(r"/clubs/new/"))
    expect(page.get_by_text("Confirm your email address first")).to_be_visible()
    check(page)

    page.goto(confirmation_link())
    check(page)
    page.get_by_role("button", name=re.compile("Confirm")).click()
    page.wait_for_url(lambda url: "confirm-email" not in url)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Create your club").click()
    page.wait_for_url(re.compile(r"/clubs/new/"))
    expect(page.get_by_text("Confirm your email address first")).to_have_count(0)
    page.get_by_label("Club name").fill("Wednesday Klaverjas")
    page.get_by_label("Country").fill("Netherlands")
    page.get_by_label("Time zone").select_option("Europe/Amsterdam")
    page.get_by_label("Rule set").select_option("klaberjass")
    page.get_by_role("button", name="Create the club").click()

    club = Club.objects.get(name="Wednesday Klaverjas")
    page.wait_for_url(re.compile(rf"/clubs/{club.slug}/$"))
    assert club.time_zone == "Europe/Amsterdam" and club.ruleset == "klaberjass"
    assert Membership.objects.get(club=club).role == Role.ADMIN
    guide = page.get_by_role("region", name="Getting the club going")
    expect(guide).to_be_visible()
    check(page)

    guide.get_by_role("link", name="Add your members").click()
    page.wait_for_url(re.compile(r"/members/add/"))
    check(page)
    wrong = [*MEMBERS[:-1], "Mo Webb, mo-at-example.org"]
    page.get_by_label("Members, one a line").fill("\n".join(wrong))
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("mo-at-example.org is not an email address.")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Add \d+ players"))).to_have_count(0)
    check(page)
    assert not Player.objects.filter(club=club).exists()  # nothing until confirmed

    page.get_by_label("Members, one a line").fill("\n".join(MEMBERS))
    page.get_by_role("button", name="Check again").click()
    expect(page.get_by_text("13 new players will be added.")).to_be_visible()
    check(page)
    page.get_by_role("button", name="Add 13 players").click()
    page.wait_for_url(re.compile(rf"/clubs/{club.slug}/$"))
    expect(page.get_by_text("13 players added. 1 invitation emailed.")).to_be_visible()
    assert Player.objects.filter(club=club).count() == 13
    guide = page.get_by_role("region", name="Getting the club going")
    expect(guide.get_by_text("13 players")).to_be_visible()
    check(page)

    guide.get_by_role("link", name="Create a season").click()
    page.wait_for_url(re.compile(rf"/clubs/{club.slug}/schedule/$"))
    expect(page.get_by_role("form", name="New season")).to_be_visible()


def test_the_clubs_settings_backup_and_deletion_on_a_phone(live_server, page, logged_in_page):
    from allauth.account.models import EmailAddress

    from clabber_league.clubs.services import club_create
    from tests.factories import UserFactory

    user = UserFactory(username="sec", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    club = club_create(user=user, name="Short Lived", time_zone="Europe/London")
    logged_in_page("sec", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    page.get_by_role("link", name="Settings").click()
    page.wait_for_url(re.compile(r"/settings/$"))
    expect(page.get_by_label("Time zone")).to_have_value("Europe/London")
    check(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the club's backup").click()
    assert download.value.suggested_filename.startswith(f"{club.slug}-")

    page.get_by_role("link", name="Delete the club…").click()
    page.wait_for_url(re.compile(r"/settings/delete/$"))
    check(page)
    page.get_by_label("The club's name").fill("Short")
    page.get_by_role("button", name="Delete the club and all its data").click()
    expect(page.get_by_text("Type the club's name exactly as shown")).to_be_visible()
    check(page)
    assert Club.objects.filter(pk=club.pk).exists()
    page.get_by_label("The club's name").fill("Short Lived")
    page.get_by_role("button", name="Delete the club and all its data").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.get_by_text("Short Lived and all its data are deleted.")).to_be_visible()
    assert not Club.objects.filter(pk=club.pk).exists()
