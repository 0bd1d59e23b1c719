"""The club night's draw for individual players (``events.draw``): pure, no database.

Properties that hold for every field of players, seed and history: everyone present plays
or sits out, tables have the right size, sit-outs are spread, no partner twice in a night
where it can be helped, and the draw is reproducible from its seed.
"""

import os
import subprocess
import sys
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


@given(
    players=player_ids.filter(lambda p: len(p) >= 4),
    seed=seeds,
    three_hand=st.booleans(),
    table_size=st.sampled_from([3, 4]),
)
@settings(max_examples=60, deadline=None)
def test_everyone_present_plays_or_sits_out_once(players, seed, three_hand, table_size):
    draw = draw_round(
        players, round_number=1, seed=seed, three_hand=three_hand, table_size=table_size
    )
    seated = [p for t in draw.tables for p in t.seats]
    assert sorted(seated + list(draw.sit_outs)) == sorted(players)
    sizes = table_sizes(len(players), table_size=table_size, three_hand=three_hand)
    assert tuple(len(t.seats) for t in draw.tables) == sizes
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


def test_the_draw_does_not_depend_on_the_process_hash_seed():
    # "Any machine": another process with other string and set hashing draws the same.
    script = (
        "from clabber_league.events.draw import History, draw_round\n"
        "h = History()\n"
        "for r in range(1, 4):\n"
        "    d = draw_round(list(range(1, 15)), round_number=r, seed='club night', history=h,"
        " three_hand=True, keep_apart=[(1, 2)])\n"
        "    h.add(d)\n"
        "    print([t.seats for t in d.tables], d.sit_outs, [t.first_dealer for t in d.tables])\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


@given(n=st.integers(8, 40), seed=seeds, rounds=st.integers(1, 6))
@settings(max_examples=25, deadline=None)
def test_players_kept_apart_never_share_a_table(n, seed, rounds):
    players = list(range(1, n + 1))
    apart = [(1, 2), (3, 4), (1, 5)]
    for draw in night(players, rounds, seed, keep_apart=apart):
        for table in draw.tables:
            assert not any(set(pair) <= set(table.seats) for pair in apart)


def test_a_night_avoids_the_partners_of_earlier_nights_of_the_season():
    players = list(range(1, 17))
    last_night = night(players, 3, "first night")
    history = History.from_rounds(night=(), season=last_night)
    before = {pair for draw in last_night for pair in partnerships(draw)}
    draws = []
    for number in range(1, 4):
        draw = draw_round(players, round_number=number, seed="second night", history=history)
        history.add(draw)
        draws.append(draw)
    assert not before & {pair for draw in draws for pair in partnerships(draw)}
    assert all(draw.partner_repeats_season == 0 for draw in draws)


@given(n=st.integers(9, 30).filter(lambda n: n % 4), seed=seeds, rounds=st.integers(2, 6))
@settings(max_examples=20, deadline=None)
def test_nobody_plays_at_a_table_of_three_twice_before_everyone_has_once(n, seed, rounds):
    at_three = Counter()
    for draw in night(list(range(1, n + 1)), rounds, seed, three_hand=True):
        at_three.update(p for t in draw.tables if len(t.seats) == 3 for p in t.seats)
        turns = [at_three[p] for p in range(1, n + 1)]
        assert max(turns) - min(turns) <= 1


def _has_partnering(players, used):
    """Whether the players can all be paired with someone they have not partnered."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        _has_partnering(rest[:k] + rest[k + 1 :], used)
        for k, other in enumerate(rest)
        if frozenset((first, other)) not in used
    )


@given(n=st.sampled_from([4, 8, 12]), seed=seeds, data=st.data())
@settings(max_examples=60, deadline=None)
def test_no_partner_twice_in_a_night_whenever_a_draw_without_one_exists(n, seed, data):
    # Any earlier partnerships at all (not only those a planner would have made): if the
    # players can be paired without a repeat, the draw finds such a pairing.
    players = list(range(1, n + 1))
    every_pair = [frozenset((a, b)) for a in players for b in players if a < b]
    used = set(data.draw(st.lists(st.sampled_from(every_pair), max_size=3 * n)))
    history = History(night_partners=Counter(used))
    draw = draw_round(players, round_number=5, seed=seed, history=history)
    if _has_partnering(players, used):
        assert draw.partner_repeats_night == 0
        assert not used & set(partnerships(draw))
