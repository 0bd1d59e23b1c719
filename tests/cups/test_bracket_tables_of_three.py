"""The bracket planner for three-handed rule sets (``cups.bracket.plan(n, table=3)``): a tie
is a table of three whose winner goes on. What must hold for every field of 3 to 130.

No database. Hypothesis draws a field size, plans the bracket and plays it out through
``advance`` with random winners: every entrant appears once, byes only in round 1 and only
to the top seeds, at most one table a player short (the best head without a bye), the
number of rounds is ceil(log3 n), seeds 1 and 2 meet only in the final, one champion.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clabber_league.cups import bracket as bk
from clabber_league.cups.bracket import BYE, MAIN, Bracket, BracketError, advance, plan

fields = st.integers(min_value=3, max_value=130)
brackets = fields.map(lambda n: plan(n, table=3))
PLAYED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def log3_ceiling(n: int) -> int:
    """The smallest r with 3**r >= n, by counting (no floats)."""
    r = 0
    while 3**r < n:
        r += 1
    return r


def play_out(b: Bracket, rng: random.Random | None):
    """Every ready table won by a random entrant at it (the best seed without ``rng``)."""
    results: dict[str, int] = {}
    while True:
        progress = advance(b, results)
        ready = progress.ready()
        if not ready:
            return progress
        for slot in ready:
            players = list(slot.players)
            results[slot.match.key] = rng.choice(players) if rng else min(players)


@given(brackets)
def test_every_entrant_sits_at_one_table_of_round_one(b):
    seeds = [s.seed for m in b.matches for s in m.sides if s.kind == "seed"]
    assert sorted(seeds) == list(range(1, b.entrants + 1))
    assert all(m.round == 1 for m in b.matches for s in m.sides if s.kind == "seed")
    assert all(len(m.sides) == 3 for m in b.matches)


@given(brackets)
def test_there_are_ceil_log3_rounds_a_third_as_many_tables_each_time(b):
    assert b.rounds == log3_ceiling(b.entrants)
    for rnd in range(1, b.rounds + 1):
        assert len(b.round_matches(MAIN, rnd)) == 3 ** (b.rounds - rnd)


@given(brackets)
def test_byes_only_in_round_one_and_only_to_the_top_seeds(b):
    with_bye = [m for m in b.matches if any(s.kind == "bye" for s in m.sides)]
    assert all(m.round == 1 for m in with_bye)
    sitting_out = b.sitting_out
    assert list(sitting_out) == list(range(1, len(sitting_out) + 1))
    # A table with a bye has one entrant (it goes through) or is the one table a player
    # short, headed by the best seed who has no bye.
    short = [m for m in b.matches if m.is_short]
    assert len(short) <= 1
    assert len(short) == (b.entrants - len(b.round_matches(MAIN, 1))) % 2
    for m in short:
        assert m.home.seed == len(sitting_out) + 1


@given(brackets, st.randoms(use_true_random=False))
@PLAYED
def test_seeds_one_and_two_meet_only_in_the_final(b, rng):
    progress = play_out(b, rng)
    for m in b.matches:
        if {1, 2} <= set(progress[m.key].players):
            assert m.round == b.rounds


@given(brackets, st.randoms(use_true_random=False))
@PLAYED
def test_every_table_is_decided_and_there_is_one_champion(b, rng):
    progress = play_out(b, rng)
    assert all(slot.decided for slot in progress)
    assert progress.champion in range(1, b.entrants + 1)
    # Everyone but the champion lost exactly once (at a table they played).
    lost = [p for slot in progress for p in slot.players if p != slot.winner]
    assert sorted([*lost, progress.champion]) == list(range(1, b.entrants + 1))


@given(brackets)
@PLAYED
def test_when_favourites_win_the_top_seed_is_champion(b):
    assert play_out(b, None).champion == 1


def test_the_table_seeding_is_a_snake_over_thirds():
    assert bk.table_positions(3) == [1, 2, 3]
    assert bk.table_positions(9) == [1, 6, 7, 2, 5, 8, 3, 4, 9]
    with pytest.raises(ValueError):
        bk.table_positions(6)


def test_ten_players_sit_out_to_the_eighth_seed_and_nine_and_ten_play_heads_up():
    b = plan(10, table=3)
    assert b.sitting_out == (1, 2, 3, 4, 5, 6, 7, 8)
    (short,) = [m for m in b.matches if m.is_short]
    assert [s.seed for s in short.sides if s.kind == "seed"] == [9, 10]
    progress = advance(b, {short.key: 10})
    assert progress[short.key].winner == 10
    assert progress["M2-3"].players == (3, 4, 10)


def test_a_result_must_name_someone_at_the_table():
    b = plan(9, table=3)
    with pytest.raises(BracketError, match="not playing"):
        advance(b, {"M1-1": 2})
    with pytest.raises(BracketError, match="cannot have a winner yet"):
        advance(b, {"M2-1": 1})
    assert advance(b, {"M1-1": 7})["M2-1"].home == 7
    assert advance(b, {"M1-1": 7})["M1-1"].winner == 7
    assert BYE not in advance(b, {})["M1-1"].sides


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"entrants": 2}, bk.THREE_TOO_FEW),
        ({"entrants": 9, "double": True}, bk.THREE_SINGLE_ONLY),
        ({"entrants": 9, "third_place": True}, bk.THREE_SINGLE_ONLY),
        ({"entrants": 9, "plate": True}, bk.THREE_SINGLE_ONLY),
        ({"entrants": 9, "table": 4}, bk.TABLE_SIZE),
    ],
)
def test_refused_tables_of_three(kwargs, message):
    kwargs.setdefault("table", 3)
    with pytest.raises(BracketError) as caught:
        plan(**kwargs)
    assert str(caught.value) == message


def test_the_rounds_are_called_final_and_semi_finals():
    b = plan(27, table=3)
    assert [b.round_title(MAIN, r) for r in (1, 2, 3)] == ["Round 1", "Semi-finals", "Final"]
