"""Melds (RULES.md section 4): their values, which side's melds score (4.3), and the bell.

Every deal here is the same apart from the melds: maker A, hearts trump, card points
A 80 and B 72, last trick to A. So in Clabber A's total is 90 + A's meld points and B's
is 72 + B's meld points, and the test is about the melds alone. In the two-handed games,
where not every card is played, the card points are those of a real deal of the cards in
which the cards shown are played (``dealt_points``).
"""

import pytest

from clabber_league.rules import score_deal
from tests.rules.support import deal, dealt_points, four, seq


def melds_deal(ruleset="clabber", a=(), b=(), **fields):
    two_handed = ruleset in {"klaberjass", "zensa", "clabber-2"}
    melds = {side: list(ms) for side, ms in (("A", a), ("B", b)) if ms}
    if two_handed and "points" not in fields:
        trump = fields.get("trump", "hearts")
        fields["points"] = dealt_points(ruleset, melds, trump=trump, bell=fields.get("bell"))
    fields.setdefault("points", {"A": 80, "B": 72})
    fields.setdefault("last_trick", "A")
    return deal(ruleset, melds=melds or None, **fields)


def meld_result(ruleset="clabber", a=(), b=(), **fields):
    answer = score_deal(melds_deal(ruleset, a, b, **fields))
    return answer["meld_winner"], answer["meld_points"]


# --- 4.1: sequences of the 24-card pack reach down to the Nine ------------------------------


@pytest.mark.parametrize(
    ("top", "length", "value"),
    [("J", 3, 20), ("Q", 4, 50), ("K", 5, 100), ("A", 6, 100)],
    ids=["dad-J-10-9", "fifty-Q-to-9", "five-K-to-9", "six-A-to-9"],
)
def test_clabber_lowest_sequences_of_each_length_end_on_the_nine(top, length, value):
    # "a sequence of three has top J or higher, of four Q or higher, of five K or higher,
    # of six A" (4.1): these are the lowest, and they count.
    assert meld_result(a=[seq("spades", top, length)]) == ("A", {"A": value, "B": 0})


# --- Clabber: the table's rows, highest first (4.2) ---------------------------------------

# (better meld, worse meld, points of the better). Cards never clash between the two:
# a five-card sequence of the 24-card pack always holds the Queen, so it meets four Aces
# here rather than four Queens.
CLABBER_ROWS = [
    pytest.param(four("J"), four("9"), 200, id="four-jacks-beat-four-nines"),
    pytest.param(four("9"), four("A"), 100, id="four-nines-beat-four-aces"),
    pytest.param(four("A"), four("10"), 100, id="four-aces-beat-four-tens"),
    pytest.param(four("10"), four("K"), 100, id="four-tens-beat-four-kings"),
    pytest.param(four("K"), four("Q"), 100, id="four-kings-beat-four-queens"),
    pytest.param(four("A"), seq("hearts", "K", 5), 100, id="four-aces-beat-trump-five"),
    pytest.param(seq("spades", "K", 5), seq("hearts", "A", 4), 100, id="five-beats-fifty"),
    pytest.param(seq("clubs", "Q", 4), seq("hearts", "A", 3), 50, id="fifty-beats-dad"),
]


@pytest.mark.parametrize(("better", "worse", "value"), CLABBER_ROWS)
def test_clabber_higher_row_of_the_meld_table_wins(better, worse, value):
    assert meld_result(a=[better], b=[worse]) == ("A", {"A": value, "B": 0})


@pytest.mark.parametrize(("better", "worse", "value"), CLABBER_ROWS)
def test_clabber_higher_row_wins_for_either_side(better, worse, value):
    assert meld_result(a=[worse], b=[better]) == ("B", {"A": 0, "B": value})


def test_clabber_meld_winner_scores_all_its_melds():
    # A's best, four Nines, beats B's dad; A scores 100 + 50 (its fifty A-K-Q-J of clubs).
    answer = score_deal(
        melds_deal(a=[four("9"), seq("clubs", "A", 4)], b=[seq("diamonds", "A", 3)])
    )
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 150, "B": 0}
    assert answer["totals"] == {"A": 240, "B": 72}
    assert answer["score"] == {"A": 240, "B": 72}


def test_clabber_losing_side_scores_none_of_its_melds_however_many():
    # B's three dads (60 together) lose to A's single four Kings.
    winner, points = meld_result(
        a=[four("K")],
        b=[seq("clubs", "J", 3), seq("diamonds", "J", 3), seq("spades", "J", 3)],
    )
    assert (winner, points) == ("A", {"A": 100, "B": 0})


