"""Command line calculator: ``python -m clabber_league.rules score|game|sheet|catalog``.

``score`` and ``game`` read the JSON of RULES.md section 6 on standard input
and write the answer as JSON on standard output, exit status 0; a rejected
input (including malformed JSON) writes ``{"errors": [{"field", "message"}]}``
and exits with status 2, whatever the input: deeply nested JSON, ``NaN`` or a
value of the wrong type is a rejected input, never a traceback.  ``sheet`` checks a paper-sheet row
``{"ruleset", "options", "maker", "score", "mark"}`` and answers
``{"possible": true}``.  ``catalog`` prints the rule sets as JSON, or as
markdown tables with ``--markdown``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TextIO

from .calculator import (
    INPUT_NOT_OBJECT,
    MALFORMED_JSON,
    TOO_DEEP,
    decode,
    score_deal,
    score_game,
)
from .catalog import catalog, catalog_markdown
from .errors import RulesError, msg
from .sheet import check_sheet_row

EXIT_REJECTED: Final = 2


def _sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    check_sheet_row(
        data.get("ruleset", ""),
        data.get("options"),
        data.get("maker", ""),
        data.get("score"),
        data.get("mark", ""),
    )
    return {"possible": True}


COMMANDS: Final[Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]]] = {
    "score": score_deal,
    "game": score_game,
    "sheet": _sheet,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m clabber_league.rules",
        description="Clabber League rules engine: score a deal or a game from JSON on stdin.",
        epilog='Exit status: 0 answered, 2 input rejected (JSON {"errors": [...]} on stdout).',
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("score", help="score one deal (RULES.md section 6)")
    sub.add_parser("game", help="score a whole game: {ruleset, options, deals}")
    sub.add_parser("sheet", help="check a paper-sheet row: {ruleset, options, maker, score, mark}")
    cat = sub.add_parser("catalog", help="list the rule sets and their options")
    cat.add_argument("--markdown", action="store_true", help="markdown tables instead of JSON")
    cat.add_argument("--examples", action="store_true", help="include house-rule examples")
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    args = _parser().parse_args(argv)
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if args.command == "catalog":
        if args.markdown:
            stdout.write(catalog_markdown())
        else:
            json.dump(catalog(args.examples), stdout, indent=2)
            stdout.write("\n")
        return 0
    try:
        try:
            text = stdin.read()
        except UnicodeDecodeError as exc:
            raise RulesError(msg(MALFORMED_JSON, detail=str(exc)[:200])) from None
        data = decode(text)
        if not isinstance(data, Mapping):
            raise RulesError(INPUT_NOT_OBJECT)
        try:
            answer = COMMANDS[args.command](data)
        except RecursionError:
            raise RulesError(TOO_DEEP) from None
    except RulesError as exc:
        json.dump(exc.to_data(), stdout)
        stdout.write("\n")
        return EXIT_REJECTED
    json.dump(answer, stdout)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
