"""Two (or twenty) scorers at once: no deal lost, none recorded twice.

Threads need a database that serves several connections at once with row locks:
PostgreSQL. On SQLite (no DATABASE_URL) these tests are skipped with that reason;
CI always runs them, on PostgreSQL.
"""

import threading

import pytest
from django.db import connection, connections

from clabber_league.games import services
from clabber_league.games.models import Deal, Game

from .conftest import made

pytestmark = pytest.mark.django_db(transaction=True)


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises writers itself")


def _run_threads(count: int, work) -> list[BaseException]:
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def runner(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            work(index)
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return errors


def test_twenty_scorers_recording_at_once_lose_and_duplicate_nothing(game, scorer):
    _postgres_only()

    def work(index: int) -> None:
        game_row = Game.objects.get(pk=game.pk)
        services.deal_record(
            game_id=game_row.pk,
            data=made("A", 20 + index),
            user=scorer,
            idempotency_key=f"deal-{index}",
        )

    errors = _run_threads(20, work)
    finished_errors = [e for e in errors if isinstance(e, services.GameError)]
    assert len(errors) == len(finished_errors)  # only "game finished" may refuse a deal
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert len(deals) + len(finished_errors) == 20
    assert [d.number for d in deals] == list(range(1, len(deals) + 1))
    assert len({d.idempotency_key for d in deals}) == len(deals)
    # the stored running totals equal a fresh replay of the stored deals
    before = [(d.running, d.scores) for d in deals]
    game.refresh_from_db()
    services.game_rescore(game_id=game.pk)
    after = [(d.running, d.scores) for d in Deal.objects.filter(game=game).order_by("number")]
    assert before == after
    assert game.scores == deals[-1].running
    # and the standings aggregates equal a full recomputation from the deals
    from clabber_league.standings.services.rebuild import standings_differences

    assert standings_differences(division=game.division) == []


def test_the_same_deal_retried_from_many_threads_is_recorded_once(game, scorer):
    _postgres_only()

    def work(index: int) -> None:
        services.deal_record(game_id=game.pk, data=made(), user=scorer, idempotency_key="one-deal")

    assert _run_threads(10, work) == []
    assert Deal.objects.filter(game=game).count() == 1
