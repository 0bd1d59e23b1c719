"""Every worked example of KLAVERJAS.md 7.11, and the rejections of 7.9.

R = ``klaverjas-rotterdams``, K = ``klaverjas-amsterdams``; "P" includes the last trick.
Deals are entered as a table writes them: card points without the last trick (``points``,
adding up to 152) or with it (``points_with_last``, adding up to 162)."""

import pytest

from clabber_league.rules import RulesError, score_deal, score_game
from clabber_league.rules.options import ROEM_KINDS

R, K = "klaverjas-rotterdams", "klaverjas-amsterdams"
BOTH = pytest.mark.parametrize("ruleset", [R, K])


def scored(deal, ruleset=R, **options):
    data = {"ruleset": ruleset, **deal}
    if options:
        data["options"] = options
    return score_deal(data)


def refused(deal, ruleset=R, **options):
    with pytest.raises(RulesError) as caught:
        scored(deal, ruleset, **options)
    return caught.value.errors


def fields(errors):
    return [e["field"] for e in errors]


def run(trick, suit, top, length=3):
    return {"trick": trick, "kind": f"run-{length}", "suit": suit, "top": top}


@BOTH
def test_1_plain_made(ruleset):
    answer = scored(
        {"maker": "A", "trump": "hearts", "points": {"A": 72, "B": 80}, "last_trick": "A"},
        ruleset,
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 82, "B": 80}
    assert answer["pit"] is None and answer["meld_winner"] is None


@BOTH
def test_1_the_tally_sheets_points_with_the_last_trick_give_the_same_answer(ruleset):
    sheet = {"maker": "A", "trump": "hearts", "points_with_last": {"A": 82, "B": 80}}
    answer = scored({**sheet, "last_trick": "A"}, ruleset)
    assert answer["score"] == {"A": 82, "B": 80}
    assert answer["sheet"] == {"points": {"A": 82, "B": 80}, "roem": {"A": 0, "B": 0}}


@BOTH
def test_2_a_tie_is_nat(ruleset):
    answer = scored(
        {"maker": "A", "trump": "hearts", "points": {"A": 71, "B": 81}, "last_trick": "A"},
        ruleset,
    )
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 162}


@BOTH
def test_3_roem_carries_the_maker(ruleset):
    answer = scored(
        {
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 70, "B": 82},
            "last_trick": "A",
            "roem": {"A": [run(2, "clubs", "J")]},
        },
        ruleset,
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 100, "B": 82}


@BOTH
def test_4_nat_gives_the_opponents_162_and_both_sides_roem(ruleset):
    answer = scored(
        {
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 60, "B": 92},
            "last_trick": "B",
            "roem": {"A": 50, "B": 20},
        },
        ruleset,
    )
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 232}
    assert answer["totals"] == {"A": 110, "B": 122}
    assert answer["sheet"] == {"points": {"A": 0, "B": 162}, "roem": {"A": 0, "B": 70}}


@BOTH
def test_5_roem_goes_to_the_trick_winner(ruleset):
    answer = scored(
        {
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 80, "B": 72},
            "last_trick": "A",
            "roem": {"B": [run(1, "hearts", "K"), {"trick": 1, "kind": "stuk"}]},
        },
        ruleset,
    )
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 202}


@BOTH
def test_6_run_of_four_with_stuk_is_70(ruleset):
    answer = scored(
        {
            "maker": "A",
            "trump": "diamonds",
            "points": {"A": 60, "B": 92},
            "last_trick": "A",
            "roem": {"A": [run(4, "diamonds", "K", 4), {"trick": 4, "kind": "stuk"}]},
        },
        ruleset,
    )
    assert answer["outcome"] == "made"
    assert answer["score"] == {"A": 140, "B": 92}


@BOTH
def test_7_pit(ruleset):
    answer = scored(
        {
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 152, "B": 0},
            "tricks": {"A": 8, "B": 0},
            "last_trick": "A",
            "roem": {"A": 20},
        },
        ruleset,
    )
    assert answer["outcome"] == "made" and answer["pit"] == "A"
    assert answer["score"] == {"A": 282, "B": 0}
    assert answer["sheet"] == {"points": {"A": 162, "B": 0}, "roem": {"A": 120, "B": 0}}


