"""Play-offs on phones (issue 16): a division's season finishes, the club admin sends its
top four into play-offs, the semi-finals and the final are started from the tie pages,
scored through deal entry by the scorer and confirmed by the club admin, and the bracket
shows the champion. Each page passes axe-core and fits 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.cups.models import Cup, Tie
from clabber_league.leagues.models import HouseRules
from tests.browser.conftest import PHONE, assert_accessible
from tests.cups.builders import finish_by_forfeits, round_robin, teams_of
from tests.factories import DivisionFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "green-baize-2026"
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


@pytest.fixture
def season():
    """Monday Night, played to 150 (one good deal ends a game), finished: Aces first,
    then Bells, Clubs, Dads, Eights. A club admin "sec" and a scorer "marge"."""
    division = DivisionFactory(name="Monday Night")
    club = division.club
    division.house_rules = HouseRules.objects.create(
        club=club, name="Short games", base="clabber", options={"target": 150}
    )
    division.save()
    for username, role in (("sec", Role.ADMIN), ("marge", Role.SCORER)):
        MembershipFactory(
            club=club, role=role, user=UserFactory(username=username, password=PASSWORD)
        )
    teams = teams_of(division, ["Aces", "Bells", "Clubs", "Dads", "Eights"])
    finish_by_forfeits(round_robin(division, teams), teams)
    return {"club": club, "division": division, "teams": teams}


def play_the_tie(sec, scorer, base: str, cup: Cup, key: str) -> None:
    """The club admin starts the tie's game, the scorer records the one deal that wins it
    for the home side, the club admin confirms it."""
    tie = cup.ties.get(key=key)
    sec.goto(f"{base}/clubs/{cup.club.slug}/cups/{cup.pk}/ties/{tie.pk}/")
    assert_accessible(sec)
    assert sec.evaluate(FITS)
    sec.get_by_role("button", name="Start the game").click()
    # Straight to deal entry, not the sheet: the first deal is what comes next.
    expect(sec).to_have_url(re.compile(r"/games/\d+/deal/$"))
    assert_accessible(sec)
    game_url = sec.url.removesuffix("deal/")
    scorer.goto(game_url + "deal/")
    scorer.locator("label[for=id_trump_2]").click()
    scorer.locator("label[for=id_maker_seat_0]").click()
    scorer.get_by_label(f"Card points, {tie.home.name}").fill("142")
    scorer.locator("label[for=id_last_trick_0]").click()
    # The live preview has answered (so Save is not sent beside it).
    expect(scorer.locator("#preview")).to_contain_text("Deal 1: made")
    scorer.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    scorer.get_by_role("button", name="Save deal 1").click()
    expect(scorer.locator(".messages")).to_contain_text("Deal 1 saved")
    tie.refresh_from_db()
    assert tie.status == Tie.Status.PLAYING  # finished, not confirmed: nobody goes through yet
    sec.goto(game_url)
    sec.get_by_role("button", name="Confirm the result").click()
    expect(sec.locator(".messages")).to_contain_text("Result confirmed")
    tie.refresh_from_db()
    assert tie.status == Tie.Status.DECIDED and tie.winner == tie.home
    # The tie's games name their sides ("Aces 152, Dads 0" with a dash), never "A won".
    sec.goto(f"{base}/clubs/{cup.club.slug}/cups/{cup.pk}/ties/{tie.pk}/")
    games = sec.locator("main li").filter(has_text="Game 1")
    dash = "\N{EN DASH}"
    expect(games).to_contain_text(re.compile(rf"{tie.home.name} \d+ {dash} {tie.away.name} \d+"))
    expect(games).to_contain_text(f"{tie.home.name} won")


def test_the_top_four_play_off_through_deal_entry_to_a_champion(
    live_server, browser, season, celery_worker_process, logged_in_page
):
    base, club = live_server.url, season["club"]
    admin_phone = browser.new_context(viewport=PHONE)
    scorer_phone = browser.new_context(viewport=PHONE)
    try:
        sec = admin_phone.new_page()
        sec.set_default_timeout(15_000)
        scorer = scorer_phone.new_page()
        scorer.set_default_timeout(15_000)
        logged_in_page("sec", PASSWORD, page=sec)
        logged_in_page("marge", PASSWORD, page=scorer)

        sec.goto(f"{base}/clubs/{club.slug}/")
        sec.get_by_role("link", name="Cups").click()
        assert_accessible(sec)
        sec.get_by_role("link", name="New cup or play-offs").click()
        assert_accessible(sec)
        assert sec.evaluate(FITS)
        sec.fill("#id_name", "Monday play-offs")
        sec.get_by_label(re.compile("Play-offs: the top teams")).check()
        sec.get_by_role("checkbox", name=re.compile(r"· Monday Night$")).check()
        sec.fill("#id_top", "4")
        sec.get_by_role("button", name="Create").click()
        expect(sec.locator(".messages")).to_contain_text("Monday play-offs created")

        # The season is over: the knockout is built by the task at once (on a worker, the
        # page asks for itself again until it is) and its seeding explained.
        expect(sec.get_by_text("Place 1 in Monday Night")).to_be_visible(timeout=60_000)
        expect(sec.get_by_text(re.compile("top 4 of each division go through"))).to_be_visible()
        assert_accessible(sec)
        assert sec.evaluate(FITS)
        cup = Cup.objects.get(name="Monday play-offs")
        assert list(cup.entrants.values_list("name", flat=True)) == [
            "Aces",
            "Bells",
            "Clubs",
            "Dads",
        ]

        play_the_tie(sec, scorer, base, cup, "M1-1")  # Aces v Dads
        play_the_tie(sec, scorer, base, cup, "M1-2")  # Bells v Clubs
        play_the_tie(sec, scorer, base, cup, "M2-1")  # the final: Aces v Bells

        sec.goto(f"{base}/clubs/{club.slug}/cups/{cup.pk}/bracket/")
        expect(sec.get_by_text(re.compile("Champion"))).to_contain_text("Aces")
        assert_accessible(sec)
        assert sec.evaluate(FITS)
        cup.refresh_from_db()
        assert cup.status == Cup.Status.FINISHED and cup.champion.name == "Aces"
        # A finished cup has no round left to place on a league night.
        sec.goto(f"{base}/clubs/{club.slug}/cups/{cup.pk}/")
        expect(sec.get_by_role("heading", name="Ties")).to_be_visible()
        expect(sec.get_by_text("Place a round on league nights")).to_have_count(0)
    finally:
        admin_phone.close()
        scorer_phone.close()
