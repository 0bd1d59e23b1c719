"""Scoring a deal in the Klaberjass family (RULES.md 3.1, Klaberjass rows):
`klaberjass`, `klaberjass-3`, `klaberjass-4`, `zensa`, `bela-4`.

Two-handed games play 9 tricks of 2 cards: 18 of 32 cards, at most 146 card points.
"""

from clabber_league.rules import score_deal
from tests.rules.support import deal, seq


def test_klaberjass_maker_makes_and_both_score_their_own():
    # A 80 + 10 = 90 > B 50.
    answer = score_deal(deal("klaberjass", points={"A": 80, "B": 50}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 90, "B": 50}
    assert answer["totals"] == {"A": 90, "B": 50}


def test_klaberjass_tie_gives_maker_zero_and_opponent_its_own_total():
    # A 60 + 10 = 70, B 70: tie, B scores only its own 70.
    answer = score_deal(deal("klaberjass", points={"A": 60, "B": 70}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 70, "B": 70}
    assert answer["score"] == {"A": 0, "B": 70}


def test_klaberjass_maker_with_less_gives_opponent_both_totals():
    # A 50, B 80 + 10 = 90: B scores 90 + 50 = 140.
    answer = score_deal(deal("klaberjass", points={"A": 50, "B": 80}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 50, "B": 90}
    assert answer["score"] == {"A": 0, "B": 140}


def test_klaberjass_side_b_maker_with_less_gives_a_both_totals():
    # B made trumps: B 50 < A 80 + 10 = 90. A scores 90 + 50 = 140.
    answer = score_deal(deal("klaberjass", maker="B", points={"A": 80, "B": 50}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 140, "B": 0}


def test_klaberjass_opponents_melds_set_the_maker_and_take_both_totals():
    # B's fifty beats A's twenty: A 70 + 10 = 80; B 60 + 50 = 110.
    # A is set: B scores 110 + 80 = 190.
    answer = score_deal(
        deal(
            "klaberjass",
            points={"A": 70, "B": 60},
            last_trick="A",
            melds={"A": [seq("clubs", "A", 3)], "B": [seq("diamonds", "A", 4)]},
        )
    )
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 80, "B": 110}
    assert answer["score"] == {"A": 0, "B": 190}
    assert answer["meld_winner"] == "B"
    assert answer["meld_points"] == {"A": 0, "B": 50}


def test_klaberjass_bela_scores_20_for_its_holder():
    # A 60 + 10 + 20 = 90 > B 70.
    answer = score_deal(deal("klaberjass", points={"A": 60, "B": 70}, last_trick="A", bell="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 90, "B": 70}
    assert answer["meld_points"] == {"A": 20, "B": 0}


def test_klaberjass_passed_out_deal_scores_nothing():
    answer = score_deal({"ruleset": "klaberjass", "passed": True})
    assert answer["outcome"] == "passed"
    assert answer["score"] == {"A": 0, "B": 0}


# --- three-handed -------------------------------------------------------------------------


def test_klaberjass_3_maker_must_beat_each_opponent():
    # 10 tricks of 3 cards; A 70 + 10 = 80 > 40 and > 40.
    answer = score_deal(deal("klaberjass-3", points={"A": 70, "B": 40, "C": 40}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 80, "B": 40, "C": 40}


def test_klaberjass_3_set_maker_scores_zero_each_opponent_its_own_total():
    # A 40; B 60 + 10 = 70; C 50. Three-handed: nobody receives the maker's total.
    answer = score_deal(deal("klaberjass-3", points={"A": 40, "B": 60, "C": 50}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 40, "B": 70, "C": 50}
    assert answer["score"] == {"A": 0, "B": 70, "C": 50}


def test_klaberjass_3_maker_tied_with_one_opponent_is_set():
    # A 50 + 10 = 60 equals B 60: set; C keeps 40.
    answer = score_deal(deal("klaberjass-3", points={"A": 50, "B": 60, "C": 40}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 60, "C": 40}


# --- four-handed --------------------------------------------------------------------------


def test_klaberjass_4_every_card_is_played_and_maker_makes():
    # 32 cards, 8 each, all played: card points add up to 152.
    answer = score_deal(deal("klaberjass-4", points={"A": 90, "B": 62}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 62}


def test_klaberjass_4_maker_with_less_gives_opponents_both_totals():
    # A 60; B 92 + 10 = 102: B scores 102 + 60 = 162.
    answer = score_deal(deal("klaberjass-4", points={"A": 60, "B": 92}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 162}


def test_klaberjass_4_tie_gives_opponents_their_own_total():
    # A 71 + 10 = 81, B 81.
    answer = score_deal(deal("klaberjass-4", points={"A": 71, "B": 81}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 81}


# --- zensa --------------------------------------------------------------------------------


def test_zensa_maker_makes():
    answer = score_deal(deal("zensa", points={"A": 80, "B": 50}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 90, "B": 50}


def test_zensa_maker_with_less_gives_opponent_both_totals():
    # A 50, B 80 + 10 = 90: B scores 140.
    answer = score_deal(deal("zensa", points={"A": 50, "B": 80}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 140}


def test_zensa_tie_gives_opponent_its_own_total():
    answer = score_deal(deal("zensa", points={"A": 60, "B": 70}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 70}


# --- bela-4 -------------------------------------------------------------------------------


def test_bela_4_with_a_trump_suit_plays_for_152_card_points():
    answer = score_deal(deal("bela-4", points={"A": 90, "B": 62}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 62}


def test_bela_4_no_trumps_plays_for_120_card_points():
    # At no trumps every suit is plain: A 11 + 10 + 4 + 3 + 2 = 30 a suit, 120 in all.
    # A 70 + 10 = 80 > B 50.
    answer = score_deal(deal("bela-4", trump="none", points={"A": 70, "B": 50}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 80, "B": 50}


def test_bela_4_no_trumps_maker_with_less_gives_opponents_both_totals():
    # A 50; B 70 + 10 = 80: B scores 80 + 50 = 130.
    answer = score_deal(deal("bela-4", trump="none", points={"A": 50, "B": 70}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 130}


def test_bela_4_bela_counts_with_a_trump_suit():
    answer = score_deal(deal("bela-4", points={"A": 90, "B": 62}, last_trick="A", bell="B"))
    assert answer["totals"] == {"A": 100, "B": 82}
    assert answer["score"] == {"A": 100, "B": 82}
