"""Any JSON at the command line's entry point answers exit 0 or 2, never a traceback
(RULES.md sections 5 and 6): a result, or `{"errors": [{"field", "message"}]}` with at most
50 errors listed and one more saying how many were left out."""

import io
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from clabber_league.rules import MAX_ERRORS
from clabber_league.rules.__main__ import main
from tests.rules.json_strategies import as_text, deal_texts, game_texts, sheet_row

PROJECT = Path(__file__).resolve().parents[2]
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def run_cli(command: str, text: str) -> tuple[int, object]:
    out = io.StringIO()
    code = main([command], stdin=io.StringIO(text), stdout=out)
    return code, json.loads(out.getvalue())


def assert_clean(code: int, body: object) -> None:
    assert code in (0, 2), code
    assert isinstance(body, dict)
    if code == 2:
        assert list(body) == ["errors"]
        errors = body["errors"]
        assert 1 <= len(errors) <= MAX_ERRORS + 1
        for error in errors:
            assert set(error) == {"field", "message"}
            assert isinstance(error["field"], str) and isinstance(error["message"], str)
            assert error["message"].strip()
    else:
        assert "errors" not in body


@FUZZ
@given(deal_texts)
def test_any_json_to_score_exits_0_or_2(text):
    assert_clean(*run_cli("score", text))


@FUZZ
@given(game_texts)
def test_any_json_to_game_exits_0_or_2(text):
    assert_clean(*run_cli("game", text))


@FUZZ
@given(as_text(sheet_row))
def test_any_json_to_sheet_exits_0_or_2(text):
    assert_clean(*run_cli("sheet", text))


def test_the_cli_process_rejects_json_nested_past_the_parsers_limit():
    nested = "[" * 100_000 + "]" * 100_000
    result = subprocess.run(
        [sys.executable, "-m", "clabber_league.rules", "score"],
        input='{"ruleset": "clabber", "maker": ' + nested + "}",
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert json.loads(result.stdout)["errors"][0]["message"]
    assert result.stderr == ""


def test_the_cli_process_rejects_huge_house_rule_values_and_nan():
    for text in (
        '{"ruleset": "clabber-3", "options": {"plain_points": {"A": 1' + "0" * 400 + "}}}",
        '{"ruleset": "clabber", "options": {"target": NaN}}',
        '{"ruleset": "clabber", "points": {"A": Infinity}}',
    ):
        result = subprocess.run(
            [sys.executable, "-m", "clabber_league.rules", "score"],
            input=text,
            capture_output=True,
            text=True,
            cwd=PROJECT,
            timeout=60,
        )
        assert result.returncode == 2, (text[:60], result.stderr)
        assert json.loads(result.stdout)["errors"]
