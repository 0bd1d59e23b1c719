"""What the engine must reject (RULES.md section 5), each with an error naming the field.

The tests assert the field by its JSON path; the wording of the message is the engine's
own, so they only check that it says something about what is wrong. Card-point
feasibility has its own module, test_card_points.py.
"""

import pytest

from clabber_league.rules import score_deal
from tests.rules.support import (
    assert_rejected,
    assert_rejected_under,
    deal,
    four,
    played,
    seq,
)

# --- unknown names ------------------------------------------------------------------------


def test_unknown_rule_set_is_rejected():
    assert_rejected(played("pinochle"), "ruleset", mentions=("pinochle", "rule"))


def test_unknown_side_in_points_is_rejected():
    assert_rejected(played(points={"A": 90, "B": 62, "C": 0}), "points.C")


def test_unknown_side_in_melds_is_rejected():
    assert_rejected_under(played(melds={"C": [seq("clubs", "A", 3)]}), "melds.C")


def test_unknown_trump_suit_is_rejected():
    assert_rejected(played(trump="stars"), "trump", mentions=("stars", "suit", "trump"))


def test_unknown_suit_in_a_meld_is_rejected():
    assert_rejected(played(melds={"A": [seq("stars", "A", 3)]}), "melds.A[0].suit")


def test_unknown_rank_as_a_sequence_top_is_rejected():
    assert_rejected(played(melds={"A": [seq("clubs", "11", 3)]}), "melds.A[0].top")


def test_unknown_rank_in_a_four_of_a_kind_is_rejected():
    assert_rejected(played(melds={"A": [four("2")]}), "melds.A[0].rank")


def test_unknown_meld_kind_is_rejected():
    meld = {"kind": "flush", "suit": "clubs"}
    assert_rejected(played(melds={"A": [meld]}), "melds.A[0].kind", mentions=("flush", "kind"))


def test_unknown_option_is_rejected():
    assert_rejected(played(options={"colour": "red"}), "options.colour", mentions=("colour",))


def test_unknown_side_for_the_bell_is_rejected():
    assert_rejected(played(bell="C"), "bell")


def test_unknown_side_in_renege_is_rejected():
    assert_rejected_under(deal(renege=["C"]), "renege")


# --- maker, trump and bidding -------------------------------------------------------------


def test_maker_not_a_side_of_this_game_is_rejected():
    # Side C exists only in the three-handed games.
    assert_rejected(played(maker="C"), "maker", mentions=("c", "side", "maker"))


def test_scored_deal_without_maker_is_rejected():
    assert_rejected(played(maker=None), "maker")


def test_scored_deal_without_trump_is_rejected():
    assert_rejected(played(trump=None), "trump")


def test_clabber_second_round_trump_equal_to_turned_suit_is_rejected():
    # Seed 000: in the second round you name "a suit different from that of the card
    # that the dealer had face up". The error names the clash, on either of its fields.
    assert_rejected(
        played(bidding={"round": 2, "turned": "hearts"}),
        {"bidding.turned", "trump"},
        mentions=("hearts", "turned", "differ", "same", "second"),
    )


def test_no_trumps_is_rejected_outside_bela_4():
    assert_rejected(played(trump="none"), "trump")
    assert_rejected(played("klaberjass", trump="none", points={"A": 80, "B": 50}), "trump")


# --- the last trick -----------------------------------------------------------------------


def test_played_deal_without_last_trick_is_rejected():
    assert_rejected(played(last_trick=None), "last_trick")


def test_last_trick_to_nobody_is_rejected():
    data = played()
    data["last_trick"] = None
    assert_rejected(data, "last_trick")


def test_last_trick_to_a_side_not_in_the_game_is_rejected():
    assert_rejected(played(last_trick="Z"), "last_trick", mentions=("z", "side", "last"))


# --- melds that cannot exist --------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "top", "length"),
    [
        ("clabber", "10", 3),  # 10-9-8: no 8 in the 24-card pack
        ("clabber", "J", 4),  # J-10-9-8
        ("clabber", "Q", 5),  # Q-J-10-9-8
        ("clabber", "K", 6),  # K-Q-J-10-9-8
        ("klaberjass", "8", 3),  # 8-7-?: nothing below the 7
        ("klaberjass", "10", 5),  # 10-9-8-7-?
    ],
)
def test_sequence_running_below_the_pack_is_rejected(ruleset, top, length):
    data = played(ruleset, melds={"A": [seq("clubs", top, length)]})
    if ruleset == "klaberjass":
        data["points"] = {"A": 80, "B": 50}
    assert_rejected(data, "melds.A[0].top")


def test_sequence_shorter_than_three_is_rejected():
    assert_rejected_under(played(melds={"A": [seq("clubs", "A", 2)]}), "melds.A[0]")


def test_sequence_longer_than_a_suit_is_rejected():
    # A suit of the 24-card pack has six cards.
    assert_rejected_under(played(melds={"A": [seq("clubs", "A", 7)]}), "melds.A[0]")


def test_four_eights_do_not_exist_in_the_clabber_pack():
    assert_rejected(played(melds={"A": [four("8")]}), "melds.A[0].rank")


def test_four_sevens_are_no_meld_in_zensa():
    data = played("zensa", points={"A": 80, "B": 50}, melds={"A": [four("7")]})
    assert_rejected_under(data, "melds.A[0]")


def test_four_nines_are_no_meld_in_zensa():
    # Zensa's fours: Jacks 200, Aces, Kings, Queens, Tens 100 (4.2).
    data = played("zensa", points={"A": 80, "B": 50}, melds={"A": [four("9")]})
    assert_rejected_under(data, "melds.A[0]")


