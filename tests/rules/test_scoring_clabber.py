"""Scoring a Clabber deal (RULES.md 3.1, Clabber rows), one rule per test.

Card points: trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2,
9 0; the pack holds 152, the last trick adds 10.
"""

from clabber_league.rules import score_deal
from tests.rules.support import SECTION_6_DEAL, answer_part, deal, four, seq


def test_section_6_worked_example():
    # B's four Jacks (200) beat A's dad (20): A's dad does not count, A's bell does.
    # A: 90 + 10 (last trick) + 20 (bell) = 120; B: 62 + 200 = 262.
    # Maker A has less than B: set, A 0, B keeps its own 262. As published in section 6.
    answer = score_deal(SECTION_6_DEAL)
    assert answer_part(answer, "outcome", "score", "totals", "meld_winner", "meld_points") == {
        "outcome": "set",
        "score": {"A": 0, "B": 262},
        "totals": {"A": 120, "B": 262},
        "meld_winner": "B",
        "meld_points": {"A": 20, "B": 200},
    }


def test_clabber_maker_makes_when_strictly_more_and_every_side_scores_its_total():
    # A: 90 + 10 = 100 > B: 62.
    answer = score_deal(deal(points={"A": 90, "B": 62}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 62}
    assert answer["totals"] == {"A": 100, "B": 62}
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 0}


def test_clabber_maker_set_scores_zero_and_opponent_keeps_total():
    # A: 70; B: 82 + 10 = 92. Set: A 0, B only its own 92 (not A's 70 as well).
    answer = score_deal(deal(points={"A": 70, "B": 82}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 92}
    assert answer["totals"] == {"A": 70, "B": 92}


def test_clabber_tie_sets_the_maker():
    # A: 71 + 10 = 81, B: 81. Equal is not strictly more: set.
    answer = score_deal(deal(points={"A": 71, "B": 81}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 81}
    assert answer["totals"] == {"A": 81, "B": 81}


def test_clabber_maker_may_be_side_b():
    # B made trumps: B 82 + 10 = 92 > A 70.
    answer = score_deal(deal(maker="B", points={"A": 70, "B": 82}, last_trick="B"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 70, "B": 92}


def test_clabber_side_b_maker_set_scores_zero():
    # B made trumps: B 62 < A 90 + 10.
    answer = score_deal(deal(maker="B", points={"A": 90, "B": 62}, last_trick="A"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 100, "B": 0}


def test_clabber_all_tricks_are_162_without_melds():
    # 152 card points and the last trick: the 162 "played for".
    answer = score_deal(deal(points={"A": 152, "B": 0}, last_trick="A", tricks={"A": 6, "B": 0}))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 162, "B": 0}


def test_clabber_melds_count_in_the_maker_test():
    # Card points alone A 60 vs B 92 would set A; A's fifty (50) makes it:
    # A 60 + 50 = 110 > B 82 + 10 = 92.
    answer = score_deal(
        deal(
            points={"A": 60, "B": 92},
            last_trick="B",
            melds={"A": [seq("clubs", "Q", 4)]},
        )
    )
    assert answer["outcome"] == "made"
    assert answer["totals"] == {"A": 110, "B": 102}
    assert answer["score"] == {"A": 110, "B": 102}
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 50, "B": 0}


def test_clabber_bell_counts_in_the_maker_test():
    # A 72 + 10 = 82 vs B 80: made by 2 anyway; the bell gives A 102.
    answer = score_deal(deal(points={"A": 72, "B": 80}, last_trick="A", bell="A"))
    assert answer["totals"] == {"A": 102, "B": 80}
    assert answer["score"] == {"A": 102, "B": 80}
    assert answer["meld_points"] == {"A": 20, "B": 0}
    assert answer["meld_winner"] is None


def test_clabber_opponents_bell_can_set_the_maker():
    # A 71 + 10 (last trick) = 81; B 81 + 20 (bell) = 101: set.
    answer = score_deal(deal(points={"A": 71, "B": 81}, last_trick="A", bell="B"))
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 81, "B": 101}
    assert answer["score"] == {"A": 0, "B": 101}


def test_clabber_set_maker_loses_its_winning_melds_too():
    # A's four Nines win the melds (100), but A 0 + 100 = 100 < B 152 + 10 = 162: set.
    answer = score_deal(
        deal(
            points={"A": 0, "B": 152},
            last_trick="B",
            tricks={"A": 0, "B": 6},
            melds={"A": [four("9")]},
        )
    )
    assert answer["outcome"] == "set"
    assert answer["totals"] == {"A": 100, "B": 162}
    assert answer["score"] == {"A": 0, "B": 162}
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 100, "B": 0}


