"""The phone's engine is the server's (issue 14): the packed ``clabber_league/rules/`` run
by Pyodide in Chromium answers exactly what the server's engine answers, for thousands of
simulated deals of every rule set (and house rules), mangled ones included, and for whole
games deal after deal. One call into Pyodide per rule set."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from clabber_league.rules import BUILTIN_RULESETS, HOUSE_RULE_EXAMPLES, RulesError, score_deal
from clabber_league.rules.offline import next_deal, translatable
from clabber_league.rules.simulate import simulate_deal, simulate_game
from clabber_league.site.offline import engine_urls

DEALS_PER_RULESET = 260  # 14 rule sets: about 3,600 deals

RULESETS: list[tuple[str, dict[str, Any]]] = [(slug, {}) for slug in BUILTIN_RULESETS] + [
    (rules["base"], dict(rules["options"])) for rules in HOUSE_RULE_EXAMPLES.values()
]

START_WORKER = """async ([urls, name, payload]) => {
    if (!window.engineWorker) {
        window.engineWorker = new Worker(urls.worker, { type: "module" });
        window.engineWorker.postMessage({ boot: urls });
        window.engineCalls = {};
        window.engineWorker.onmessage = (event) => {
            const m = event.data;
            const call = window.engineCalls[m.id];
            if (!call) return;
            delete window.engineCalls[m.id];
            if (m.failed) call.reject(m.failed); else call.resolve(m.answer);
        };
        window.engineNext = 1;
    }
    return await new Promise((resolve, reject) => {
        const id = window.engineNext++;
        window.engineCalls[id] = { resolve, reject };
        window.engineWorker.postMessage({ id, name, payload });
    });
}"""


def mangled(deal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A deal a scorer got wrong: points that do not add up, a maker who is not a side,
    a meld that is not one, a missing last trick."""
    deal = json.loads(json.dumps(deal))
    kind = rng.randrange(4)
    if kind == 0 and isinstance(deal.get("points"), dict):
        side = next(iter(deal["points"]))
        deal["points"][side] += rng.choice((1, 7, 30))
    elif kind == 1:
        deal["maker"] = "Z"
    elif kind == 2:
        deal.setdefault("melds", {}).setdefault("A", []).append({"kind": "four", "rank": "7"})
    else:
        deal.pop("last_trick", None)
    return deal


def server_answer(name: str, data: Any) -> dict[str, Any]:
    try:
        return {"ok": json.loads(json.dumps(name(data)))}
    except RulesError as exc:
        # As the phone's engine answers (rules.offline): each message with its template
        # and values, for the page to show it in the reader's language.
        return {"errors": json.loads(json.dumps(translatable(exc.errors)))}


@pytest.fixture
def engine(live_server, page):
    page.goto(live_server.url + "/rules/")
    urls = engine_urls()

    def call(name: str, data: Any) -> Any:
        answer = page.evaluate(START_WORKER, [urls, name, json.dumps(data)])
        return json.loads(answer)

    return call


def test_thousands_of_deals_score_the_same_on_the_phone_and_the_server(engine):
    rng = random.Random(1414)
    compared = 0
    for slug, options in RULESETS:
        deals = []
        for i in range(DEALS_PER_RULESET):
            deal = {"ruleset": slug, "options": options, **simulate_deal(slug, rng, dealer=i % 4)}
            deals.append(mangled(deal, rng) if i % 10 == 0 else deal)
        phone = engine("score_deals", deals)["ok"]
        server = [server_answer(score_deal, deal) for deal in deals]
        assert phone == server, slug
        assert any("errors" in a for a in server) and any("ok" in a for a in server)
        compared += len(deals)
    assert compared >= 3000


def test_whole_games_go_the_same_deal_after_deal(engine):
    """The phone's next-deal step (as it records offline) from the same running state."""
    rng = random.Random(14)
    for slug, options in RULESETS:
        from clabber_league.rules import get_ruleset

        ruleset = get_ruleset(slug, options)
        state = {"totals": dict.fromkeys(ruleset.sides, 0), "pot": 0, "deals_before": 0}
        dealer = 0
        for deal in simulate_game(ruleset, rng, max_deals=40):
            data = {"ruleset": slug, "options": options, "dealer": dealer, "deal": deal, **state}
            phone = engine("next_deal", data)
            server = server_answer(next_deal, data)
            assert phone == server, (slug, state)
            step = server["ok"]
            state = {
                "totals": step["scores"],
                "pot": step["pot"],
                "deals_before": state["deals_before"] + 1,
            }
            dealer = step["next_dealer"]
            if step["finished"]:
                break
