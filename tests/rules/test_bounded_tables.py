"""The largest house-rule values stay in bounded memory (RULES.md section 5, issue 19).

Card values go up to 100 and meld values up to 1000. Checking a deal's card points builds
tables of which totals the pack can give; they must stay small however large the values.
Each case scores real deals (dealt and played by the simulator), a whole game and a sheet
row under those house rules, from cold caches, with tracemalloc watching the peak.
"""

from __future__ import annotations

import random
import tracemalloc
from itertools import count, pairwise

import pytest

from clabber_league.rules import (
    BUILTIN_RULESETS,
    RulesError,
    check_sheet_row,
    feasibility,
    get_ruleset,
    score_deal,
    score_game,
)
from clabber_league.rules.feasibility import (
    FeasibilityTable,
    PackShape,
    RelaxedTable,
    built_bytes,
    forget_tables,
)
from clabber_league.rules.options import CARD_VALUE_MAX, MELD_VALUE_MAX, ROEM_KINDS, TARGET_MAX
from clabber_league.rules.simulate import simulate_deal

MEMORY_BOUND = 50 * 2**20
_names = count()

# The meld kinds a house rule may value (a four or a run of this pack's ranks).
_MELDS_24 = (
    "four-J",
    "four-9",
    "four-A",
    "four-10",
    "four-K",
    "four-Q",
    "run-6",
    "run-5",
    "run-4",
    "run-3",
)
_MELDS_32 = (*_MELDS_24, "four-8", "four-7")


def _ranks(slug: str) -> tuple[str, ...]:
    return BUILTIN_RULESETS[slug].pack_ranks


def _largest(slug: str) -> dict:
    """Every card worth 100, every meld kind and the bell worth 1000."""
    ranks = _ranks(slug)
    melds = _MELDS_32 if len(ranks) == 8 else _MELDS_24
    if BUILTIN_RULESETS[slug].is_klaverjas:  # roem per trick instead of melds and a bell
        return {
            "trump_points": dict.fromkeys(ranks, CARD_VALUE_MAX),
            "plain_points": dict.fromkeys(ranks, CARD_VALUE_MAX),
            "roem_values": dict.fromkeys(ROEM_KINDS, MELD_VALUE_MAX),
        }
    return {
        "trump_points": dict.fromkeys(ranks, CARD_VALUE_MAX),
        "plain_points": dict.fromkeys(ranks, CARD_VALUE_MAX),
        "meld_values": dict.fromkeys(melds, MELD_VALUE_MAX),
        "bell_value": MELD_VALUE_MAX,
    }


def _high_and_varied(slug: str) -> dict:
    """Cards from 100 down in steps of 10, the trump suit apart from the plain suits."""
    ranks = _ranks(slug)
    return {
        "trump_points": {r: CARD_VALUE_MAX - 10 * i for i, r in enumerate(ranks)},
        "plain_points": {r: CARD_VALUE_MAX - 5 - 10 * i for i, r in enumerate(ranks)},
    }


def _one_ace_at_the_top(slug: str) -> dict:
    """The issue's case: a plain Ace worth the most, the rest as usual."""
    return {"plain_points": {"A": CARD_VALUE_MAX}}


def _many_high_values(slug: str) -> dict:
    """The dearest kind: 16 different values from 100 down, with no common divisor."""
    ranks = _ranks(slug)
    return {
        "plain_points": {r: CARD_VALUE_MAX - i for i, r in enumerate(ranks)},
        "trump_points": {r: CARD_VALUE_MAX - 9 - i for i, r in enumerate(ranks)},
    }


CASES = [_largest, _high_and_varied, _one_ace_at_the_top, _many_high_values]


def _house_rules(slug: str, options: dict) -> dict:
    # A fresh name each time, so no rule set or table is left over from another test; the
    # highest target, so that the game goes on through every deal.
    options = {**options, "target": TARGET_MAX}
    return {"name": f"bounded-{next(_names)}", "base": slug, "options": options}


