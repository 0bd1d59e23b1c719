"""Confirming at the table with no member's account but the secretary's (issue 27), on a
390x844 phone: the players choose their PINs on the secretary's phone (at the club, or at
a club night's check-in), the table phone scans its card and scores the game, each side
accepts with a PIN, and the standings move. axe-core passes on every new screen, and none
scrolls sideways."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.events.models import Round
from clabber_league.games import services as game_services
from clabber_league.games import table_links
from clabber_league.games.models import Game
from clabber_league.leagues.models import TeamMember
from clabber_league.members import services as members
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import PlayerRating, TeamStanding
from tests.browser.conftest import PHONE, assert_accessible, mules_v_dads
from tests.factories import (
    ClubFactory,
    DivisionFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "secretary-42"
PINS = {"Tom": "1357", "Ann": "2468", "Mary-Lou": "3579", "Bob": "4680"}
SIDEWAYS = "() => document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth + 1"


def _secretary(club) -> None:
    user = UserFactory(username="sec", password=PASSWORD)
    MembershipFactory(club=club, user=user, role=Role.ADMIN)


def _choose_pin(page, name: str) -> None:
    """On the secretary's phone, handed to the player: their PIN, twice, nobody sees it."""
    page.get_by_label("New PIN (4 to 6 digits)").fill(PINS[name])
    page.get_by_label("The same PIN again").fill(PINS[name])
    page.get_by_role("button", name="Set my PIN").click()
    expect(page.locator(".messages")).to_contain_text(f"{name}'s PIN is set")


def _deal(page, points: str = "142") -> None:
    page.locator("label[for=id_trump_2]").click()
    page.locator("label[for=id_maker_seat_0]").click()
    page.fill("#id_points_A", points)
    page.locator("label[for=id_last_trick_0]").click()
    page.get_by_role("button", name=re.compile(r"^Save deal")).click()
    expect(page.locator(".messages")).to_contain_text("saved")


def _accept(page, team: str, name: str) -> None:
    """One side at the acceptance screen: pick your name, type your PIN, Accept."""
    side = page.locator("section.accept-side", has=page.get_by_role("heading", name=team))
    form = side.locator("form").first
    form.get_by_label(name).check()
    form.get_by_label("Your PIN").fill(PINS[name])
    form.get_by_role("button", name=f"Accept for {team}").click()


def test_a_league_fixture_is_confirmed_at_the_table_with_pins_only(
    live_server, page, browser, logged_in_page
):
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    _secretary(club)
    mules = TeamFactory(division=division, name="Mules", members=0)
    dads = TeamFactory(division=division, name="Dads", members=0)
    for team, names in ((mules, ("Tom", "Mary-Lou")), (dads, ("Ann", "Bob"))):
        for position, name in enumerate(names):
            player = PlayerFactory(club=club, name=name)
            TeamMember.objects.create(team=team, player=player, position=position)
    fixture = Fixture.objects.create(
        club=club, division=division, round_number=1, home=mules, away=dads, table=5
    )
    base = live_server.url

    # The secretary's phone: each player types their own PIN.
    logged_in_page("sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/members/pins/")
    assert_accessible(page)
    for name in PINS:
        page.get_by_role("link", name=name, exact=True).click()
        if name == "Tom":
            assert not page.evaluate(SIDEWAYS)
            assert_accessible(page)
        _choose_pin(page, name)

    # The table phone, no account: the fixture's card is scanned, the game scored.
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(15_000)
    link = table_links.fixture_link_issue(fixture=fixture)
    phone.goto(base + table_links.table_link_path(link))
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator(".messages")).to_contain_text("Game started at table 5")
    for _ in range(4):  # 152 a deal for Mules: the fourth ends the game
        _deal(phone)
    game = Game.objects.get(fixture=fixture)

    # Game over: the phone shows the acceptance screen, names not side letters.
    expect(phone.get_by_role("heading", level=1)).to_have_text("Accept the result")
    expect(phone.locator("#accept-state")).to_contain_text("Mules is still to accept.")
    expect(phone.locator("#accept-state")).to_contain_text("Dads is still to accept.")
    assert not phone.evaluate(SIDEWAYS)
    assert_accessible(phone)
    _accept(phone, "Dads", "Ann")
    expect(phone.locator("#accept-state")).to_contain_text("Dads has accepted.")
    expect(phone.locator("#accept-state")).to_contain_text("Mules is still to accept.")
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert_accessible(phone)
    _accept(phone, "Mules", "Tom")
    expect(phone.locator(".messages")).to_contain_text("every side has accepted")
    expect(phone.locator("#accept-history")).to_be_visible()
    expect(phone.locator(".history-list")).to_contain_text("with their PIN on the table phone")

    assert Game.objects.get(pk=game.pk).status == Game.Status.CONFIRMED
    assert TeamStanding.objects.filter(games_played=1, games_unconfirmed=0).count() == 2
    assert PlayerRating.objects.count() == 4  # the players' ratings moved
    page.goto(f"{base}/clubs/{club.slug}/standings/divisions/{division.pk}/")
    expect(page.locator("main")).to_contain_text("Mules")


