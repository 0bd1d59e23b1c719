"""A klaverjas drive on a phone (issue 36): the secretary sets up a night of klaverjas with
rounds of 16 deals and the klaverjas clubs' prize rule (places 1 to 4, then every fourth,
and the last place), ticks eight players in, draws; each table's first deal is entered on
the table's phone through the klaverjas form, the other fifteen as the table would save
them (the service the page calls), two rounds. Each player scores his pair's total of
each round, the night ranks them by the sum, and the prize list pays the last place.
axe-core passes on the night's pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Player, Role
from clabber_league.events.models import Event, Round
from clabber_league.games import services
from clabber_league.games.models import Game
from tests.browser.conftest import PHONE, assert_accessible, wait_for_requests_in_flight
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "night-owl-42"


@pytest.fixture
def club():
    club = ClubFactory(slug="klaverjas", name="KC De Boer")
    secretary = UserFactory(username="sec", password=PASSWORD)
    MembershipFactory(club=club, user=secretary, role=Role.ADMIN)
    for i in range(1, 9):
        PlayerFactory(club=club, name=f"Speler {i}")
    return club


def _play_round(page, browser, base: str, event: Event, number: int) -> dict[int, int]:
    """Every table's 16 deals; returns each player's pair total for the round."""
    round_ = Round.objects.get(event=event, number=number)
    page.goto(f"{base}/clubs/{event.club.slug}/events/{event.pk}/")
    pair_totals: dict[int, int] = {}
    links = {
        t.number: page.get_by_role(
            "link", name=f"Table link of table {t.number} (for the phone at the table)"
        ).get_attribute("href")
        for t in round_.tables.all()
    }
    for table in round_.tables.order_by("number"):
        link = links[table.number]
        phone = browser.new_context(viewport=PHONE)
        at_table = phone.new_page()
        at_table.set_default_timeout(15_000)
        at_table.goto(link)
        # Deal 1 on the phone: side A plays in hearts and takes 100 with the last trick.
        at_table.locator("label[for=id_trump_2]").click()
        at_table.locator("label[for=id_maker_seat_0]").click()
        at_table.locator("#id_points_A").fill("100")
        at_table.locator("label[for=id_last_trick_0]").click()
        expect(at_table.locator("#preview")).to_contain_text("made")
        if number == 1 and table.number == 1:
            assert_accessible(at_table)
        at_table.get_by_role("button", name="Save deal 1").click()
        expect(at_table.locator(".messages")).to_contain_text("saved")
        phone.close()
    # The other fifteen deals of each table as its phone saves them (the same service);
    # no page open meanwhile (SQLite: a page's request would lock the tables).
    page.goto("about:blank")
    wait_for_requests_in_flight()
    for table in round_.tables.order_by("number"):
        game = Game.objects.get(pk=table.game_id)
        for deal in range(2, 17):
            side = "AB"[deal % 2]
            services.deal_record(
                game_id=game.pk,
                data={
                    "maker": side,
                    "trump": "spades",
                    "points_with_last": {side: 90 + deal, "AB"[(deal + 1) % 2]: 72 - deal},
                    "last_trick": side,
                },
                maker_seat="AB".index(side),
            )
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        for seat in game.seats.all():
            pair_totals[seat.player_id] = game.scores[seat.side]
    return pair_totals


def test_a_klaverjas_drive_of_two_rounds(live_server, browser, page, club, logged_in_page):
    base = live_server.url
    logged_in_page("sec", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/events/new/")
    page.fill("#id_name", "Dinsdag klaverjassen")
    page.select_option("#id_rules", "klaverjas-rotterdams")
    page.select_option("#id_round_kind", "deals")
    page.fill("#id_round_deals", "16")
    page.fill("#id_rounds", "2")
    page.select_option("#id_prize_rule", "fourth_last")
    page.fill("#id_entry_fee", "2")
    assert_accessible(page)
    page.get_by_role("button", name="Create the night").click()
    expect(page.get_by_role("heading", name="Dinsdag klaverjassen")).to_be_visible()
    event = Event.objects.get()

    for i in range(1, 9):
        page.get_by_role("button", name=f"Speler {i} is here").click()
        expect(page.locator(".messages")).to_contain_text(f"Speler {i} is in")
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is drawn")
    assert sorted(len(t.seats) for t in Round.objects.get(event=event).tables.all()) == [4, 4]
    assert_accessible(page)

    first = _play_round(page, browser, base, event, 1)
    page.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/")
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is drawn")
    second = _play_round(page, browser, base, event, 2)

    page.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/")
    page.get_by_role("button", name="Finish the night").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is finished")
    rows = page.locator("#ranking tbody tr")
    expect(rows).to_have_count(8)
    night = {player: first[player] + second[player] for player in first}
    best = max(night.values())
    expect(rows.first).to_contain_text(str(best))
    assert_accessible(page)

    page.goto(f"{base}/clubs/{club.slug}/events/{event.pk}/prizes/")
    # 8 players: places 1, 2, 3, 4 and 8 (the last place is already a fourth place).
    expect(page.locator("body")).to_contain_text(
        "Places 1 to 4, then every fourth place, and the last place"
    )
    for player, points in night.items():
        name = Player.objects.get(pk=player).name
        # The player's own row: a tie-break note in another row names its neighbour too.
        expect(page.locator(f'tr[data-player="{name}"]')).to_contain_text(str(points))
    assert_accessible(page)
