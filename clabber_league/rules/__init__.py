"""The Clabber League rules engine: pure Python, standard library only.

It knows the thirteen built-in rule sets (RULES.md section 2 and the two Dutch
klaverjas rule sets of section 7, ``rules/klaverjas.py``) and clubs' house rules,
checks a deal as a score sheet records it and scores deals and games (RULES.md).  Importing
it pulls in no web framework, so scripts, tests and the command line
(``python -m clabber_league.rules score|game|catalog``) can use it alone.

Public interface (docs/rules-engine-interface.md)::

    score_deal(data) -> dict            score_game(data) -> dict
    score_game_with_pot(data) -> (dict, pot)
    score_next(data, deal, *, totals, pot, deals_before) -> dict  (a game in progress)
    play_next(data, deal, *, totals, pot, deals_before, dealer, deal_limit=None) -> dict
        (score_next, the next dealer and the game's end by its deal limit, in one call)
    get_ruleset(spec, options=None)     ruleset_from_data(data)    RuleSet.to_data()
    BUILTIN_RULESETS                    catalog()                  catalog_markdown()
    next_dealer(ruleset, dealer, seats, *, outcome=None, winner=None)
    check_sheet_row(ruleset, options, maker, score, mark)
    RulesError (user-facing, ``.errors``)   RulesBug (cannot happen)
    MAX_DEALS (200 deals in a game)         MAX_ERRORS (50 errors listed)
"""

from __future__ import annotations

from .calculator import play_next, score_deal, score_game, score_game_with_pot, score_next
from .catalog import catalog, catalog_markdown
from .deal import Deal, DealResult, Outcome
from .errors import MAX_ERRORS, RulesBug, RulesError
from .game import MAX_DEALS, GameState, next_dealer, winner_at_close
from .rulesets import (
    BUILTIN_RULESETS,
    HOUSE_RULE_EXAMPLES,
    RuleSet,
    get_ruleset,
    ruleset_from_data,
)
from .scoring import score
from .sheet import check_sheet_row
from .validation import parse_deal

__all__ = [
    "BUILTIN_RULESETS",
    "HOUSE_RULE_EXAMPLES",
    "MAX_DEALS",
    "MAX_ERRORS",
    "Deal",
    "DealResult",
    "GameState",
    "Outcome",
    "RuleSet",
    "RulesBug",
    "RulesError",
    "catalog",
    "catalog_markdown",
    "check_sheet_row",
    "get_ruleset",
    "next_dealer",
    "parse_deal",
    "play_next",
    "ruleset_from_data",
    "score",
    "score_deal",
    "score_game",
    "score_game_with_pot",
    "score_next",
    "winner_at_close",
]
