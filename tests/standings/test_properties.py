"""Property: after any sequence of recorded, corrected and deleted deals, confirmations and
forfeits, the stored standings equal a full recomputation from the deals and forfeits."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.rules import get_ruleset
from clabber_league.rules.simulate import simulate_deal
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services import ScheduleError
from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
from clabber_league.standings.models import LeaderboardTotal
from clabber_league.standings.services.rebuild import standings_differences
from clabber_league.standings.services.totals import totals_differences

from .conftest import start

pytestmark = pytest.mark.django_db

RULESET = get_ruleset("clabber")

operation = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 2), st.integers(0, 10**6)),
    st.tuples(st.just("finish"), st.integers(0, 2), st.integers(0, 10**6)),
    st.tuples(st.just("correct"), st.integers(0, 2), st.integers(0, 10**6)),
    st.tuples(st.just("delete"), st.integers(0, 2), st.integers(0, 10**6)),
    st.tuples(st.just("confirm"), st.integers(0, 2), st.just(0)),
    st.tuples(st.just("forfeit"), st.integers(0, 2), st.just(0)),
)


def _deal(seed: int) -> tuple[dict, int | None]:
    rng = random.Random(seed)
    data = simulate_deal(RULESET, rng, passed_share=0.05, renege_share=0.05)
    maker = data.get("maker")
    seat = "AB".index(maker) + 2 * rng.randrange(2) if maker else None
    return data, seat


def _apply(game: Game, kind: str, seed: int, *, scorer, admin) -> None:
    game.refresh_from_db()
    deals = list(game.deals.order_by("number"))
    try:
        if kind == "record":
            games.deal_record(
                game_id=game.pk, data=_deal(seed)[0], maker_seat=_deal(seed)[1], user=scorer
            )
        elif kind == "finish":
            for step in range(60):
                game.refresh_from_db()
                if game.status != Game.Status.IN_PROGRESS:
                    break
                data, seat = _deal(seed + step)
                games.deal_record(game_id=game.pk, data=data, maker_seat=seat, user=scorer)
        elif kind == "correct" and deals:
            data, seat = _deal(seed)
            deal = deals[seed % len(deals)]
            games.deal_correct(deal=deal, data=data, maker_seat=seat, user=scorer)
        elif kind == "delete" and deals:
            games.deal_delete(deal=deals[seed % len(deals)], user=scorer)
        elif kind == "confirm":
            games.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))
        elif kind == "abandon":
            games.game_abandon(game=game, user=scorer)
    except games.GameError:
        pass  # a rejected change changes nothing; the property must hold all the same


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(operation, min_size=1, max_size=12))
def test_the_aggregates_always_equal_a_full_recomputation(
    operations, division, teams, scorer, admin
):
    with transaction.atomic():
        # Two games of one fixture (a match of two games) and one game outside the schedule.
        fixture = Fixture.objects.create(
            club=division.club,
            division=division,
            round_number=1,
            home=teams[0],
            away=teams[1],
            games_planned=2,
        )
        table = [
            start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=1),
            start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=2),
            start(division, teams[2], teams[3], user=scorer),
        ]
        # And a fixture of two games that one team forfeits (index 2: no forfeit at all).
        forfeited = Fixture.objects.create(
            club=division.club,
            division=division,
            round_number=2,
            home=teams[1],
            away=teams[2],
            games_planned=2,
        )
        for kind, index, seed in operations:
            if kind == "forfeit":
                try:
                    winners = (forfeited.home, forfeited.away)
                    if index < 2:
                        fixture_forfeit(fixture=forfeited, winner=winners[index])
                except ScheduleError:
                    pass  # already a forfeit
                continue
            _apply(table[index], kind, seed, scorer=scorer, admin=admin)
        counted = Game.objects.filter(pk__in=[g.pk for g in table]).exclude(status="in_progress")
        event(f"games counted: {counted.count()}")
        assert standings_differences(division=division) == []
        transaction.set_rollback(True)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    operations=st.lists(
        st.tuples(
            st.sampled_from(["finish", "finish", "correct", "delete", "abandon", "confirm"]),
            st.integers(0, 2),
            st.integers(0, 10**6),
        ),
        min_size=1,
        max_size=10,
    )
)
def test_the_leaderboard_totals_always_equal_their_games_lines(
    operations, division, teams, scorer, admin
):
    """Finishes, corrections (a meld or a game's result undone), deletions and abandons of
    games whose players meet again at another table: after every one, each total is
    the sum (and best meld the best) of its player's or partnership's lines."""
    with transaction.atomic():
        table = [
            start(division, teams[0], teams[1], user=scorer),
            start(division, teams[0], teams[1], user=scorer),
            start(division, teams[1], teams[2], user=scorer),
        ]
        for kind, index, seed in operations:
            _apply(table[index], kind, seed, scorer=scorer, admin=admin)
            assert totals_differences(division_ids=[division.pk]) == []
        totals = LeaderboardTotal.objects.filter(division=division)
        event(f"totals rows: {totals.count()}")
        assert not totals.filter(games__lte=0).exists()
        assert standings_differences(division=division) == []
        transaction.set_rollback(True)
