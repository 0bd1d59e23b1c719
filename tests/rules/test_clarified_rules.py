"""One test per point that RULES.md now says more clearly (sections 2, 2.1, 3.1, 4.2, 4.3,
5 and 6), each through the JSON contract of section 6."""

import pytest

from clabber_league.rules import score_deal, score_game
from tests.rules.support import (
    CZECH_DARDA,
    assert_rejected,
    deal,
    four,
    game,
    game_deal,
    played,
    seq,
)

# --- 2.1: tie_hangs is for two sides only ----------------------------------------------


@pytest.mark.parametrize("slug", ["clabber-3", "klaberjass-3"])
def test_tie_hangs_is_an_error_on_a_three_sided_rule_set(slug):
    assert_rejected(
        {"ruleset": slug, "options": {"tie_hangs": True}, "passed": True},
        "options.tie_hangs",
        mentions=["two sides"],
    )


def test_tie_hangs_is_an_error_in_three_sided_house_rules_too():
    house = {"name": "ours", "base": "clabber-3", "options": {"tie_hangs": True}}
    assert_rejected({"ruleset": house, "passed": True}, "ruleset.options.tie_hangs")


def test_tie_hangs_false_is_fine_on_a_three_sided_rule_set():
    answer = score_deal({"ruleset": "clabber-3", "options": {"tie_hangs": False}, "passed": True})
    assert answer["outcome"] == "passed"


# --- 3.1: the pot carries on past a scored deal that both sides score the same -----------


def test_pot_carries_past_a_scored_deal_in_which_both_sides_score_the_same():
    # Deal 1 hangs (70 each: pot 140). Deal 2: B reneges, and with renege_penalty 0 and no
    # melds A scores 0 too: a scored deal with equal scores, so the pot carries on. Deal 3:
    # A makes 90 against 50 and takes the pot.
    hung = game_deal(points={"A": 60, "B": 70}, last_trick="A")
    answer = game(
        "klaberjass",
        [hung, game_deal(renege=["B"]), game_deal(points={"A": 80, "B": 50}, last_trick="A")],
        tie_hangs=True,
        renege_penalty=0,
    )
    assert [d["outcome"] for d in answer["deals"]] == ["hung", "renege", "made"]
    assert answer["deals"][1]["score"] == {"A": 0, "B": 0}
    assert answer["running"] == [{"A": 0, "B": 0}, {"A": 0, "B": 0}, {"A": 230, "B": 50}]


def test_a_pot_still_hanging_when_the_game_ends_is_lost():
    # A full deal that ends a game always has a side scoring most, which takes the pot; a
    # pot is left hanging at the end only when a row copied from a paper sheet (numbers
    # as written, no pot) ends the game. Deal 1 hangs (pot 140); the row takes A to the
    # target of 100: the game is over at the row's numbers, and the 140 are nobody's.
    hung = game_deal(points={"A": 60, "B": 70}, last_trick="A")
    row = {"sheet": {"A": 100, "B": 52}, "maker": "A", "mark": "made"}
    answer = game("klaberjass", [hung, row], tie_hangs=True, target=100)
    assert [d["outcome"] for d in answer["deals"]] == ["hung", "made"]
    assert answer["finished"] is True and answer["winner"] == "A"
    assert answer["scores"] == {"A": 100, "B": 52}
    assert answer["running"][-1] == answer["scores"]


# --- 2: klaberjass-3 deals 10 each with 2 out, fixed --------------------------------------


def test_klaberjass_3_plays_ten_tricks_of_three():
    body = deal(
        "klaberjass-3",
        points={"A": 60, "B": 50, "C": 42},
        tricks={"A": 4, "B": 3, "C": 3},
        last_trick="A",
    )
    assert score_deal(body)["outcome"] == "made"
    assert_rejected({**body, "tricks": {"A": 4, "B": 3, "C": 2}}, "tricks", mentions=["10"])


def test_klaberjass_3_leaves_two_cards_out():
    # The two cards left out hold at most 34 (trump J and 9), at least 0: 118 to 152.
    low = deal("klaberjass-3", points={"A": 40, "B": 40, "C": 38}, last_trick="A")
    assert score_deal(low)["outcome"] == "made"
    assert_rejected({**low, "points": {"A": 40, "B": 40, "C": 37}}, "points", mentions=["118"])
    assert score_deal({**low, "points": {"A": 60, "B": 50, "C": 42}})["outcome"] == "made"


