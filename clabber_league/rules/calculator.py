"""The calculator contract (RULES.md section 6): plain JSON data in, plain data out.

:func:`score_deal` scores one deal, :func:`score_game` a whole game; both take
the JSON objects of section 6 (already decoded) and return JSON-serialisable
dicts, or raise :class:`~clabber_league.rules.errors.RulesError` whose
``errors`` are the body of a 400 answer / an exit status 2.  The command line
(``python -m clabber_league.rules``) and the HTTP API both call these two.

A deal's answer has exactly ``outcome``, ``score``, ``totals``,
``meld_winner`` and ``meld_points``, every side present.  ``score_deal``
also accepts an optional ``pot`` (a whole number, default 0): a pot left
hanging by earlier ``tie_hangs`` deals, added to this deal's winner.

Both answer in bounded time and memory whatever the input: a game has at most
:data:`~clabber_league.rules.game.MAX_DEALS` deals, an answer lists at most
:data:`~clabber_league.rules.errors.MAX_ERRORS` errors, and a value of the wrong
JSON type (a list where a name belongs, ``2.0`` where a whole number does) is an
error on its field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from .deal import DealResult
from .dealing import dealer_sequence
from .errors import ErrorList, RulesError, gettext_noop, msg, shown
from .game import MAX_DEALS, GameState, winner_at_close
from .rulesets import RuleSet, get_ruleset
from .scoring import score
from .sheet import sheet_row_result
from .validation import is_whole, parse_deal

INPUT_NOT_OBJECT: Final = gettext_noop("The input must be a JSON object.")
MALFORMED_JSON: Final = gettext_noop("The input is not valid JSON: {detail}.")
TOO_DEEP: Final = gettext_noop("The input is nested too deeply to be a deal or a game.")
NOT_A_NUMBER: Final = gettext_noop("{name} is not a JSON number.")
RULESET_MISSING: Final = gettext_noop(
    'A rule set is needed: a slug such as "clabber", or house rules.'
)
POT_MAX: Final = 10**9
POT_NOT_WHOLE: Final = gettext_noop(
    "pot must be a whole number from 0 to 1,000,000,000, not {value}."
)
DEALS_NOT_LIST: Final = gettext_noop("deals must be a list of deals.")
DEALS_TOO_MANY: Final = gettext_noop("A game has at most {most} deals; this one lists {count}.")
DEAL_OTHER_RULESET: Final = gettext_noop(
    "A deal of a game is scored by the game's rule set; leave out {name} or give the game's."
)


def _ruleset(data: Any) -> RuleSet:
    if not isinstance(data, Mapping):
        raise RulesError(INPUT_NOT_OBJECT)
    spec = data.get("ruleset")
    if spec is None:
        raise RulesError(RULESET_MISSING, "ruleset")
    return get_ruleset(spec, data.get("options"))


def _no_constant(name: str) -> Any:
    raise ValueError(msg(NOT_A_NUMBER, name=name))


def decode(text: str) -> Any:
    """Strict JSON text to data (no ``NaN`` or ``Infinity``); RulesError for anything else.

    The command line and the HTTP twin both read their input with it, so they accept
    and refuse the same bodies.
    """
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RulesError(TOO_DEEP) from None
    except ValueError as exc:
        raise RulesError(msg(MALFORMED_JSON, detail=str(exc)[:200])) from None


def _same_or_absent(value: Any, game: Any) -> bool:
    """A deal's own ``ruleset`` / ``options``: left out, empty or the game's own."""
    if value is None or (isinstance(value, Mapping) and not value):
        return True
    try:
        return bool(value == game)
    except RecursionError:  # two deeply nested values: not worth comparing
        return False


def score_deal(data: Mapping[str, Any]) -> dict[str, Any]:
    """One deal's JSON (``ruleset``, ``options``, ``maker`` ...) to its ``score`` answer."""
    ruleset = _ruleset(data)
    pot = data.get("pot", 0)
    if pot is None:
        pot = 0
    if not is_whole(pot) or pot > POT_MAX:
        raise RulesError(msg(POT_NOT_WHOLE, value=shown(pot)), "pot")
    return score(ruleset, parse_deal(data, ruleset), pot).to_data()


def score_game(data: Mapping[str, Any]) -> dict[str, Any]:
    """A game's JSON (``ruleset``, ``options``, ``deals``) to its ``game`` answer."""
    return _play(data)[0]


