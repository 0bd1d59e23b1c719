"""Quick sanity checks of the rules engine, written with the engine (see the rest of
tests/rules/ for the independent suite)."""

from __future__ import annotations

import io
import json
import random

import pytest

from clabber_league.rules import (
    BUILTIN_RULESETS,
    HOUSE_RULE_EXAMPLES,
    RulesError,
    catalog,
    catalog_markdown,
    check_sheet_row,
    get_ruleset,
    next_dealer,
    ruleset_from_data,
    score_deal,
    score_game,
)
from clabber_league.rules.__main__ import main
from clabber_league.rules.simulate import simulate_deal
from clabber_league.rules.validation import (
    MELD_KIND_UNKNOWN,
    POINTS_SUM_ALL_PLAYED,
    POINTS_SUM_AT_MOST,
)

SECTION_6 = {
    "ruleset": "clabber",
    "options": {"target": 500},
    "maker": "A",
    "trump": "hearts",
    "bidding": {"round": 2, "turned": "spades"},
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
    "tricks": {"A": 4, "B": 2},
    "melds": {
        "A": [{"kind": "sequence", "suit": "spades", "top": "A", "length": 3}],
        "B": [{"kind": "four", "rank": "J"}],
    },
    "bell": "A",
    "renege": [],
    "passed": False,
}


def fields(data, call=score_deal):
    with pytest.raises(RulesError) as info:
        call(data)
    return [e["field"] for e in info.value.errors]


def test_section_6_example_scores_as_published():
    assert score_deal(SECTION_6) == {
        "outcome": "set",
        "score": {"A": 0, "B": 262},
        "totals": {"A": 120, "B": 262},
        "meld_winner": "B",
        "meld_points": {"A": 20, "B": 200},
    }


def test_thirteen_builtins_and_house_rules_round_trip():
    # The eleven of RULES.md section 2 and the two klaverjas rule sets of section 7.
    assert len(BUILTIN_RULESETS) == 13 and len(catalog()) == 13
    for data in HOUSE_RULE_EXAMPLES.values():
        ruleset = get_ruleset(data)
        assert ruleset_from_data(json.loads(json.dumps(ruleset.to_data()))) == ruleset
    assert get_ruleset(HOUSE_RULE_EXAMPLES["darda"]).meld_value("four-Q") == 200
    assert "darda" in catalog_markdown()


def test_unknown_ruleset_and_option_name_the_field():
    assert fields({"ruleset": "skat"}) == ["ruleset"]
    assert fields({"ruleset": "clabber", "options": {"colour": 1}}) == ["options.colour"]


@pytest.mark.parametrize(
    ("slug", "points", "expected"),
    [
        ("klaberjass", {"A": 50, "B": 96}, {"A": 0, "B": 106 + 50}),  # less: own + maker's
        ("klaberjass", {"A": 63, "B": 73}, {"A": 0, "B": 73}),  # tie: own only
        ("clabber-2", {"A": 50, "B": 96}, {"A": 0, "B": 106}),  # Clabber: own only
    ],
)
def test_maker_set_per_family(slug, points, expected):
    deal = {
        "ruleset": slug,
        "maker": "A",
        "trump": "clubs",
        "points": points,
        "last_trick": "B" if points["A"] == 50 else "A",
    }
    assert score_deal(deal)["score"] == expected


def test_card_points_must_be_possible():
    base = {"ruleset": "clabber", "maker": "A", "trump": "clubs", "last_trick": "A"}
    assert fields({**base, "points": {"A": 151, "B": 1}}) == ["points.A", "points.B"]
    with pytest.raises(RulesError) as info:
        score_deal({**base, "points": {"A": 100, "B": 50}})
    assert info.value.errors[0]["message"] == POINTS_SUM_ALL_PLAYED.format(total=152, sum=150)
    with pytest.raises(RulesError) as info:
        score_deal({**base, "ruleset": "klaberjass", "points": {"A": 100, "B": 47}})
    assert info.value.errors[0]["message"] == POINTS_SUM_AT_MOST.format(
        most=146, ruleset="klaberjass", played=18, pack=32, sum=147
    )
    # 0 points and the last trick: a Clabber trick of four cards holds at least 2 points
    assert fields({**base, "points": {"A": 0, "B": 152}}) == ["last_trick"]
    assert fields({**base, "points": {"A": 90, "B": 62}, "tricks": {"A": 6, "B": 1}}) == ["tricks"]


def test_meld_rejections():
    base = {
        "ruleset": "clabber",
        "maker": "A",
        "trump": "clubs",
        "last_trick": "A",
        "points": {"A": 90, "B": 62},
    }
    assert fields({**base, "melds": {"A": [{"kind": "four", "rank": "8"}]}}) == ["melds.A[0].rank"]
    with pytest.raises(RulesError) as info:
        score_deal(
            {
                **base,
                "ruleset": "klaberjass",
                "points": {"A": 90, "B": 50},
                "melds": {"A": [{"kind": "four", "rank": "J"}]},
            }
        )
    assert info.value.errors == [
        {
            "field": "melds.A[0].kind",
            "message": MELD_KIND_UNKNOWN.format(kind="four-J", ruleset="klaberjass"),
        }
    ]
    assert fields(
        {**base, "melds": {"A": [{"kind": "sequence", "suit": "clubs", "top": "10", "length": 3}]}}
    ) == ["melds.A[0].top"]
    clash = {"A": [{"kind": "four", "rank": "K"}], "B": [{"kind": "four", "rank": "K"}]}
    assert fields({**base, "melds": clash}) == ["melds.B[0]"]
    assert fields(
        {
            **base,
            "bell": "B",
            "melds": {"A": [{"kind": "sequence", "suit": "clubs", "top": "K", "length": 3}]},
        }
    ) == ["bell"]
    nt = {**base, "ruleset": "bela-4", "trump": "none", "points": {"A": 70, "B": 50}}
    assert fields({**nt, "bell": "A"}) == ["bell"]