def test_clabber_equal_row_higher_top_card_wins():
    # Dad A-K-Q of diamonds beats dad K-Q-J of clubs.
    assert meld_result(a=[seq("clubs", "K", 3)], b=[seq("diamonds", "A", 3)]) == (
        "B",
        {"A": 0, "B": 20},
    )


def test_clabber_higher_top_card_beats_a_trump_sequence():
    # Top card is compared before trumps: plain A-K-Q beats trump K-Q-J.
    assert meld_result(a=[seq("hearts", "K", 3)], b=[seq("clubs", "A", 3)]) == (
        "B",
        {"A": 0, "B": 20},
    )


def test_clabber_trump_sequence_beats_equal_plain_sequence():
    assert meld_result(a=[seq("hearts", "K", 3)], b=[seq("clubs", "K", 3)]) == (
        "A",
        {"A": 20, "B": 0},
    )


def test_clabber_equal_plain_sequences_nobody_scores_melds():
    answer = score_deal(melds_deal(a=[seq("clubs", "K", 3)], b=[seq("diamonds", "K", 3)]))
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 0}
    assert answer["totals"] == {"A": 90, "B": 72}


def test_clabber_equal_plain_best_melds_cancel_the_lesser_melds_too():
    # Only the single best melds are compared; they tie in plain suits, so A's extra dad
    # of spades does not score either.
    answer = score_deal(
        melds_deal(a=[seq("clubs", "Q", 4), seq("spades", "A", 3)], b=[seq("diamonds", "Q", 4)])
    )
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 0}


def test_clabber_bell_scores_when_nobody_scores_melds():
    answer = score_deal(melds_deal(a=[seq("clubs", "K", 3)], b=[seq("diamonds", "K", 3)], bell="B"))
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 20}
    assert answer["totals"] == {"A": 90, "B": 92}


def test_clabber_only_side_with_melds_scores_them():
    assert meld_result(b=[seq("spades", "J", 3)]) == ("B", {"A": 0, "B": 20})


def test_clabber_run_of_six_counts_as_a_sequence_of_five():
    # A-K-Q-J-10-9 of spades: 100, like a five (no six-card meld in Evansville Clabber).
    answer = score_deal(melds_deal(a=[seq("spades", "A", 6)]))
    assert answer["meld_points"] == {"A": 100, "B": 0}
    assert answer["totals"] == {"A": 190, "B": 72}


def test_clabber_run_of_six_is_topped_by_its_highest_card():
    # Counted as the five A-K-Q-J-10: it beats the trump five K-Q-J-10-9.
    assert meld_result(a=[seq("spades", "A", 6)], b=[seq("hearts", "K", 5)]) == (
        "A",
        {"A": 100, "B": 0},
    )


def test_clabber_run_of_six_loses_to_the_trump_five_with_the_same_top():
    # Both count as fives topped by the Ace; the trump one wins.
    assert meld_result(a=[seq("spades", "A", 6)], b=[seq("hearts", "A", 5)]) == (
        "B",
        {"A": 0, "B": 100},
    )


def test_dad_n_bell_scores_twenty_and_twenty():
    # K-Q-J of trumps (hearts) held by one player: dad 20 + bell 20 = 40.
    answer = score_deal(melds_deal(a=[seq("hearts", "K", 3)], bell="A"))
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 40, "B": 0}
    assert answer["totals"] == {"A": 130, "B": 72}
    assert answer["score"] == {"A": 130, "B": 72}


def test_bell_scores_even_when_its_sequence_is_beaten():
    # A's dad 'n' bell loses the dad to B's fifty: A 80 + 10 + 20 = 110, B 72 + 50 = 122,
    # so A, the maker, is set.
    answer = score_deal(melds_deal(a=[seq("hearts", "K", 3)], b=[seq("clubs", "Q", 4)], bell="A"))
    assert answer["meld_winner"] == "B"
    assert answer["meld_points"] == {"A": 20, "B": 50}
    assert answer["totals"] == {"A": 110, "B": 122}
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 122}


def test_bell_cards_may_also_sit_in_four_kings():
    # The trump King is in A's four Kings and in A's bell: 100 + 20.
    assert meld_result(a=[four("K")], bell="A") == ("A", {"A": 120, "B": 0})


# --- clabber-cummings: the 100-point melds re-ordered -------------------------------------