def score_game_with_pot(data: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """:func:`score_game`'s answer and the pot still hanging after its last deal: what a
    record keeps beside a game in progress so that :func:`score_next` can go on from it."""
    answer, state = _play(data)
    return answer, state.pot


def score_next(
    data: Mapping[str, Any],
    deal: Any,
    *,
    totals: Mapping[str, int],
    pot: int,
    deals_before: int,
) -> dict[str, Any]:
    """The next deal of a game in progress, from the game's running state alone.

    ``data`` is the game's JSON without its deals (``ruleset``, ``options``); ``totals``,
    ``pot`` and ``deals_before`` are the running totals, the hanging pot and the number of
    deals after the earlier deals, as :func:`score_game_with_pot` left them. The answer
    is what :func:`score_game` would answer for the game with ``deal`` added, for that
    deal: ``deal`` (its answer), ``running``, ``scores``, ``finished``, ``winner`` and
    ``pot``. Errors name the deal's own fields. Equal to scoring the whole game again
    (tests/rules/test_score_next.py checks it over simulated games).
    """
    return _score_next(
        _ruleset(data), data, deal, totals=totals, pot=pot, deals_before=deals_before
    )


def _score_next(
    ruleset: RuleSet,
    data: Mapping[str, Any],
    deal: Any,
    *,
    totals: Mapping[str, int],
    pot: int,
    deals_before: int,
) -> dict[str, Any]:
    state = GameState(ruleset)
    state.totals.update({side: int(totals.get(side, 0)) for side in ruleset.sides})
    state.pot = pot
    state.deals = deals_before
    result = _scored(ruleset, _parsed(ruleset, data, deal), state.pot)
    running = state.add(result)
    return {
        "deal": result.to_data(),
        "running": running,
        "scores": dict(state.totals),
        "finished": state.finished,
        "winner": state.winner,
        "pot": state.pot,
    }


def play_next(
    data: Mapping[str, Any],
    deal: Any,
    *,
    totals: Mapping[str, int],
    pot: int,
    deals_before: int,
    dealer: int,
    deal_limit: int | None = None,
) -> dict[str, Any]:
    """Everything a game in progress needs to record its next deal, in one call: the
    deal scored from the game's running state (:func:`score_next`'s answer), who deals
    after it, and whether the game is over.

    ``dealer`` is the seat dealing this deal; ``deal_limit`` the most deals the game is
    played over (a round of N deals, or time called), None for none. The answer is
    :func:`score_next`'s (``deal``, ``running``, ``scores``, ``pot``), with ``finished``
    and ``winner`` also true of a game ended by its deal limit short of the target (won by
    the side ahead, :func:`winner_at_close`), plus ``dealer`` (this deal's) and
    ``next_dealer``: the seat that deals next, kept even after the game's last deal (a
    correction or a raised limit can reopen it). Equal to scoring the whole game with
    :func:`score_game_with_pot`, the dealers with ``dealing.dealer_sequence`` and the
    limit applied (tests/rules/test_play_next.py)."""
    ruleset = _ruleset(data)
    step = _score_next(ruleset, data, deal, totals=totals, pot=pot, deals_before=deals_before)
    step["dealer"] = dealer
    step["next_dealer"] = dealer_sequence(ruleset, dealer, [step["deal"]])[-1]
    if not step["finished"] and deal_limit is not None and deals_before + 1 >= deal_limit:
        step["finished"], step["winner"] = True, winner_at_close(step["scores"])
    return step


def _parsed(ruleset: RuleSet, data: Mapping[str, Any], raw: Any) -> Any:
    """One deal of a game read and checked: a parsed deal, or the result of a row copied
    from a paper sheet (RulesError if refused)."""
    if isinstance(raw, Mapping):
        for name in ("ruleset", "options"):
            if not _same_or_absent(raw.get(name), data.get(name)):
                raise RulesError(msg(DEAL_OTHER_RULESET, name=name), name)
    if isinstance(raw, Mapping) and "sheet" in raw:
        return sheet_row_result(ruleset, raw)  # a row copied from a paper sheet
    return parse_deal(raw, ruleset)


def _scored(ruleset: RuleSet, parsed: Any, pot: int) -> DealResult:
    return parsed if isinstance(parsed, DealResult) else score(ruleset, parsed, pot)


def _play(data: Mapping[str, Any]) -> tuple[dict[str, Any], GameState]:
    ruleset = _ruleset(data)
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise RulesError(DEALS_NOT_LIST, "deals")
    if len(deals) > MAX_DEALS:
        raise RulesError(msg(DEALS_TOO_MANY, most=MAX_DEALS, count=len(deals)), "deals")
    errors = ErrorList()
    state = GameState(ruleset)
    answers: list[dict[str, Any]] = []
    running: list[dict[str, int]] = []
    broken = False  # after a rejected deal the running totals are unknown
    for i, raw in enumerate(deals):
        path = f"deals[{i}]"
        if not broken and state.finished:
            try:
                state.check_open()
            except RulesError as exc:
                errors.extend(exc, path)
            continue
        try:
            parsed = _parsed(ruleset, data, raw)
        except RulesError as exc:
            errors.extend(exc, path)
            broken = True
            continue
        if broken:
            continue
        result = _scored(ruleset, parsed, state.pot)
        answers.append(result.to_data())
        running.append(state.add(result))
    errors.raise_if_any()
    answer = {
        "deals": answers,
        "running": running,
        "scores": dict(state.totals),
        "finished": state.finished,
        "winner": state.winner,
    }
    return answer, state