def test_clabber_passed_out_deal_scores_nothing():
    answer = score_deal({"ruleset": "clabber", "passed": True})
    assert answer["outcome"] == "passed"
    assert answer["score"] == {"A": 0, "B": 0}


def test_clabber_3_passed_out_deal_shows_every_side():
    answer = score_deal({"ruleset": "clabber-3", "passed": True})
    assert answer["outcome"] == "passed"
    assert answer["score"] == {"A": 0, "B": 0, "C": 0}


# --- the other Clabber rule sets ----------------------------------------------------------


def test_clabber_3_maker_must_beat_each_opponent_separately():
    # 24 cards, 8 each, all played: 60 + 50 + 42 = 152. A: 60 + 10 = 70 > 50 and > 42.
    answer = score_deal(deal("clabber-3", points={"A": 60, "B": 50, "C": 42}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 70, "B": 50, "C": 42}


def test_clabber_3_maker_set_by_one_opponent_scores_zero_others_their_own():
    # A 50; B 60 + 10 = 70; C 42. A beats C but not B: set. Nobody receives A's points.
    answer = score_deal(deal("clabber-3", points={"A": 50, "B": 60, "C": 42}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 70, "C": 42}
    assert answer["totals"] == {"A": 50, "B": 70, "C": 42}


def test_clabber_3_maker_tied_with_one_opponent_is_set():
    # Card points 50 + 60 + 42 = 152. A 50 + 10 = 60, B 60, C 42: A ties B, set.
    answer = score_deal(deal("clabber-3", points={"A": 50, "B": 60, "C": 42}, last_trick="A"))
    assert answer["totals"] == {"A": 60, "B": 60, "C": 42}
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 60, "C": 42}


def test_clabber_2_scores_like_four_handed_clabber():
    # 9 tricks of 2 cards: 18 of 24 cards played, at most 146 card points.
    # A 70 + 10 = 80 > B 60: made.
    answer = score_deal(deal("clabber-2", points={"A": 70, "B": 60}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 80, "B": 60}


def test_clabber_2_set_maker_scores_zero_opponent_its_own():
    # A 60, B 70 + 10 = 80. Clabber: B scores only its own.
    answer = score_deal(deal("clabber-2", points={"A": 60, "B": 70}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 80}


def test_clabber_6_two_teams_of_three():
    # 6 players, 4 cards each, all 24 played: 4 tricks of 6 cards.
    answer = score_deal(
        deal(
            "clabber-6",
            points={"A": 100, "B": 52},
            last_trick="B",
            tricks={"A": 3, "B": 1},
        )
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 62}


def test_clabber_6_set_maker_scores_zero():
    answer = score_deal(deal("clabber-6", maker="B", points={"A": 100, "B": 52}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 100, "B": 0}


def test_clabber_cummings_scores_like_clabber_apart_from_meld_order():
    answer = score_deal(deal("clabber-cummings", points={"A": 70, "B": 82}, last_trick="B"))
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 92}


def test_clabber_wadesville_scores_like_clabber_apart_from_run_of_six():
    answer = score_deal(deal("clabber-wadesville", points={"A": 90, "B": 62}, last_trick="A"))
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 62}