@BOTH
@pytest.mark.parametrize(("pit_for", "expected"), [("any", 312), ("maker", 212)])
def test_8_tegenpit(ruleset, pit_for, expected):
    answer = scored(
        {
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 0, "B": 152},
            "tricks": {"A": 0, "B": 8},
            "last_trick": "B",
            "roem": {"B": 50},
        },
        ruleset,
        pit_for=pit_for,
    )
    assert answer["outcome"] == "set" and answer["pit"] == "B"
    assert answer["score"] == {"A": 0, "B": expected}


@BOTH
def test_9_all_152_card_points_is_not_pit(ruleset):
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 152, "B": 0}, "last_trick": "A"}
    answer = scored({**deal, "tricks": {"A": 7, "B": 1}}, ruleset)
    assert answer["outcome"] == "made" and answer["pit"] is None
    assert answer["score"] == {"A": 162, "B": 0}
    assert fields(refused(deal, ruleset)) == ["tricks"]


@pytest.mark.parametrize(
    ("ruleset", "outcome", "score"),
    [(R, "made", {"A": 192, "B": 170}), (K, "set", {"A": 0, "B": 462})],
)
@pytest.mark.parametrize("form", ["claims", "totals"])
def test_10_four_jacks_the_systems_differ(ruleset, outcome, score, form):
    if form == "claims":
        roem = {"A": [{"trick": 1, "kind": "four-A"}], "B": [{"trick": 2, "kind": "four-J"}]}
    else:
        roem = {"A": 100, "B": 100 if ruleset == R else 200}
    answer = scored(
        {
            "maker": "A",
            "trump": "spades",
            "points": {"A": 82, "B": 70},
            "last_trick": "A",
            "roem": roem,
        },
        ruleset,
    )
    assert (answer["outcome"], answer["score"]) == (outcome, score)


def test_11_four_nines_and_the_clubs_option():
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 75, "B": 77}, "last_trick": "A"}
    default = scored({**deal, "roem": {"B": [{"trick": 3, "kind": "four", "rank": "9"}]}})
    assert (default["outcome"], default["score"]) == ("set", {"A": 0, "B": 262})
    club = scored(deal, roem_values={"four-9": 0})
    assert (club["outcome"], club["score"]) == ("made", {"A": 85, "B": 77})
    errors = refused(
        {**deal, "roem": {"B": [{"trick": 3, "kind": "four-9"}]}}, roem_values={"four-9": 0}
    )
    assert fields(errors) == ["roem.B[0].kind"] and "Trick 3" in errors[0]["message"]


@pytest.mark.parametrize(
    ("options", "a_scores"),
    [({}, 232), ({"renege_bonus": 100}, 332), ({"renege_bonus": 100, "renege_roem": "none"}, 262)],
)
def test_12_renege(options, a_scores):
    answer = scored(
        {"maker": "A", "trump": "hearts", "renege": ["B"], "roem": {"A": 20, "B": 50}}, **options
    )
    assert answer["outcome"] == "renege"
    assert answer["score"] == {"A": a_scores, "B": 0}


def test_12_both_sides_reneging_is_a_redeal():
    answer = scored({"renege": ["A", "B"]})
    assert answer["outcome"] == "redeal" and answer["score"] == {"A": 0, "B": 0}


def test_13_amsterdams_forces_the_player_left_of_the_dealer():
    # Seats 0 N and 2 S are side A, 1 E and 3 W side B; N (0) deals, E (1) must play.
    deal = {
        "maker": "A",
        "trump": "hearts",
        "dealer": 0,
        "points": {"A": 72, "B": 80},
        "last_trick": "A",
    }
    errors = refused(deal, K)
    assert fields(errors) == ["maker"] and "left of the dealer" in errors[0]["message"]
    assert scored(deal, R)["outcome"] == "made"
    assert scored({**deal, "maker": "B"}, K)["outcome"] == "set"  # accepted: B 80 < A 82
    assert scored(deal, K, maker_left_of_dealer=False)["outcome"] == "made"


PLAIN = {"maker": "A", "trump": "hearts", "points": {"A": 72, "B": 80}, "last_trick": "A"}


