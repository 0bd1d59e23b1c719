"""A klaverjas drive (KLAVERJAS.md 7.7, example 15): each player scores his pair's total of
the round's 16 deals, the night ranks players by the sum of their rounds (equal totals share
a place), and a season's best N of M nights counts those night totals."""

import random

from clabber_league.events.ranking import RoundRow, night_ranking
from clabber_league.events.series import NightResult, series_ranking
from clabber_league.rules import get_ruleset, score_game
from clabber_league.rules.simulate import simulate_deal


def a_round_of_16(seed: int) -> dict[str, int]:
    """The pair totals of 16 klaverjas deals really dealt and played out."""
    ruleset = get_ruleset("klaverjas-rotterdams")
    rng = random.Random(seed)
    deals = [simulate_deal(ruleset, rng) for _ in range(16)]
    answer = score_game({"ruleset": "klaverjas-rotterdams", "deals": deals})
    assert len(answer["deals"]) == 16
    assert answer["finished"]
    return answer["scores"]


def test_each_player_scores_his_pairs_total_and_the_night_adds_his_rounds():
    # Eight players, three rounds, partners redrawn each round (two tables of four).
    draws = [
        [((1, 3), (2, 4)), ((5, 7), (6, 8))],
        [((1, 5), (2, 6)), ((3, 7), (4, 8))],
        [((1, 8), (2, 7)), ((3, 6), (4, 5))],
    ]
    rows, expected = [], {p: 0 for p in range(1, 9)}
    for number, tables in enumerate(draws, start=1):
        for table, (pair_a, pair_b) in enumerate(tables, start=1):
            totals = a_round_of_16(number * 10 + table)
            for side, pair in (("A", pair_a), ("B", pair_b)):
                for player in pair:
                    won = totals[side] > totals["B" if side == "A" else "A"]
                    rows.append(
                        RoundRow(player, number, totals[side], won=won, table=table, side=side)
                    )
                    expected[player] += totals[side]
    ranking = night_ranking(rows, method="points")
    assert {line.player: line.points for line in ranking} == expected
    assert [line.points for line in ranking] == sorted(expected.values(), reverse=True)
    # Partners of a round carry the same score for that round.
    first = {line.player: line.rounds for line in ranking}
    assert first[1][1] == first[3][1] and first[2][1] == first[4][1]


def test_example_15_pair_totals_and_equal_night_totals_share_a_place():
    rows = [
        RoundRow(1, 1, 1480, won=True, table=1, side="A"),
        RoundRow(3, 1, 1480, won=True, table=1, side="A"),
        RoundRow(2, 1, 1202, table=1, side="B"),
        RoundRow(4, 1, 1202, table=1, side="B"),
    ]
    ranking = night_ranking(rows, method="points")
    assert [(line.player, line.points, line.position) for line in ranking][:2] == [
        (1, 1480, 1),
        (3, 1480, 1),
    ]
    assert ranking[0].shared and ranking[1].shared
    assert {line.player: line.points for line in ranking}[2] == 1202


def test_a_season_counts_the_best_3_of_4_klaverjas_nights():
    nights = [11, 12, 13, 14]
    results = [
        NightResult(1, 11, 4100),
        NightResult(1, 12, 3900),
        NightResult(1, 13, 4400),
        NightResult(1, 14, 3600),
        NightResult(2, 11, 4200),
        NightResult(2, 12, 4200),
        NightResult(2, 13, 3700),
    ]
    ranking = series_ranking(results, nights=nights, method="best", best_n=3)
    points = {line.player: line.score for line in ranking.ranked}
    assert points == {1: 4100 + 3900 + 4400, 2: 4200 + 4200 + 3700}
