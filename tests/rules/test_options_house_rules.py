"""House-rule options (RULES.md 2.1) and the 3.1 rules that hang on them: tie_hangs,
no_trick_no_meld, renege and renege_penalty, second_round_other_suit, the meld and card
tables; and house rules as plain data (Czech Darda, Polish Derda).
"""

import json

import pytest

from clabber_league.rules import (
    BUILTIN_RULESETS,
    RulesError,
    catalog,
    get_ruleset,
    ruleset_from_data,
    score_deal,
)
from tests.rules.support import (
    BUILTIN_SLUGS,
    CZECH_DARDA,
    POLISH_DERDA,
    assert_rejected,
    assert_rejected_under,
    deal,
    four,
    played,
    seq,
)

# --- tie_hangs ----------------------------------------------------------------------------


def test_tie_hangs_equal_totals_score_nothing():
    # A 60 + 10 = 70 equals B 70: outcome hung, nobody scores (the pot: test_game.py).
    answer = score_deal(
        deal(
            "klaberjass",
            options={"tie_hangs": True},
            points={"A": 60, "B": 70},
            last_trick="A",
        )
    )
    assert answer["outcome"] == "hung"
    assert answer["score"] == {"A": 0, "B": 0}
    assert answer["totals"] == {"A": 70, "B": 70}


def test_tie_hangs_in_clabber_too():
    answer = score_deal(
        deal(options={"tie_hangs": True}, points={"A": 71, "B": 81}, last_trick="A")
    )
    assert answer["outcome"] == "hung"
    assert answer["score"] == {"A": 0, "B": 0}


def test_tie_hangs_leaves_an_unequal_deal_alone():
    answer = score_deal(
        deal(
            "klaberjass",
            options={"tie_hangs": True},
            points={"A": 50, "B": 80},
            last_trick="B",
        )
    )
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 140}


# --- no_trick_no_meld ---------------------------------------------------------------------


def klaberjass_no_tricks_for_b(**fields):
    """A took all nine tricks: 120 card points and the last trick."""
    fields.setdefault("points", {"A": 120, "B": 0})
    fields.setdefault("tricks", {"A": 9, "B": 0})
    return deal("klaberjass", last_trick="A", **fields)


def test_no_trick_no_meld_side_without_trick_that_won_the_melds_means_nobody_scores_melds():
    # B's fifty beats A's twenty, but B took no trick: B loses it and, as B had won the
    # comparison, A's twenty does not score either. A 120 + 10 = 130, B 0.
    answer = score_deal(
        klaberjass_no_tricks_for_b(
            melds={"A": [seq("clubs", "A", 3)], "B": [seq("diamonds", "A", 4)]}
        )
    )
    assert answer["meld_winner"] is None
    assert answer["meld_points"] == {"A": 0, "B": 0}
    assert answer["totals"] == {"A": 130, "B": 0}
    assert answer["score"] == {"A": 130, "B": 0}


def test_no_trick_no_meld_does_not_touch_the_side_that_took_tricks():
    # A's fifty beats B's twenty; A took the tricks and scores its melds: 120 + 10 + 50.
    answer = score_deal(
        klaberjass_no_tricks_for_b(
            melds={"A": [seq("clubs", "A", 4)], "B": [seq("diamonds", "A", 3)]}
        )
    )
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 50, "B": 0}
    assert answer["score"] == {"A": 180, "B": 0}


def test_no_trick_no_meld_bela_still_counts():
    answer = score_deal(
        klaberjass_no_tricks_for_b(melds={"B": [seq("diamonds", "A", 4)]}, bell="B")
    )
    assert answer["meld_points"] == {"A": 0, "B": 20}
    assert answer["totals"] == {"A": 130, "B": 20}
    assert answer["score"] == {"A": 130, "B": 20}


def test_no_trick_no_meld_applies_only_where_tricks_are_given():
    # The same deal without `tricks`: B's fifty wins and scores.
    answer = score_deal(
        klaberjass_no_tricks_for_b(
            tricks=None, melds={"A": [seq("clubs", "A", 3)], "B": [seq("diamonds", "A", 4)]}
        )
    )
    assert answer["meld_winner"] == "B"
    assert answer["score"] == {"A": 130, "B": 50}


def test_no_trick_no_meld_can_be_switched_off_in_klaberjass():
    answer = score_deal(
        klaberjass_no_tricks_for_b(
            options={"no_trick_no_meld": False},
            melds={"A": [seq("clubs", "A", 3)], "B": [seq("diamonds", "A", 4)]},
        )
    )
    assert answer["meld_winner"] == "B"
    assert answer["score"] == {"A": 130, "B": 50}


