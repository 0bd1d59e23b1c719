"""Any JSON posted to `POST /api/rules/score` and `/api/rules/game` answers 200 or 400 with
the error body of RULES.md section 6, never a 500: the same inputs as the command line's
fuzz test (tests/rules/test_any_json.py), through Django and DRF."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings

from clabber_league.calculator.api import MAX_BODY_BYTES
from clabber_league.rules import MAX_ERRORS
from tests.rules.json_strategies import deal_texts, game_texts

FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def post(name: str, text: str):
    return Client().post(reverse(name), text, content_type="application/json")


def assert_clean(response) -> None:
    assert response.status_code in (200, 400), response.content[:300]
    body = response.json()
    if response.status_code == 400:
        assert body["code"] in {"invalid", "rules", "malformed_json", "too_large"}
        assert 1 <= len(body["errors"]) <= MAX_ERRORS + 1
        for error in body["errors"]:
            assert set(error) == {"field", "message"} and error["message"].strip()
    else:
        assert "errors" not in body


@FUZZ
@given(deal_texts)
def test_any_json_posted_to_score_is_200_or_400(text):
    assert_clean(post("rules-score", text))


@FUZZ
@given(game_texts)
def test_any_json_posted_to_game_is_200_or_400(text):
    assert_clean(post("rules-game", text))


@pytest.mark.parametrize("name", ["rules-score", "rules-game"])
def test_json_nested_past_the_parsers_limit_is_a_400(name):
    response = post(name, '{"ruleset": "clabber", "deals": ' + "[" * 50_000 + "]" * 50_000 + "}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_nan_and_a_body_that_is_not_utf8_are_400():
    assert post("rules-score", '{"ruleset": "clabber", "pot": NaN}').status_code == 400
    response = Client().post(reverse("rules-score"), b"\xff\xfe{", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["message"]


def test_a_body_over_the_limit_is_a_400_naming_the_limit():
    text = json.dumps({"ruleset": "clabber", "padding": "x" * MAX_BODY_BYTES})
    response = post("rules-game", text)
    assert response.status_code == 400
    assert "bytes" in response.json()["errors"][0]["message"]