def test_klaberjass_3_hand_size_is_no_option():
    assert_rejected(
        {"ruleset": "klaberjass-3", "options": {"hand_size": 9}, "passed": True},
        "options.hand_size",
    )


# --- 4.2: fours added by house rules to a rule set that compares by length -----------------

KJ4_FOURS = {"meld_values": {"four-J": 100, "four-A": 100, "four-9": 150}}


def kj4(melds, options=KJ4_FOURS):
    return score_deal(
        played("klaberjass-4", points={"A": 90, "B": 62}, melds=melds, options=options)
    )


def test_a_house_rule_four_ranks_above_every_sequence_in_length_mode():
    # A run of five (counted as a four, 50) against four Nines (150): the four comes first.
    answer = kj4({"A": [seq("spades", "A", 5)], "B": [four("9")]})
    assert answer["meld_winner"] == "B"
    # Even a four worth less than the run ranks above it.
    cheap = {"meld_values": {"four-8": 10}}
    assert kj4({"A": [seq("spades", "A", 5)], "B": [four("8")]}, cheap)["meld_winner"] == "B"


def test_between_two_fours_more_points_first():
    # four Nines 150 beat four Jacks 100, though the Jack is the higher trump.
    assert kj4({"A": [four("J")], "B": [four("9")]})["meld_winner"] == "B"


def test_between_two_fours_of_equal_points_the_higher_rank_in_the_trump_order():
    # J 9 A 10 K Q: four Jacks beat four Aces (both 100), though the Ace is higher in plain.
    assert kj4({"A": [four("A")], "B": [four("J")]})["meld_winner"] == "B"
    # With Darda's trump order (Q 9 A 10 K J) four Aces beat four Jacks.
    darda = {
        **KJ4_FOURS,
        "meld_compare": "length",
        "trump_order": ["Q", "9", "A", "10", "K", "J", "8", "7"],
    }
    assert kj4({"A": [four("A")], "B": [four("J")]}, darda)["meld_winner"] == "A"


# --- 4.3: winning_melds end the game only when their side scores them ------------------------

FOUR_QUEENS_A = {"A": [four("Q")]}


def test_a_winning_meld_that_its_side_scores_ends_the_game_whatever_the_totals():
    answer = game(
        "klaberjass-4",
        [game_deal(points={"A": 100, "B": 52}, last_trick="A", melds=FOUR_QUEENS_A)],
        **CZECH_DARDA,
    )
    assert answer["finished"] is True and answer["winner"] == "A"
    assert answer["scores"] == {"A": 310, "B": 52}


def test_a_winning_meld_won_by_the_opponent_of_a_set_maker_ends_the_game():
    # B made trumps and is set; A's four Queens won the comparison and A scores them.
    deal_ = game_deal(maker="B", points={"A": 100, "B": 52}, last_trick="A", melds=FOUR_QUEENS_A)
    answer = game("klaberjass-4", [deal_], **CZECH_DARDA)
    assert answer["finished"] is True and answer["winner"] == "A"


def test_a_winning_meld_of_a_set_maker_does_not_end_the_game():
    # Four Queens made worth 20: A made trumps, 10 + 20 = 30 against B's 142 + 10: A is set
    # and scores nothing, so its sure win is not scored either.
    house = {**CZECH_DARDA, "meld_values": {**CZECH_DARDA["meld_values"], "four-Q": 20}}
    deal_ = game_deal(points={"A": 10, "B": 142}, last_trick="B", melds=FOUR_QUEENS_A)
    answer = game("klaberjass-4", [deal_], **house)
    assert answer["deals"][0]["outcome"] == "set"
    assert answer["deals"][0]["meld_winner"] == "A"
    assert answer["finished"] is False and answer["winner"] is None


def test_a_winning_meld_beaten_out_by_no_trick_no_meld_does_not_end_the_game():
    deal_ = game_deal(
        maker="B",
        points={"A": 0, "B": 152},
        last_trick="B",
        melds=FOUR_QUEENS_A,
        tricks={"A": 0, "B": 8},
    )
    answer = game("klaberjass-4", [deal_], **CZECH_DARDA)
    assert answer["deals"][0]["meld_winner"] is None
    assert answer["finished"] is False


