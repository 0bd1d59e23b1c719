"""A night's pages read a fixed number of queries whatever the number of tables: the room
display (page and live fragment), the secretary's night page, the wall draw, the table
cards and the prize list, each with 8 and with 40 players, a round played and the next one
drawn."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games

from .conftest import deal, play_out

pytestmark = pytest.mark.django_db

PAGES = ["display", "display-live", "detail", "prizes", "round-draw", "round-cards"]


def _night(club, secretary, players):
    from tests.factories import PlayerFactory

    event = event_services.event_create(
        club=club,
        user=secretary,
        name=f"Night of {players}",
        date=dt.date(2026, 12, 2),
        rules="clabber",
        rounds=3,
        seed="42",
        entry_fee_cents=200,
        prize_rule="shares",
        prize_shares=[50, 30, 20],
    )
    for i in range(players):
        player = PlayerFactory(club=club, name=f"Player {players}-{i:02d}")
        checkin.entry_check_in(event=event, player=player)
        checkin.entry_paid_set(event=event, player=player, paid=True)
    play_out(rounds.round_draw(event=event, user=secretary))
    second = rounds.round_draw(event=event, user=secretary)
    table = second.tables.select_related("game").first()
    games.deal_record(game_id=table.game.pk, data=deal())  # one table under way
    return event


def _queries(client, event, name):
    args = [event.club.slug, event.pk] + ([2] if name.startswith("round-") else [])
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(f"events:{name}", args=args)).status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", PAGES)
def test_a_nights_page_reads_as_many_queries_for_40_players_as_for_8(client, club, secretary, name):
    small, large = _night(club, secretary, 8), _night(club, secretary, 40)
    client.force_login(secretary)
    _queries(client, small, name)  # the session and the club's caches warmed alike
    assert _queries(client, small, name) == _queries(client, large, name)
