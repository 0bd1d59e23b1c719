"""Events become signed deliveries, sent after the transaction commits, tried again on a
schedule, logged per try; on SQLite with eager Celery (the real worker: test_worker.py)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import transaction
from django.utils import timezone
from standardwebhooks import Webhook

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.webhooks import services
from clabber_league.webhooks.models import Attempt, Delivery, EventType
from tests.standings.conftest import A_WINS, play
from tests.webhooks.conftest import schema_errors

pytestmark = pytest.mark.django_db


def confirmed_result(division, teams, scorer, admin, django_capture_on_commit_callbacks):
    home, away = teams
    with django_capture_on_commit_callbacks(execute=True):
        game = play(division, home, away, A_WINS, user=scorer)
    with django_capture_on_commit_callbacks(execute=True):
        return games.game_confirm(
            game=game, user=admin, access=access_for(club=game.club, user=admin)
        )


def test_a_confirmed_result_is_sent_once_signed_as_standard_webhooks_checks(
    receiver, subscribe, division, teams, scorer, admin, django_capture_on_commit_callbacks
):
    subscription = subscribe(receiver.url, events=["result.confirmed"])
    game = confirmed_result(division, teams, scorer, admin, django_capture_on_commit_callbacks)

    assert len(receiver.received) == 1  # the deals before it sent nothing
    request = receiver.received[0]
    assert request.path == "/hooks/clabber?x=1"
    # The Standard Webhooks reference library checks the signature and the timestamp.
    payload = Webhook(subscription.secret).verify(request.body, request.headers)
    assert schema_errors(request.body) == []  # docs/webhooks.schema.json
    assert payload["type"] == "result.confirmed"
    assert payload["version"] == 1
    assert payload["club"] == {"slug": game.club.slug, "name": game.club.name}
    assert payload["id"] == request.headers["webhook-id"]
    data = payload["data"]["game"]
    assert data["id"] == game.pk
    assert data["status"] == "confirmed"
    assert data["winner"] == "A"
    assert data["scores"] == {"A": game.score_a, "B": game.score_b}
    assert data["sides"]["A"]["team"]["name"] == "Mules"
    assert len(data["sides"]["B"]["players"]) == 2
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.SUCCEEDED
    assert [(a.number, a.status_code, a.error) for a in delivery.log.all()] == [(1, 204, "")]


def test_a_signature_over_another_body_or_with_another_secret_is_refused(
    receiver, subscribe, division, teams, scorer, admin, django_capture_on_commit_callbacks
):
    from standardwebhooks.webhooks import WebhookVerificationError

    subscription = subscribe(receiver.url, events=["result.confirmed"])
    confirmed_result(division, teams, scorer, admin, django_capture_on_commit_callbacks)
    request = receiver.received[0]
    with pytest.raises(WebhookVerificationError):
        Webhook(subscription.secret).verify(request.body.replace(b'"A"', b'"B"'), request.headers)
    other = services.subscription_secret_rotate(subscription=subscription)
    with pytest.raises(WebhookVerificationError):
        Webhook(other.secret).verify(request.body, request.headers)


def test_a_correction_after_confirmation_sends_no_second_result(
    receiver, subscribe, division, teams, scorer, admin, django_capture_on_commit_callbacks
):
    subscribe(receiver.url, events=["result.confirmed"])
    game = confirmed_result(division, teams, scorer, admin, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        from clabber_league.games.hooks import game_changed

        game_changed.send(game=game, status_before="confirmed", fixture=None)
    assert Delivery.objects.count() == 1
    assert len(receiver.received) == 1


def test_nothing_is_sent_when_the_transaction_rolls_back(
    receiver, subscribe, division, teams, scorer, admin, django_capture_on_commit_callbacks
):
    subscribe(receiver.url)
    home, away = teams
    with django_capture_on_commit_callbacks(execute=True):
        game = play(division, home, away, A_WINS, user=scorer)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        games.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))
        raise RuntimeError("something later in the request failed")
    assert callbacks == []
    assert Delivery.objects.count() == 0
    assert receiver.received == []


def test_only_the_events_subscribed_to_are_sent_and_only_to_the_club(
    receiver, subscribe, division, teams, scorer, admin, django_capture_on_commit_callbacks
):
    from tests.factories import ClubFactory

    subscribe(receiver.url, events=["night.finished"])
    services.subscription_create(club=ClubFactory(), url=receiver.url, events=["result.confirmed"])
    confirmed_result(division, teams, scorer, admin, django_capture_on_commit_callbacks)
    assert receiver.received == []


def test_a_failed_delivery_is_tried_again_on_the_schedule_then_given_up(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    receiver.statuses = [500]
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.RETRYING
    assert len(receiver.received) == 1
    now = delivery.log.get().at
    waits = []
    while delivery.status == Delivery.Status.RETRYING:
        wait = delivery.next_attempt_at - now
        waits.append(wait)
        # not due a second early (a worker asking before then sends nothing) ...
        assert services.delivery_attempt(delivery_id=delivery.pk, now=now + wait / 2) is None
        # ... and sent once due, by the minute's sweep
        now = now + wait
        assert services.deliveries_due(now=now) == [delivery.pk]
        services.delivery_attempt(delivery_id=delivery.pk, now=now)
        delivery.refresh_from_db()
    assert waits == list(services.RETRY_DELAYS)
    assert delivery.status == Delivery.Status.FAILED
    assert delivery.attempts == services.MAX_ATTEMPTS == len(receiver.received) == 8
    log = list(delivery.log.values_list("number", "status_code"))
    assert log == [(n, 500) for n in range(1, 9)]
    # every try is signed afresh, with the same id: a receiver may dedupe on it
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    for request in receiver.received:
        Webhook(subscription.secret).verify(request.body, request.headers)


def test_a_try_that_succeeds_after_failures_stops_the_schedule(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    receiver.statuses = [503, 502, 200]
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    for _ in range(2):
        delivery.refresh_from_db()
        services.delivery_attempt(delivery_id=delivery.pk, now=delivery.next_attempt_at)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED
    assert list(delivery.log.values_list("status_code", flat=True)) == [503, 502, 200]
    subscription.refresh_from_db()
    assert subscription.failing_since is None


def test_an_unreachable_receiver_is_logged_with_its_error(
    subscribe, settings, django_capture_on_commit_callbacks
):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    subscription = subscribe(f"http://127.0.0.1:{port}/")
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    attempt = Attempt.objects.get(delivery=delivery)
    assert attempt.status_code is None
    assert attempt.error.startswith("could not connect")
    assert "refused" in attempt.error.lower()


def test_a_receiver_slower_than_the_timeout_is_a_failed_try(
    receiver, subscribe, settings, django_capture_on_commit_callbacks
):
    settings.CLABBER_WEBHOOKS_TIMEOUT = 0.3
    receiver.delay = 3
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    delivery.refresh_from_db()
    [attempt] = delivery.log.all()
    assert (attempt.status_code, attempt.error) == (None, "timeout: no answer in time")
    assert 300 <= attempt.duration_ms < 3000
    assert delivery.status == Delivery.Status.RETRYING


def test_a_subscription_failing_for_days_is_paused_with_a_note(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    receiver.statuses = [500]
    subscription = subscribe(receiver.url)
    start = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        (first,) = services.event_emit(
            club_id=subscription.club_id, type_=EventType.NIGHT_FINISHED, data=dict
        )
    subscription.refresh_from_db()
    assert subscription.active and subscription.failing_since is not None
    later = start + dt.timedelta(days=5, minutes=1)
    with django_capture_on_commit_callbacks(execute=False):
        second = services.subscription_test(subscription=subscription)
    services.delivery_attempt(delivery_id=second.pk, now=later)
    subscription.refresh_from_db()
    assert not subscription.active
    assert subscription.disabled_at == later
    assert "every delivery failed for 5 days" in subscription.note
    assert "HTTP 500" in subscription.note
    # the paused subscription's pending retry is not sent (a test event would be: the
    # button checks a receiver before resuming); events no longer make deliveries
    count = len(receiver.received)
    first.refresh_from_db()
    services.delivery_attempt(delivery_id=first.pk, now=later + dt.timedelta(days=1))
    first.refresh_from_db()
    assert first.status == Delivery.Status.FAILED
    assert len(receiver.received) == count
    assert (
        services.event_emit(club_id=subscription.club_id, type_=EventType.NIGHT_FINISHED, data=dict)
        == []
    )
    # resumed: a fresh start
    services.subscription_update(subscription=subscription, active=True)
    subscription.refresh_from_db()
    assert subscription.active and subscription.note == "" and subscription.failing_since is None


def test_a_delivery_is_resent_with_its_id_and_a_fresh_set_of_tries(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    receiver.statuses = [500, 200]
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    with django_capture_on_commit_callbacks(execute=True):
        services.delivery_resend(delivery=delivery)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED
    assert list(delivery.log.values_list("number", "status_code")) == [(1, 500), (2, 200)]
    ids = {r.headers["webhook-id"] for r in receiver.received}
    assert ids == {delivery.event_id}
    assert json.loads(receiver.received[1].body)["type"] == "webhook.test"


def test_a_delivery_taken_by_one_worker_is_not_sent_by_another(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=False):
        delivery = services.subscription_test(subscription=subscription)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.SENDING, claimed_at=timezone.now()
    )
    assert services.delivery_attempt(delivery_id=delivery.pk) is None
    assert receiver.received == []
    # a claim whose worker was lost is taken again once stale
    later = timezone.now() + dt.timedelta(minutes=5)
    assert services.deliveries_due(now=later) == [delivery.pk]
    services.delivery_attempt(delivery_id=delivery.pk, now=later)
    assert len(receiver.received) == 1


def test_the_minutes_sweep_sends_what_is_due_and_is_a_periodic_task(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    from django.core.management import call_command
    from django_celery_beat.models import PeriodicTask

    from clabber_league.webhooks import tasks

    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=False):  # queued, but the broker lost it
        delivery = services.subscription_test(subscription=subscription)
    assert tasks.deliver_due.apply().get() == 1
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED and len(receiver.received) == 1
    assert schema_errors(receiver.received[0].body) == []
    assert tasks.deliver_due.apply().get() == 0
    call_command("setup_periodic_tasks")
    assert PeriodicTask.objects.get(task="webhooks.deliver_due").crontab.minute == "*"


def test_a_paused_webhook_sends_nothing_and_is_not_counted_as_failing(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=False):
        (delivery,) = services.event_emit(
            club_id=subscription.club_id, type_=EventType.NIGHT_FINISHED, data=dict
        )
    services.subscription_update(subscription=subscription, active=False)
    services.delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    subscription.refresh_from_db()
    assert receiver.received == []
    assert delivery.status == Delivery.Status.FAILED
    assert delivery.log.get().error == str(services.PAUSED_NOTE)
    assert subscription.failing_since is None


def test_deliveries_that_are_over_are_forgotten_after_30_days(
    receiver, subscribe, django_capture_on_commit_callbacks
):
    from clabber_league.webhooks import tasks

    receiver.statuses = [204, 500]
    subscription = subscribe(receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        done = services.subscription_test(subscription=subscription)
        retrying = services.subscription_test(subscription=subscription)
    month = timezone.now() + dt.timedelta(days=30, minutes=1)
    assert tasks.purge_deliveries.apply().get() == 0
    assert services.deliveries_purge(now=month) == 1
    assert list(Delivery.objects.values_list("pk", flat=True)) == [retrying.pk]
    assert not Attempt.objects.filter(delivery_id=done.pk).exists()
