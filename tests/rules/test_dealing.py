"""Who won a deal, who deals each deal, and the rest of the card points: rules/dealing.py."""

from hypothesis import given
from hypothesis import strategies as st

from clabber_league.rules import get_ruleset
from clabber_league.rules.dealing import (
    complete_points,
    deal_winner,
    deal_winner_seat,
    dealer_sequence,
)

CLABBER = get_ruleset("clabber")
TWO_HANDED = get_ruleset("klaberjass")


def test_the_side_that_scored_most_won_the_deal():
    assert deal_winner({"A": 110, "B": 52}) == "A"
    assert deal_winner({"A": 0, "B": 162}) == "B"


def test_a_tied_or_nil_deal_has_no_winner():
    assert deal_winner({"A": 81, "B": 81}) is None
    assert deal_winner({"A": 0, "B": 0}) is None
    assert deal_winner({}) is None


def test_the_winners_seat_counts_only_where_one_player_is_a_side():
    assert deal_winner_seat(TWO_HANDED, {"A": 10, "B": 90}) == 1
    assert deal_winner_seat(CLABBER, {"A": 10, "B": 90}) is None


def test_the_deal_passes_to_the_left_and_stays_after_a_redeal():
    deals = [
        {"outcome": "made", "score": {"A": 110, "B": 52}},
        {"outcome": "redeal", "score": {"A": 0, "B": 0}},
        {"outcome": "set", "score": {"A": 0, "B": 162}},
    ]
    assert dealer_sequence(CLABBER, 3, deals) == [3, 0, 0, 1]


def test_two_handed_the_winner_of_a_deal_deals_the_next():
    deals = [{"outcome": "made", "score": {"A": 20, "B": 140}}]
    assert dealer_sequence(TWO_HANDED, 0, deals) == [0, 1]


def test_the_other_side_gets_the_rest_of_the_card_points():
    assert complete_points(CLABBER, {"A": 100}) == {"A": 100, "B": 52}
    assert complete_points(CLABBER, {"A": 100, "B": None}, trump="none") == {"A": 100, "B": 20}


def test_points_given_for_every_side_or_for_none_are_left_to_the_engine():
    assert complete_points(CLABBER, {"A": 100, "B": 51}) == {"A": 100, "B": 51}
    assert complete_points(CLABBER, {}) == {}
    assert complete_points(CLABBER, {"A": "lots"}) == {"A": "lots"}


@given(st.integers(min_value=0, max_value=152), st.sampled_from(["A", "B"]))
def test_completed_points_add_up_to_the_pack(points, side):
    completed = complete_points(CLABBER, {side: points})
    assert sum(completed.values()) == CLABBER.card_points_total() and completed[side] == points