def clabber_b_holds_four_jacks_but_no_trick(**fields):
    return deal(
        points={"A": 152, "B": 0},
        tricks={"A": 6, "B": 0},
        last_trick="A",
        melds={"B": [four("J")]},
        **fields,
    )


def test_no_trick_no_meld_is_off_in_clabber():
    # B's four Jacks score without a trick: A 162 < B 200, maker A set.
    answer = score_deal(clabber_b_holds_four_jacks_but_no_trick())
    assert answer["meld_winner"] == "B"
    assert answer["totals"] == {"A": 162, "B": 200}
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 200}


def test_no_trick_no_meld_as_a_clabber_house_rule():
    answer = score_deal(clabber_b_holds_four_jacks_but_no_trick(options={"no_trick_no_meld": True}))
    assert answer["meld_winner"] is None
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 162, "B": 0}


# --- renege and renege_penalty ------------------------------------------------------------


def test_renege_non_offenders_score_162_plus_own_melds_and_bell():
    # B reneged. A: 162 + its dad 20 + bell 20, though B's four Jacks would have beaten the
    # dad: the offenders forfeit their melds and no comparison is made. B scores 0.
    answer = score_deal(
        deal(
            renege=["B"],
            melds={"A": [seq("spades", "A", 3)], "B": [four("J")]},
            bell="A",
        )
    )
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 202, "B": 0}


def test_renege_offenders_forfeit_their_bell():
    answer = score_deal(deal(renege=["A"], melds={"B": [seq("clubs", "Q", 4)]}, bell="A"))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 0, "B": 212}


def test_renege_by_the_makers_opponents_gives_the_makers_162():
    answer = score_deal(deal(maker="B", renege=["A"]))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 0, "B": 162}


def test_renege_by_every_side_is_not_scored_and_redealt():
    answer = score_deal(deal(renege=["A", "B"], melds={"A": [four("J")]}))
    assert answer["outcome"] == "redeal"
    assert answer["score"] == {"A": 0, "B": 0}


def test_clabber_3_renege_each_non_offender_scores_162():
    answer = score_deal(deal("clabber-3", renege=["A"], melds={"C": [seq("clubs", "A", 3)]}))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 0, "B": 162, "C": 182}


def test_clabber_3_renege_by_two_sides_is_still_scored():
    answer = score_deal(deal("clabber-3", renege=["A", "B"]))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 0, "B": 0, "C": 162}


def test_clabber_3_renege_by_all_three_is_redealt():
    answer = score_deal(deal("clabber-3", renege=["A", "B", "C"]))
    assert answer["outcome"] == "redeal"
    assert answer["score"] == {"A": 0, "B": 0, "C": 0}


def test_klaberjass_renege_gives_162_and_bela():
    answer = score_deal(deal("klaberjass", renege=["B"], bell="A"))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 182, "B": 0}


def test_renege_at_no_trumps_is_worth_130():
    # 120 card points and the last trick.
    answer = score_deal(deal("bela-4", trump="none", renege=["B"]))
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": 130, "B": 0}


def test_renege_penalty_option():
    answer = score_deal(
        deal(options={"renege_penalty": 100}, renege=["B"], melds={"A": [seq("spades", "A", 3)]})
    )
    assert answer["score"] == {"A": 120, "B": 0}


# --- second_round_other_suit --------------------------------------------------------------


def test_first_round_trump_is_the_turned_suit():
    answer = score_deal(
        deal(bidding={"round": 1, "turned": "hearts"}, points={"A": 90, "B": 62}, last_trick="A")
    )
    assert answer["score"] == {"A": 100, "B": 62}


def test_klaberjass_second_round_may_name_the_turned_suit():
    answer = score_deal(
        deal(
            "klaberjass",
            bidding={"round": 2, "turned": "hearts"},
            points={"A": 80, "B": 50},
            last_trick="A",
        )
    )
    assert answer["score"] == {"A": 90, "B": 50}


def test_second_round_other_suit_can_be_switched_off_in_clabber():
    answer = score_deal(
        deal(
            options={"second_round_other_suit": False},
            bidding={"round": 2, "turned": "hearts"},
            points={"A": 90, "B": 62},
            last_trick="A",
        )
    )
    assert answer["score"] == {"A": 100, "B": 62}