def _exercise(slug: str, options: dict) -> None:
    rules = _house_rules(slug, options)
    ruleset = get_ruleset(rules)
    rng = random.Random(19)
    deals = [simulate_deal(ruleset, rng, passed_share=0, renege_share=0) for _ in range(12)]
    for deal in deals:  # played with these values, so each is checked in full and accepted
        assert score_deal({**deal, "ruleset": rules})["outcome"] in {"made", "set", "hung"}
    assert len(score_game({"ruleset": rules, "deals": deals})["deals"]) == len(deals)
    sides = ruleset.sides
    row = dict.fromkeys(sides, 1) | {sides[0]: 0}  # a maker set with 1 point to each other side
    with pytest.raises(RulesError):
        check_sheet_row(rules, None, sides[0], row, "set")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
@pytest.mark.parametrize("slug", list(BUILTIN_RULESETS))
def test_the_largest_house_rule_values_stay_under_the_memory_bound(slug, case):
    forget_tables()
    tracemalloc.start()
    try:
        _exercise(slug, case(slug))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"{slug}: {peak / 2**20:.1f} MB"


def test_the_cached_tables_stay_within_their_budget_whatever_the_house_rules(monkeypatch):
    # A small budget, so that 20 house rules of about 0.7 MB of tables each must share it.
    budget = 4 * 2**20
    monkeypatch.setattr(feasibility, "TABLE_BUDGET_BYTES", budget)
    forget_tables()
    scored = []
    for i in range(20):
        rules = _house_rules("clabber-3", {"plain_points": {"A": 60 + i, "10": 41}})
        deal = simulate_deal(get_ruleset(rules), random.Random(i), passed_share=0, renege_share=0)
        scored.append({**deal, "ruleset": rules})
        assert score_deal(scored[-1])["outcome"] in {"made", "set"}
        assert built_bytes() <= budget
    # The tables dropped to stay within it are built again when they are needed.
    for deal in scored[:5]:
        assert score_deal(deal)["outcome"] in {"made", "set"}


# --- the pile-by-pile check of the dearest packs never refuses a real deal -----------------


def _shapes():
    for slug in ("clabber-3", "klaberjass", "klaberjass-3"):
        ruleset = get_ruleset(
            _house_rules(
                slug,
                {
                    "plain_points": {"A": 13, "10": 9, "K": 7, "Q": 5},
                    "trump_points": {"J": 17, "9": 11, "A": 6},
                },
            )
        )
        values = ruleset.pack_card_values(False)
        yield PackShape(values, ruleset.trick_size, ruleset.tricks, len(ruleset.sides))


@pytest.mark.parametrize("shape", list(_shapes()), ids=lambda s: f"{s.sides}x{s.tricks}")
def test_the_pile_by_pile_check_accepts_every_split_the_exact_table_accepts(shape):
    exact = FeasibilityTable(shape)
    relaxed = RelaxedTable(FeasibilityTable(shape))
    rng = random.Random(7)
    accepted = refused = 0
    for _ in range(3000):
        # points near a real split: a random sum of cards, dealt out at random
        cards = list(shape.values)
        rng.shuffle(cards)
        cut = sorted(rng.sample(range(shape.played + 1), shape.sides - 1))
        bounds = [0, *cut, shape.played]
        points = [sum(cards[a:b]) + rng.choice((0, 0, 1, -1)) for a, b in pairwise(bounds)]
        tricks = rng.choice([None, rng.choice(exact.vectors)])
        last = rng.choice([None, *range(shape.sides)])
        if exact.possible(points, tricks, last):
            accepted += 1
            assert relaxed.pile_by_pile(points, tricks, last), (points, tricks, last)
        elif not relaxed.pile_by_pile(points, tricks, last):
            refused += 1
    assert accepted > 300
    assert refused > 300  # and it still refuses most of what is impossible
