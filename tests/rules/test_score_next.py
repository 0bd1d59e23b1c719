"""``score_next`` goes on from a game's running state and answers what ``score_game`` would.

The games app records a deal from the state it keeps on the game row (the running
totals, the hanging pot, the number of deals) instead of reading and re-scoring every
earlier deal; these tests hold that shortcut to the whole-game answer, deal after deal,
for every built-in rule set and for house rules where a tied deal leaves a pot hanging.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.rules import (
    BUILTIN_RULESETS,
    RulesError,
    get_ruleset,
    score_game,
    score_game_with_pot,
    score_next,
)
from clabber_league.rules.simulate import simulate_game

GAMES = [{"ruleset": slug} for slug in BUILTIN_RULESETS] + [
    {"ruleset": "clabber", "options": {"tie_hangs": True}},
    {"ruleset": "klaberjass-4", "options": {"tie_hangs": True}},
]


def _replayed(game: dict, deals: list[dict]) -> list[dict]:
    """Every deal scored by ``score_next`` from the state the deals before it left."""
    ruleset = get_ruleset(game["ruleset"], game.get("options"))
    totals, pot, steps = dict.fromkeys(ruleset.sides, 0), 0, []
    for number, deal in enumerate(deals):
        step = score_next(game, deal, totals=totals, pot=pot, deals_before=number)
        totals, pot = step["scores"], step["pot"]
        steps.append(step)
    return steps


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_deal_after_deal_it_answers_what_the_whole_game_answers(game, seed):
    ruleset = get_ruleset(game["ruleset"], game.get("options"))
    deals = simulate_game(ruleset, random.Random(seed), max_deals=60)
    steps = _replayed(game, deals)
    for number, step in enumerate(steps):
        whole, pot = score_game_with_pot({**game, "deals": deals[: number + 1]})
        assert step["deal"] == whole["deals"][number]
        assert step["running"] == whole["running"][number]
        assert (step["scores"], step["finished"], step["winner"], step["pot"]) == (
            whole["scores"],
            whole["finished"],
            whole["winner"],
            pot,
        )


def test_a_pot_left_hanging_goes_to_the_next_deal_s_winner():
    game = {"ruleset": "clabber", "options": {"tie_hangs": True}}
    tied = {"maker": "A", "trump": "hearts", "points": {"A": 71, "B": 81}, "last_trick": "A"}
    won = {"maker": "A", "trump": "hearts", "points": {"A": 100, "B": 52}, "last_trick": "A"}
    first = score_next(game, tied, totals={"A": 0, "B": 0}, pot=0, deals_before=0)
    second = score_next(game, won, totals=first["scores"], pot=first["pot"], deals_before=1)
    whole = score_game({**game, "deals": [tied, won]})
    assert first["pot"] > 0
    assert second["running"] == whole["running"][1]
    assert second["pot"] == 0


def test_a_refused_deal_names_its_own_fields():
    with pytest.raises(RulesError) as caught:
        score_next(
            {"ruleset": "clabber"},
            {"maker": "A", "trump": "hearts", "points": {"A": 200, "B": 0}, "last_trick": "A"},
            totals={"A": 0, "B": 0},
            pot=0,
            deals_before=0,
        )
    assert all(not e["field"].startswith("deals[") for e in caught.value.errors)
    assert any(e["field"].startswith("points") for e in caught.value.errors)
