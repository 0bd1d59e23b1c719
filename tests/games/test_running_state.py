"""The running state kept on the game row always equals re-scoring every deal.

A deal is recorded from the state on the game row (totals, the pot left hanging by tied
deals, who deals next: ``rules.score_next``), not by reading the earlier deals. Whatever
a scorer does (deals recorded, tied, corrected, deleted, rows copied from a paper sheet),
the stored state and every stored deal must equal what scoring the whole game again gives.
"""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clabber_league.games import adapters, services
from clabber_league.games.models import Game
from clabber_league.rules import get_ruleset, score_game_with_pot
from clabber_league.rules.dealing import dealer_sequence
from clabber_league.rules.simulate import simulate_deal

from .conftest import made

pytestmark = pytest.mark.django_db

RULES = {"name": "Clabber, tied deals hang", "base": "clabber", "options": {"tie_hangs": True}}
TIED = made("A", 71, last="A")  # 81 to 81: the deal's points hang in the pot

operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 10**6)),
    st.tuples(st.just("tie"), st.just(0)),
    st.tuples(st.just("correct"), st.integers(0, 10**6)),
    st.tuples(st.just("delete"), st.integers(0, 10**6)),
    st.tuples(st.just("sheet"), st.integers(0, 10**6)),
)


def _deal(seed: int) -> dict:
    return simulate_deal(get_ruleset("clabber"), random.Random(seed), passed_share=0.1)


def _apply(game: Game, kind: str, seed: int, scorer) -> None:
    deals = list(game.deals.order_by("number"))
    try:
        if kind == "record":
            services.deal_record(game_id=game.pk, data=_deal(seed), user=scorer)
        elif kind == "tie":
            services.deal_record(game_id=game.pk, data=TIED, user=scorer)
        elif kind == "correct" and deals:
            deal = deals[seed % len(deals)]
            services.deal_correct(deal=deal, data=TIED if seed % 2 else _deal(seed), user=scorer)
        elif kind == "delete" and deals:
            services.deal_delete(deal=deals[seed % len(deals)], user=scorer)
        elif kind == "sheet":
            row = {"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"}
            services.sheet_rows_record(game=game, rows=[row], user=scorer)
    except services.GameError:
        pass  # refused (the game is over, say): nothing changed, the property still holds


def _assert_state_is_the_whole_game_s(game: Game) -> None:
    game.refresh_from_db()
    rows = list(game.deals.order_by("number"))
    answer, pot = score_game_with_pot(adapters.game_input(game, [r.data for r in rows]))
    dealers = dealer_sequence(adapters.game_ruleset(game), game.first_dealer, answer["deals"])
    assert (game.score_a, game.score_b, game.deal_count) == (
        answer["scores"]["A"],
        answer["scores"]["B"],
        len(rows),
    )
    assert (game.pot, game.next_dealer) == (pot, dealers[-1])
    assert game.status == ("finished" if answer["finished"] else "in_progress")
    for row, deal, running, dealer in zip(
        rows, answer["deals"], answer["running"], dealers, strict=False
    ):
        assert (row.outcome, row.scores, row.running_a, row.running_b, row.dealer) == (
            deal["outcome"],
            deal["score"],
            running["A"],
            running["B"],
            dealer,
        )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, min_size=1, max_size=15))
def test_the_kept_state_equals_re_scoring_every_deal(operations, game, scorer):
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(rules=RULES)
        game.refresh_from_db()
        for kind, seed in operations:
            _apply(game, kind, seed, scorer)
            _assert_state_is_the_whole_game_s(game)
        transaction.set_rollback(True)


def test_a_tied_deal_s_pot_goes_to_the_next_deal_recorded(game, scorer):
    Game.objects.filter(pk=game.pk).update(rules=RULES)
    services.deal_record(game_id=game.pk, data=TIED, user=scorer)
    game.refresh_from_db()
    assert game.pot > 0 and (game.score_a, game.score_b) == (0, 0)
    services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    game.refresh_from_db()
    assert game.pot == 0
    assert game.score_a > 110  # the deal's own points and the pot
    _assert_state_is_the_whole_game_s(game)


def test_a_game_stored_before_its_state_was_kept_works_it_out_from_its_deals(game, scorer):
    for _ in range(3):
        services.deal_record(game_id=game.pk, data=made(), user=scorer)
    Game.objects.filter(pk=game.pk).update(next_dealer=None, pot=0)
    recorded = services.deal_record(game_id=game.pk, data=made(), user=scorer)
    assert (recorded.deal.number, recorded.deal.dealer) == (4, 3)
    _assert_state_is_the_whole_game_s(game)