CUMMINGS_ROWS = [
    pytest.param(seq("hearts", "K", 5), four("A"), 100, id="five-beats-four-aces"),
    pytest.param(four("A"), four("K"), 100, id="four-aces-beat-four-kings"),
    pytest.param(four("K"), four("Q"), 100, id="four-kings-beat-four-queens"),
    pytest.param(four("Q"), four("10"), 100, id="four-queens-beat-four-tens"),
    pytest.param(four("10"), four("9"), 100, id="four-tens-beat-four-nines"),
    pytest.param(four("9"), seq("clubs", "A", 4), 100, id="four-nines-beat-fifty"),
    pytest.param(four("J"), four("A"), 200, id="four-jacks-still-highest"),
]


@pytest.mark.parametrize(("better", "worse", "value"), CUMMINGS_ROWS)
def test_cummings_meld_order(better, worse, value):
    assert meld_result("clabber-cummings", a=[worse], b=[better]) == (
        "B",
        {"A": 0, "B": value},
    )


def test_cummings_five_beats_four_aces_where_evansville_has_it_the_other_way():
    assert meld_result("clabber", a=[seq("hearts", "K", 5)], b=[four("A")]) == (
        "B",
        {"A": 0, "B": 100},
    )
    assert meld_result("clabber-cummings", a=[seq("hearts", "K", 5)], b=[four("A")]) == (
        "A",
        {"A": 100, "B": 0},
    )


def test_cummings_four_aces_beat_four_nines_where_evansville_has_it_the_other_way():
    assert meld_result("clabber", a=[four("A")], b=[four("9")])[0] == "B"
    assert meld_result("clabber-cummings", a=[four("A")], b=[four("9")])[0] == "A"


# --- clabber-wadesville: a six-card sequence is a meld of 300 -----------------------------


def test_wadesville_run_of_six_scores_300():
    answer = score_deal(melds_deal("clabber-wadesville", a=[seq("spades", "A", 6)]))
    assert answer["meld_points"] == {"A": 300, "B": 0}
    assert answer["totals"] == {"A": 390, "B": 72}


def test_wadesville_run_of_six_beats_the_trump_five():
    # In Evansville Clabber the trump five would win (see the test above for clabber).
    assert meld_result(
        "clabber-wadesville", a=[seq("spades", "A", 6)], b=[seq("hearts", "A", 5)]
    ) == ("A", {"A": 300, "B": 0})


def test_wadesville_five_still_scores_100():
    assert meld_result("clabber-wadesville", a=[seq("hearts", "K", 5)]) == (
        "A",
        {"A": 100, "B": 0},
    )


# --- Klaberjass family: sequences only, longer first (meld_compare: length) ---------------


def test_klaberjass_sequence_of_three_is_twenty():
    assert meld_result("klaberjass", a=[seq("clubs", "A", 3)]) == ("A", {"A": 20, "B": 0})


def test_klaberjass_sequence_of_four_is_fifty():
    assert meld_result("klaberjass", a=[seq("clubs", "10", 4)]) == ("A", {"A": 50, "B": 0})


def test_klaberjass_sequence_of_five_or_more_is_fifty():
    assert meld_result("klaberjass", a=[seq("clubs", "K", 5)]) == ("A", {"A": 50, "B": 0})


def test_klaberjass_whole_suit_is_still_a_fifty():
    # A-K-Q-J-10-9-8-7 of clubs in a 9-card hand.
    assert meld_result("klaberjass", a=[seq("clubs", "A", 8)]) == ("A", {"A": 50, "B": 0})


def test_klaberjass_longer_sequence_beats_higher_top_card():
    # 10-9-8-7 beats A-K-Q.
    assert meld_result("klaberjass", a=[seq("clubs", "10", 4)], b=[seq("diamonds", "A", 3)]) == (
        "A",
        {"A": 50, "B": 0},
    )


def test_klaberjass_five_headed_by_jack_beats_four_headed_by_ace_by_length():
    # Seeds 001 and 004: longer first.
    assert meld_result("klaberjass", a=[seq("clubs", "J", 5)], b=[seq("diamonds", "A", 4)]) == (
        "A",
        {"A": 50, "B": 0},
    )


def test_klaberjass_value_compare_four_headed_by_ace_beats_five_headed_by_jack():
    # Seed 003 (meld_compare: value): both are "fifty", so the Ace-high one wins.
    assert meld_result(
        "klaberjass",
        a=[seq("clubs", "J", 5)],
        b=[seq("diamonds", "A", 4)],
        options={"meld_compare": "value"},
    ) == ("B", {"A": 0, "B": 50})