@pytest.mark.parametrize(
    ("deal", "options", "field", "words"),
    [
        # (a) 30 is no sum of trick values.
        ({**PLAIN, "roem": {"A": 30}}, {}, "roem.A", "30 roem cannot lie"),
        # (b) five cards cannot lie in one trick.
        (
            {**PLAIN, "roem": {"A": [{"trick": 4, "kind": "run", "length": 5, "suit": "hearts"}]}},
            {},
            "roem.A[0].length",
            "Trick 4",
        ),
        # (c) stuk is trump only.
        (
            {
                **PLAIN,
                "trump": "clubs",
                "roem": {"A": [{"trick": 4, "kind": "stuk", "suit": "hearts"}]},
            },
            {},
            "roem.A[0].suit",
            "Trick 4",
        ),
        # (d) a four valued 0 by the club.
        (
            {**PLAIN, "roem": {"A": [{"trick": 4, "kind": "four-8"}]}},
            {"roem_values": {"four-8": 0}},
            "roem.A[0].kind",
            "no roem",
        ),
        # (e) B took no trick.
        (
            {
                **PLAIN,
                "points": {"A": 152, "B": 0},
                "tricks": {"A": 8, "B": 0},
                "roem": {"B": 20},
            },
            {},
            "roem.B",
            "no trick",
        ),
        # (f) one trick holds at most 100 in Rotterdams.
        (
            {
                **PLAIN,
                "points": {"A": 30, "B": 122},
                "tricks": {"A": 1, "B": 7},
                "last_trick": "B",
                "roem": {"A": 200},
            },
            {},
            "roem.A",
            "at most 1)",
        ),
    ],
)
def test_14_rejected_roem(deal, options, field, words):
    errors = refused(deal, R, **options)
    assert fields(errors) == [field]
    assert words in errors[0]["message"]


def test_14f_four_jacks_make_200_in_one_amsterdams_trick():
    deal = {
        **PLAIN,
        "trump": "spades",
        "points": {"A": 26, "B": 126},
        "tricks": {"A": 1, "B": 7},
        "last_trick": "B",
        "roem": {"A": 200},
    }
    # P_A 26 (J 20 + three plain Jacks 2) + roem 200 against P_B 136: made.
    assert scored(deal, K)["score"] == {"A": 226, "B": 136}
    assert "roem.A" in fields(refused(deal, R))


@pytest.mark.parametrize("form", ["claims", "totals"])
def test_7_9_the_exact_test_four_jacks_and_four_aces_need_70_card_points(form):
    roem = (
        {"A": [{"trick": 1, "kind": "four-J"}, {"trick": 2, "kind": "four-A"}]}
        if form == "claims"
        else None
    )
    deal = {"maker": "A", "trump": "spades", "points": {"A": 60, "B": 92}, "last_trick": "B"}
    if roem:
        errors = refused({**deal, "roem": roem})
        assert fields(errors) == ["roem"]
    # The same 200 as a total is possible in other tricks (four runs of four, say).
    assert scored({**deal, "roem": {"A": 200}})["outcome"] == "made"
    # With 70 card points the two fours fit.
    assert (
        scored(
            {
                **deal,
                "points": {"A": 70, "B": 82},
                "roem": {"A": [{"trick": 1, "kind": "four-J"}, {"trick": 2, "kind": "four-A"}]},
            }
        )["outcome"]
        == "made"
    )