def test_a_winning_meld_beaten_in_the_comparison_does_not_end_the_game():
    # A: four Queens is the best of A's melds? No: give B a better meld by points.
    house = {**CZECH_DARDA, "meld_values": {**CZECH_DARDA["meld_values"], "four-K": 300}}
    deal_ = game_deal(
        points={"A": 100, "B": 52}, last_trick="A", melds={"A": [four("Q")], "B": [four("K")]}
    )
    answer = game("klaberjass-4", [deal_], **house)
    assert answer["deals"][0]["meld_winner"] == "B"
    assert answer["finished"] is False


def test_a_winning_meld_of_a_side_that_reneged_does_not_end_the_game():
    deal_ = game_deal(renege=["A"], melds=FOUR_QUEENS_A)
    answer = game("klaberjass-4", [deal_], **CZECH_DARDA)
    assert answer["finished"] is False


# --- 5: the card points cover the cards shown in melds and the bell --------------------------


def test_points_must_cover_the_cards_shown_where_not_every_card_is_played():
    # Two Ace-high runs of three (A K Q of spades and of clubs, plain: 18 each) are held, so
    # played: 36 points at least. 10 and 8 fit the pack's bounds but not these cards.
    runs = {"A": [seq("spades", "A", 3)], "B": [seq("clubs", "A", 3)]}
    body = deal("klaberjass", trump="hearts", points={"A": 10, "B": 8}, last_trick="A")
    assert score_deal(body)["outcome"] == "made"
    assert_rejected({**body, "melds": runs}, "points", mentions=["shown"])
    assert score_deal({**body, "melds": runs, "points": {"A": 30, "B": 8}})["outcome"] == "made"


def test_the_bell_counts_among_the_cards_shown():
    # J 10 9 of trumps: 20 + 10 + 14 = 44 shown, so played. The 14 cards left out then hold
    # at most 99 (four Aces, three plain Tens, four Kings, three Queens): A 36 and B 17 leave
    # exactly that. With the bell the trump King and Queen are played too: at most 97 left out.
    body = deal(
        "klaberjass",
        trump="hearts",
        points={"A": 36, "B": 17},
        last_trick="A",
        melds={"A": [seq("hearts", "J", 3)]},
    )
    assert score_deal(body)["outcome"] == "made"
    assert_rejected({**body, "bell": "A"}, "points", mentions=["shown"])
    assert score_deal({**body, "bell": "A", "points": {"A": 38, "B": 17}})["outcome"] == "made"
    assert_rejected({**body, "points": {"A": 30, "B": 17}, "bell": "A"}, "points", mentions=["51"])


# --- 5: totals always derived from the pack and the point options ----------------------------


def test_all_played_total_is_derived_from_house_card_values():
    # Plain Aces worth 12: the pack holds 152 + 3 = 155 (trump Ace unchanged).
    options = {"plain_points": {"A": 12}}
    assert_rejected(played(options=options, points={"A": 90, "B": 62}), "points", mentions=["155"])
    answer = score_deal(played(options=options, points={"A": 93, "B": 62}))
    assert answer["totals"] == {"A": 103, "B": 62}


def test_renege_points_are_derived_from_house_card_values():
    answer = score_deal(deal(options={"plain_points": {"A": 12}}, renege=["B"]))
    assert answer["score"] == {"A": 165, "B": 0}


# --- 6: meld_winner is null after a renege --------------------------------------------------


def test_meld_winner_is_null_after_a_renege_even_with_one_side_melding():
    answer = score_deal(deal(renege=["B"], melds={"A": [seq("spades", "A", 3)]}))
    assert answer["outcome"] == "renege"
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 20, "B": 0}
    assert answer["score"] == {"A": 182, "B": 0}


def test_game_of_a_renege_carries_a_null_meld_winner():
    answer = score_game(
        {"ruleset": "clabber", "deals": [game_deal(renege=["A"], melds={"B": [four("J")]})]}
    )
    assert answer["deals"][0]["meld_winner"] is None
