"""On a phone, a club night's draw seeds (the commitment, then the seed) and the page on how
to check a draw read well, fit the screen and pass axe-core."""

import datetime as dt

import pytest

from clabber_league.clubs.models import Role
from clabber_league.core.commitments import seed_hash
from clabber_league.events.services import checkin, events, rounds
from clabber_league.events.services.events import committed_seed
from tests.browser.conftest import assert_accessible
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def fits_the_phone(page) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390, page.url


def test_the_draw_seeds_and_how_to_check_them_on_a_phone(live_server, page, logged_in_page):
    club = ClubFactory(name="Card Club")
    MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="marge"))
    night = events.event_create(
        club=club, name="Tuesday night", date=dt.date(2026, 12, 1), rules="clabber", rounds=3
    )
    for i in range(8):
        checkin.entry_check_in(event=night, player=PlayerFactory(club=club, name=f"P{i}"))
    first = rounds.round_draw(event=night)
    night.refresh_from_db()

    logged_in_page("marge", "table-talk-42")
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{night.pk}/")
    page.get_by_text("Draw seeds: check the draw").click()
    listed = page.locator(".seed-list")
    assert first.seed in listed.inner_text()
    upcoming = committed_seed(night)
    assert seed_hash(upcoming) in listed.inner_text()  # round 2: the hash only
    assert upcoming not in page.content()
    fits_the_phone(page)
    assert_accessible(page)

    page.get_by_role("link", name="How to check a draw").click()
    page.wait_for_url("**/check-a-draw/")
    assert "sha256sum" in page.content()
    fits_the_phone(page)
    assert_accessible(page)
