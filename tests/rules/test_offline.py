"""``rules.offline``: the door the phone's engine is called through answers what the
server's engine answers, as JSON text."""

import json
import random

from clabber_league.rules import BUILTIN_RULESETS, get_ruleset, score_deal, score_next
from clabber_league.rules.dealing import complete_points, dealer_sequence
from clabber_league.rules.offline import call
from clabber_league.rules.simulate import simulate_deal


def test_score_deal_through_the_door_is_the_calculators_answer():
    rng = random.Random(14)
    for slug in BUILTIN_RULESETS:
        deal = {"ruleset": slug, **simulate_deal(slug, rng)}
        assert json.loads(call("score_deal", json.dumps(deal))) == {"ok": score_deal(deal)}


def test_a_refused_deal_answers_the_errors_of_the_400_body():
    answer = json.loads(call("score_deal", json.dumps({"ruleset": "clabber", "maker": "Z"})))
    assert answer["errors"] and all({"field", "message"} <= set(e) for e in answer["errors"])


def test_next_deal_is_the_servers_next_step():
    ruleset = get_ruleset("clabber")
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 100}, "last_trick": "A"}
    state = {"totals": {"A": 200, "B": 90}, "pot": 0, "deals_before": 3, "dealer": 1}
    answer = json.loads(
        call("next_deal", json.dumps({"ruleset": "clabber", "options": {}, "deal": deal, **state}))
    )["ok"]
    completed = {**deal, "points": complete_points(ruleset, deal["points"], trump="hearts")}
    expected = score_next(
        {"ruleset": "clabber", "options": {}},
        completed,
        totals=state["totals"],
        pot=0,
        deals_before=3,
    )
    assert {k: answer[k] for k in expected} == expected
    assert answer["next_dealer"] == dealer_sequence(ruleset, 1, [expected["deal"]])[-1]
    assert answer["data"]["points"] == {"A": 100, "B": 52}


def test_an_unknown_function_or_bad_json_is_an_error_not_a_crash():
    assert "errors" in json.loads(call("rm -rf", "{}"))
    assert "errors" in json.loads(call("score_deal", "{not json"))
    assert "errors" in json.loads(call("next_deal", "[]"))


def test_the_phone_refuses_card_points_no_deal_of_the_cards_gives():
    # RULES.md section 5's klaberjass example, as the offline deal entry sends it.
    deal = {
        "maker": "A",
        "trump": "clubs",
        "points": {"A": 90, "B": 50},
        "last_trick": "A",
        "melds": {"A": [{"kind": "sequence", "suit": "hearts", "top": "9", "length": 3}]},
    }
    state = {"totals": {"A": 0, "B": 0}, "pot": 0, "deals_before": 0, "dealer": 0}
    body = {"ruleset": "klaberjass", "options": {}, "deal": deal, **state}
    answer = json.loads(call("next_deal", json.dumps(body)))
    assert [e["field"] for e in answer["errors"]] == ["points"]
    alone = json.loads(call("score_deal", json.dumps({"ruleset": "klaberjass", **deal})))
    assert alone == {"errors": answer["errors"]}