def test_klaberjass_equal_length_higher_top_wins():
    assert meld_result("klaberjass", a=[seq("clubs", "K", 3)], b=[seq("diamonds", "A", 3)]) == (
        "B",
        {"A": 0, "B": 20},
    )


def test_klaberjass_equal_sequences_trump_beats_plain():
    assert meld_result("klaberjass", a=[seq("hearts", "K", 3)], b=[seq("clubs", "K", 3)]) == (
        "A",
        {"A": 20, "B": 0},
    )


def test_klaberjass_equal_plain_sequences_nobody_scores():
    assert meld_result("klaberjass", a=[seq("clubs", "K", 3)], b=[seq("diamonds", "K", 3)]) == (
        None,
        {"A": 0, "B": 0},
    )


def test_klaberjass_winner_scores_all_its_sequences():
    # A's fifty beats B's twenty; A scores 50 + 20.
    assert meld_result(
        "klaberjass",
        a=[seq("clubs", "Q", 4), seq("spades", "9", 3)],
        b=[seq("diamonds", "A", 3)],
    ) == ("A", {"A": 70, "B": 0})


def test_klaberjass_bela_and_sequence_with_the_same_cards():
    assert meld_result("klaberjass", a=[seq("hearts", "K", 3)], bell="A") == (
        "A",
        {"A": 40, "B": 0},
    )


def test_klaberjass_4_partners_melds_count_together():
    # A's two players: fifty and twenty; B: twenty. A scores 70.
    assert meld_result(
        "klaberjass-4",
        a=[seq("clubs", "Q", 4), seq("spades", "9", 3)],
        b=[seq("diamonds", "A", 3)],
    ) == ("A", {"A": 70, "B": 0})


def test_bela_4_no_trumps_equal_sequences_nobody_scores():
    # At no trumps no sequence is in trumps: equal ones cancel.
    assert meld_result(
        "bela-4",
        a=[seq("clubs", "A", 3)],
        b=[seq("spades", "A", 3)],
        trump="none",
        points={"A": 70, "B": 50},
    ) == (None, {"A": 0, "B": 0})


# --- zensa: points first, then four of a kind over sequence, fours by rank J A K Q 10 -----


def test_zensa_four_jacks_score_200():
    assert meld_result("zensa", a=[four("J")]) == ("A", {"A": 200, "B": 0})


def test_zensa_sequence_of_five_scores_100():
    assert meld_result("zensa", a=[seq("clubs", "K", 5)]) == ("A", {"A": 100, "B": 0})


def test_zensa_more_points_win_first():
    # Four Jacks (200) over four Aces (100).
    assert meld_result("zensa", a=[four("A")], b=[four("J")]) == ("B", {"A": 0, "B": 200})


def test_zensa_five_beats_ace_high_four_on_points():
    assert meld_result("zensa", a=[seq("diamonds", "A", 4)], b=[seq("clubs", "J", 5)]) == (
        "B",
        {"A": 0, "B": 100},
    )


def test_zensa_at_equal_points_four_of_a_kind_beats_a_sequence():
    # Four Aces and the trump five K-Q-J-10-9: 100 each; the four wins.
    assert meld_result("zensa", a=[seq("hearts", "K", 5)], b=[four("A")]) == (
        "B",
        {"A": 0, "B": 100},
    )


@pytest.mark.parametrize(
    ("better", "worse"),
    [("A", "K"), ("K", "Q"), ("Q", "10"), ("A", "10")],
    ids=["aces-over-kings", "kings-over-queens", "queens-over-tens", "aces-over-tens"],
)
def test_zensa_fours_compare_by_rank(better, worse):
    assert meld_result("zensa", a=[four(worse)], b=[four(better)]) == (
        "B",
        {"A": 0, "B": 100},
    )


def test_zensa_equal_length_sequences_compare_by_top_card():
    assert meld_result("zensa", a=[seq("clubs", "K", 5)], b=[seq("diamonds", "A", 5)]) == (
        "B",
        {"A": 0, "B": 100},
    )


def test_zensa_equal_sequences_trump_beats_plain():
    assert meld_result("zensa", a=[seq("hearts", "Q", 4)], b=[seq("clubs", "Q", 4)]) == (
        "A",
        {"A": 50, "B": 0},
    )
