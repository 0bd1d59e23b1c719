"""Zensa compares runs by their real length (RULES.md 4.2, `meld_compare: value-length`).

Every run of six cards or more counts as a `run-6` (100 points) in `zensa`, so at equal
points the comparison goes on to the run's real length: seven beats six, eight beats
seven, in plain suits and in trumps alike. `value` (seed 003) keeps its meaning: points,
then top card, the length counting only through the points.

The card points are those of a real deal of the cards in which the runs shown are played
(``dealt_points``): with a run of eight and one of seven, 15 of the 18 played cards are
known.
"""

import pytest

from clabber_league.rules import BUILTIN_RULESETS, score_deal
from tests.rules.support import deal, dealt_points, seq


def zensa(melds, trump="clubs", options=None, points=None):
    return score_deal(
        deal(
            "zensa",
            trump=trump,
            points=points or dealt_points("zensa", melds, trump=trump),
            last_trick="A",
            melds=melds,
            options=options,
        )
    )


def test_zensa_compares_by_value_then_real_length_by_default():
    assert BUILTIN_RULESETS["zensa"].meld_compare == "value-length"


@pytest.mark.parametrize(
    "trump", ["clubs", "spades", "hearts"], ids=["plain", "long-in-trumps", "short-in-trumps"]
)
def test_zensa_king_high_run_of_seven_beats_ace_high_run_of_six(trump):
    # A: K Q J 10 9 8 7 of spades; B: A K Q J 10 9 of hearts. Both count as run-6, 100.
    answer = zensa({"A": [seq("spades", "K", 7)], "B": [seq("hearts", "A", 6)]}, trump=trump)
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 100, "B": 0}


@pytest.mark.parametrize(
    "trump", ["clubs", "spades", "hearts"], ids=["plain", "long-in-trumps", "short-in-trumps"]
)
def test_zensa_ace_high_run_of_eight_beats_ace_high_run_of_seven(trump):
    # A: the whole spade suit; B: A to 8 of hearts. Same points, same top card.
    answer = zensa({"A": [seq("spades", "A", 8)], "B": [seq("hearts", "A", 7)]}, trump=trump)
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 100, "B": 0}


def test_zensa_equal_long_runs_in_plain_suits_score_for_nobody():
    answer = zensa({"A": [seq("spades", "A", 7)], "B": [seq("hearts", "A", 7)]})
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 0}


def test_zensa_equal_long_runs_go_to_the_one_in_trumps():
    answer = zensa({"A": [seq("spades", "A", 7)], "B": [seq("hearts", "A", 7)]}, trump="hearts")
    assert answer["meld_winner"] == "B"


def test_zensa_four_of_a_kind_still_beats_a_run_of_equal_points():
    # four Aces 100 against a run of seven, also 100: at equal points a four beats a run.
    answer = zensa({"A": [seq("spades", "K", 7)], "B": [{"kind": "four", "rank": "A"}]})
    assert answer["meld_winner"] == "B"


def test_value_keeps_seed_003s_meaning_top_card_after_points():
    # With `meld_compare: value` the seven and the six are both run-6: the Ace-high six wins.
    answer = zensa(
        {"A": [seq("spades", "K", 7)], "B": [seq("hearts", "A", 6)]},
        options={"meld_compare": "value"},
    )
    assert answer["meld_winner"] == "B"


def test_value_pushes_ace_high_runs_of_eight_and_seven_in_plain_suits():
    answer = zensa(
        {"A": [seq("spades", "A", 8)], "B": [seq("hearts", "A", 7)]},
        options={"meld_compare": "value"},
    )
    assert answer["meld_winner"] is None


def test_value_length_is_an_option_for_other_rule_sets():
    # klaberjass with value-length: a five (50) beats a four (50) by its real length, while
    # `value` would look at the top card (the four's Ace against the five's King).
    melds = {"A": [seq("spades", "K", 5)], "B": [seq("hearts", "A", 4)]}
    body = deal("klaberjass", trump="clubs", points={"A": 70, "B": 50}, last_trick="A")
    by_length = score_deal({**body, "melds": melds, "options": {"meld_compare": "value-length"}})
    by_value = score_deal({**body, "melds": melds, "options": {"meld_compare": "value"}})
    assert by_length["meld_winner"] == "A"
    assert by_value["meld_winner"] == "B"
