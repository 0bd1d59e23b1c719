"""Hostile input at the command line's entry point (issue 19): each answer is exit 2 with
the one error body naming the field, of bounded size, never a traceback.

The cases the issue lists, one by one: `options` that are no object, 300,000 options,
numbers of 400 digits and more, and nesting just below the parser's own limit in every
field. (Any JSON at all: test_any_json.py; the same over HTTP: tests/calculator.)
"""

import io
import json

import pytest

from clabber_league.rules import MAX_ERRORS
from clabber_league.rules.__main__ import main

PLAYED = {
    "ruleset": "clabber",
    "maker": "A",
    "trump": "hearts",
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
}
GAME = {"ruleset": "clabber", "deals": [{"passed": True}]}
DEEP = 800  # well inside what json.loads accepts, far beyond any real input


def cli(command: str, text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([command], stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def rejected(command: str, text: str) -> list[dict[str, str]]:
    code, out = cli(command, text)
    assert code == 2, out[:300]
    body = json.loads(out)
    assert list(body) == ["errors"]
    assert 1 <= len(body["errors"]) <= MAX_ERRORS + 1
    return body["errors"]


def fields(errors: list[dict[str, str]]) -> set[str]:
    return {e["field"] for e in errors}


@pytest.mark.parametrize("options", [[], 0, "", [{"target": 500}], "target=500", False])
@pytest.mark.parametrize(
    ("command", "body", "field"),
    [
        ("score", PLAYED, "options"),
        ("game", GAME, "options"),
        ("score", {**PLAYED, "ruleset": {"name": "h", "base": "clabber"}}, "ruleset.options"),
    ],
)
def test_options_that_are_no_object_are_refused(command, body, field, options):
    if field == "ruleset.options":
        body = {**body, "ruleset": {**body["ruleset"], "options": options}}
    else:
        body = {**body, "options": options}
    errors = rejected(command, json.dumps(body))
    assert field in fields(errors)


def test_300000_options_give_50_errors_and_a_count_of_the_rest():
    options = {f"option_{i}": 1 for i in range(300_000)}
    code, out = cli("score", json.dumps({**PLAYED, "options": options}))
    assert code == 2
    errors = json.loads(out)["errors"]
    assert len(errors) == MAX_ERRORS + 1
    assert "299950" in errors[-1]["message"]
    assert len(out) < 50_000


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"points": {"A": "@N", "B": 62}}, "points.A"),
        ({"tricks": {"A": "@N", "B": 2}}, "tricks.A"),
        ({"pot": "@N"}, "pot"),
        ({"options": {"target": "@N"}}, "options.target"),
        ({"options": {"plain_points": {"A": "@N"}}}, "options.plain_points.A"),
        ({"options": {"meld_values": {"run-3": "@N"}}}, "options.meld_values.run-3"),
        ({"options": {"bell_value": "@N"}}, "options.bell_value"),
        ({"options": {"renege_penalty": "@N"}}, "options.renege_penalty"),
    ],
)
def test_a_number_of_400_digits_is_refused_on_its_field(change, field):
    text = json.dumps({**PLAYED, **change}).replace('"@N"', "1" + "0" * 400)
    errors = rejected("score", text)
    assert field in fields(errors)
    assert all(len(e["message"]) < 300 for e in errors)


def test_a_number_past_the_parsers_digit_limit_is_refused():
    text = json.dumps({**PLAYED, "points": {"A": "@N", "B": 62}}).replace('"@N"', "9" * 5000)
    assert rejected("score", text)[0]["message"]


def _nested(opener: str) -> str:
    closer = "]" if opener == "[" else "}"
    return opener * DEEP + "1" + closer * DEEP


@pytest.mark.parametrize("opener", ["[", '{"a": '])
@pytest.mark.parametrize(
    "field",
    [
        "ruleset",
        "options",
        "maker",
        "trump",
        "points",
        "tricks",
        "last_trick",
        "melds",
        "bell",
        "renege",
        "bidding",
        "passed",
        "pot",
    ],
)
def test_nesting_just_below_the_parsers_limit_in_a_deal_field(field, opener):
    text = json.dumps({**PLAYED, field: "@@"}).replace('"@@"', _nested(opener))
    errors = rejected("score", text)
    assert any(e["field"] == field or e["field"].startswith(field) for e in errors), errors


@pytest.mark.parametrize("opener", ["[", '{"a": '])
@pytest.mark.parametrize(
    "template",
    [
        '{"ruleset": "clabber", "deals": @@}',
        '{"ruleset": "clabber", "deals": [@@]}',
        '{"ruleset": "clabber", "deals": [{"maker": @@}]}',
        '{"ruleset": "clabber", "deals": [{"sheet": @@, "maker": "A", "mark": "made"}]}',
        '{"ruleset": "clabber", "options": {"meld_values": @@}, "deals": []}',
    ],
)
def test_nesting_just_below_the_parsers_limit_in_a_game(template, opener):
    assert rejected("game", template.replace("@@", _nested(opener)))
