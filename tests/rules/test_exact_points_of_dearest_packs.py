"""The dearest packs' card points are checked exactly too (RULES.md section 5, issue 19).

A pack whose exact table of joint card points would cost more than the bound (many high
house-rule card values with no common divisor) is first checked pile by pile: each side,
the left-out cards and every union of them on its own. That never refuses a real deal but
lets through splits of points that each pile allows and no one deal gives. Those are then
searched for exactly, one point vector at a time, and refused with the usual error.
"""

from __future__ import annotations

import random
import tracemalloc
from itertools import count, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clabber_league.rules import BUILTIN_RULESETS, RulesError, get_ruleset, score_deal
from clabber_league.rules import feasibility as feasibility_module
from clabber_league.rules.feasibility import (
    SEARCH_STATES_MAX,
    FeasibilityTable,
    PackShape,
    RelaxedTable,
    feasibility_table,
    forget_tables,
)
from tests.rules.strategies import RULES_SETTINGS

_names = count()
RELAXED_SLUGS = ("clabber-3", "clabber-2", "klaberjass", "klaberjass-3")


def _shape(ruleset) -> PackShape:
    return PackShape(
        ruleset.pack_card_values(False), ruleset.trick_size, ruleset.tricks, len(ruleset.sides)
    )


# --- the search agrees with the exact tables wherever those can be built ---------------------

# Small card values keep the exact tables cheap to build; every built-in rule set, so every
# way of taking tricks (two or three sides, with or without cards left out) is covered.
_small_values = st.integers(min_value=0, max_value=9)


@st.composite
def _small_packs(draw):
    slug = draw(st.sampled_from(list(BUILTIN_RULESETS)))
    ranks = BUILTIN_RULESETS[slug].pack_ranks
    high = 4 if slug == "klaberjass-3" else 9  # its exact check builds one table per out set
    values = st.integers(min_value=0, max_value=high)
    options = {
        "plain_points": {r: draw(values) for r in ranks},
        "trump_points": {r: draw(values) for r in ranks},
    }
    ruleset = get_ruleset({"name": f"small-{next(_names)}", "base": slug, "options": options})
    return _shape(ruleset)


@st.composite
def _queries(draw, shape: PackShape, table: FeasibilityTable):
    """Points near a real split (a shuffled pack cut into piles, then nudged), trick vectors
    right or wrong, and the last trick anywhere."""
    cards = draw(st.permutations(shape.values))
    cuts = sorted(
        draw(
            st.lists(
                st.integers(0, shape.played), min_size=shape.sides - 1, max_size=shape.sides - 1
            )
        )
    )
    points = [sum(cards[a:b]) for a, b in pairwise([0, *cuts, shape.played])]
    nudges = draw(
        st.lists(
            st.sampled_from((0, 0, 0, 1, -1, 2, -3)), min_size=shape.sides, max_size=shape.sides
        )
    )
    points = [p + n for p, n in zip(points, nudges, strict=True)]
    tricks = draw(st.one_of(st.none(), st.sampled_from(table.vectors)))
    last = draw(st.one_of(st.none(), st.integers(0, shape.sides - 1)))
    return points, tricks, last


@RULES_SETTINGS
@given(data=st.data(), shape=_small_packs())
def test_the_exact_search_agrees_with_the_exact_table(data, shape):
    table = FeasibilityTable(shape)
    forced = RelaxedTable(FeasibilityTable(shape))  # the path of the dearest packs, forced on
    for _ in range(12):
        points, tricks, last = data.draw(_queries(shape, table))
        expected = table.possible(points, tricks, last)
        assert table.search(points, tricks, last) is expected, (points, tricks, last)
        assert forced.possible(points, tricks, last) is expected, (points, tricks, last)


# --- impossible splits the pile-by-pile check let through are refused ------------------------


