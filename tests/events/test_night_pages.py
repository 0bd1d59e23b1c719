"""The pages a club night shows the room: the display and its live fragment, the table
cards and the draw for the wall, the prize list, a season of nights and a player's nights;
and the selectors behind them (ranking rows, sit-outs, hicks, constant queries)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clabber_league.events import selectors
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games

from .conftest import deal, play_out

pytestmark = pytest.mark.django_db


def _check_in(event, players, paid=False):
    for player in players:
        checkin.entry_check_in(event=event, player=player)
        if paid:
            checkin.entry_paid_set(event=event, player=player, paid=True)


def _public(club):
    club.is_public = True
    club.save(update_fields=["is_public"])


def _drawn(event, players, user, paid=False):
    _check_in(event, players, paid=paid)
    return rounds.round_draw(event=event, user=user)


def _bela_night(club, secretary, rounds_=3):
    """A night of South African Bela: no three-hand form, so odd players sit out."""
    return event_services.event_create(
        club=club,
        user=secretary,
        name="Bela night",
        date=dt.date(2026, 12, 9),
        rules="bela-4",
        rounds=rounds_,
        seed="99",
    )


def _url(name, event, *args):
    return reverse(f"events:{name}", args=[event.club.slug, event.pk, *args])


# --- the room display ----------------------------------------------------------------------


def test_the_room_display_needs_no_login_in_a_public_club(client, club, night, members, secretary):
    _public(club)
    round_ = _drawn(night, members[:8], secretary)
    page = client.get(_url("display", night))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Round 1: the draw. Find your table" in text
    for table in round_.tables.all():
        assert f'data-table="{table.number}"' in text
    assert "Member 01" in text
    assert "hx-get" in text and "every 10s" in text  # it refreshes itself


def test_a_private_clubs_display_is_not_shown_to_strangers(client, night):
    assert client.get(_url("display", night)).status_code == 404


def test_the_live_fragment_shows_a_deal_soon_after_it_is_recorded(
    client, club, night, members, secretary
):
    _public(club)
    round_ = _drawn(night, members[:8], secretary)
    table = round_.tables.select_related("game").order_by("number").first()
    before = client.get(_url("display-live", night)).content.decode()
    assert 'data-deals="0"' in before
    games.deal_record(game_id=table.game.pk, data=deal(a=142))  # 152 + 10 last trick
    after = client.get(_url("display-live", night)).content.decode()
    assert 'data-deals="1"' in after
    assert '<b class="score">152</b>' in after
    assert "live: games in progress count their points so far" in after
    assert after.count("<html") == 0  # a fragment, swapped in place


def test_the_display_reads_the_same_number_of_queries_whatever_the_size(
    client, club, members, secretary
):
    _public(club)

    def queries(players):
        event = event_services.event_create(
            club=club,
            user=secretary,
            name=f"Night {players}",
            date=dt.date(2026, 12, 2),
            rules="clabber",
            rounds=3,
            seed="42",
        )
        _drawn(event, members[:players], secretary)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(_url("display-live", event)).status_code == 200
        return len(captured)

    assert queries(8) == queries(20)


# --- cards and the wall ----------------------------------------------------------------------


def test_table_cards_say_who_sits_where_and_who_deals_first(
    client, club, night, members, secretary
):
    round_ = _drawn(night, members[:8], secretary)
    client.force_login(secretary)
    page = client.get(_url("round-cards", night, 1))
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="night-card"') == round_.tables.count() == 2
    assert text.count("deals first") >= 2
    for where in ("North", "East", "South", "West"):
        assert where in text


def test_table_cards_are_for_club_admins_only(client, club, night, members, secretary, scorer):
    _public(club)
    _drawn(night, members[:8], secretary)
    client.force_login(scorer)
    assert client.get(_url("round-cards", night, 1)).status_code == 403


def test_the_draw_for_the_wall_lists_everyone_by_name_with_table_seat_and_partner(
    client, club, members, secretary
):
    _public(club)
    night = _bela_night(club, secretary)
    round_ = _drawn(night, members[:9], secretary)  # 9 at bela: two tables and a sit-out
    page = client.get(_url("round-draw", night, 1))
    assert page.status_code == 200
    view = selectors.round_view(round_, to_member=True)
    lines = selectors.wall_draw(view)
    assert [line.name for line in lines] == sorted(m.name for m in members[:9])
    seated = [line for line in lines if line.table]
    assert len(seated) == 8 and all(line.partner for line in seated)
    assert [line.where for line in lines if not line.table] == ["Sits out"]
    assert round_.seed in page.content.decode()


def test_an_unknown_round_is_404(client, club, night):
    _public(club)
    assert client.get(_url("round-draw", night, 7)).status_code == 404


# --- ranking, sit-outs, money ------------------------------------------------------------------


def test_the_ranking_counts_each_players_side_points_and_wins(night, members, secretary):
    night = event_services.event_update(event=night, ranking="points")
    round_ = _drawn(night, members[:8], secretary)
    play_out(round_)
    ranking = selectors.event_ranking(night, to_member=True)
    assert len(ranking.lines) == 8
    winners = [line for line in ranking.lines if line.won == 1]
    assert len(winners) == 4  # side A won at both tables
    assert {line.position for line in winners} <= {1, 2, 3, 4}
    for table in round_.tables.select_related("game"):
        for index, player in enumerate(table.seats):
            line = next(line for line in ranking.lines if line.player == player)
            score = table.game.score_a if index % 2 == 0 else table.game.score_b
            assert line.rounds == {1: score}


def test_a_sit_out_scores_the_players_average(club, members, secretary):
    night = _bela_night(club, secretary)
    round_ = _drawn(night, members[:9], secretary)
    [sitter] = list(round_.sit_outs.values_list("player_id", flat=True))
    play_out(round_)
    ranking = selectors.event_ranking(night, to_member=True)
    line = next(line for line in ranking.lines if line.player == sitter)
    assert (line.sat_out, line.played, line.points) == (1, 0, 0)  # nothing to average yet
    second = rounds.round_draw(event=night, user=secretary)
    play_out(second)
    ranking = selectors.event_ranking(night, to_member=True)
    line = next(line for line in ranking.lines if line.player == sitter)
    assert line.played == 1  # nobody sits out twice before everyone has once
    assert line.rounds[1] == line.rounds[2]  # round 1 scores their average: round 2


def test_the_prize_list_pays_one_prize_per_four_from_the_fees_paid(
    client, club, secretary, members
):
    _public(club)
    event = event_services.event_create(
        club=club,
        user=secretary,
        name="Prize night",
        date=dt.date(2026, 12, 3),
        rules="clabber",
        rounds=1,
        entry_fee_cents=500,
        prize_rule="per_four",
        seed="7",
    )
    round_ = _drawn(event, members[:8], secretary, paid=True)
    play_out(round_)
    money = selectors.event_money(event, to_member=True)
    assert (money.paid, money.prize_list.takings) == (8, 4000)
    assert len(money.prize_list.prizes) == 2
    assert money.prize_list.paid_out <= money.prize_list.fund == 4000
    page = client.get(_url("prizes", event))
    text = page.content.decode()
    assert page.status_code == 200
    assert "40.00" in text and "One prize per four players" in text
    winners = [a for a in money.prize_list.awards if a.amount]
    assert winners and all(a.position == 1 for a in winners)  # four level winners share


def test_hicks_are_counted_per_player_and_fill_the_pot(club, secretary, members):
    event = event_services.event_create(
        club=club,
        user=secretary,
        name="Hick night",
        date=dt.date(2026, 12, 4),
        rules="clabber",
        rounds=1,
        hick_stake_cents=25,
        seed="8",
    )
    round_ = _drawn(event, members[:4], secretary)
    table = round_.tables.select_related("game").get()
    games.deal_record(game_id=table.game.pk, data=deal(maker="A", a=40))  # A hicked
    hicks = selectors.event_hicks(event)
    assert hicks == {table.seats[0]: 1, table.seats[2]: 1}
    money = selectors.event_money(event, to_member=True)
    assert money.prize_list.hick_pot == 50


# --- seasons and players -----------------------------------------------------------------------


def _played_night(club, secretary, players, series, day):
    event = event_services.event_create(
        club=club,
        user=secretary,
        name=f"Night {day}",
        date=dt.date(2026, 12, day),
        rules="clabber",
        rounds=1,
        seed=str(day),
        series=series,
    )
    play_out(_drawn(event, players, secretary))
    return event


def test_a_season_of_three_nights_ranks_the_best_two(client, club, secretary, members):
    _public(club)
    series = event_services.series_create(
        club=club, name="Winter", method="best", best_of=2, min_attendance=2
    )
    nights = [
        _played_night(club, secretary, members[:8], series, 1),
        _played_night(club, secretary, members[:8], series, 2),
        _played_night(club, secretary, members[4:12], series, 3),
    ]
    view = selectors.series_view(series, to_member=True)
    assert [e.pk for e in view.events] == [n.pk for n in nights]
    for line in view.ranking.ranked:
        assert len(line.counted) == min(2, line.attended)
        assert line.score == sum(sorted(line.nights.values(), reverse=True)[:2])
    # Members 9-12 came once: under the minimum, listed apart.
    assert {line.name for line in view.ranking.unranked} == {m.name for m in members[8:12]}
    page = client.get(reverse("events:series", args=[club.slug, series.pk]))
    assert page.status_code == 200
    assert "Best 2 of 3 nights" in page.content.decode()


def test_a_players_page_lists_their_nights(client, club, secretary, members):
    _public(club)
    series = event_services.series_create(club=club, name="Spring")
    _played_night(club, secretary, members[:8], series, 5)
    page = client.get(reverse("events:player-nights", args=[club.slug, members[0].pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Night 5" in text and "Spring" in text and " of 8" in text


def test_a_player_of_another_club_is_404(client, club):
    from tests.factories import ClubFactory, PlayerFactory

    _public(club)
    stranger = PlayerFactory(club=ClubFactory())
    assert (
        client.get(reverse("events:player-nights", args=[club.slug, stranger.pk])).status_code
        == 404
    )
