"""A season of nights: total, average or best N of M, with a minimum attendance."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.series import (
    ERROR_BEST_N,
    NightResult,
    SeriesRuleError,
    series_ranking,
)

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}
NIGHTS = (10, 11, 12)


def results(table):
    """``{player: (points night 10, 11, 12)}`` with ``None`` for a night missed."""
    return [
        NightResult(player, night, points)
        for player, row in table.items()
        for night, points in zip(NIGHTS, row, strict=True)
        if points is not None
    ]


SEASON = results({1: (3000, 2000, 1000), 2: (2500, 2500, None), 3: (None, None, 4000)})


def lines(ranking):
    return [(line.position, line.name, line.score_display) for line in ranking.ranked]


def test_total_adds_every_night():
    ranking = series_ranking(SEASON, nights=NIGHTS, method="total", names=NAMES)
    assert lines(ranking) == [(1, "Ann", "6000"), (2, "Bob", "5000"), (3, "Cy", "4000")]


def test_best_two_of_three_counts_each_players_best_two_nights_and_marks_them():
    ranking = series_ranking(SEASON, nights=NIGHTS, method="best", best_n=2, names=NAMES)
    assert lines(ranking) == [(1, "Ann", "5000"), (2, "Bob", "5000"), (3, "Cy", "4000")]
    assert ranking.ranked[0].reason == "Level on 5000 with Bob: more nights played (3 to 2)."
    assert ranking.ranked[0].counted == frozenset({10, 11})
    assert ranking.describe() == "Best 2 of 3 nights"


def test_average_is_per_night_played():
    ranking = series_ranking(SEASON, nights=NIGHTS, method="average", names=NAMES)
    assert lines(ranking) == [(1, "Cy", "4000"), (2, "Bob", "2500"), (3, "Ann", "2000")]


def test_an_average_prints_to_one_decimal():
    season = [NightResult(1, 10, 1), NightResult(1, 11, 2), NightResult(1, 12, 2)]
    [line] = series_ranking(season, nights=NIGHTS, method="average").ranked
    assert line.score == Fraction(5, 3)
    assert line.score_display == "1.7"


def test_players_under_the_minimum_attendance_are_listed_apart():
    ranking = series_ranking(SEASON, nights=NIGHTS, min_attendance=2, names=NAMES)
    assert lines(ranking) == [(1, "Ann", "6000"), (2, "Bob", "5000")]
    assert [(line.name, line.position) for line in ranking.unranked] == [("Cy", 0)]


def test_level_on_score_more_nights_played_goes_first_and_says_so():
    season = results({1: (100, 100, None), 2: (200, None, None)})
    ranking = series_ranking(season, nights=NIGHTS, names=NAMES)
    assert lines(ranking) == [(1, "Ann", "200"), (2, "Bob", "200")]
    assert ranking.ranked[0].reason == "Level on 200 with Bob: more nights played (2 to 1)."


def test_best_n_needs_n():
    with pytest.raises(SeriesRuleError) as error:
        series_ranking(SEASON, nights=NIGHTS, method="best")
    assert (error.value.field, error.value.message) == ("best_n", ERROR_BEST_N)


@st.composite
def seasons(draw):
    nights = tuple(range(1, draw(st.integers(1, 8)) + 1))
    rows = []
    for player in range(1, draw(st.integers(1, 12)) + 1):
        for night in nights:
            if draw(st.booleans()):
                rows.append(NightResult(player, night, draw(st.integers(0, 5000))))
    return nights, rows


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(seasons(), st.integers(1, 8), st.integers(0, 4))
def test_best_n_is_the_sum_of_the_n_highest_nights(season, n, minimum):
    nights, rows = season
    ranking = series_ranking(rows, nights=nights, method="best", best_n=n, min_attendance=minimum)
    for line in ranking.ranked + ranking.unranked:
        assert line.score == sum(sorted(line.nights.values(), reverse=True)[:n])
        assert len(line.counted) == min(n, line.attended)
        assert sum(line.nights[night] for night in line.counted) == line.score


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(seasons(), st.sampled_from(["total", "average", "best"]), st.integers(0, 4))
def test_ranked_players_meet_the_minimum_and_descend_by_score(season, method, minimum):
    nights, rows = season
    ranking = series_ranking(rows, nights=nights, method=method, best_n=3, min_attendance=minimum)
    assert all(line.attended >= minimum for line in ranking.ranked)
    assert all(line.attended < minimum for line in ranking.unranked)
    assert len(ranking.ranked) + len(ranking.unranked) == len({r.player for r in rows})
    scores = [line.score for line in ranking.ranked]
    assert scores == sorted(scores, reverse=True)
    positions = [line.position for line in ranking.ranked]
    assert positions == sorted(positions) and (not positions or positions[0] == 1)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(seasons())
def test_best_n_of_m_with_n_at_least_m_is_the_total(season):
    nights, rows = season
    best = series_ranking(rows, nights=nights, method="best", best_n=len(nights))
    total = series_ranking(rows, nights=nights, method="total")
    assert [(line.player, line.score) for line in best.ranked] == [
        (line.player, line.score) for line in total.ranked
    ]