def test_second_round_other_suit_as_a_klaberjass_house_rule():
    data = deal(
        "klaberjass",
        options={"second_round_other_suit": True},
        bidding={"round": 2, "turned": "hearts"},
        points={"A": 80, "B": 50},
        last_trick="A",
    )
    assert_rejected(data, {"bidding.turned", "trump"})


# --- the meld table and the card table as options -----------------------------------------


def test_bell_value_option():
    answer = score_deal(
        deal(
            "klaberjass",
            options={"bell_value": 40},
            points={"A": 60, "B": 70},
            last_trick="A",
            bell="A",
        )
    )
    assert answer["meld_points"] == {"A": 40, "B": 0}
    assert answer["score"] == {"A": 110, "B": 70}


def test_meld_at_zero_is_no_meld():
    data = deal(
        options={"meld_values": {**_clabber_values(), "run-3": 0}},
        points={"A": 90, "B": 62},
        last_trick="A",
        melds={"A": [seq("spades", "A", 3)]},
    )
    assert_rejected_under(data, "melds.A[0]")


def _clabber_values():
    return {
        "four-J": 200, "four-9": 100, "four-A": 100, "four-10": 100, "four-K": 100,
        "four-Q": 100, "run-5": 100, "run-4": 50, "run-3": 20,
    }  # fmt: skip


CUMMINGS_ORDER = [
    "four-J", "run-5", "four-A", "four-K", "four-Q", "four-10", "four-9", "run-4", "run-3",
]  # fmt: skip


def test_cummings_order_is_reachable_as_an_option_of_clabber():
    # Sequence of five over four Aces, as in the built-in clabber-cummings.
    melds = {"A": [seq("hearts", "K", 5)], "B": [four("A")]}
    fields = {"points": {"A": 80, "B": 72}, "last_trick": "A", "melds": melds}
    by_option = score_deal(deal(options={"meld_order": CUMMINGS_ORDER}, **fields))
    built_in = score_deal(deal("clabber-cummings", **fields))
    assert by_option["meld_winner"] == built_in["meld_winner"] == "A"
    assert by_option["score"] == built_in["score"] == {"A": 190, "B": 72}


def test_wadesville_run_of_six_is_reachable_as_an_option_of_clabber():
    options = {
        "meld_values": {**_clabber_values(), "run-6": 300},
        "meld_order": ["run-6", *[kind for kind in _clabber_values()]],
    }
    melds = {"A": [seq("spades", "A", 6)], "B": [seq("hearts", "A", 5)]}
    fields = {"points": {"A": 80, "B": 72}, "last_trick": "A", "melds": melds}
    by_option = score_deal(deal(options=options, **fields))
    built_in = score_deal(deal("clabber-wadesville", **fields))
    assert by_option["meld_points"] == built_in["meld_points"] == {"A": 300, "B": 0}
    assert by_option["score"] == built_in["score"] == {"A": 390, "B": 72}


def test_trump_points_option_changes_what_the_pack_holds():
    # Trump Queen 20 and trump Jack 2: a trump suit holds 20+14+11+10+4+2 = 61, the pack
    # 151, and when every card is played the card points add up to 151.
    options = {
        "trump_order": ["Q", "9", "A", "10", "K", "J", "8", "7"],
        "trump_points": {"Q": 20, "9": 14, "A": 11, "10": 10, "K": 4, "J": 2, "8": 0, "7": 0},
    }
    fields = {"options": options, "last_trick": "A"}
    answer = score_deal(deal("klaberjass-4", points={"A": 100, "B": 51}, **fields))
    assert answer["score"] == {"A": 110, "B": 51}
    assert_rejected_under(deal("klaberjass-4", points={"A": 100, "B": 52}, **fields), "points")


# --- Czech Darda and Polish Derda: options alone ------------------------------------------


def test_czech_darda_four_nines_150_and_bela_40():
    # A: four Nines 150 beat B's darda 20. A 100 + 10 + 150 = 260; B 52 + bela 40 = 92.
    answer = score_deal(
        deal(
            "klaberjass-4",
            options=CZECH_DARDA,
            points={"A": 100, "B": 52},
            last_trick="A",
            melds={"A": [four("9")], "B": [seq("clubs", "A", 3)]},
            bell="B",
        )
    )
    assert answer["meld_winner"] == "A"
    assert answer["meld_points"] == {"A": 150, "B": 40}
    assert answer["totals"] == {"A": 260, "B": 92}
    assert answer["score"] == {"A": 260, "B": 92}