def _deficit_rules(slug: str) -> dict:
    """Every plain card worth 100, the trumps 100, 98, 98, 98, 97 and 97 (a Klaberjass
    pack's other two trumps 100 as well).

    A pile of n cards is then worth 100 n less the trumps' shortfalls 2, 2, 2, 3 and 3
    that it holds. Each pile (and each union of piles) can be 4 short (2 and 2), but three
    piles cannot all be: once two of them hold 2 and 2, the third is left 2, 3 and 3.
    So no pack is too dear for this to matter: a pile-by-pile check cannot see it.
    """
    ranks = BUILTIN_RULESETS[slug].pack_ranks
    trumps = dict.fromkeys(ranks, 100) | {"9": 98, "A": 98, "10": 98, "K": 97, "Q": 97}
    return {
        "name": f"shortfalls-{slug}",
        "base": slug,
        "options": {"plain_points": dict.fromkeys(ranks, 100), "trump_points": trumps},
    }


# Three piles 4 short each (the left-out cards are the third pile where there are some;
# klaberjass-3 leaves out two plain cards, 200, as a fourth pile): impossible.
IMPOSSIBLE = {
    "clabber-3": ({"A": 896, "B": 896, "C": 596}, {"A": 3, "B": 3, "C": 2}),
    "clabber-2": ({"A": 996, "B": 796}, {"A": 5, "B": 4}),
    "klaberjass": ({"A": 996, "B": 796}, {"A": 5, "B": 4}),
    "klaberjass-3": ({"A": 1196, "B": 896, "C": 896}, {"A": 4, "B": 3, "C": 3}),
}
# Short 5 (2 and 3), 5 (2 and 3) and 2: possible.
POSSIBLE = {
    "clabber-3": ({"A": 895, "B": 895, "C": 598}, {"A": 3, "B": 3, "C": 2}),
    "clabber-2": ({"A": 995, "B": 795}, {"A": 5, "B": 4}),
    "klaberjass": ({"A": 995, "B": 795}, {"A": 5, "B": 4}),
    "klaberjass-3": ({"A": 1195, "B": 895, "C": 898}, {"A": 4, "B": 3, "C": 3}),
}


def _deal(slug: str, points: dict, tricks: dict | None) -> dict:
    deal = {
        "ruleset": _deficit_rules(slug),
        "maker": "A",
        "trump": "hearts",
        "points": points,
        "last_trick": "A",
    }
    if tricks is not None:
        deal["tricks"] = tricks
    return deal


@pytest.mark.parametrize("with_tricks", [True, False], ids=["tricks", "no-tricks"])
@pytest.mark.parametrize("slug", RELAXED_SLUGS)
def test_a_split_every_pile_allows_but_no_deal_gives_is_refused(slug, with_tricks):
    points, tricks = IMPOSSIBLE[slug]
    ruleset = get_ruleset(_deficit_rules(slug))
    table = ruleset.feasibility(False)
    assert isinstance(table, RelaxedTable)  # the pack is one of the dearest
    values = [points[s] for s in ruleset.sides]
    vector = [tricks[s] for s in ruleset.sides] if with_tricks else None
    assert table.pile_by_pile(values, vector, 0)  # what used to be accepted
    with pytest.raises(RulesError) as caught:
        score_deal(_deal(slug, points, tricks if with_tricks else None))
    shown = ", ".join(f"{s} {points[s]}" for s in ruleset.sides)
    assert caught.value.errors == [
        {
            "field": "points",
            "message": f"These card points ({shown}) cannot be taken together from one pack "
            f"in shortfalls-{slug}.",
        }
    ]


@pytest.mark.parametrize("slug", RELAXED_SLUGS)
def test_a_split_one_deal_gives_is_still_accepted(slug):
    points, tricks = POSSIBLE[slug]
    assert score_deal(_deal(slug, points, tricks))["outcome"] in {"made", "set"}


# --- the search's work is bounded ---------------------------------------------------------


def _pack(slug: str, options: dict) -> PackShape:
    return _shape(get_ruleset({"name": f"worst-{next(_names)}", "base": slug, "options": options}))


def _many_high_values(slug: str) -> dict:
    ranks = BUILTIN_RULESETS[slug].pack_ranks
    return {
        "plain_points": {r: 100 - i for i, r in enumerate(ranks)},
        "trump_points": {r: 91 - i for i, r in enumerate(ranks)},
    }


