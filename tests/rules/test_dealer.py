"""Who deals next (RULES.md 3.1 "Passed out", 3.2 "Dealer order"): the deal passes to the
left (clockwise); after a passed-out deal to the next dealer, or with `passout_redeal` to
the same one; after a redeal (everybody reneged) the same dealer deals again; in
two-handed Klaberjass the winner of a deal deals the next.
"""

from clabber_league.rules import get_ruleset, next_dealer

CLOCKWISE = ["N", "E", "S", "W"]


def test_clabber_deal_passes_to_the_left():
    assert next_dealer(get_ruleset("clabber"), "N", CLOCKWISE, outcome="made") == "E"
    assert next_dealer(get_ruleset("clabber"), "W", CLOCKWISE, outcome="set") == "N"


def test_passed_out_deal_passes_to_the_next_dealer():
    assert next_dealer(get_ruleset("clabber"), "S", CLOCKWISE, outcome="passed") == "W"


def test_passout_redeal_same_dealer_deals_again():
    ruleset = get_ruleset("clabber", {"passout_redeal": True})
    assert next_dealer(ruleset, "S", CLOCKWISE, outcome="passed") == "S"


def test_passout_redeal_does_not_hold_the_deal_after_a_scored_deal():
    ruleset = get_ruleset("clabber", {"passout_redeal": True})
    assert next_dealer(ruleset, "S", CLOCKWISE, outcome="made") == "W"


def test_redeal_after_everybody_reneged_is_by_the_same_dealer():
    assert next_dealer(get_ruleset("clabber"), "E", CLOCKWISE, outcome="redeal") == "E"


def test_two_handed_klaberjass_winner_deals_next():
    ruleset = get_ruleset("klaberjass")
    assert next_dealer(ruleset, "A", ["A", "B"], outcome="set", winner="B") == "B"
    assert next_dealer(ruleset, "A", ["A", "B"], outcome="made", winner="A") == "A"
