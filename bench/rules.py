"""Benchmark of the rules engine: validated deals scored per second, and a season replayed.

Run as ``python bench/rules.py`` (standard library only).  It generates legal
deals for every built-in rule set and the house-rule examples
(:mod:`clabber_league.rules.simulate`: cards dealt and played), then measures on one core:

1. ``score_deal``: each deal checked (feasible card points, melds, bell ...)
   and scored from its JSON, as the API and the CLI do;
2. ``score_game``: a season of 100,000 deals played as whole games, each
   replayed from its JSON.

Generation and the one-off building of the feasibility tables are not timed
(they are cached per rule set, as in a running server); the first run of each
measurement is a warm-up.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clabber_league.rules import (
    BUILTIN_RULESETS,
    HOUSE_RULE_EXAMPLES,
    RuleSet,
    get_ruleset,
    parse_deal,
    score,
    score_deal,
    score_game,
)
from clabber_league.rules.game import GameState
from clabber_league.rules.simulate import simulate_deal

TARGET_DEALS_PER_SECOND = 20_000
DEAL_SAMPLE = 50_000
SEASON_DEALS = 100_000
SEED = 20_240_501


def _rulesets() -> list[tuple[RuleSet, Any]]:
    """(rule set, its JSON spelling): the built-ins by slug, house rules as data."""
    found: list[tuple[RuleSet, Any]] = [(r, slug) for slug, r in BUILTIN_RULESETS.items()]
    found += [(get_ruleset(data), dict(data)) for data in HOUSE_RULE_EXAMPLES.values()]
    return found


def _deals(count: int, rng: random.Random) -> list[dict[str, Any]]:
    rulesets = _rulesets()
    deals = []
    for i in range(count):
        ruleset, spec = rulesets[i % len(rulesets)]
        deal = simulate_deal(ruleset, rng, tricks_share=0.5)
        deal["ruleset"] = spec
        deals.append(deal)
    return deals


def _season(total: int, rng: random.Random) -> list[dict[str, Any]]:
    """Whole games (each ends at its target) until ``total`` deals are played."""
    rulesets = _rulesets()
    games = []
    played = 0
    while played < total:
        ruleset, spec = rulesets[len(games) % len(rulesets)]
        state = GameState(ruleset)
        deals = []
        while not state.finished and played < total:
            deal = simulate_deal(ruleset, rng, tricks_share=0.5)
            state.add(score(ruleset, parse_deal(deal, ruleset), state.pot))
            deals.append(deal)
            played += 1
        games.append({"ruleset": spec, "deals": deals})
    return games


def _rate(work: int, run: Any, repeat: int = 3) -> float:
    run()  # warm-up: caches and tables
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return work / best


def main() -> int:
    rng = random.Random(SEED)
    deals = _deals(DEAL_SAMPLE, rng)
    season = _season(SEASON_DEALS, rng)

    def score_all() -> None:
        for deal in deals:
            score_deal(deal)

    def replay() -> None:
        for game in season:
            score_game(game)

    deal_rate = _rate(len(deals), score_all)
    season_rate = _rate(SEASON_DEALS, replay, repeat=1)
    rows = [
        ("score_deal (validated + scored)", f"{len(deals):,} deals", deal_rate),
        (
            "score_game (season replay)",
            f"{SEASON_DEALS:,} deals / {len(season):,} games",
            season_rate,
        ),
    ]
    print(f"{'measurement':<34} {'work':<28} {'deals/s':>10}")
    print("-" * 74)
    for name, work, rate in rows:
        print(f"{name:<34} {work:<28} {rate:>10,.0f}")
    verdict = "meets" if deal_rate >= TARGET_DEALS_PER_SECOND else "MISSES"
    print(f"\nscore_deal {verdict} the target of {TARGET_DEALS_PER_SECOND:,} deals/s on one core.")
    return 0 if deal_rate >= TARGET_DEALS_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
