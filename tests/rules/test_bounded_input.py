"""Strict JSON types, bounds on house-rule values, and answers of bounded size (RULES.md 5).

Whatever the input, the engine answers with a result or a RulesError naming the field:
a list where a name belongs, `2.0` where a whole number belongs, `options` that are not an
object, values beyond the bounds, more than 200 deals; and never more than 50 errors.
"""

import json

import pytest

from clabber_league.rules import MAX_DEALS, MAX_ERRORS, score_deal, score_game
from tests.rules.support import SECTION_6_DEAL, assert_rejected, errors_of, game_deal, played

# --- strict JSON types --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"maker": ["A"]}, "maker"),
        ({"maker": {"A": 1}}, "maker"),
        ({"trump": ["hearts"]}, "trump"),
        ({"last_trick": ["A"]}, "last_trick"),
        ({"bell": ["A"]}, "bell"),
        ({"bell": {"side": "A"}}, "bell"),
        ({"bell": False}, "bell"),
        ({"renege": [["B"]]}, "renege[0]"),
        ({"renege": "B"}, "renege"),
        ({"renege": {"B": True}}, "renege"),
        ({"bidding": {"round": 2.0, "turned": "spades"}}, "bidding.round"),
        ({"bidding": {"round": True, "turned": "spades"}}, "bidding.round"),
        ({"bidding": {"round": 2, "turned": ["spades"]}}, "bidding.turned"),
        ({"points": {"A": 90.0, "B": 62}}, "points.A"),
        ({"points": {"A": 90, "B": 62.0}}, "points.B"),
        ({"points": {"A": 10**400, "B": 62}}, "points.A"),
        ({"tricks": {"A": 4.0, "B": 2}}, "tricks.A"),
        (
            {"melds": {"A": [{"kind": ["sequence"], "suit": "spades", "top": "A", "length": 3}]}},
            "melds.A[0].kind",
        ),
        (
            {"melds": {"A": [{"kind": "sequence", "suit": {"s": 1}, "top": "A", "length": 3}]}},
            "melds.A[0].suit",
        ),
        (
            {"melds": {"A": [{"kind": "sequence", "suit": "spades", "top": ["A"], "length": 3}]}},
            "melds.A[0].top",
        ),
        (
            {"melds": {"A": [{"kind": "sequence", "suit": "spades", "top": "A", "length": 3.0}]}},
            "melds.A[0].length",
        ),
        ({"melds": {"B": [{"kind": "four", "rank": ["J"]}]}}, "melds.B[0].rank"),
        ({"melds": {"B": [{"kind": "four", "rank": "J", "player": [1]}]}}, "melds.B[0].player"),
        ({"passed": "yes"}, "passed"),
        ({"options": []}, "options"),
        ({"options": 0}, "options"),
        ({"options": ""}, "options"),
        ({"options": {"target": 500.0}}, "options.target"),
        ({"options": {"meld_compare": ["value"]}}, "options.meld_compare"),
        ({"options": {"trump_order": [["J"], "9", "A", "10", "K", "Q"]}}, "options.trump_order"),
        ({"options": {"meld_order": [["four-J"]]}}, "options.meld_order[0]"),
    ],
)
def test_a_value_of_the_wrong_json_type_is_an_error_on_its_field(change, field):
    assert_rejected({**SECTION_6_DEAL, **change}, field)


def test_an_empty_options_object_is_no_options():
    assert score_deal({**SECTION_6_DEAL, "options": {}})["outcome"] == "set"


def test_a_sheet_row_with_a_list_for_a_name_is_an_error_not_a_crash():
    body = {
        "ruleset": "clabber",
        "deals": [{"sheet": {"A": 0, "B": 162}, "maker": ["A"], "mark": {"x": 1}}],
    }
    fields = {e["field"] for e in errors_of(score_game, body)}
    assert {"deals[0].maker", "deals[0].mark"} <= fields


# --- bounds on house-rule values ------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"plain_points": {"A": 101}}, "options.plain_points.A"),
        ({"trump_points": {"J": 10**400}}, "options.trump_points.J"),
        ({"trump_points": {"J": -1}}, "options.trump_points.J"),
        ({"meld_values": {"run-3": 1001}}, "options.meld_values.run-3"),
        ({"meld_values": {"four-J": 10**400}}, "options.meld_values.four-J"),
        ({"bell_value": 1001}, "options.bell_value"),
        ({"target": 10**400}, "options.target"),
        ({"renege_penalty": 10**9}, "options.renege_penalty"),
    ],
)
def test_house_rule_values_beyond_their_bounds_are_rejected(options, field):
    errors = assert_rejected({"ruleset": "clabber", "options": options, "passed": True}, field)
    assert all(len(e["message"]) < 300 for e in errors)


def test_house_rule_values_at_their_bounds_are_accepted():
    options = {
        "plain_points": {"A": 100},
        "trump_points": {"J": 0},
        "meld_values": {"run-3": 1000},
        "bell_value": 1000,
    }
    answer = score_deal({"ruleset": "clabber", "options": options, "passed": True})
    assert answer["outcome"] == "passed"


def test_a_rejected_value_is_never_echoed_at_length():
    huge = "x" * 100_000
    errors = errors_of(score_deal, {**SECTION_6_DEAL, "maker": huge, "options": {huge: 1}})
    assert sum(len(e["field"]) + len(e["message"]) for e in errors) < 2_000


# --- at most 200 deals, at most 50 errors ----------------------------------------------------


def test_a_game_of_200_deals_is_scored_and_201_is_rejected():
    passed = {"passed": True}
    answer = score_game({"ruleset": "clabber", "deals": [passed] * MAX_DEALS})
    assert len(answer["deals"]) == MAX_DEALS == 200
    assert_rejected(
        {"ruleset": "clabber", "deals": [passed] * 201}, "deals", mentions=["200"], call=score_game
    )


def test_at_most_50_errors_are_listed_then_how_many_more():
    options = {f"no_such_option_{i}": 1 for i in range(300_000)}
    errors = errors_of(score_deal, {"ruleset": "clabber", "options": options, "passed": True})
    assert MAX_ERRORS == 50
    assert len(errors) == 51
    assert errors[-1]["field"] == ""
    assert "299950 more" in errors[-1]["message"]
    assert len(json.dumps(errors)) < 50_000


def test_errors_of_many_deals_are_capped_across_the_game():
    bad = game_deal(points={"A": 1, "B": 1}, last_trick="A", maker=["A"])
    errors = errors_of(score_game, {"ruleset": "clabber", "deals": [bad] * 200})
    assert len(errors) == MAX_ERRORS + 1
    assert errors[0]["field"].startswith("deals[0]")
    assert "more" in errors[-1]["message"]


def test_a_long_meld_list_is_one_error_not_one_per_meld():
    melds = {"A": [{"kind": "four", "rank": "J"}] * 100_000}
    errors = assert_rejected(played(melds=melds), "melds.A", mentions=["at most"])
    assert len(errors) == 1
