"""A club night as the room sees it, on a phone: the room display updating itself after a
deal is recorded, the table cards and the draw for the wall, the prize list printed, and
a season ranked over three nights by the best two of three. axe-core on every page."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.events import views_public
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games
from clabber_league.games.models import Game
from tests.browser.conftest import assert_accessible
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
DEAL = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}


@pytest.fixture
def club():
    club = ClubFactory(name="De Lentemorgen", is_public=True)
    admin = UserFactory(username="secretary", password=PASSWORD)
    MembershipFactory(club=club, user=admin, role=Role.ADMIN)
    return club


@pytest.fixture
def players(club):
    names = ["Anna", "Bram", "Cor", "Dirk", "Els", "Fenna", "Gerrit", "Hanna", "Ivo", "Joke"]
    return [PlayerFactory(club=club, name=name) for name in names]


def _night(club, players, *, day=1, series=None, **changes):
    values = {
        "name": f"Club night {day}",
        "date": dt.date(2026, 12, day),
        "rules": "clabber",
        "rounds": 2,
        "seed": f"{day:06d}",
        "series": series,
        **changes,
    }
    event = event_services.event_create(club=club, **values)
    for player in players:
        checkin.entry_check_in(event=event, player=player)
        checkin.entry_paid_set(event=event, player=player, paid=True)
    return event


def _play_out(round_):
    for table in round_.tables.select_related("game"):
        game = table.game
        while game.status == Game.Status.IN_PROGRESS:
            data = (
                DEAL if len(table.seats) == 4 else {**DEAL, "points": {"A": 100, "B": 10, "C": 42}}
            )
            games.deal_record(game_id=game.pk, data=data)
            game = Game.objects.get(pk=game.pk)


def test_the_room_display_shows_a_deal_once_it_is_recorded(
    live_server, page, club, players, monkeypatch
):
    monkeypatch.setattr(views_public, "DISPLAY_POLL_SECONDS", 1)
    event = _night(club, players[:8], ranking="points")  # the leader shows the raw 152
    round_ = rounds.round_draw(event=event)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/display/")
    expect(page.get_by_role("heading", name="Club night 1")).to_be_visible()
    expect(page.locator("#display-round-title")).to_contain_text("Find your table")
    first = page.locator('.display-table[data-table="1"]')
    expect(first.locator(".progress")).to_have_text("not started")
    assert_accessible(page)
    page.evaluate("() => { window.stillTheSamePage = true; }")

    table = round_.tables.select_related("game").get(number=1)
    games.deal_record(game_id=table.game.pk, data=DEAL)

    expect(first.locator(".progress")).to_have_text("1 deal")
    expect(first.locator(".score").first).to_have_text("152")
    expect(page.locator("#display-round-title")).to_contain_text("Round 1 of 2")
    leader = page.locator("table.display-rank tbody tr").first
    expect(leader.locator("td.pts")).to_have_text("152")
    assert page.evaluate("() => window.stillTheSamePage === true")  # swapped, not reloaded
    assert_accessible(page)


def test_table_cards_and_the_draw_for_the_wall(live_server, page, club, players, logged_in_page):
    event = _night(club, players[:9], rules="bela-4")  # 9 at bela: two tables, one sits out
    rounds.round_draw(event=event)
    logged_in_page("secretary", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/rounds/1/cards/")
    cards = page.locator("article.night-card")
    expect(cards).to_have_count(2)
    expect(cards.first.locator(".deals-first")).to_have_count(1)
    expect(cards.first.locator("svg.qr")).to_have_count(1)  # the table link's QR code
    expect(page.locator(".sitouts")).to_contain_text("Sitting out round 1")
    assert_accessible(page)
    page.get_by_role("link", name="The draw for the wall").click()
    rows = page.locator("table.wall-list tbody tr")
    expect(rows).to_have_count(9)
    expect(rows.first.locator("td").first).to_have_text("Anna")
    expect(page.get_by_text("Sits out")).to_have_count(1)
    assert_accessible(page)


def test_the_prize_list_prints_the_ranking_and_the_money(live_server, page, club, players):
    event = _night(club, players[:8], rounds=1, entry_fee_cents=500, prize_rule="per_four")
    _play_out(rounds.round_draw(event=event))
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/{event.pk}/prizes/")
    expect(page.locator("table.ranking tbody tr")).to_have_count(8)
    expect(page.locator(".money")).to_contain_text("40.00")
    assert_accessible(page)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_role("button", name="Print the prize list")).to_be_hidden()
    expect(page.get_by_role("heading", name="Club night 1: results")).to_be_visible()
    expect(page.locator("table.ranking")).to_be_visible()
    expect(page.locator("table.money")).to_contain_text("One prize per four players")
    prizes = page.locator("td.prize").filter(has_text=".")
    expect(prizes).to_have_count(4)  # side A won both tables: four share the two prizes


def test_a_season_over_three_nights_ranks_the_best_two(live_server, page, club, players):
    series = event_services.series_create(club=club, name="Winter", method="best", best_of=2)
    for day, who in ((1, players[:8]), (2, players[:8]), (3, players[2:10])):
        event = _night(club, who, day=day, rounds=1, series=series)
        _play_out(rounds.round_draw(event=event))
    page.goto(f"{live_server.url}/clubs/{club.slug}/events/series/")
    page.get_by_role("link", name="Winter").click()
    expect(page.get_by_text("Best 2 of 3 nights")).to_be_visible()
    rows = page.locator("table.ranking tbody tr")
    expect(rows).to_have_count(10)
    assert_accessible(page)
    cor = page.locator('tr[data-player="Cor"]')  # came all three nights: two count
    expect(cor.locator("td.nights")).to_have_text("3")
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(cor.locator("td.counted")).to_have_count(2)
    cor.get_by_role("link", name="Cor").click()
    expect(page.get_by_role("heading", name="Cor: club nights")).to_be_visible()
    expect(page.locator("table.standings tbody tr")).to_have_count(3)
    assert_accessible(page)
