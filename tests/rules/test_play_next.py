"""``play_next``: one call answers what recording a deal needs (the deal scored, who deals
next, whether the game is over) and it is what the whole game, scored again, answers.

The games app asks the engine once per deal; these tests hold that one answer to the
whole-game answer (``score_game_with_pot``), the dealers to ``dealer_sequence`` and the end
by a deal limit to ``winner_at_close``, deal after deal, for every built-in rule set.
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
    play_next,
    score_game_with_pot,
    winner_at_close,
)
from clabber_league.rules.dealing import dealer_sequence
from clabber_league.rules.simulate import simulate_game

GAMES = [{"ruleset": slug} for slug in BUILTIN_RULESETS] + [
    {"ruleset": "clabber", "options": {"tie_hangs": True}},
]


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32 - 1),
    first_dealer=st.integers(0, 3),
    deal_limit=st.none() | st.integers(1, 30),
)
def test_deal_after_deal_it_answers_the_whole_game_its_dealers_and_its_limit(
    game, seed, first_dealer, deal_limit
):
    ruleset = get_ruleset(game["ruleset"], game.get("options"))
    first_dealer %= ruleset.players
    deals = simulate_game(ruleset, random.Random(seed), max_deals=40)
    totals, pot, dealer = dict.fromkeys(ruleset.sides, 0), 0, first_dealer
    for number, deal in enumerate(deals):
        step = play_next(
            game,
            deal,
            totals=totals,
            pot=pot,
            deals_before=number,
            dealer=dealer,
            deal_limit=deal_limit,
        )
        whole, whole_pot = score_game_with_pot({**game, "deals": deals[: number + 1]})
        dealers = dealer_sequence(ruleset, first_dealer, whole["deals"])
        finished, winner = whole["finished"], whole["winner"]
        if not finished and deal_limit is not None and number + 1 >= deal_limit:
            finished, winner = True, winner_at_close(whole["scores"])
        assert step["deal"] == whole["deals"][number]
        assert step["running"] == whole["running"][number]
        assert (step["scores"], step["pot"]) == (whole["scores"], whole_pot)
        assert (step["dealer"], step["next_dealer"]) == (dealers[number], dealers[number + 1])
        assert (step["finished"], step["winner"]) == (finished, winner)
        if finished:
            break
        totals, pot, dealer = step["scores"], step["pot"], step["next_dealer"]


def test_a_game_called_after_its_limit_is_won_by_the_side_ahead():
    game = {"ruleset": "clabber"}
    ruleset = get_ruleset("clabber")
    deal = simulate_game(ruleset, random.Random(3))[0]
    step = play_next(
        game, deal, totals={"A": 0, "B": 0}, pot=0, deals_before=4, dealer=1, deal_limit=5
    )
    assert step["finished"] is True
    assert step["winner"] == winner_at_close(step["scores"])
    open_step = play_next(game, deal, totals={"A": 0, "B": 0}, pot=0, deals_before=4, dealer=1)
    assert open_step["finished"] is False and open_step["winner"] is None


def test_a_refused_deal_names_its_own_fields():
    with pytest.raises(RulesError) as refused:
        play_next(
            {"ruleset": "clabber"},
            {"maker": "Z"},
            totals={"A": 0, "B": 0},
            pot=0,
            deals_before=0,
            dealer=0,
        )
    assert refused.value.errors
    assert all(not e["field"].startswith("deals[") for e in refused.value.errors)
