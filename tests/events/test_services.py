"""The club night's services: an event and its edits, check-in, the draw of a round with
its games and sit-outs, time called, the end of a round; and every bad input the issue
names, refused with a clear message and nothing written."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.clubs.models import Player
from clabber_league.events.models import Entry, Event, Round, SitOut
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.standings.models import RatingChange, TeamStanding
from tests.factories import ClubFactory, PlayerFactory

from .conftest import deal, play_out

pytestmark = pytest.mark.django_db


def _check_in(night, players):
    for p in players:
        checkin.entry_check_in(event=night, player=p)


# --- the event ---------------------------------------------------------------------------------


def test_an_event_is_created_with_a_committed_seed(club, secretary):
    event = event_services.event_create(
        club=club, user=secretary, name="Club night", date=dt.date(2026, 12, 8), rules="clabber"
    )
    assert event.status == Event.Status.PLANNED
    # 128 bits from the server: its published hash cannot be reversed by trying seeds.
    assert len(event.seed) == 32 and int(event.seed, 16) >= 0


def test_bad_event_input_names_each_field_and_writes_nothing(club):
    with pytest.raises(event_services.EventError) as caught:
        event_services.event_create(
            club=club,
            name=" ",
            date=None,
            rules="no-such-game",
            rounds=0,
            round_kind="deals",
            entry_fee_cents=-1,
        )
    fields = {e["field"] for e in caught.value.errors}
    assert {"name", "date", "rules", "rounds", "round_deals", "entry_fee_cents"} <= fields
    assert not Event.objects.exists()


def test_a_two_handed_game_cannot_be_a_club_night(club):
    with pytest.raises(event_services.EventError) as caught:
        event_services.event_create(
            club=club, name="Night", date=dt.date(2026, 12, 8), rules="klaberjass"
        )
    assert caught.value.errors[0]["field"] == "rules"


def test_a_series_of_another_club_is_refused(club):
    other = event_services.series_create(club=ClubFactory(), name="Winter")
    with pytest.raises(event_services.EventError) as caught:
        event_services.event_create(
            club=club, name="Night", date=dt.date(2026, 12, 8), rules="clabber", series=other
        )
    assert caught.value.errors == [{"field": "series", "message": event_services.SERIES_OTHER_CLUB}]


def test_edits_that_contradict_played_rounds_are_refused(night, members, secretary):
    _check_in(night, members[:8])
    rounds.round_draw(event=night, user=secretary)
    updated = event_services.event_update(event=night, name="Tuesday club night")
    assert updated.name == "Tuesday club night"
    with pytest.raises(event_services.EventError) as caught:
        event_services.event_update(event=night, rules="klaberjass-4", rounds=0)
    assert caught.value.errors[0]["field"] == "rounds"  # bad input first (400)
    with pytest.raises(event_services.EventError) as caught:
        event_services.event_update(
            event=night, rules="klaberjass-4", round_kind="deals", round_deals=16
        )
    assert caught.value.status == 409
    assert {e["field"] for e in caught.value.errors} == {"rules", "round_kind", "round_deals"}
    night.refresh_from_db()
    assert night.rules == "clabber"


def test_a_series_ranks_best_n_only_with_n(club):
    with pytest.raises(event_services.EventError) as caught:
        event_services.series_create(club=club, name="Winter", method="best")
    assert caught.value.errors == [{"field": "best_of", "message": event_services.SERIES_BEST_OF}]
    series = event_services.series_create(club=club, name="Winter", method="best", best_of=6)
    assert series.best_of == 6
    with pytest.raises(event_services.EventError) as caught:
        event_services.series_create(club=club, name="winter")
    assert caught.value.status == 409


# --- check-in ------------------------------------------------------------------------------------


def test_a_player_checked_in_twice_is_a_clear_error(night, members):
    checkin.entry_check_in(event=night, player=members[0])
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.entry_check_in(event=night, player=members[0])
    assert caught.value.errors == [
        {"field": "player", "message": checkin.CHECKED_IN_TWICE.format(name="Member 01")}
    ]
    assert caught.value.status == 409
    assert Entry.objects.filter(event=night).count() == 1


def test_a_walk_in_is_matched_to_a_player_whatever_the_case(night, members):
    entry = checkin.entry_walk_in(event=night, name="  member   03 ")
    assert entry.player == members[2]
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.entry_walk_in(event=night, name="MEMBER 03")
    assert caught.value.errors[0]["field"] == "name"


def test_a_walk_in_nobody_knows_becomes_a_new_player(night, club):
    entry = checkin.entry_walk_in(event=night, name="Wanda Walk-in")
    assert entry.player.club == club and entry.player.name == "Wanda Walk-in"
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.entry_walk_in(event=night, name="")
    assert caught.value.errors[0]["field"] == "name"


def test_a_member_of_another_club_is_not_checked_in(night):
    stranger = PlayerFactory(club=ClubFactory())
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.entry_check_in(event=night, player=stranger)
    assert caught.value.errors[0]["field"] == "player"
    assert not Entry.objects.exists()


def test_a_late_arrival_joins_from_the_next_round_and_a_leaver_is_dropped(
    night, members, secretary, access
):
    _check_in(night, members[:8])
    first = rounds.round_draw(event=night, user=secretary)
    late = checkin.entry_check_in(event=night, player=members[8])
    assert late.joins_from_round == 2
    checkin.entry_leave(event=night, player=members[0])
    play_out(first)
    second = rounds.round_draw(event=night, user=secretary, access=access)
    seated = {p for t in second.tables.all() for p in t.seats}
    sat_out = set(second.sit_outs.values_list("player_id", flat=True))
    assert members[8].pk in seated | sat_out
    assert members[0].pk not in seated | sat_out
    assert len(seated | sat_out) == 8


# --- the draw --------------------------------------------------------------------------------


def test_thirteen_players_make_a_table_of_three_in_the_game_that_has_one(night, members):
    _check_in(night, members[:13])
    drawn = rounds.round_draw(event=night)
    tables = list(drawn.tables.select_related("game"))
    assert drawn.status == Round.Status.PLAYING
    assert sorted(len(t.seats) for t in tables) == [3, 3, 3, 4]
    three = next(t for t in tables if len(t.seats) == 3)
    assert three.game.rules == "clabber-3"
    assert not SitOut.objects.exists()
    seated = [p for t in tables for p in t.seats]
    assert sorted(seated) == sorted(m.pk for m in members[:13])
    for t in tables:
        assert [s.player_id for s in t.game.seats.order_by("seat")] == t.seats
        assert t.game.division is None and t.game.first_dealer == t.first_dealer


def test_without_a_three_hand_form_the_odd_player_sits_out_with_the_fixed_score(club, members):
    event = event_services.event_create(
        club=club,
        name="Bela night",
        date=dt.date(2026, 12, 8),
        rules="bela-4",
        sit_out_rule="fixed",
        sit_out_score=250,
    )
    _check_in(event, members[:13])
    drawn = rounds.round_draw(event=event)
    assert drawn.tables.count() == 3
    assert list(drawn.sit_outs.values_list("score", flat=True)) == [250]


def test_the_draw_is_reproducible_from_the_shown_seed(club, members):
    seats = []
    for _ in range(2):
        event = event_services.event_create(
            club=club, name="Night", date=dt.date(2026, 12, 8), rules="clabber", seed="424242"
        )
        _check_in(event, members[:12])
        drawn = rounds.round_draw(event=event)
        seats.append([t.seats for t in drawn.tables.order_by("number")])
    assert seats[0] == seats[1]


def test_nobody_partners_the_same_player_twice_in_a_night(night, members, access):
    _check_in(night, members[:8])
    partners = set()
    for _ in range(3):
        drawn = rounds.round_draw(event=night, access=access)
        for t in drawn.tables.all():
            for pair in (frozenset(t.seats[0::2]), frozenset(t.seats[1::2])):
                assert pair not in partners
                partners.add(pair)
        play_out(drawn)


def test_a_draw_while_the_rounds_games_are_unfinished_is_refused(night, members):
    _check_in(night, members[:8])
    first = rounds.round_draw(event=night)
    with pytest.raises(rounds.RoundError) as caught:
        rounds.round_draw(event=night)
    assert caught.value.status == 409
    assert "still has 2 game(s) in play" in caught.value.errors[0]["message"]
    assert Round.objects.filter(event=night).count() == 1
    assert first.tables.count() == 2


def test_too_few_players_for_a_table_is_refused_and_nothing_drawn(night, members):
    _check_in(night, members[:2])
    with pytest.raises(Exception) as caught:
        rounds.round_draw(event=night)
    assert caught.value.errors[0]["field"] == "players"
    assert not Round.objects.exists()


def test_the_next_draw_finishes_the_round_and_confirms_its_games_in_the_clubs_name(
    night, members, access, secretary
):
    _check_in(night, members[:8])
    first = rounds.round_draw(event=night)
    play_out(first)
    rounds.round_draw(event=night, user=secretary, access=access)
    first.refresh_from_db()
    assert first.status == Round.Status.FINISHED
    assert {t.game.status for t in first.tables.all()} == {Game.Status.CONFIRMED}
    assert RatingChange.objects.count() == 8  # every player's rating moved
    assert not TeamStanding.objects.exists()


def test_all_rounds_drawn_and_the_event_finishes_after_its_last(night, members, access):
    _check_in(night, members[:4])
    for _ in range(3):
        play_out(rounds.round_draw(event=night, access=access))
    with pytest.raises(rounds.RoundError) as caught:
        rounds.round_draw(event=night, access=access)
    assert caught.value.status == 409
    last = Round.objects.get(event=night, number=3)
    rounds.round_finish(round_=last, access=access)
    night.refresh_from_db()
    assert night.status == Event.Status.FINISHED
    with pytest.raises(checkin.CheckInError):
        checkin.entry_check_in(event=night, player=members[5])


def test_a_round_of_n_deals_ends_each_game_after_n_deals(club, members):
    event = event_services.event_create(
        club=club,
        name="Klaverjas",
        date=dt.date(2026, 12, 8),
        rules="clabber",
        round_kind="deals",
        round_deals=3,
    )
    _check_in(event, members[:4])
    table = rounds.round_draw(event=event).tables.get()
    game = table.game
    for _ in range(3):
        assert game.status == Game.Status.IN_PROGRESS  # 152 a deal: the target is no end
        games.deal_record(game_id=game.pk, data=deal())
        game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.deal_count == 3 and game.winner == "A"


def test_time_called_finishes_every_game_after_its_deal_in_progress(club, members, secretary):
    event = event_services.event_create(
        club=club,
        name="Timed",
        date=dt.date(2026, 12, 8),
        rules="clabber",
        round_kind="time",
        round_minutes=30,
    )
    _check_in(event, members[:8])
    drawn = rounds.round_draw(event=event)
    first = drawn.tables.get(number=1).game
    games.deal_record(game_id=first.pk, data=deal())
    rounds.round_call_time(round_=drawn, user=secretary)
    for table in drawn.tables.select_related("game"):
        assert table.game.deal_limit == table.game.deal_count + 1
    games.deal_record(game_id=first.pk, data=deal())
    assert Game.objects.get(pk=first.pk).status == Game.Status.FINISHED


def test_time_is_called_only_on_a_timed_round(night, members):
    _check_in(night, members[:4])
    drawn = rounds.round_draw(event=night)
    with pytest.raises(rounds.RoundError) as caught:
        rounds.round_call_time(round_=drawn)
    assert caught.value.errors[0]["message"] == rounds.NO_TIME_LIMIT


def test_merging_two_players_moves_their_night(night, members, club):
    from clabber_league.clubs.services import player_merge

    _check_in(night, members[:4])
    twin = PlayerFactory(club=club, name="Member 01 (again)")
    drawn = rounds.round_draw(event=night)
    player_merge(source=members[0], target=twin)
    assert Entry.objects.filter(event=night, player=twin).exists()
    assert any(twin.pk in t.seats for t in drawn.tables.all())
    assert not Player.objects.filter(pk=members[0].pk).exists()


# --- fixed pairs -------------------------------------------------------------------------------


def _pairs_night(club, movement="mitchell"):
    return event_services.event_create(
        club=club,
        name="Pairs night",
        date=dt.date(2026, 12, 8),
        rules="clabber",
        format="pairs",
        movement=movement,
        rounds=3,
        seed="777",
    )


def test_pairs_are_entered_and_checked_in_together(club, members):
    event = _pairs_night(club)
    pair = checkin.pair_enter(event=event, player_1=members[0], player_2=members[1])
    assert pair.number == 1
    assert Entry.objects.filter(event=event, checked_in=True).count() == 2
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.pair_enter(event=event, player_1=members[1], player_2=members[2])
    assert caught.value.status == 409 and caught.value.errors[0]["field"] == "player_1"
    by_name = checkin.pair_walk_in(event=event, name_1="member 03", name_2="New Partner")
    assert by_name.player_1 == members[2] and by_name.player_2.name == "New Partner"


def test_pairs_are_only_entered_at_a_pairs_event(night, members):
    with pytest.raises(checkin.CheckInError) as caught:
        checkin.pair_enter(event=night, player_1=members[0], player_2=members[1])
    assert caught.value.errors[0]["message"] == checkin.PAIRS_ONLY


@pytest.mark.parametrize("movement", ["mitchell", "swiss"])
def test_fixed_pairs_sit_together_and_move_between_tables(club, members, access, movement):
    event = _pairs_night(club, movement)
    pairs = [
        checkin.pair_enter(event=event, player_1=members[2 * i], player_2=members[2 * i + 1])
        for i in range(5)
    ]
    partners = {frozenset((p.player_1_id, p.player_2_id)) for p in pairs}
    met = []
    for _ in range(2):
        drawn = rounds.round_draw(event=event, access=access)
        tables = list(drawn.tables.all())
        assert len(tables) == 2  # five pairs: two tables, one pair has a bye
        assert drawn.sit_outs.count() == 2  # the bye: both players of one pair
        for t in tables:
            assert frozenset(t.seats[0::2]) in partners and frozenset(t.seats[1::2]) in partners
            met.append(frozenset((frozenset(t.seats[0::2]), frozenset(t.seats[1::2]))))
        play_out(drawn)
    assert len(set(met)) == len(met)  # no two pairs met twice in two rounds


def test_each_table_gets_a_table_link_that_stops_once_its_round_is_over(night, members, access):
    from clabber_league.games import table_links

    _check_in(night, members[:8])
    first = rounds.round_draw(event=night, access=access)
    links = {t.number: table_links.table_link_live(game=t.game) for t in first.tables.all()}
    assert {link.table_label for link in links.values()} == {"1", "2"}
    token = table_links.table_link_token(links[1])
    assert table_links.table_link_check(token).game_id == first.tables.get(number=1).game_id
    play_out(first)
    rounds.round_draw(event=night, access=access)  # round 1 over: its games confirmed
    with pytest.raises(table_links.TableLinkError) as caught:
        table_links.table_link_check(token)
    assert caught.value.errors[0]["message"].startswith("Round 1 of Tuesday night is over")


def test_a_draw_whose_worker_was_lost_is_drawn_again(night, members):
    import datetime as dt

    from django.utils import timezone

    _check_in(night, members[:4])
    lost = Round.objects.create(event=night, number=1, seed=night.seed, status="drawing")
    with pytest.raises(rounds.RoundError) as caught:
        rounds.round_draw(event=night)
    assert caught.value.status == 409  # a draw under way is waited for
    Round.objects.filter(pk=lost.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    drawn = rounds.round_draw(event=night)
    assert (drawn.number, drawn.status) == (1, Round.Status.PLAYING)
    assert Round.objects.filter(event=night).count() == 1
