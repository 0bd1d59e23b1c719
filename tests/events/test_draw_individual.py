"""The club night's draw for individual players (``events.draw``): pure, no database.

Properties that hold for every field of players, seed and history: everyone present plays
or sits out, tables have the right size, sit-outs are spread, no partner twice in a night
where it can be helped, and the draw is reproducible from its seed.
"""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.draw import (
    DUPLICATE_PLAYER,
    TOO_FEW_PLAYERS,
    DrawError,
    History,
    draw_round,
    table_sizes,
)

seeds = st.text(min_size=1, max_size=12)
player_ids = st.lists(st.integers(1, 10_000), max_size=70, unique=True)


def night(players, rounds, seed, **options):
    """Draw ``rounds`` rounds for the same players, each from the history of the ones
    before; returns the draws."""
    history = History()
    draws = []
    for number in range(1, rounds + 1):
        draw = draw_round(players, round_number=number, seed=seed, history=history, **options)
        history.add(draw)
        draws.append(draw)
    return draws


def partnerships(draw):
    return [frozenset(side) for t in draw.tables for side in t.sides if len(side) == 2]


@given(players=player_ids.filter(lambda p: len(p) >= 4), seed=seeds, three_hand=st.booleans())
@settings(max_examples=60, deadline=None)
def test_everyone_present_plays_or_sits_out_once(players, seed, three_hand):
    draw = draw_round(players, round_number=1, seed=seed, three_hand=three_hand)
    seated = [p for t in draw.tables for p in t.seats]
    assert sorted(seated + list(draw.sit_outs)) == sorted(players)
    assert [t.number for t in draw.tables] == list(range(1, len(draw.tables) + 1))
    assert all(0 <= t.first_dealer < len(t.seats) for t in draw.tables)


@given(n=st.integers(4, 80), three_hand=st.booleans())
def test_tables_are_fours_and_the_fewest_threes_or_sit_outs(n, three_hand):
    sizes = table_sizes(n, three_hand=three_hand)
    assert set(sizes) <= {3, 4}
    sitting_out = n - sum(sizes)
    if not three_hand:
        assert set(sizes) == {4} and sitting_out == n % 4
    elif n == 5:
        assert sizes == (4,) and sitting_out == 1
    else:
        assert sitting_out == 0 and sizes.count(3) == (0, 3, 2, 1)[n % 4]


def test_thirteen_players_make_one_table_of_four_and_three_of_three_or_a_sit_out():
    assert table_sizes(13, three_hand=True) == (4, 3, 3, 3)
    assert table_sizes(13) == (4, 4, 4)
    assert table_sizes(13, table_size=3) == (3, 3, 3, 3)


@given(players=player_ids.filter(lambda p: 4 <= len(p) <= 30), seed=seeds)
@settings(max_examples=30, deadline=None)
def test_nobody_sits_out_twice_before_everyone_has_once(players, seed):
    rounds = 8
    sat_out = Counter()
    for draw in night(players, rounds, seed):
        sat_out.update(draw.sit_outs)
        assert max(sat_out.values(), default=0) - min(sat_out[p] for p in players) <= 1


@given(n=st.integers(16, 40), seed=seeds, three_hand=st.booleans())
@settings(max_examples=25, deadline=None)
def test_no_partner_twice_in_a_night_of_eight_rounds_from_sixteen_players(n, seed, three_hand):
    # With 16+ players and 8 rounds everyone has at most 7 earlier partners and at least
    # 15 others: a draw without a repeat always exists, so none may repeat.
    players = list(range(100, 100 + n))
    draws = night(players, 8, seed, three_hand=three_hand)
    pairs = [pair for draw in draws for pair in partnerships(draw)]
    assert len(pairs) == len(set(pairs))
    assert all(draw.partner_repeats_night == 0 for draw in draws)


def test_eight_players_partner_everyone_once_over_seven_rounds():
    draws = night(list(range(1, 9)), 7, "whist drive")
    pairs = [pair for draw in draws for pair in partnerships(draw)]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(1, 9), 2)), key=sorted
    )


@given(players=player_ids.filter(lambda p: len(p) >= 3), seed=seeds, rounds=st.integers(1, 4))
@settings(max_examples=30, deadline=None)
def test_the_same_seed_and_players_give_the_same_draw(players, seed, rounds):
    first = night(players, rounds, seed, three_hand=True)
    again = night(list(reversed(players)), rounds, seed, three_hand=True)
    assert first == again


def test_round_one_depends_on_the_seed():
    players = list(range(1, 33))
    draws = {draw_round(players, round_number=1, seed=s).tables for s in "abcdef"}
    assert len(draws) == 6


def test_a_player_checked_in_twice_is_refused():
    with pytest.raises(DrawError) as error:
        draw_round([1, 2, 3, 4, 2], round_number=1, seed="x")
    assert error.value.errors == [{"field": "players", "message": DUPLICATE_PLAYER.format(ids="2")}]


def test_too_few_players_for_a_table_is_refused():
    with pytest.raises(DrawError) as error:
        draw_round([1, 2, 3], round_number=1, seed="x")
    assert error.value.messages_for("players") == [TOO_FEW_PLAYERS.format(n=4, have=3)]
    assert draw_round([1, 2, 3], round_number=1, seed="x", three_hand=True).tables[0].seats