@pytest.mark.parametrize(
    ("roem", "field", "words"),
    [
        ({"A": [run(1, "clubs", "A"), run(1, "hearts", "A")]}, "roem.A[1]", "two runs"),
        ({"A": [run(1, "clubs", "A"), {"trick": 1, "kind": "four-7"}]}, "roem.A[1]", "four"),
        (
            {"A": [{"trick": 1, "kind": "four-7"}, {"trick": 1, "kind": "stuk"}]},
            "roem.A[1]",
            "stuk",
        ),
        (
            {"A": [{"trick": 1, "kind": "stuk"}, {"trick": 2, "kind": "stuk"}]},
            "roem.A[1]",
            "one stuk",
        ),
        (
            {"A": [{"trick": 1, "kind": "four-7"}, {"trick": 2, "kind": "four-7"}]},
            "roem.A[1]",
            "already",
        ),
        (
            {
                "A": [
                    run(1, "clubs", "A"),
                ]
            }
            | {"B": [run(2, "clubs", "Q")]},
            "roem.B[0]",
            "claimed in trick 1",
        ),
        ({"B": [run(8, "clubs", "A")]}, "roem.B", "last trick"),
        ({"A": [run(3, "clubs", "A")], "B": [run(3, "spades", "A")]}, "roem.B", "both sides"),
        (
            {"A": [run(3, "clubs", "10"), {"trick": 3, "kind": "stuk"}]},
            "roem.A[0]",
            "King and Queen",
        ),
        ({"A": [run(3, "clubs", "9", 4)]}, "roem.A[0].top", "below the 7"),
        ({"A": [{"trick": 9, "kind": "stuk"}]}, "roem.A[0].trick", "1 to 8"),
    ],
)
def test_7_9_rejected_claims_name_the_field_and_the_trick(roem, field, words):
    deal = {"maker": "A", "trump": "clubs", "points": {"A": 80, "B": 72}, "last_trick": "A"}
    errors = refused({**deal, "roem": roem})
    assert field in fields(errors)
    assert any(words in e["message"] for e in errors if e["field"] == field)


def test_7_9_more_claimed_tricks_than_tricks_won():
    deal = {
        "maker": "A",
        "trump": "clubs",
        "points": {"A": 30, "B": 122},
        "tricks": {"A": 1, "B": 7},
        "last_trick": "B",
        "roem": {"A": [run(1, "hearts", "A"), run(2, "spades", "A")]},
    }
    assert fields(refused(deal)) == ["roem.A"]


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"trump": "none"}, "trump"),
        ({"passed": True}, "passed"),
        ({"bell": "A"}, "bell"),
        ({"melds": {"A": [{"kind": "four", "rank": "J"}]}}, "melds"),
        ({"points": {"A": 72, "B": 81}}, "points"),
        ({"points": {"A": 151, "B": 1}}, "points.A"),
        ({"tricks": {"A": 5, "B": 4}}, "tricks"),
        ({"points": {"A": 152, "B": 0}, "tricks": {"A": 7, "B": 0}}, "tricks"),
        ({"points_with_last": {"A": 82, "B": 81}, "points": None}, "points_with_last"),
        ({"dealer": 4}, "dealer"),
    ],
)
def test_7_9_other_rejections_name_the_field(deal, field):
    data = {**PLAIN, **deal}
    data = {k: v for k, v in data.items() if v is not None}
    assert field in fields(refused(data))


@pytest.mark.parametrize(
    ("option", "ruleset"),
    [
        ({"meld_compare": "length"}, R),
        ({"bell_value": 20}, K),
        ({"tie_hangs": True}, R),
        ({"passout_redeal": True}, R),
        ({"second_round_other_suit": True}, K),
        ({"no_trick_no_meld": True}, R),
        ({"meld_order": []}, R),
        ({"roem_values": {"run-3": 30}}, "clabber"),
        ({"pit_bonus": 200}, "klaberjass-4"),
    ],
)
def test_options_without_meaning_in_the_rule_set_are_refused(option, ruleset):
    name = next(iter(option))
    errors = refused(PLAIN, ruleset, **option)
    assert fields(errors) == [f"options.{name}"]


def test_every_roem_kind_can_be_valued_by_a_club():
    deal = {**PLAIN, "roem": {"A": [run(2, "clubs", "K")]}}
    assert scored(deal, roem_values={"run-3": 30})["score"]["A"] == 82 + 30
    assert set(ROEM_KINDS) >= {"run-3", "run-4", "stuk", "four-J", "four-7"}


def test_a_run_claimed_without_suit_or_top_is_found_in_the_cards():
    # A few taps at the table: "run of 3 in trick 2" - any run that fits the card points.
    deal = {**PLAIN, "roem": {"A": [{"trick": 2, "kind": "run-3"}]}}
    assert scored(deal)["score"] == {"A": 102, "B": 80}


def _sixteen(deal):
    return [dict(deal) for _ in range(16)]


