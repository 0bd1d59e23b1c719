"""The bracket planner (``cups.bracket``): what must hold for every knockout of 2 to 130.

No database. Hypothesis draws a field size and the options, plans the bracket and plays it
out with random winners through ``advance``: every entrant appears once, byes are only in
round 1 and only for the top seeds, there are ceil(log2 n) rounds, seeds 1 and 2 can only
meet in the final, every match ends decided with one champion, and in a double elimination
everyone but the champion goes out on a second defeat.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clabber_league.cups import bracket as bk
from clabber_league.cups.bracket import (
    BYE,
    MAIN,
    Bracket,
    BracketError,
    Progress,
    advance,
    plan,
    random_seeding,
    seed_positions,
)

fields = st.integers(min_value=2, max_value=130)

#: Playing a bracket of 130 out takes a few hundred plans' worth of work: no deadline.
PLAYED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def options(draw) -> dict:
    """The arguments of one plan: a field of 2 to 130 and any options it can take."""
    n = draw(fields)
    if draw(st.booleans()):
        return {"entrants": n, "double": True, "reset": draw(st.booleans())}
    third = n >= 4 and draw(st.booleans())
    played_first_round = n - 2 ** math.ceil(math.log2(n)) // 2
    plate = played_first_round >= 2 and not (third and n == 4) and draw(st.booleans())
    return {"entrants": n, "third_place": third, "plate": plate}


brackets = options().map(lambda kwargs: plan(**kwargs))


def play_out(b: Bracket, rng: random.Random | None) -> tuple[Progress, Counter[int], list]:
    """Play every match that becomes ready, each won by a random side (by the better seed
    without ``rng``); returns the final progress, each seed's defeats in games played, and
    the games in the order played."""
    results: dict[str, int] = {}
    played = []
    while True:
        progress = advance(b, results)
        ready = progress.ready()
        if not ready:
            break
        for slot in ready:
            sides = [slot.home, slot.away]
            results[slot.match.key] = rng.choice(sides) if rng else min(sides)
            played.append(slot.match.key)
    defeats: Counter[int] = Counter()
    for key in played:
        defeats[progress[key].loser] += 1
    return progress, defeats, played


def main_matches(b: Bracket, rnd: int | None = None):
    return [m for m in b.matches if m.bracket == MAIN and (rnd is None or m.round == rnd)]


@given(brackets)
def test_every_entrant_appears_once_in_the_first_round(b):
    seeds = [s.seed for m in b.matches for s in (m.home, m.away) if s.kind == "seed"]
    assert sorted(seeds) == list(range(1, b.entrants + 1))
    assert all(
        m.bracket == MAIN and m.round == 1
        for m in b.matches
        for s in (m.home, m.away)
        if s.kind == "seed"
    )


@given(brackets)
def test_the_main_bracket_has_ceil_log2_rounds_halving_each_time(b):
    assert b.rounds == math.ceil(math.log2(b.entrants))
    for rnd in range(1, b.rounds + 1):
        assert len(main_matches(b, rnd)) == b.size // 2**rnd
    assert len(main_matches(b)) == b.size - 1


@given(brackets)
def test_byes_only_in_round_one_and_only_to_the_top_seeds(b):
    with_bye = [m for m in b.matches if "bye" in (m.home.kind, m.away.kind)]
    assert all(m.round == 1 and m.bracket in (MAIN, bk.PLATE) for m in with_bye)
    with_bye = [m for m in with_bye if m.bracket == MAIN]
    given_to = sorted(s.seed for m in with_bye for s in (m.home, m.away) if s.kind == "seed")
    assert given_to == list(range(1, b.size - b.entrants + 1))


@given(brackets, st.randoms(use_true_random=False))
@PLAYED
def test_seeds_one_and_two_meet_only_in_the_final(b, rng):
    progress, _, _ = play_out(b, rng)
    for m in main_matches(b):
        if {progress[m.key].home, progress[m.key].away} == {1, 2}:
            assert m.round == b.rounds


@given(brackets)
@PLAYED
def test_when_favourites_win_seed_s_meets_the_mirror_seed_every_round(b):
    progress, _, _ = play_out(b, None)
    for rnd in range(1, b.rounds + 1):
        places = b.size // 2 ** (rnd - 1)
        for m in main_matches(b, rnd):
            home, away = progress[m.key].home, progress[m.key].away
            assert away == (BYE if places + 1 - home > b.entrants else places + 1 - home)
    assert progress.champion == 1


@given(brackets, st.randoms(use_true_random=False))
@PLAYED
def test_every_match_is_decided_and_there_is_one_champion(b, rng):
    progress, _, _ = play_out(b, rng)
    assert all(slot.decided for slot in progress)
    assert progress.champion in range(1, b.entrants + 1)
    assert progress.ready() == []


@given(brackets)
def test_each_result_feeds_at_most_one_later_match(b):
    fed = Counter(
        (s.kind, s.match) for m in b.matches for s in (m.home, m.away) if s.match is not None
    )
    assert max(fed.values(), default=1) == 1
    seen: set[str] = set()
    for m in b.matches:  # the order of the plan: a source is always an earlier match
        assert all(s.match in seen for s in (m.home, m.away) if s.match is not None)
        seen.add(m.key)


@given(fields, st.randoms(use_true_random=False))
@PLAYED
def test_single_elimination_everyone_but_the_champion_loses_once(n, rng):
    progress, defeats, _ = play_out(plan(n), rng)
    assert set(defeats) == set(range(1, n + 1)) - {progress.champion}
    assert set(defeats.values()) == {1}


@given(fields, st.randoms(use_true_random=False))
@PLAYED
def test_double_elimination_with_reset_everyone_but_the_champion_loses_twice(n, rng):
    progress, defeats, _ = play_out(plan(n, double=True, reset=True), rng)
    assert defeats[progress.champion] <= 1
    assert all(defeats[s] == 2 for s in range(1, n + 1) if s != progress.champion)


@given(fields, st.randoms(use_true_random=False))
@PLAYED
def test_double_elimination_without_reset_only_the_finalists_may_lose_once(n, rng):
    progress, defeats, _ = play_out(plan(n, double=True), rng)
    grand_final = progress["GF"]
    once = {s for s in range(1, n + 1) if defeats[s] < 2}
    assert once <= {grand_final.home, grand_final.away}
    assert progress.champion == grand_final.winner
    assert all(defeats[s] <= 2 for s in range(1, n + 1))


@given(fields, st.randoms(use_true_random=False))
@PLAYED
def test_a_reset_is_played_only_when_the_losers_bracket_winner_takes_the_first_final(n, rng):
    progress, _, played = play_out(plan(n, double=True, reset=True), rng)
    grand_final = progress["GF"]
    assert ("GF2" in played) == (grand_final.winner == grand_final.away)


@given(st.integers(min_value=4, max_value=130), st.randoms(use_true_random=False))
@PLAYED
def test_third_place_is_between_the_losing_semi_finalists(n, rng):
    b = plan(n, third_place=True)
    progress, _, _ = play_out(b, rng)
    semi_losers = {progress[m.key].loser for m in main_matches(b, b.rounds - 1)}
    third = progress["3P"]
    assert {third.home, third.away} == semi_losers
    podium = {progress.champion, progress[f"M{b.rounds}-1"].loser, third.winner}
    assert len(podium) == 3 and BYE not in podium


@given(fields.filter(lambda n: n - 2 ** math.ceil(math.log2(n)) // 2 >= 2), st.randoms())
@PLAYED
def test_the_plate_is_for_the_losers_of_played_first_round_matches(n, rng):
    b = plan(n, plate=True)
    progress, _, _ = play_out(b, rng)
    first_round_losers = {
        progress[m.key].loser for m in main_matches(b, 1) if not progress[m.key].walkover
    }
    plate_first = [m for m in b.matches if m.bracket == bk.PLATE and m.round == 1]
    entered = [progress[m.key].home for m in plate_first] + [
        progress[m.key].away for m in plate_first
    ]
    assert sorted(s for s in entered if s != BYE) == sorted(first_round_losers)
    plate_byes = [m for m in b.matches if m.bracket == bk.PLATE and m.is_bye]
    assert all(m.round == 1 for m in plate_byes)
    plate_final = max((m for m in b.matches if m.bracket == bk.PLATE), key=lambda m: m.round)
    assert progress[plate_final.key].winner in first_round_losers


def test_seed_positions_is_the_standard_order():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_positions(2) == [1, 2]
    with pytest.raises(ValueError):
        seed_positions(6)


@given(st.lists(st.integers(), unique=True, max_size=200), st.text(max_size=20))
def test_a_random_draw_is_a_permutation_anyone_can_repeat_from_its_seed(ids, seed):
    drawn = random_seeding(ids, seed)
    assert sorted(drawn) == sorted(ids)
    assert random_seeding(ids, seed) == drawn
    again = list(ids)
    random.Random(seed).shuffle(again)  # the recipe the module's docstring shows
    assert again == drawn


def test_draw_seeds_are_128_bits_and_differ():
    # 128 bits: a published SHA-256 of the seed cannot be reversed by trying seeds.
    seeds = {bk.draw_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)


@pytest.mark.parametrize(
    ("entrants", "options", "message"),
    [
        (1, {}, bk.TOO_FEW_ENTRANTS),
        (bk.MAX_ENTRANTS + 1, {}, bk.TOO_MANY_ENTRANTS),
        (3, {"third_place": True}, bk.THIRD_PLACE_NEEDS_FOUR),
        (8, {"double": True, "third_place": True}, bk.THIRD_PLACE_NOT_DOUBLE),
        (8, {"double": True, "plate": True}, bk.PLATE_NOT_DOUBLE),
        (8, {"reset": True}, bk.RESET_NEEDS_DOUBLE),
        (5, {"plate": True}, bk.PLATE_TOO_FEW),
        (4, {"plate": True, "third_place": True}, bk.PLATE_IS_THIRD_PLACE),
    ],
)
def test_a_bracket_that_cannot_be_is_refused_with_its_message(entrants, options, message):
    with pytest.raises(BracketError, match=re.escape(message)):
        plan(entrants, **options)


def test_results_that_do_not_fit_the_bracket_are_refused():
    b = plan(6)  # seeds 1 and 2 have byes; 4-5 and 3-6 play
    with pytest.raises(BracketError, match="no match X9"):
        advance(b, {"X9": 1})
    with pytest.raises(BracketError, match="decided without a game"):
        advance(b, {"M1-1": 1})
    with pytest.raises(BracketError, match="Seed 1 is not playing"):
        advance(b, {"M1-2": 1})
    with pytest.raises(BracketError, match="cannot have a winner yet"):
        advance(b, {"M3-1": 1})
    progress = advance(b, {"M1-2": 5, "M1-4": 3})
    assert progress["M2-1"].home == 1 and progress["M2-1"].away == 5
    assert [s.match.key for s in progress.ready()] == ["M2-1", "M2-2"]
    assert progress.champion is None


def test_round_titles_name_the_last_rounds():
    b = plan(16, double=True, reset=True)
    titles = [b.round_title(*section) for section in b.sections()]
    assert titles[:4] == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]
    assert titles[4:6] == ["Grand final", "Grand final, second match"]
    assert titles[-1] == "Losers' final"
