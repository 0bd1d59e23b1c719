"""Hostile input posted to `POST /api/rules/score` and `/api/rules/game` (issue 19): a 400
with the one error body naming the field, of bounded size, never a 500 - the command
line's cases (tests/rules/test_hostile_input.py) through Django and DRF."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from clabber_league.calculator.api import MAX_BODY_BYTES
from clabber_league.rules import MAX_ERRORS

PLAYED = {
    "ruleset": "clabber",
    "maker": "A",
    "trump": "hearts",
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
}
GAME = {"ruleset": "clabber", "deals": [{"passed": True}]}
DEEP = 600  # inside what the parser accepts below Django's and DRF's own frames


def rejected(name: str, text: str) -> list[dict[str, str]]:
    response = Client().post(reverse(name), text, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] in {"invalid", "rules", "malformed_json", "too_large"}
    assert 1 <= len(body["errors"]) <= MAX_ERRORS + 1
    return body["errors"]


def fields(errors: list[dict[str, str]]) -> set[str]:
    return {e["field"] for e in errors}


@pytest.mark.parametrize("options", [[], 0, "", [{"target": 500}], False])
@pytest.mark.parametrize(
    ("name", "body", "field"),
    [
        ("rules-score", PLAYED, "options"),
        ("rules-game", GAME, "options"),
        ("rules-score", {**PLAYED, "ruleset": {"name": "h", "base": "clabber"}}, "ruleset.options"),
    ],
)
def test_options_that_are_no_object_are_a_400_on_the_field(name, body, field, options):
    if field == "ruleset.options":
        body = {**body, "ruleset": {**body["ruleset"], "options": options}}
    else:
        body = {**body, "options": options}
    assert field in fields(rejected(name, json.dumps(body)))


def test_as_many_options_as_the_body_holds_give_50_errors_and_a_count():
    options = {f"o{i}": 1 for i in range(70_000)}
    text = json.dumps({**PLAYED, "options": options})
    assert len(text) < MAX_BODY_BYTES
    response = Client().post(reverse("rules-score"), text, content_type="application/json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert len(errors) == MAX_ERRORS + 1
    assert "69950" in errors[-1]["message"]
    assert len(response.content) < 50_000


def test_300000_options_are_a_400_naming_the_body_limit():
    options = {f"option_{i}": 1 for i in range(300_000)}
    errors = rejected("rules-score", json.dumps({**PLAYED, "options": options}))
    assert len(errors) == 1 and "bytes" in errors[0]["message"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"points": {"A": "@N", "B": 62}}, "points.A"),
        ({"pot": "@N"}, "pot"),
        ({"options": {"target": "@N"}}, "options.target"),
        ({"options": {"trump_points": {"J": "@N"}}}, "options.trump_points.J"),
        ({"options": {"meld_values": {"four-J": "@N"}}}, "options.meld_values.four-J"),
    ],
)
def test_a_number_of_400_digits_is_a_400_on_its_field(change, field):
    text = json.dumps({**PLAYED, **change}).replace('"@N"', "1" + "0" * 400)
    errors = rejected("rules-score", text)
    assert field in fields(errors)
    assert all(len(e["message"]) < 300 for e in errors)


def test_a_number_past_the_parsers_digit_limit_is_a_400():
    text = json.dumps({**PLAYED, "points": {"A": "@N", "B": 62}}).replace('"@N"', "9" * 5000)
    assert rejected("rules-score", text)[0]["message"]


def _nested(opener: str) -> str:
    closer = "]" if opener == "[" else "}"
    return opener * DEEP + "1" + closer * DEEP


@pytest.mark.parametrize("opener", ["[", '{"a": '])
@pytest.mark.parametrize(
    "field", ["ruleset", "options", "maker", "points", "melds", "bell", "renege", "bidding", "pot"]
)
def test_nesting_just_below_the_parsers_limit_in_a_deal_field(field, opener):
    text = json.dumps({**PLAYED, field: "@@"}).replace('"@@"', _nested(opener))
    errors = rejected("rules-score", text)
    assert any(e["field"] == field or e["field"].startswith(field) for e in errors), errors


@pytest.mark.parametrize("opener", ["[", '{"a": '])
@pytest.mark.parametrize(
    "template",
    [
        '{"ruleset": "clabber", "deals": [@@]}',
        '{"ruleset": "clabber", "deals": [{"maker": @@}]}',
        '{"ruleset": "clabber", "deals": [{"sheet": @@, "maker": "A", "mark": "made"}]}',
    ],
)
def test_nesting_just_below_the_parsers_limit_in_a_game(template, opener):
    assert rejected("rules-game", template.replace("@@", _nested(opener)))