@BOTH
def test_15_a_game_is_16_deals_and_a_17th_is_refused(ruleset):
    deals = _sixteen(PLAIN)
    answer = score_game({"ruleset": ruleset, "deals": deals})
    assert answer["finished"] is True and answer["winner"] == "A"
    assert answer["scores"] == {"A": 16 * 82, "B": 16 * 80}
    assert answer["running"][-1] == answer["scores"]
    fifteen = score_game({"ruleset": ruleset, "deals": deals[:15]})
    assert fifteen["finished"] is False and fifteen["winner"] is None
    with pytest.raises(RulesError) as caught:
        score_game({"ruleset": ruleset, "deals": [*deals, PLAIN]})
    assert fields(caught.value.errors) == ["deals[16]"]
    assert "last deal (deal 16)" in caught.value.errors[0]["message"]


def test_15_equal_pair_totals_tie_the_game_and_clubs_choose_the_length():
    even = {"maker": "A", "trump": "hearts", "points": {"A": 71, "B": 81}, "last_trick": "A"}
    made = {**PLAIN}
    answer = score_game({"ruleset": R, "options": {"deals_per_game": 2}, "deals": [made, even]})
    # 82 + 0 against 80 + 162: B wins; twelve deals and a target are options too.
    assert answer["finished"] and answer["winner"] == "B"
    tied = score_game(
        {
            "ruleset": R,
            "options": {"deals_per_game": 2},
            "deals": [
                PLAIN,
                {**PLAIN, "maker": "B", "points": {"A": 80, "B": 72}, "last_trick": "B"},
            ],
        }
    )
    assert tied["scores"] == {"A": 162, "B": 162} and tied["winner"] == "tie"
    target = score_game(
        {"ruleset": R, "options": {"deals_per_game": None, "target": 150}, "deals": [PLAIN, PLAIN]}
    )
    assert target["finished"] and len(target["deals"]) == 2 and target["winner"] == "A"


def test_the_command_line_scores_klaverjas_and_refuses_a_sheet_row():
    import io
    import json

    from clabber_league.rules import check_sheet_row
    from clabber_league.rules.__main__ import main

    out = io.StringIO()
    deal = {"ruleset": K, **PLAIN, "roem": {"B": [{"trick": 2, "kind": "four-J"}]}}
    assert main(["score"], io.StringIO(json.dumps(deal)), out) == 0
    assert json.loads(out.getvalue())["score"] == {"A": 0, "B": 162 + 200}
    with pytest.raises(RulesError) as caught:
        check_sheet_row(R, None, "A", {"A": 82, "B": 80}, "made")
    assert fields(caught.value.errors) == ["ruleset"]


def test_the_phone_fills_in_the_other_sides_points_as_the_tally_sheet_does():
    import json

    from clabber_league.rules.offline import call

    step = {
        "ruleset": R,
        "options": {},
        "totals": {"A": 0, "B": 0},
        "deals_before": 15,
        "dealer": 3,
        "deal": {"maker": "A", "trump": "hearts", "points_with_last": {"A": 82}, "last_trick": "A"},
    }
    answer = json.loads(call("next_deal", json.dumps(step)))["ok"]
    assert answer["data"]["points_with_last"] == {"A": 82, "B": 80}
    assert answer["deal"]["score"] == {"A": 82, "B": 80}
    assert answer["finished"] is True and answer["winner"] == "A"  # the 16th deal
    beyond = json.loads(call("next_deal", json.dumps({**step, "deals_before": 16})))
    assert "beyond" in beyond["errors"][0]["message"]


@pytest.mark.parametrize(("roem_a", "roem_b"), [(400, 300), (160, 160), (180, 140), (790, 0)])
def test_large_roem_totals_are_answered_in_bounded_time(roem_a, roem_b):
    import time

    from clabber_league.rules import klaverjas

    klaverjas.forget_answers()
    deal = {
        "maker": "A",
        "trump": "hearts",
        "points": {"A": 76, "B": 76},
        "tricks": {"A": 5, "B": 3},
        "last_trick": "A",
        "roem": {"A": roem_a, "B": roem_b},
    }
    start = time.process_time()
    try:
        scored(deal, K)
    except RulesError as exc:
        assert [e["field"] for e in exc.errors] in (["roem.A"], ["roem.B"], ["roem"])
    assert time.process_time() - start < 5  # WALK_MAX states at most: about a second
