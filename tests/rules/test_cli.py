"""The calculator on the command line (RULES.md section 6): `python -m clabber_league.rules
score|game` reads JSON on standard input and writes JSON on standard output; exit status 0,
or 2 with {"errors": [{"field": ..., "message": ...}]} for a rejected input.
"""

import json
import subprocess
import sys
from pathlib import Path

from tests.rules.support import SECTION_6_DEAL, four, game_deal

PROJECT = Path(__file__).resolve().parents[2]


def run(command: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "clabber_league.rules", command],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
    )


def assert_errors_body(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.returncode == 2, result
    body = json.loads(result.stdout)
    assert isinstance(body["errors"], list) and body["errors"], body
    for error in body["errors"]:
        assert isinstance(error["field"], str)
        assert isinstance(error["message"], str) and error["message"].strip()
    return body["errors"]


def test_cli_scores_the_section_6_deal():
    result = run("score", json.dumps(SECTION_6_DEAL))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["outcome"] == "set"
    assert answer["score"] == {"A": 0, "B": 262}
    assert answer["totals"] == {"A": 120, "B": 262}
    assert answer["meld_winner"] == "B"
    assert answer["meld_points"] == {"A": 20, "B": 200}


def test_cli_scores_a_game():
    mules = game_deal(points={"A": 100, "B": 52}, last_trick="A", melds={"A": [four("J")]})
    body = {"ruleset": "clabber", "options": {"target": 500}, "deals": [mules, mules]}
    result = run("game", json.dumps(body))
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["running"] == [{"A": 310, "B": 52}, {"A": 620, "B": 104}]
    assert answer["scores"] == {"A": 620, "B": 104}
    assert answer["finished"] is True
    assert answer["winner"] == "A"


def test_cli_rejected_deal_exits_2_with_the_errors():
    data = dict(SECTION_6_DEAL, points={"A": 91, "B": 62})
    errors = assert_errors_body(run("score", json.dumps(data)))
    assert any(error["field"].startswith("points") for error in errors), errors


def test_cli_unknown_rule_set_exits_2_naming_the_field():
    errors = assert_errors_body(run("score", json.dumps({"ruleset": "pinochle", "passed": True})))
    assert [error["field"] for error in errors] == ["ruleset"]


def test_cli_deal_after_the_end_of_a_game_exits_2():
    mules = game_deal(points={"A": 100, "B": 52}, last_trick="A", melds={"A": [four("J")]})
    body = {"ruleset": "clabber", "deals": [mules, mules, mules]}
    errors = assert_errors_body(run("game", json.dumps(body)))
    assert "deals[2]" in [error["field"] for error in errors]


def test_cli_malformed_json_exits_2_with_an_error():
    assert_errors_body(run("score", '{"ruleset": "clabber", '))


def test_cli_json_that_is_not_an_object_exits_2():
    assert_errors_body(run("score", "[1, 2, 3]"))


def test_cli_unknown_command_fails():
    result = run("shuffle", "{}")
    assert result.returncode != 0
