"""The order of a table (pure): head-to-head results are needed only between teams level
on match points.

The selector fetches the matches between two teams only when they are level on match
points; these properties say that this never changes the table, whatever the league's
tiebreakers and results, and check what the order promises.
"""

from __future__ import annotations

import copy
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from clabber_league.standings.models import TIEBREAKERS
from clabber_league.standings.ordering import Line, order_lines

COUNTERS = (
    "games_won",
    "games_lost",
    "points_for",
    "points_against",
    "sets_inflicted",
    "sets_suffered",
)


@st.composite
def tables(draw):
    """A few teams with small counters (so ties are common), tiebreakers and head-to-head."""
    count = draw(st.integers(min_value=1, max_value=8))
    lines = [
        Line(
            team_id=team,
            name=draw(st.sampled_from(["Aces", "Bells", "Jacks", "Nines"])),
            counters={name: draw(st.integers(0, 2)) for name in COUNTERS},
            match_points=draw(st.integers(0, 3)),
        )
        for team in range(1, count + 1)
    ]
    tiebreakers = draw(st.permutations(list(TIEBREAKERS)).map(lambda p: p[: len(p) // 2 + 1]))
    tiebreakers = draw(st.sampled_from([tiebreakers, [], ["head_to_head"]]))
    h2h = {
        (a.team_id, b.team_id): draw(st.integers(0, 4))
        for a in lines
        for b in lines
        if a.team_id != b.team_id
    }
    return lines, tiebreakers, h2h


def _order(lines, tiebreakers, h2h):
    return [
        (line.team_id, line.position, line.shared, line.placed_by)
        for line in order_lines(copy.deepcopy(lines), tiebreakers, h2h)
    ]


@given(tables())
def test_results_between_teams_level_on_match_points_alone_give_the_same_table(table):
    lines, tiebreakers, h2h = table
    points = {line.team_id: line.match_points for line in lines}
    level = {(a, b): v for (a, b), v in h2h.items() if points[a] == points[b]}
    assert _order(lines, tiebreakers, level) == _order(lines, tiebreakers, h2h)


@given(tables())
def test_match_points_decide_first_and_level_teams_share_a_place(table):
    lines, tiebreakers, h2h = table
    ordered = order_lines(copy.deepcopy(lines), tiebreakers, h2h)
    assert sorted(line.team_id for line in ordered) == sorted(line.team_id for line in lines)
    assert [line.match_points for line in ordered] == sorted(
        (line.match_points for line in lines), reverse=True
    )
    for before, after in pairwise(ordered):
        assert before.position <= after.position
        if before.position == after.position:
            assert before.shared and after.shared
            assert before.match_points == after.match_points
    assert not ordered or ordered[0].position == 1


def test_head_to_head_places_level_teams_by_their_matches_against_each_other():
    zero = dict.fromkeys(COUNTERS, 0)
    lines = [
        Line(team_id=1, name="Aces", counters=dict(zero), match_points=4),
        Line(team_id=2, name="Bells", counters=dict(zero), match_points=4),
        Line(team_id=3, name="Jacks", counters=dict(zero), match_points=9),
    ]
    ordered = order_lines(lines, ["head_to_head"], {(2, 1): 2, (1, 2): 0, (1, 3): 4})
    assert [(line.team_id, line.position, line.placed_by) for line in ordered] == [
        (3, 1, ""),
        (2, 2, "head_to_head"),
        (1, 3, "head_to_head"),
    ]