def test_czech_darda_four_queens_200_beat_four_nines():
    answer = score_deal(
        deal(
            "klaberjass-4",
            options=CZECH_DARDA,
            points={"A": 100, "B": 52},
            last_trick="A",
            melds={"A": [four("9")], "B": [four("Q")]},
        )
    )
    assert answer["meld_winner"] == "B"
    assert answer["meld_points"] == {"A": 0, "B": 200}
    assert answer["score"] == {"A": 0, "B": 362}  # klaberjass-4: B 252 + A's 110


def test_czech_darda_four_tens_are_no_meld():
    data = deal(
        "klaberjass-4",
        options=CZECH_DARDA,
        points={"A": 100, "B": 52},
        last_trick="A",
        melds={"A": [four("10")]},
    )
    assert_rejected_under(data, "melds.A[0]")


def test_polish_derda_run_of_three_scores_30():
    # A 60 + 10 + 30 = 100 > B 70.
    answer = score_deal(
        deal(
            "klaberjass",
            options=POLISH_DERDA,
            points={"A": 60, "B": 70},
            last_trick="A",
            melds={"A": [seq("clubs", "A", 3)]},
        )
    )
    assert answer["meld_points"] == {"A": 30, "B": 0}
    assert answer["score"] == {"A": 100, "B": 70}


def test_polish_derda_fuf_scores_50():
    answer = score_deal(
        deal(
            "klaberjass",
            options=POLISH_DERDA,
            points={"A": 60, "B": 70},
            last_trick="A",
            melds={"A": [seq("clubs", "A", 4)]},
        )
    )
    assert answer["meld_points"] == {"A": 50, "B": 0}


# --- bad options --------------------------------------------------------------------------


def test_unknown_meld_kind_in_meld_values_is_rejected():
    assert_rejected_under(played(options={"meld_values": {"run-9": 500}}), "options.meld_values")


def test_unknown_meld_kind_in_meld_order_is_rejected():
    order = ["four-J", "flush", "run-3"]
    assert_rejected_under(played(options={"meld_order": order}), "options.meld_order")


def test_unknown_meld_kind_in_winning_melds_is_rejected():
    data = played(options={"winning_melds": ["royal-flush"]})
    assert_rejected_under(data, "options.winning_melds")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("target", "many"),
        ("tie_at_target", "maybe"),
        ("meld_compare", "random"),
        ("tie_hangs", "sometimes"),
    ],
)
def test_bad_option_value_is_rejected(option, value):
    assert_rejected_under(played(options={option: value}), f"options.{option}")


# --- rule sets as data --------------------------------------------------------------------


def test_there_are_thirteen_built_in_rule_sets():
    assert set(BUILTIN_RULESETS) == set(BUILTIN_SLUGS)


@pytest.mark.parametrize("slug", BUILTIN_SLUGS)
def test_built_in_rule_set_round_trips_as_json_data(slug):
    ruleset = get_ruleset(slug)
    data = json.loads(json.dumps(ruleset.to_data()))
    assert ruleset_from_data(data) == ruleset


def test_czech_darda_round_trips_as_json_data():
    house = {"name": "Czech Darda", "base": "klaberjass-4", "options": CZECH_DARDA}
    ruleset = get_ruleset(json.loads(json.dumps(house)))
    data = json.loads(json.dumps(ruleset.to_data()))
    again = ruleset_from_data(data)
    assert again == ruleset
    assert again.to_data() == ruleset.to_data()


def test_house_rules_differ_from_their_base():
    house = get_ruleset({"name": "Polish Derda", "base": "klaberjass", "options": POLISH_DERDA})
    assert house != get_ruleset("klaberjass")
    assert house.to_data() != get_ruleset("klaberjass").to_data()


def test_unknown_rule_set_slug_is_an_error():
    with pytest.raises(RulesError):
        get_ruleset("pinochle")


def test_house_rules_with_an_unknown_option_are_an_error():
    with pytest.raises(RulesError):
        get_ruleset({"name": "Odd", "base": "clabber", "options": {"colour": "red"}})


def test_house_rules_with_an_unknown_meld_kind_are_an_error():
    with pytest.raises(RulesError):
        get_ruleset({"name": "Odd", "base": "clabber", "options": {"meld_values": {"run-9": 1}}})


def test_catalog_lists_every_built_in_rule_set_as_json():
    entries = catalog()
    assert len(entries) == len(BUILTIN_SLUGS)
    text = json.dumps(entries)
    for slug in BUILTIN_SLUGS:
        assert f'"{slug}"' in text