def test_a_club_night_with_pins_chosen_at_check_in(live_server, page, browser, logged_in_page):
    from clabber_league.events.services.events import event_create

    club = ClubFactory(slug="tuesday", name="Tuesday Clabber Club")
    _secretary(club)
    for name in PINS:
        PlayerFactory(club=club, name=name)
    event = event_create(
        club=club,
        name="Tuesday night",
        date=dt.date(2026, 12, 1),
        rules="clabber",
        rounds=1,
        round_kind="deals",
        round_deals=2,
    )
    base = live_server.url
    logged_in_page("sec", PASSWORD)
    night = f"{base}/clubs/{club.slug}/events/{event.pk}/"
    page.goto(night)
    for name in PINS:  # check in, then hand the phone over for the PIN
        page.get_by_role("button", name=f"{name} is here").click()
        expect(page.locator(".messages")).to_contain_text(f"{name} is in")
        page.get_by_role("link", name=f"{name}: confirmation PIN").click()
        _choose_pin(page, name)
        assert page.url.startswith(night)
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is drawn")
    table = Round.objects.get(event=event).tables.get()
    card = page.get_by_role(
        "link", name=f"Table link of table {table.number} (for the phone at the table)"
    ).get_attribute("href")

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.set_default_timeout(15_000)
    phone.goto(card)
    for _ in range(2):  # the round is two deals
        _deal(phone, "100")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Accept the result")
    assert_accessible(phone)
    game = Game.objects.get(pk=table.game_id)
    seats = {s.player.name: s.side for s in game.seats.select_related("player")}
    for side in ("A", "B"):
        name = next(n for n, s in seats.items() if s == side)
        team = " & ".join(
            s.player.name for s in game.seats.select_related("player") if s.side == side
        )
        _accept(phone, team, name)
    expect(phone.locator(".messages")).to_contain_text("every side has accepted")
    assert Game.objects.get(pk=game.pk).status == Game.Status.CONFIRMED
    assert PlayerRating.objects.count() == 4


def test_a_player_with_no_pin_sets_one_at_the_table_with_the_admins_approval(live_server, page):
    """Ann has no PIN: on the table phone the club admin present approves her new PIN with
    the admin's password (typed by the admin); then Ann accepts for Dads with it."""
    game = mules_v_dads()
    club = game.club
    _secretary(club)
    access = access_for(club=club, user=get_user_model().objects.get(username="sec"))
    for seat in game.seats.select_related("player"):
        if seat.player.name != "Ann":
            members.player_pin_set(
                access=access, player_id=seat.player_id, pin=PINS[seat.player.name]
            )
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}
    for _ in range(4):
        game_services.deal_record(game_id=game.pk, data=deal, at_table="2")
    link = table_links.table_link_issue(game=game, table_label="2")

    page.goto(live_server.url + table_links.table_link_path(link))
    expect(page.get_by_role("heading", level=1)).to_have_text("Accept the result")
    page.get_by_role("link", name="Set one now with a club admin present").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Set a PIN at the table")
    assert not page.evaluate(SIDEWAYS)
    assert_accessible(page)
    page.get_by_label("Ann").check()
    page.get_by_label("New PIN (4 to 6 digits)").fill(PINS["Ann"])
    page.get_by_label("The same PIN again").fill(PINS["Ann"])
    page.get_by_label("The club admin's PIN or password").fill("wrong")
    page.get_by_role("button", name="Set the PIN").click()
    expect(page.locator(".field-error")).to_contain_text("Wrong PIN or password")
    assert_accessible(page)
    page.get_by_label("Ann").check()
    page.get_by_label("New PIN (4 to 6 digits)").fill(PINS["Ann"])
    page.get_by_label("The same PIN again").fill(PINS["Ann"])
    page.get_by_label("The club admin's PIN or password").fill(PASSWORD)
    page.get_by_role("button", name="Set the PIN").click()
    expect(page.locator(".messages")).to_contain_text("Ann's PIN is set")
    _accept(page, "Dads", "Ann")
    expect(page.locator("#accept-state")).to_contain_text("Dads has accepted.")
    _accept(page, "Mules", "Tom")
    expect(page.locator(".messages")).to_contain_text("every side has accepted")
