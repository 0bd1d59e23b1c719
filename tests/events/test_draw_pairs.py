"""Fixed pairs moving between tables (``events.draw.pairs_round``): pure, no database."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.draw import (
    BAD_METHOD,
    DUPLICATE_PAIR,
    DrawError,
    History,
    pairs_round,
)

seeds = st.text(min_size=1, max_size=12)
pair_ids = st.lists(st.integers(1, 5_000), min_size=2, max_size=24, unique=True)


def night(pairs, rounds, seed, method, score=None):
    """Play ``rounds`` rounds; ``score(pair, round)`` gives each pair's points."""
    history, totals, draws = History(), Counter(), []
    for number in range(1, rounds + 1):
        draw = pairs_round(
            pairs, round_number=number, seed=seed, method=method, scores=totals, history=history
        )
        history.add(draw)
        draws.append(draw)
        for table in draw.tables:
            for pair in table.seats:
                totals[pair] += score(pair, number) if score else 0
    return draws


def meetings(draws):
    return [frozenset(t.seats) for d in draws for t in d.tables]


@given(pairs=pair_ids, seed=seeds, method=st.sampled_from(["mitchell", "swiss"]))
@settings(max_examples=50, deadline=None)
def test_every_pair_plays_or_has_the_bye(pairs, seed, method):
    for draw in night(pairs, 3, seed, method):
        seated = [p for t in draw.tables for p in t.seats]
        assert all(len(t.seats) == 2 for t in draw.tables)
        assert sorted(seated + list(draw.sit_outs)) == sorted(pairs)
        assert len(draw.sit_outs) == len(pairs) % 2


@given(pairs=pair_ids, seed=seeds)
@settings(max_examples=50, deadline=None)
def test_mitchell_has_no_rematch_for_as_many_rounds_as_tables(pairs, seed):
    tables = (len(pairs) + 1) // 2
    draws = night(pairs, tables, seed, "mitchell")
    met = meetings(draws)
    assert len(met) == len(set(met))
    # North-South pairs stay at their table all night.
    assert len({(t.number, t.seats[0]) for d in draws for t in d.tables}) <= tables


@given(pairs=pair_ids.filter(lambda p: len(p) >= 6), seed=seeds, data=st.data())
@settings(max_examples=40, deadline=None)
def test_swiss_has_no_rematch_in_the_first_rounds(pairs, seed, data):
    # Three rounds among six or more pairs: a pairing without a rematch always exists.
    points = {p: data.draw(st.integers(0, 200)) for p in pairs}
    draws = night(pairs, 3, seed, "swiss", score=lambda pair, _round: points[pair])
    met = meetings(draws)
    assert len(met) == len(set(met))
    byes = Counter(p for d in draws for p in d.sit_outs)
    assert all(count == 1 for count in byes.values())


def test_swiss_meets_the_nearest_ranked_pair():
    pairs = [1, 2, 3, 4, 5, 6]
    history = History()
    first = pairs_round(pairs, round_number=1, seed="s", method="swiss", history=history)
    history.add(first)
    scores = {1: 60, 2: 50, 3: 40, 4: 30, 5: 20, 6: 10}
    second = pairs_round(
        pairs, round_number=2, seed="s", method="swiss", scores=scores, history=history
    )
    met_before = set(meetings([first]))
    top = second.tables[0].seats
    assert 1 in top and frozenset(top) not in met_before
    expected = 2 if frozenset((1, 2)) not in met_before else 3
    assert set(top) == {1, expected}


def test_an_unknown_movement_or_a_pair_twice_is_refused():
    with pytest.raises(DrawError) as error:
        pairs_round([1, 2], round_number=1, seed="x", method="howell")
    assert error.value.messages_for("method") == [BAD_METHOD.format(methods="mitchell, swiss")]
    with pytest.raises(DrawError) as error:
        pairs_round([1, 2, 1], round_number=1, seed="x", method="swiss")
    assert error.value.messages_for("pairs") == [DUPLICATE_PAIR.format(ids="1")]


@given(n_pairs=st.sampled_from([8, 12, 16]), seed=seeds)
@settings(max_examples=20, deadline=None)
def test_mitchell_avoids_a_rematch_once_the_movement_has_come_round(n_pairs, seed):
    # After a full Mitchell (as many rounds as tables) North-South pairs have met only
    # East-West ones; with an even number of tables the next round pairs NS with NS and EW
    # with EW, so it needs no rematch, and the movement's own next round would be one.
    pairs = list(range(1, n_pairs + 1))
    draws = night(pairs, n_pairs // 2 + 1, seed, "mitchell")
    met = meetings(draws)
    assert len(met) == len(set(met))
    assert draws[-1].opponent_repeats_night == 0


def _has_pairing(pairs, met):
    if not pairs:
        return True
    first, rest = pairs[0], pairs[1:]
    return any(
        _has_pairing(rest[:k] + rest[k + 1 :], met)
        for k, other in enumerate(rest)
        if frozenset((first, other)) not in met
    )


@given(
    n_pairs=st.sampled_from([4, 6, 8, 10]),
    seed=seeds,
    method=st.sampled_from(["mitchell", "swiss"]),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_no_rematch_when_a_pairing_without_one_exists(n_pairs, seed, method, data):
    pairs = list(range(1, n_pairs + 1))
    every_meeting = [frozenset((a, b)) for a in pairs for b in pairs if a < b]
    met = set(data.draw(st.lists(st.sampled_from(every_meeting), max_size=2 * n_pairs)))
    history = History(night_opponents=Counter(met))
    draw = pairs_round(pairs, round_number=2, seed=seed, method=method, history=history)
    if _has_pairing(pairs, met):
        assert draw.opponent_repeats_night == 0
        assert not met & set(meetings([draw]))