def test_clabber_six_counts_as_five_and_equal_plain_runs_cancel():
    base = {
        "ruleset": "clabber",
        "maker": "A",
        "trump": "clubs",
        "last_trick": "A",
        "points": {"A": 90, "B": 62},
    }
    six = {"kind": "sequence", "suit": "hearts", "top": "A", "length": 6}
    five = {"kind": "sequence", "suit": "spades", "top": "A", "length": 5}
    answer = score_deal({**base, "melds": {"A": [six], "B": [five]}})
    assert answer["meld_winner"] is None and answer["meld_points"] == {"A": 0, "B": 0}
    answer = score_deal(
        {**base, "ruleset": "clabber-wadesville", "melds": {"A": [six], "B": [five]}}
    )
    assert answer["meld_winner"] == "A" and answer["meld_points"]["A"] == 300


def test_renege_and_redeal():
    base = {
        "ruleset": "clabber",
        "maker": "A",
        "trump": "clubs",
        "melds": {"B": [{"kind": "four", "rank": "A"}]},
    }
    assert score_deal({**base, "renege": ["A"]})["score"] == {"A": 0, "B": 262}
    assert score_deal({**base, "renege": ["A", "B"]})["outcome"] == "redeal"
    nt = {"ruleset": "bela-4", "maker": "A", "trump": "none", "renege": ["B"]}
    assert score_deal(nt)["score"] == {"A": 130, "B": 0}


def test_game_hung_pot_target_and_deal_after_the_end():
    tie = {"maker": "A", "trump": "clubs", "points": {"A": 71, "B": 81}, "last_trick": "A"}
    big = {"maker": "A", "trump": "clubs", "points": {"A": 142, "B": 10}, "last_trick": "A"}
    game = {
        "ruleset": "clabber",
        "options": {"tie_hangs": True, "target": 400},
        "deals": [tie, {"passed": True}, big, big],
    }
    answer = score_game(game)
    assert [d["outcome"] for d in answer["deals"]] == ["hung", "passed", "made", "made"]
    assert answer["running"][2] == {"A": 152 + 162, "B": 10}
    assert answer["finished"] and answer["winner"] == "A"
    assert fields({**game, "deals": [*game["deals"], big]}, score_game) == ["deals[4]"]


def test_tie_at_target_play_on():
    even = {"maker": "A", "trump": "clubs", "points": {"A": 76, "B": 76}, "last_trick": "A"}
    answer = score_game({"ruleset": "clabber", "options": {"target": 86}, "deals": [even]})
    assert answer["finished"] and answer["winner"] == "A"
    made_b = {"maker": "B", "trump": "clubs", "points": {"A": 66, "B": 86}, "last_trick": "A"}
    answer = score_game(
        {
            "ruleset": "clabber",
            "options": {"target": 50, "tie_at_target": "play_on"},
            "deals": [made_b],
        }
    )
    assert answer["scores"] == {"A": 76, "B": 86} and answer["winner"] == "B"


def test_next_dealer():
    clabber, klaberjass = BUILTIN_RULESETS["clabber"], BUILTIN_RULESETS["klaberjass"]
    seats = ["N", "E", "S", "W"]
    assert next_dealer(clabber, "W", seats) == "N"
    assert next_dealer(clabber, "E", seats, outcome="redeal") == "E"
    assert next_dealer(klaberjass, "A", ["A", "B"], outcome="made", winner="A") == "A"


def test_sheet_rows():
    assert check_sheet_row("clabber", None, "A", {"A": 100, "B": 62}, "made")
    assert check_sheet_row("klaberjass", None, "A", {"A": 0, "B": 162}, "set")
    with pytest.raises(RulesError) as info:
        check_sheet_row("clabber", None, "A", {"A": 0, "B": 5000}, "set")
    assert info.value.errors[0]["field"] == "score.B"
    with pytest.raises(RulesError) as info:
        check_sheet_row("clabber", None, "A", {"A": 161, "B": 1}, "made")
    assert info.value.errors[0]["field"] == "score"


def test_cli_exit_codes():
    out = io.StringIO()
    assert main(["score"], io.StringIO(json.dumps(SECTION_6)), out) == 0
    assert json.loads(out.getvalue())["outcome"] == "set"
    out = io.StringIO()
    assert main(["score"], io.StringIO("{nope"), out) == 2
    assert json.loads(out.getvalue())["errors"][0]["message"]


def test_generated_legal_deals_are_all_accepted():
    rng = random.Random(7)
    for i in range(2000):
        slug = list(BUILTIN_RULESETS)[i % 13]
        answer = score_deal({"ruleset": slug, **simulate_deal(slug, rng)})
        klaverjas = {"pit", "sheet"} if BUILTIN_RULESETS[slug].is_klaverjas else set()
        assert set(answer) == {"outcome", "score", "totals", "meld_winner", "meld_points"} | (
            klaverjas
        )
        assert set(answer["score"]) == set(BUILTIN_RULESETS[slug].sides)