# klaberjass-3 packs where a search for the most states (random packs of values from 0 to
# 100, then points climbed towards more states) found its worst: no common divisor, so many
# value-sets of the two left-out cards that no joint table is built; with each, the points
# that took the most states there (1,976 and 1,377; a cap of SEARCH_STATES_MAX is 50 times
# more).
_CLIMBED = (
    (
        (100, 93, 81, 81, 81, 80, 65, 65, 65, 65, 65, 65, 63, 62, 62, 62,
         38, 31, 31, 31, 28, 28, 28, 18, 12, 11, 8, 8, 8, 3, 3, 3),
        ([529, 41, 782], None, 0),
    ),
    (
        (99, 97, 97, 97, 93, 88, 81, 73, 73, 73, 73, 58, 58, 58, 41, 41,
         41, 22, 22, 22, 14, 10, 10, 10, 8, 6, 6, 6, 2, 2, 2, 2),
        ([564, 743, 12], None, 2),
    ),
)  # fmt: skip
WORST_PACKS = [
    *(PackShape(values, 3, 10, 3) for values, _ in _CLIMBED),
    _pack("klaberjass-3", _deficit_rules("klaberjass-3")["options"]),
    _pack("clabber-3", _deficit_rules("clabber-3")["options"]),
    *(_pack(slug, _many_high_values(slug)) for slug in RELAXED_SLUGS),
]
STEPS_BOUND = SEARCH_STATES_MAX // 20


def _near_splits(shape: PackShape, vectors, rng: random.Random, n: int):
    """Points of real splits of the pack into whole tricks, most of them nudged."""
    for _ in range(n):
        cards = list(shape.values)
        rng.shuffle(cards)
        cuts = sorted(
            t * shape.trick_size for t in rng.sample(range(shape.tricks + 1), shape.sides - 1)
        )
        points = [sum(cards[a:b]) for a, b in pairwise([0, *cuts, shape.played])]
        shift = rng.choice((0, 0, 0, 1, 2, 3, 5, 7, 11))
        points[rng.randrange(shape.sides)] += shift
        points[rng.randrange(shape.sides)] -= rng.choice((0, shift))
        tricks = None if rng.random() < 0.6 else rng.choice(vectors)
        yield points, tricks, rng.choice([None, *range(shape.sides)])


@pytest.mark.parametrize("shape", WORST_PACKS, ids=lambda s: f"{s.sides}x{s.tricks}-{s.values[:3]}")
def test_every_exact_search_stays_far_below_its_state_cap(shape):
    forget_tables()
    table = feasibility_table(shape)
    assert isinstance(table, RelaxedTable)  # one of the dearest packs
    queries = list(_near_splits(shape, table.vectors, random.Random(19), 300))
    queries += [query for values, query in _CLIMBED if values == shape.values]
    tracemalloc.start()
    try:
        most = searched = 0
        for points, tricks, last in queries:
            if not table.pile_by_pile(points, tricks, last):
                continue
            steps = [0]
            assert table.table.search(points, tricks, last, steps) is not None
            most = max(most, steps[0])
            searched += 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert searched > 30
    assert most < STEPS_BOUND, most
    assert peak < 50 * 2**20, f"{peak / 2**20:.1f} MB"


def test_a_search_that_reaches_its_cap_keeps_the_pile_by_pile_answer(monkeypatch):
    # A cap of one state, so that even a possible split cannot be found: the answer is the
    # filter's, which never refuses a real deal.
    monkeypatch.setattr(feasibility_module, "SEARCH_STATES_MAX", 1)
    forget_tables()
    points, _ = POSSIBLE["clabber-3"]
    ruleset = get_ruleset(_deficit_rules("clabber-3"))
    table = ruleset.feasibility(False)
    values = [points[s] for s in ruleset.sides]
    assert table.table.search(values, None, None) is None
    assert table.possible(values, None, None)
    forget_tables()
