"""A table card scanned once its round is over: the phone (page or API) is told that the
round is over and where the current round's cards are, not that "this game is confirmed";
nothing is recorded. The games layer asks through ``games.hooks.table_link_closed``,
which the events app fills."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.events.services import checkin, rounds
from clabber_league.games import table_links
from clabber_league.games.models import Deal

from .conftest import deal, play_out

pytestmark = pytest.mark.django_db


def _first_round_token(night, members, access):
    for member in members[:8]:
        checkin.entry_check_in(event=night, player=member)
    first = rounds.round_draw(event=night, access=access)
    table = first.tables.select_related("game").get(number=1)
    token = table_links.table_link_token(table_links.table_link_live(game=table.game))
    play_out(first)
    return token, table.game


def test_a_card_of_round_1_during_round_2_says_where_the_cards_are(client, night, members, access):
    token, game = _first_round_token(night, members, access)
    rounds.round_draw(event=night, access=access)  # round 1 closed, round 2 playing
    deals = Deal.objects.filter(game=game).count()

    response = client.get(reverse("table-link", kwargs={"token": token}))

    expected = (
        "Round 1 of Tuesday night is over: its tables are closed. "
        "Round 2's cards are at the secretary's table."
    )
    assert response.status_code == 403
    assert expected in response.content.decode().replace("&#x27;", "'")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    url = reverse("deal-list", kwargs={"club_slug": game.club.slug, "game_id": game.pk})
    answer = api.post(url, deal(), format="json")
    assert answer.status_code == 403
    assert [e["message"] for e in answer.json()["errors"]] == [expected]
    assert Deal.objects.filter(game=game).count() == deals


def test_a_card_of_a_round_finished_before_the_next_draw_says_it_is_not_drawn(
    night, members, access
):
    token, _ = _first_round_token(night, members, access)
    rounds.round_finish(round_=night.round_set.get(number=1), access=access)
    with pytest.raises(table_links.TableLinkError) as caught:
        table_links.table_link_check(token)
    assert caught.value.errors[0]["message"] == (
        "Round 1 of Tuesday night is over: its tables are closed. "
        "Round 2 is not drawn yet: the secretary calls it."
    )


def test_a_card_of_the_last_round_says_the_night_is_over(club, secretary, members, access):
    import datetime as dt

    from clabber_league.events.services import events as event_services

    one_round = event_services.event_create(
        club=club, name="Quick night", date=dt.date(2026, 12, 1), rules="clabber", rounds=1
    )
    token, _ = _first_round_token(one_round, members, access)
    rounds.round_finish(round_=one_round.round_set.get(), access=access)
    with pytest.raises(table_links.TableLinkError) as caught:
        table_links.table_link_check(token)
    assert caught.value.errors[0]["message"] == (
        "Round 1 of Quick night is over: its tables are closed. "
        "The night is over: its ranking is on the room display."
    )
