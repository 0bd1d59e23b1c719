"""Card points that a deal could really give (RULES.md sections 1 and 5).

The pack holds 152 card points (120 at no trumps). Where every card is played the sides'
points add up to exactly that; otherwise to at most what the played cards can hold
(146 in the two-handed games: the 6 dead cards hold at least 6). And each side's points
must be a sum of card values that its whole tricks can hold.
"""

from clabber_league.rules import score_deal
from tests.rules.support import assert_rejected, assert_rejected_under, played

# --- accepted -----------------------------------------------------------------------------


def test_clabber_cheapest_trick_holds_two_points():
    # Three plain Nines (0) and a plain Jack (2): B's one trick can hold just 2.
    answer = score_deal(played(points={"A": 150, "B": 2}, tricks={"A": 5, "B": 1}))
    assert answer["score"] == {"A": 160, "B": 2}


def test_clabber_3_trick_of_three_plain_nines_holds_nothing():
    # C took one trick, the last, of three plain Nines: 0 card points, 10 for the trick.
    answer = score_deal(
        played(
            "clabber-3",
            points={"A": 100, "B": 52, "C": 0},
            last_trick="C",
            tricks={"A": 5, "B": 2, "C": 1},
        )
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 52, "C": 10}


def test_klaberjass_may_take_146_card_points():
    # The 14 cards left out hold at least 6 points: 11 worthless cards and 3 plain Jacks.
    answer = score_deal(played("klaberjass", points={"A": 100, "B": 46}))
    assert answer["score"] == {"A": 110, "B": 46}


def test_klaberjass_trick_of_a_seven_and_an_eight_holds_nothing():
    answer = score_deal(
        played(
            "klaberjass",
            points={"A": 120, "B": 0},
            last_trick="B",
            tricks={"A": 8, "B": 1},
        )
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 120, "B": 10}


def test_klaberjass_need_not_play_for_all_points():
    # Not every card is played: the sides may take less than 146 together.
    answer = score_deal(played("klaberjass", points={"A": 60, "B": 40}))
    assert answer["score"] == {"A": 70, "B": 40}


# --- rejected: negative, not whole --------------------------------------------------------


def test_negative_card_points_are_rejected():
    data = played(points={"A": 157, "B": -5})
    assert_rejected(data, "points.B", mentions=("negative", "-5", "0", "less", "below"))


def test_card_points_that_are_not_whole_are_rejected():
    assert_rejected(played(points={"A": 90.5, "B": 61.5}), {"points.A", "points.B"})


def test_card_points_that_are_not_numbers_are_rejected():
    assert_rejected(played(points={"A": "ninety", "B": 62}), "points.A")


# --- rejected: sums -----------------------------------------------------------------------


def test_clabber_card_points_above_152_are_rejected():
    assert_rejected_under(played(points={"A": 91, "B": 62}), "points")


def test_clabber_card_points_below_152_are_rejected():
    # Every card is played in four-handed Clabber.
    assert_rejected_under(played(points={"A": 89, "B": 62}), "points")


def test_clabber_151_and_1_can_never_be_taken():
    # No card is worth 1, so no set of cards holds 1, and the rest of the pack not 151.
    assert_rejected(played(points={"A": 151, "B": 1}), {"points.A", "points.B"})


def test_clabber_3_card_points_add_up_to_152():
    assert_rejected_under(played("clabber-3", points={"A": 60, "B": 50, "C": 50}), "points")


def test_clabber_6_card_points_add_up_to_152():
    assert_rejected_under(played("clabber-6", points={"A": 60, "B": 50}), "points")


def test_klaberjass_card_points_above_146_are_rejected():
    assert_rejected_under(played("klaberjass", points={"A": 101, "B": 46}), "points")


def test_clabber_2_card_points_above_146_are_rejected():
    # 18 of 24 cards played; the 6 dead ones hold at least 3 plain Nines and 3 plain Jacks.
    assert_rejected_under(played("clabber-2", points={"A": 101, "B": 46}), "points")


def test_zensa_card_points_above_146_are_rejected():
    assert_rejected_under(played("zensa", points={"A": 101, "B": 46}), "points")


def test_klaberjass_4_card_points_add_up_to_152():
    assert_rejected_under(played("klaberjass-4", points={"A": 90, "B": 60}), "points")


def test_bela_4_no_trumps_card_points_add_up_to_120():
    data = played("bela-4", trump="none", points={"A": 90, "B": 62})
    assert_rejected_under(data, "points")


def test_bela_4_with_trumps_card_points_add_up_to_152():
    assert_rejected_under(played("bela-4", points={"A": 70, "B": 50}), "points")


# --- rejected: tricks ---------------------------------------------------------------------


def test_side_without_a_trick_has_no_card_points():
    data = played(points={"A": 142, "B": 10}, tricks={"A": 6, "B": 0})
    assert_rejected_under(data, "points.B", "tricks.B")


def test_side_without_a_trick_did_not_take_the_last_trick():
    data = played(points={"A": 152, "B": 0}, last_trick="B", tricks={"A": 6, "B": 0})
    assert_rejected(data, "last_trick")


def test_clabber_last_trick_of_a_side_without_card_points_is_impossible():
    # Any four cards of the 24-card pack hold at least 2: a side that took the last
    # trick cannot have 0 card points.
    data = played(points={"A": 152, "B": 0}, last_trick="B")
    assert_rejected_under(data, "last_trick", "points")


def test_tricks_must_add_up_to_the_tricks_of_a_clabber_deal():
    # Four players of six cards: six tricks.
    assert_rejected_under(played(points={"A": 90, "B": 62}, tricks={"A": 4, "B": 3}), "tricks")


def test_tricks_must_add_up_to_the_tricks_of_a_klaberjass_deal():
    # Two players of nine cards: nine tricks.
    data = played("klaberjass", points={"A": 80, "B": 50}, tricks={"A": 5, "B": 5})
    assert_rejected_under(data, "tricks")


def test_tricks_must_add_up_to_the_tricks_of_a_clabber_6_deal():
    # Six players of four cards: four tricks.
    data = played("clabber-6", points={"A": 90, "B": 62}, tricks={"A": 3, "B": 3})
    assert_rejected_under(data, "tricks")


def test_card_points_must_fit_in_the_sides_tricks():
    # A single trick of four cards holds at most 20 + 14 + 11 + 11 = 56, not 100.
    data = played(points={"A": 100, "B": 52}, tricks={"A": 1, "B": 5})
    assert_rejected_under(data, "points", "tricks")


# --- the messages say "1 card point", not "1 card points" ---------------------------------


def test_one_card_point_is_said_in_the_singular():
    import pytest

    from clabber_league.rules import RulesError

    with pytest.raises(RulesError) as caught:
        score_deal(played(points={"A": 151, "B": 1}))
    messages = {e["field"]: e["message"] for e in caught.value.errors}
    assert messages["points.B"].startswith("1 card point cannot be taken by one side")
    assert messages["points.A"].startswith("151 card points cannot be taken by one side")