@pytest.mark.parametrize("ruleset", ["klaberjass", "klaberjass-3", "klaberjass-4", "bela-4"])
def test_four_of_a_kind_is_no_meld_in_the_klaberjass_family(ruleset):
    points = {
        "klaberjass": {"A": 80, "B": 50},
        "klaberjass-3": {"A": 50, "B": 50, "C": 50},
        "klaberjass-4": {"A": 90, "B": 62},
        "bela-4": {"A": 90, "B": 62},
    }[ruleset]
    data = played(ruleset, points=points, melds={"A": [four("J")]})
    assert_rejected_under(data, "melds.A[0]")


def test_two_sides_holding_the_same_card_is_rejected():
    # The Ace of spades is in A's dad and in B's four Aces.
    data = played(melds={"A": [seq("spades", "A", 3)], "B": [four("A")]})
    assert_rejected_under(data, "melds")


def test_four_queens_and_any_clabber_five_cannot_both_be_held():
    # Every five of the 24-card pack holds the Queen of its suit.
    data = played(melds={"A": [four("Q")], "B": [seq("clubs", "K", 5)]})
    assert_rejected_under(data, "melds")


def test_one_card_in_two_melds_of_one_side_is_rejected():
    # Seed 000: holding Q-Q-Q-Q-J-10 you score the four Queens only, not the dad.
    data = played(melds={"A": [four("Q"), seq("spades", "Q", 3)]})
    assert_rejected_under(data, "melds.A")


def test_overlapping_sequences_are_rejected():
    data = played(melds={"A": [seq("spades", "A", 3), seq("spades", "K", 4)]})
    assert_rejected_under(data, "melds.A")


def test_player_melds_must_fit_in_a_six_card_clabber_hand():
    # Four of a kind and a sequence never sit together in one hand of six.
    data = played(melds={"A": [four("J", player="N"), seq("spades", "A", 3, player="N")]})
    assert_rejected_under(data, "melds.A")


def test_two_dads_fit_in_one_six_card_clabber_hand():
    data = played(
        melds={"A": [seq("spades", "A", 3, player="N"), seq("clubs", "A", 3, player="N")]}
    )
    assert score_deal(data)["meld_points"] == {"A": 40, "B": 0}


def test_side_melds_must_fit_in_its_players_hands_together():
    # Two players of six cards: twelve cards, not the sixteen of four fours.
    data = played(melds={"A": [four("A"), four("K"), four("10"), four("9")]})
    assert_rejected_under(data, "melds.A")


def test_three_fours_do_not_fit_in_two_six_card_clabber_hands():
    # Twelve cards, as many as two hands hold, but a meld lies in one player's hand (4.1,
    # seed 000: "a scoring combination of cards in the hand of a player") and a hand of six
    # has room for one four only.
    data = played(melds={"A": [four("J"), four("9"), four("A")]})
    assert_rejected_under(data, "melds.A")


def test_a_four_and_two_dads_fit_in_two_six_card_clabber_hands():
    # One hand: four Jacks and two more cards; the other: the two dads.
    data = played(melds={"A": [four("J"), seq("clubs", "A", 3), seq("spades", "A", 3)]})
    assert score_deal(data)["meld_points"] == {"A": 240, "B": 0}


def test_side_melds_cannot_name_more_players_than_the_side_has():
    # A Clabber side is two partners.
    melds = [
        seq("clubs", "A", 3, player="p1"),
        seq("spades", "A", 3, player="p2"),
        seq("diamonds", "A", 3, player="p3"),
    ]
    assert_rejected_under(played(melds={"A": melds}), "melds.A")


def test_clabber_6_player_cannot_hold_a_five():
    # Six players, four cards each.
    data = played("clabber-6", melds={"A": [seq("clubs", "A", 5, player="A1")]})
    assert_rejected_under(data, "melds.A")


def test_clabber_3_player_melds_must_fit_in_eight_cards():
    data = played(
        "clabber-3",
        points={"A": 60, "B": 50, "C": 42},
        melds={"A": [four("J"), four("9"), seq("spades", "A", 3)]},
    )
    assert_rejected_under(data, "melds.A")


# --- the bell -----------------------------------------------------------------------------


def test_bell_when_trump_king_is_in_the_other_sides_meld_is_rejected():
    # B's four Kings hold the King of hearts (trump): A cannot hold the bell.
    data = played(bell="A", melds={"B": [four("K")]})
    assert_rejected(data, "bell", mentions=("king", "k", "meld", "bell"))


def test_bell_when_trump_queen_is_in_the_other_sides_meld_is_rejected():
    # B's dad Q-J-10 of hearts holds the trump Queen.
    data = played(bell="A", melds={"B": [seq("hearts", "Q", 3)]})
    assert_rejected(data, "bell")


def test_bell_split_between_two_partners_is_rejected():
    # The bell is the King and Queen of trumps held by one player (4.1); here A1's four
    # Kings hold the trump King and A2's four Queens the trump Queen.
    data = played(bell="A", melds={"A": [four("K", player="A1"), four("Q", player="A2")]})
    assert_rejected(data, "bell")


def test_bell_at_no_trumps_is_rejected():
    data = played("bela-4", trump="none", points={"A": 70, "B": 50}, bell="A")
    assert_rejected(data, "bell", mentions=("no trump", "none", "trump", "bela", "bell"))


def test_two_bells_are_rejected():
    # There is one King and one Queen of trumps.
    assert_rejected(played(bell=["A", "B"]), "bell")
