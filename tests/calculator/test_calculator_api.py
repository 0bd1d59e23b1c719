"""The calculator over HTTP answers exactly what the command line answers."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
SECTION_6_DEAL = {
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
SECTION_6_ANSWER = {
    "outcome": "set",
    "score": {"A": 0, "B": 262},
    "totals": {"A": 120, "B": 262},
    "meld_winner": "B",
    "meld_points": {"A": 20, "B": 200},
}


def _cli(command: str, body: dict) -> tuple[int, dict]:
    result = subprocess.run(
        [sys.executable, "-m", "clabber_league.rules", command],
        input=json.dumps(body),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    return result.returncode, json.loads(result.stdout)


def test_score_answers_the_worked_example_of_rules_section_6(client):
    response = client.post(reverse("rules-score"), SECTION_6_DEAL, content_type="application/json")
    assert response.status_code == 200
    assert response.json() == SECTION_6_ANSWER


def test_score_is_open_to_anonymous_users_without_csrf(client):
    client.handler.enforce_csrf_checks = True
    response = client.post(reverse("rules-score"), SECTION_6_DEAL, content_type="application/json")
    assert response.status_code == 200


def test_a_rejected_deal_is_400_with_the_field_named_like_the_cli(client):
    bad = {**SECTION_6_DEAL, "points": {"A": 151, "B": 1}}
    response = client.post(reverse("rules-score"), bad, content_type="application/json")
    assert response.status_code == 400
    code, cli_body = _cli("score", bad)
    assert code == 2
    assert response.json()["errors"] == cli_body["errors"]  # the CLI's list, as a problem
    assert any(e["field"].startswith("points") for e in response.json()["errors"])


def test_game_endpoint_matches_the_cli_for_a_whole_game(client):
    game = {
        "ruleset": "clabber",
        "deals": [
            {"maker": "A", "trump": "clubs", "points": {"A": 100, "B": 52}, "last_trick": "A"},
            {"passed": True},
            {"maker": "B", "trump": "hearts", "points": {"A": 80, "B": 72}, "last_trick": "B"},
        ],
    }
    response = client.post(reverse("rules-game"), game, content_type="application/json")
    assert response.status_code == 200
    code, cli_body = _cli("game", game)
    assert code == 0
    assert response.json() == cli_body
    # 110 + 80 for A; 52 + (72 + 10, made by B over 80) for B
    assert response.json()["running"][-1] == {"A": 190, "B": 134}


def test_a_body_that_is_not_an_object_is_rejected(client):
    response = client.post(reverse("rules-score"), "[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_malformed_json_is_a_400_not_a_500(client):
    response = client.post(reverse("rules-score"), "{nope", content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_the_calculator_is_throttled(client, settings):
    from django.core.cache import cache
    from rest_framework.settings import api_settings

    cache.clear()
    rates = {**api_settings.DEFAULT_THROTTLE_RATES, "calculator": "3/minute"}
    from rest_framework.throttling import ScopedRateThrottle

    original = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = rates
    try:
        codes = [
            client.post(
                reverse("rules-score"), SECTION_6_DEAL, content_type="application/json"
            ).status_code
            for _ in range(5)
        ]
    finally:
        ScopedRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert codes[:3] == [200, 200, 200]
    assert codes[3:] == [429, 429]


def test_the_schema_documents_both_calculator_endpoints_with_examples(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/rules/score/", "/api/rules/game/"):
        operation = schema["paths"][path]["post"]
        assert operation["responses"].keys() >= {"200", "400"}
    examples = schema["paths"]["/api/rules/score/"]["post"]["requestBody"]["content"][
        "application/json"
    ]["examples"]
    assert any(
        e["value"] == {k: v for k, v in SECTION_6_DEAL.items() if k in e["value"]}
        for e in examples.values()
    )


def test_score_refuses_points_no_deal_of_a_dear_house_pack_gives(client):
    # Cards worth 100 but five trumps (98, 98, 98, 97, 97): three sides each 4 short of a
    # round number is impossible, though each side alone (and any two together) could be.
    from tests.rules.test_exact_points_of_dearest_packs import IMPOSSIBLE, _deal

    points, tricks = IMPOSSIBLE["klaberjass-3"]
    body = _deal("klaberjass-3", points, tricks)
    response = client.post(reverse("rules-score"), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "points",
            "message": "These card points (A 1196, B 896, C 896) cannot be taken together "
            "from one pack in shortfalls-klaberjass-3.",
        }
    ]
    assert _cli("score", body) == (2, {"errors": response.json()["errors"]})
