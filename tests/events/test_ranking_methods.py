"""The night's ranking methods: points as scored, each table's share of its points, match
points per table. The two table-based methods are fair across table sizes: an even result
scores 50 at a table of three as at a table of four, so a table of four's losers do not
outrank a table of three's runners-up because a two-sided table hands out more points."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.ranking import (
    METHODS,
    RoundRow,
    night_ranking,
    ranking_rule,
    round_scores,
)


def four(round_number, number, a, b, a_points, b_points):
    """A table of four: partners ``a`` (side A) against ``b`` (side B)."""
    return [
        RoundRow(p, round_number, pts, won=pts > other, table=number, side=side)
        for side, players, pts, other in (
            ("A", a, a_points, b_points),
            ("B", b, b_points, a_points),
        )
        for p in players
    ]


def three(round_number, number, players, points):
    """A table of three, each player a side of their own (A, B, C)."""
    return [
        RoundRow(p, round_number, pts, won=pts == max(points), table=number, side=side)
        for p, pts, side in zip(players, points, "ABC", strict=True)
    ]


def test_thirteen_players_a_table_of_fours_losers_rank_below_the_threes_runners_up():
    # A game to 1000 at every table: the table of four splits 600 / 400, each table of
    # three 500 / 300 / 200. On raw points the four-table's losers (400) outrank every
    # runner-up of a table of three (300); on a share of the table they do not.
    rows = four(1, 1, (1, 3), (2, 4), 600, 400)
    for number, first in ((2, 5), (3, 8), (4, 11)):
        rows += three(1, number, (first, first + 1, first + 2), (500, 300, 200))
    losers, runners_up = {2, 4}, {6, 9, 12}

    raw = {line.player: line.points for line in night_ranking(rows, method="points")}
    assert min(raw[p] for p in losers) > max(raw[p] for p in runners_up)

    for method in ("share", "match_points"):
        scored = {line.player: line.points for line in night_ranking(rows, method=method)}
        assert max(scored[p] for p in losers) < min(scored[p] for p in runners_up), method
    share = {line.player: line.points for line in night_ranking(rows, method="share")}
    assert (share[1], share[2], share[5], share[6], share[7]) == (60, 40, 75, 45, 30)
    matched = {line.player: line.points for line in night_ranking(rows, method="match_points")}
    assert (matched[1], matched[2], matched[5], matched[6], matched[7]) == (100, 0, 100, 50, 0)


def test_a_tie_counts_half_and_a_table_with_nothing_scored_gives_nothing():
    rows = three(1, 1, (1, 2, 3), (300, 300, 100)) + four(1, 2, (4, 6), (5, 7), 0, 0)
    scored = {line.player: line.points for line in night_ranking(rows, method="match_points")}
    assert (scored[1], scored[2], scored[3]) == (75, 75, 0)
    assert {scored[p] for p in (4, 5, 6, 7)} == {0}


def test_a_sit_out_scores_their_average_or_the_fixed_score_in_the_methods_units():
    rows = [*four(1, 1, (1, 3), (2, 4), 150, 50), RoundRow(5, 1, None, sat_out=True)]
    rows += [*four(2, 1, (1, 5), (2, 3), 50, 150), RoundRow(4, 2, 50, sat_out=True)]
    scored = {line.player: line for line in night_ranking(rows, method="share")}
    assert scored[5].rounds == {1: 25, 2: 25}  # their own average: 25 in round 2
    assert scored[4].rounds == {1: 25, 2: 50}  # the fixed 50: an even result


def test_the_rule_on_the_page_names_the_method_the_sit_out_and_the_tiebreaks():
    rule = ranking_rule("share", "fixed", 50)
    assert "share of the points scored at their table" in rule
    assert "a round sat out scores 50" in rule
    assert "rounds won, then head-to-head" in rule
    assert "own average" in ranking_rule("match_points", "average")
    with pytest.raises(ValueError):
        night_ranking([], method="goals")


@st.composite
def mixed_nights(draw):
    """A night of tables of four and of three over 1-3 rounds, points in tens."""
    rows = []
    for round_number in range(1, draw(st.integers(1, 3)) + 1):
        player = 1
        sizes = draw(st.lists(st.sampled_from([3, 4]), min_size=1, max_size=5))
        for number, size in enumerate(sizes, start=1):
            sides = 2 if size == 4 else 3
            points = [draw(st.integers(0, 60)) * 10 for _ in range(sides)]
            if size == 4:
                rows += four(
                    round_number,
                    number,
                    (player, player + 2),
                    (player + 1, player + 3),
                    *points[:2],
                )
            else:
                rows += three(round_number, number, (player, player + 1, player + 2), points[:3])
            player += size
    return rows


def _tables(rows):
    tables = defaultdict(dict)
    for row in rows:
        tables[(row.round, row.table)][row.side] = row.points
    return tables


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(mixed_nights(), st.sampled_from(["share", "match_points"]))
def test_an_even_result_is_50_at_every_table_whatever_its_size(rows, method):
    raw, scored = _tables(rows), _tables(round_scores(rows, method))
    for key, sides in scored.items():
        if sum(raw[key].values()) == 0:
            assert set(sides.values()) == {0}
            continue
        mean = sum(sides.values()) / len(sides)
        assert mean == pytest.approx(50, abs=0.01 * len(sides))
        assert all(0 <= score <= 50 * len(sides) for score in sides.values())


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(mixed_nights(), st.sampled_from(METHODS))
def test_more_points_at_a_table_never_scores_less(rows, method):
    raw, scored = _tables(rows), _tables(round_scores(rows, method))
    for key, sides in raw.items():
        for one in sides:
            for other in sides:
                if sides[one] > sides[other]:
                    assert scored[key][one] >= scored[key][other]


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(mixed_nights(), st.integers(2, 5))
def test_a_tables_share_does_not_depend_on_how_long_its_game_ran(rows, factor):
    longer = [
        RoundRow(r.player, r.round, r.points * factor, r.won, r.sat_out, r.table, r.side)
        for r in rows
    ]
    for method in ("share", "match_points"):
        before = {(r.player, r.round): r.points for r in round_scores(rows, method)}
        after = {(r.player, r.round): r.points for r in round_scores(longer, method)}
        assert before == after


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(mixed_nights(), st.sampled_from(METHODS))
def test_every_method_ranks_everyone_once_in_order_of_their_total(rows, method):
    ranking = night_ranking(rows, method=method)
    assert sorted(line.player for line in ranking) == sorted({row.player for row in rows})
    totals = [line.points for line in ranking]
    assert totals == sorted(totals, reverse=True)
    for line in ranking:
        assert line.points == pytest.approx(sum(line.rounds.values()), abs=0.01)
