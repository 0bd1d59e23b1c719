"""A delivery through the real Celery worker on Redis (PostgreSQL): a confirmed result
reaches a receiving server in a thread of this process, signed, and a failed try is tried
again by the worker after its wait. Without REDIS_URL it runs eagerly in-process. The test
waits for the receiver; it never sleeps for a fixed time."""

from __future__ import annotations

import pytest
from django.db import transaction
from standardwebhooks import Webhook

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.webhooks import services
from clabber_league.webhooks.models import Delivery
from tests.standings.conftest import A_WINS, play

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_confirmed_result_reaches_the_receiver_through_the_worker(
    celery_worker_process, receiver, club, division, teams, scorer, admin
):
    subscription = services.subscription_create(
        club=club, url=receiver.url, events=["result.confirmed"], user=admin
    )
    home, away = teams
    game = play(division, home, away, A_WINS, user=scorer)
    with transaction.atomic():
        games.game_confirm(game=game, user=admin, access=access_for(club=club, user=admin))
    [request] = receiver.wait(1)
    payload = Webhook(subscription.secret).verify(request.body, request.headers)
    assert payload["type"] == "result.confirmed" and payload["data"]["game"]["id"] == game.pk
    if celery_worker_process is not None:  # it really went through Redis to the worker
        assert "webhooks.deliver" in celery_worker_process["log"].read_text()


def test_a_failed_try_is_tried_again_by_the_worker(celery_worker_process, receiver, club, admin):
    if celery_worker_process is None:
        pytest.skip(
            "the worker's own retry needs a real worker (eager mode leaves it to the sweep)"
        )
    receiver.statuses = [503, 200]
    subscription = services.subscription_create(
        club=club, url=receiver.url, events=["result.confirmed"], user=admin
    )
    with transaction.atomic():
        delivery = services.subscription_test(subscription=subscription)
    received = receiver.wait(2, timeout=60)  # the first wait is 10 s
    assert len(received) == 2
    assert received[0].headers["webhook-id"] == received[1].headers["webhook-id"]
    delivery.refresh_from_db()
    for _ in range(100):  # the worker writes the log just after the answer
        if delivery.status == Delivery.Status.SUCCEEDED:
            break
        receiver.arrived.wait(0.1)
        delivery.refresh_from_db()
    assert list(delivery.log.values_list("status_code", flat=True)) == [503, 200]
