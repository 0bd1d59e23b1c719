"""The engine's door for a phone with no network: JSON text in, JSON text out.

The offline deal entry runs this package in the browser (Pyodide) and calls :func:`call`
with a function name and the same JSON the server's ``/api/rules/...`` and deal API take;
nothing here scores anything itself, it only hands the data to the calculator:

* ``"score_deal"`` / ``"score_game"``: :func:`calculator.score_deal` / ``score_game``;
* ``"score_deals"``: a list of deals, each scored by ``score_deal`` (one call for many,
  as the parity test and the benchmark send them);
* ``"next_deal"``: the next deal of a game in progress, as the server records it
  (``games.services``): one side's card points completed
  (:func:`dealing.complete_points`), the deal scored from the running state
  (:func:`calculator.score_next`) and the seat that deals after it
  (:func:`dealing.dealer_sequence`).

An answer is ``{"ok": ...}`` or, for a deal the rules refuse, ``{"errors": [...]}``: the
body of the server's 400 answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from .calculator import INPUT_NOT_OBJECT, decode, score_deal, score_game, score_next
from .dealing import complete_points, dealer_sequence
from .errors import Message, RulesError, gettext_noop, msg
from .rulesets import get_ruleset

UNKNOWN_FUNCTION: Final = gettext_noop("No such engine function: {name}.")
MAX_BATCH: Final = 20_000
BATCH_TOO_LONG: Final = gettext_noop("A list of at most {most} deals.")


def next_deal(data: Mapping[str, Any]) -> dict[str, Any]:
    """``ruleset``, ``options``, ``totals``, ``pot``, ``deals_before``, ``dealer`` and
    ``deal``: the deal's answer, running totals, the game's state after it and who deals
    next."""
    if not isinstance(data, Mapping):
        raise RulesError(INPUT_NOT_OBJECT)
    spec = {"ruleset": data.get("ruleset"), "options": data.get("options") or {}}
    ruleset = get_ruleset(spec["ruleset"], spec["options"])
    deal = dict(data.get("deal") or {})
    if isinstance(deal.get("points"), Mapping):
        deal["points"] = complete_points(ruleset, deal["points"], trump=deal.get("trump"))
    if isinstance(deal.get("points_with_last"), Mapping):  # a klaverjas tally sheet's row
        deal["points_with_last"] = complete_points(
            ruleset, deal["points_with_last"], trump=deal.get("trump"), with_last=True
        )
    step = score_next(
        spec,
        deal,
        totals=data.get("totals") or {},
        pot=int(data.get("pot") or 0),
        deals_before=int(data.get("deals_before") or 0),
    )
    dealer = int(data.get("dealer") or 0)
    step["dealer"] = dealer
    step["next_dealer"] = dealer_sequence(ruleset, dealer, [step["deal"]])[-1]
    step["data"] = deal
    return step


def score_deals(data: Any) -> list[dict[str, Any]]:
    """Each deal of a list scored alone: its answer, or its errors."""
    if not isinstance(data, list) or len(data) > MAX_BATCH:
        raise RulesError(msg(BATCH_TOO_LONG, most=MAX_BATCH))
    answers: list[dict[str, Any]] = []
    for item in data:
        try:
            answers.append({"ok": score_deal(item)})
        except RulesError as exc:
            answers.append({"errors": translatable(exc.errors)})
    return answers


FUNCTIONS: Final[Mapping[str, Callable[[Any], Any]]] = {
    "score_deal": score_deal,
    "score_game": score_game,
    "score_deals": score_deals,
    "next_deal": next_deal,
}


def call(name: str, text: str) -> str:
    """Run engine function ``name`` on the JSON ``text``; the answer as JSON text."""
    function = FUNCTIONS.get(name)
    try:
        if function is None:
            raise RulesError(msg(UNKNOWN_FUNCTION, name=name))
        answer: dict[str, Any] = {"ok": function(decode(text))}
    except RulesError as exc:
        answer = {"errors": translatable(exc.errors)}
    return json.dumps(answer)


def translatable(errors: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Error entries for the phone, each with its message's template and values.

    JSON keeps only the English text of a :class:`~.errors.Message`; the phone's
    script shows ``gettext(template)`` filled with ``params`` (the JavaScript
    catalog holds the engine's templates), or ``message`` where there is none.
    """
    entries: list[dict[str, Any]] = []
    for entry in errors:
        out: dict[str, Any] = dict(entry)
        message = entry["message"]
        if isinstance(message, Message):
            out.update(_template(message))
        entries.append(out)
    return entries


def _template(message: Message) -> dict[str, Any]:
    """A message's template, values and (for one that counts) plural form and count; a
    value that is itself a message (``"20 card points"``) is given the same way."""
    params = {
        k: _template(v) if isinstance(v, Message) else v if isinstance(v, int | str) else str(v)
        for k, v in message.params.items()
    }
    found: dict[str, Any] = {"template": message.template, "params": params}
    if message.plural:
        found.update(plural=message.plural, count=message.count)
    return found


__all__ = ["FUNCTIONS", "call", "next_deal", "score_deals", "translatable"]
