"""Rows <-> the rules engine's JSON: the one adapter between games and ``rules``.

Like Tabbycat's ``draw/manager.py``, this is the only module that turns stored
rows into what the pure engine reads and its answers back into columns. Nothing
here scores anything.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from clabber_league.rules import get_ruleset

from .models import SIDES, Game

#: Keys of a deal's JSON that belong to the game, not the deal.
GAME_LEVEL_KEYS = ("ruleset", "options")
#: The most meld rows a deal's entry offers (the page's form and the offline entry alike).
MELD_ROWS = 8


def rules_input(rules: str | Mapping[str, Any]) -> dict[str, Any]:
    """``ruleset`` and ``options`` for the engine from a stored rules spec (slug or house rules)."""
    if isinstance(rules, str):
        return {"ruleset": rules, "options": {}}
    return {"ruleset": rules["base"], "options": dict(rules.get("options") or {})}


def game_ruleset(game: Game):
    spec = rules_input(game.rules)
    return get_ruleset(spec["ruleset"], spec["options"])


def side_count(game: Game) -> int:
    return len(game_ruleset(game).sides)


def seat_side(seat: int, sides: int) -> str:
    """Seats are numbered clockwise; partners sit opposite, so the side repeats every ``sides``."""
    return SIDES[seat % sides]


def deal_data(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's JSON as stored: the engine's deal without the game-level keys."""
    return {k: v for k, v in raw.items() if k not in GAME_LEVEL_KEYS}


def game_input(game: Game, deals: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    return {**rules_input(game.rules), "deals": [deal_data(d) for d in deals]}


def sheet_columns(prefix: str, values: Mapping[str, int]) -> dict[str, int | None]:
    """``{"A": 10, "B": 0}`` -> ``{"score_a": 10, "score_b": 0, "score_c": None}``."""
    return {f"{prefix}_{side.lower()}": values.get(side) for side in SIDES}


def deal_columns(answer: Mapping[str, Any], running: Mapping[str, int]) -> dict[str, Any]:
    columns: dict[str, Any] = {"outcome": answer["outcome"], "result": dict(answer)}
    columns.update(sheet_columns("score", answer["score"]))
    columns.update(sheet_columns("running", running))
    for key in ("score_a", "score_b", "running_a", "running_b"):
        columns[key] = columns[key] or 0
    return columns
