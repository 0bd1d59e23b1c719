"""On a phone: the club page says what is next for a player, and a scorer starts a game in
three short steps (division, fixture, who sits where) with a substitute and the first dealer
chosen by name. axe-core passes on each page and none scrolls sideways."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture
from tests.browser.conftest import assert_accessible
from tests.factories import (
    DivisionFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)
from tests.games.conftest import made

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


def fits_the_phone(page) -> None:
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= 390, f"{page.url} is {width} px wide"


@pytest.fixture
def league():
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    DivisionFactory(club=division.club, season=division.season, ruleset="clabber", name="Friday")
    club = division.club
    mules = TeamFactory(division=division, name="Mules")
    dads = TeamFactory(division=division, name="Dads")
    today = timezone.localdate()
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=dads,
        away=mules,
        date=today + dt.timedelta(days=2),
        note="Moved from Monday: the hall was booked.",
    )
    return club, division, mules, dads, fixture


def test_a_scorer_starts_a_fixtures_game_with_a_substitute_who_deals_first(
    live_server, page, league, logged_in_page
):
    club, _division, _mules, dads, fixture = league
    MembershipFactory(club=club, role=Role.SCORER, user=UserFactory(username="marge"))
    PlayerFactory(club=club, name="Sam Sub")
    base = live_server.url
    logged_in_page("marge", PASSWORD)

    page.goto(f"{base}/clubs/{club.slug}/")
    page.get_by_role("link", name="New game").click()
    # 1. The division (the club has two).
    expect(page.get_by_role("heading", name="1. The division")).to_be_visible()
    assert_accessible(page)
    fits_the_phone(page)
    page.get_by_role("link", name="Monday Night").click()
    # 2. Its fixtures, this round's: only Monday Night's.
    expect(page.get_by_role("heading", name="2. The fixture")).to_be_visible()
    assert_accessible(page)
    fits_the_phone(page)
    page.get_by_role("link", name="A game outside the schedule").click()
    expect(page.get_by_role("heading", name="2. A game outside the schedule")).to_be_visible()
    assert_accessible(page)
    fits_the_phone(page)
    page.go_back()
    page.get_by_role("link", name="Dads v Mules").click()
    # 3. Who sits where: the teams' players are already in their seats.
    expect(page.get_by_role("heading", name="3. Who sits where")).to_be_visible()
    dads_players = [m.player.name for m in dads.members.order_by("position")]
    expect(page.locator("#id_seat_0 option:checked")).to_have_text(dads_players[0])
    assert_accessible(page)
    fits_the_phone(page)
    # A substitute sits in seat 4 for the Mules; the dealer list names them at once.
    page.fill("#id_sub_3", "sam sub")
    expect(page.locator("label[for=id_first_dealer_3]")).to_contain_text("Seat 4: sam sub")
    page.locator("label[for=id_first_dealer_3]").click()
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    game = Game.objects.get()
    assert game.fixture_id == fixture.pk and game.first_dealer == 3
    seat = game.seats.get(seat=3)
    assert (seat.player.name, seat.substitute) == ("Sam Sub", True)
    expect(page.locator("body")).to_contain_text("Sam Sub")  # the dealer, by name


def test_a_player_finds_their_next_fixture_and_a_game_to_confirm_on_the_club_page(
    live_server, page, league, logged_in_page
):
    club, division, mules, dads, _fixture = league
    scorer = MembershipFactory(club=club, role=Role.SCORER, user=UserFactory()).user
    bertha = MembershipFactory(
        club=club, role=Role.PLAYER, user=UserFactory(username="bertha")
    ).user
    player = dads.members.order_by("position").first().player
    player.user = bertha
    player.save()
    mules_players = [m.player for m in mules.members.order_by("position")]
    dads_players = [m.player for m in dads.members.order_by("position")]
    mules_players[0].user = scorer  # the scorer plays for Mules: Dads' acceptance confirms
    mules_players[0].save()
    game = game_services.game_start(
        club=club,
        division=division,
        sides={"A": mules, "B": dads},
        seats=[mules_players[0], dads_players[0], mules_players[1], dads_players[1]],
        user=scorer,
    )
    for _ in range(4):
        game_services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)

    logged_in_page("bertha", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    card = page.locator(".next-fixture")
    expect(card).to_contain_text("Dads v Mules")
    expect(card).to_contain_text("Moved from Monday: the hall was booked.")
    waiting = page.locator(".to-confirm")
    expect(waiting).to_contain_text("Mules v Dads")
    assert_accessible(page)
    fits_the_phone(page)
    waiting.get_by_role("link", name="Mules v Dads").click()
    page.get_by_role("button", name="Confirm the result").click()
    expect(page.locator(".messages")).to_contain_text("Result confirmed")
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    expect(page.locator(".to-confirm")).to_have_count(0)
