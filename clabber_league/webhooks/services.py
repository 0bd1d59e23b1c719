"""Webhooks' writes: subscriptions, the deliveries events make, and each try to send one.

**Subscribing.** A club admin gives a URL (checked by ``guard``: http(s), a public address
unless ``CLABBER_WEBHOOKS_ALLOW_PRIVATE``) and the events it wants; the subscription gets
a fresh secret, shown to the admin once.

**Events.** The lower layers send their hooks inside their transactions; the handlers here
(``webhooks_*``, connected in ``WebhooksConfig.ready``) record one :class:`Delivery` per
active subscription of the club that wants the event, in the same transaction, and queue
them with ``transaction.on_commit``: a write that rolls back sends nothing. A result is
sent once, when its game becomes confirmed (``status_before`` was not confirmed).

**Sending.** ``delivery_attempt`` claims the delivery (one conditional UPDATE, so two
workers never send it twice at once), checks the URL again (DNS can change), signs
(``signing``), POSTs with a timeout per try (``send``) and logs the try (an
:class:`Attempt`). A failed try is tried again after ``RETRY_DELAYS``: 10 s, 1 min, 5 min,
30 min, 2 h, 6 h and 12 h, eight tries over about 21 hours, then the delivery is given up.
Short waits are re-queued by the task; every due delivery is also picked up by
``deliveries_due`` (the ``webhooks.deliver_due`` task, each minute), which is how long
waits and tries lost with a worker are sent. A subscription whose deliveries have all
failed for ``CLABBER_WEBHOOKS_DISABLE_AFTER_DAYS`` (5) is paused with a note saying why.
Deliveries are kept ``CLABBER_WEBHOOKS_KEEP_DAYS`` (30) days (``deliveries_purge``).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.clubs import names as text_names
from clabber_league.clubs.models import Club
from clabber_league.core.errors import CONFLICT, ServiceError
from clabber_league.events.models import Event, Round
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture

from . import guard, payloads, send, signing
from .models import SUBSCRIBABLE, Attempt, Delivery, EventType, Subscription

logger = logging.getLogger(__name__)

#: Waits before the 2nd, 3rd, ... 8th try of a failed delivery.
RETRY_DELAYS = (
    dt.timedelta(seconds=10),
    dt.timedelta(minutes=1),
    dt.timedelta(minutes=5),
    dt.timedelta(minutes=30),
    dt.timedelta(hours=2),
    dt.timedelta(hours=6),
    dt.timedelta(hours=12),
)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
MAX_SUBSCRIPTIONS = 10

EVENTS_NONE = gettext_lazy("Choose at least one event.")
EVENTS_UNKNOWN = gettext_lazy("Unknown event {name!r}: choose from {choices}.")
TOO_MANY = gettext_lazy("A club has at most {count} webhooks: delete one first.")
DESCRIPTION_LONG = gettext_lazy("At most 120 characters.")
URL_LONG = gettext_lazy("At most 500 characters.")
PAUSED_NOTE = gettext_lazy("Paused: the subscription is paused, so this was not sent.")
DISABLED_NOTE = gettext_lazy(
    "Paused by the server on {date}: every delivery failed for {days} days (the last: {error})."
    " Fix the receiver, then resume."
)
RESEND_BUSY = gettext_lazy("This delivery is being sent right now.")


class WebhookError(ServiceError):
    pass


# --- settings ------------------------------------------------------------------------------


def allow_private() -> bool:
    return bool(getattr(settings, "CLABBER_WEBHOOKS_ALLOW_PRIVATE", False))


def attempt_timeout() -> float:
    return float(getattr(settings, "CLABBER_WEBHOOKS_TIMEOUT", 10))


def kept_for() -> dt.timedelta:
    return dt.timedelta(days=float(getattr(settings, "CLABBER_WEBHOOKS_KEEP_DAYS", 30)))


def failing_for() -> dt.timedelta:
    return dt.timedelta(days=float(getattr(settings, "CLABBER_WEBHOOKS_DISABLE_AFTER_DAYS", 5)))


# --- subscriptions -------------------------------------------------------------------------


def _checked(url: str, events: Iterable[str], description: str) -> tuple[str, list[str]]:
    errors = []
    url = (url or "").strip()
    if len(url) > 500:
        errors.append({"field": "url", "message": str(URL_LONG)})
    else:
        try:
            guard.target(url, allow_private=allow_private())
        except guard.UnsafeURL as exc:
            errors.append({"field": "url", "message": str(exc)})
    chosen = list(dict.fromkeys(events or ()))
    known = {str(c) for c in SUBSCRIBABLE}
    if not chosen:
        errors.append({"field": "events", "message": str(EVENTS_NONE)})
    for name in chosen:
        if name not in known:
            message = EVENTS_UNKNOWN.format(name=name, choices=", ".join(sorted(known)))
            errors.append({"field": "events", "message": message})
    if len(description or "") > 120:
        errors.append({"field": "description", "message": str(DESCRIPTION_LONG)})
    if errors:
        raise WebhookError(errors)
    return url, [str(c) for c in SUBSCRIBABLE if str(c) in chosen]


@transaction.atomic
def subscription_create(
    *, club: Club, url: str, events: Iterable[str], description: str = "", user: Any = None
) -> Subscription:
    """A new subscription with a fresh secret (``subscription.secret``: show it once)."""
    url, chosen = _checked(url, events, description)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one count at a time
    if Subscription.objects.filter(club=club).count() >= MAX_SUBSCRIPTIONS:
        raise WebhookError.one("", str(TOO_MANY.format(count=MAX_SUBSCRIPTIONS)), kind=CONFLICT)
    return Subscription.objects.create(
        club=club,
        url=url,
        events=chosen,
        description=description or "",
        secret=signing.secret_new(),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def subscription_update(
    *,
    subscription: Subscription,
    url: str | None = None,
    events: Iterable[str] | None = None,
    description: str | None = None,
    active: bool | None = None,
) -> Subscription:
    """Change the URL, events, description, or pause (``active=False``) and resume."""
    subscription = Subscription.objects.select_for_update().get(pk=subscription.pk)
    url, chosen = _checked(
        subscription.url if url is None else url,
        subscription.events if events is None else events,
        subscription.description if description is None else description,
    )
    subscription.url, subscription.events = url, chosen
    if description is not None:
        subscription.description = description
    if active is not None and active != subscription.active:
        subscription.active = active
        if active:  # resumed: a fresh start
            subscription.disabled_at, subscription.note, subscription.failing_since = None, "", None
    subscription.save()
    return subscription


def subscription_delete(*, subscription: Subscription) -> None:
    subscription.delete()


@transaction.atomic
def subscription_secret_rotate(*, subscription: Subscription) -> Subscription:
    """A new secret (the old one stops signing at once): show it once."""
    subscription.secret = signing.secret_new()
    subscription.save(update_fields=["secret"])
    return subscription


# --- events --------------------------------------------------------------------------------


def event_emit(
    *,
    club_id: int,
    type_: str,
    data: Callable[[], dict[str, Any]],
    only: Subscription | None = None,
) -> list[Delivery]:
    """Record a delivery of one event to each active subscription of the club that wants
    it (or to ``only``), sent once the transaction commits. ``data`` is called only when
    someone listens, so an event nobody subscribed to costs one query."""
    if only is not None:
        subscriptions = [only]
    else:
        subscriptions = [
            s
            for s in Subscription.objects.filter(club_id=club_id, active=True)
            if type_ in s.events
        ]
    if not subscriptions:
        return []
    club = Club.objects.get(pk=club_id)
    event_id = payloads.event_id_new()
    body = payloads.envelope(event_id=event_id, type_=type_, club=club, data=data())
    now = timezone.now()
    deliveries = Delivery.objects.bulk_create(
        Delivery(
            subscription=s,
            event_id=event_id,
            event_type=type_,
            payload=body,
            next_attempt_at=now,
        )
        for s in subscriptions
    )
    ids = [d.pk for d in deliveries]
    if any(i is None for i in ids):  # a backend that gives no ids back from bulk_create
        ids = list(Delivery.objects.filter(event_id=event_id).values_list("pk", flat=True))
    transaction.on_commit(lambda: _enqueue(ids))
    return deliveries


def _enqueue(ids: list[int]) -> None:
    from .tasks import deliver

    for delivery_id in ids:
        try:
            deliver.apply_async(args=[delivery_id], retry=False, ignore_result=True)
        except Exception:  # the broker is down: the minute's sweep sends it later
            logger.exception("could not queue webhook delivery %s", delivery_id)


def webhooks_game_changed(*, game: Game, status_before: str | None = None, **_kwargs: Any) -> None:
    """games.hooks.game_changed: a game that has just become confirmed is a result."""
    if game.status != Game.Status.CONFIRMED or status_before == Game.Status.CONFIRMED:
        return
    event_emit(
        club_id=game.club_id,
        type_=EventType.RESULT_CONFIRMED,
        data=lambda: payloads.game_data(game),
    )


def webhooks_fixture_changed(*, fixture: Fixture, **_kwargs: Any) -> None:
    """scheduling.hooks.fixture_changed: a forfeit or walkover recorded, changed or undone."""
    change = "forfeit" if fixture.forfeit_winner_id else "result"
    event_emit(
        club_id=fixture.club_id,
        type_=EventType.FIXTURE_CHANGED,
        data=lambda: payloads.fixture_data(fixture, change),
    )


def webhooks_fixture_moved(*, fixture: Fixture, **_kwargs: Any) -> None:
    """scheduling.hooks.fixture_moved: moved to another night, venue or table, or postponed."""
    change = "postponed" if fixture.date is None else "moved"
    event_emit(
        club_id=fixture.club_id,
        type_=EventType.FIXTURE_CHANGED,
        data=lambda: payloads.fixture_data(fixture, change),
    )


def webhooks_draw_published(*, round_: Round, **_kwargs: Any) -> None:
    """events.hooks.draw_published: a club night's round is drawn."""
    event_emit(
        club_id=round_.event.club_id,
        type_=EventType.DRAW_PUBLISHED,
        data=lambda: payloads.draw_data(round_),
    )


def webhooks_night_finished(*, event: Event, **_kwargs: Any) -> None:
    """events.hooks.night_finished: the night's last round is closed."""
    event_emit(
        club_id=event.club_id,
        type_=EventType.NIGHT_FINISHED,
        data=lambda: payloads.night_data(event),
    )


@transaction.atomic
def subscription_test(*, subscription: Subscription) -> Delivery:
    """Send a ``webhook.test`` event to this one subscription (paused or not)."""
    return event_emit(
        club_id=subscription.club_id,
        type_=EventType.TEST,
        data=payloads.ping_data,
        only=subscription,
    )[0]


@transaction.atomic
def delivery_resend(*, delivery: Delivery) -> Delivery:
    """Send a delivery again now (same id and body: a receiver that has it can skip it);
    its earlier tries stay in the log and it gets a full set of tries again."""
    delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
    if delivery.status == Delivery.Status.SENDING and not _stale(delivery, timezone.now()):
        raise WebhookError.one("", str(RESEND_BUSY), kind=CONFLICT)
    delivery.status = Delivery.Status.PENDING
    delivery.next_attempt_at = timezone.now()
    delivery.claimed_at = None
    delivery.attempts = 0
    delivery.save(update_fields=["status", "next_attempt_at", "claimed_at", "attempts"])
    delivery_id = delivery.pk
    transaction.on_commit(lambda: _enqueue([delivery_id]))
    return delivery


# --- sending -------------------------------------------------------------------------------


def _stale_after() -> dt.timedelta:
    return dt.timedelta(seconds=attempt_timeout() * 2 + 60)


def _stale(delivery: Delivery, now: dt.datetime) -> bool:
    return delivery.claimed_at is None or delivery.claimed_at < now - _stale_after()


def _claimable(now: dt.datetime) -> Q:
    waiting = Q(status__in=[Delivery.Status.PENDING, Delivery.Status.RETRYING])
    return (waiting & Q(next_attempt_at__lte=now)) | Q(
        status=Delivery.Status.SENDING, claimed_at__lt=now - _stale_after()
    )


def deliveries_due(*, now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """The deliveries whose next try is due (or whose worker was lost), oldest first."""
    now = now or timezone.now()
    return list(
        Delivery.objects.filter(_claimable(now))
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def delivery_attempt(*, delivery_id: int, now: dt.datetime | None = None) -> float | None:
    """One try of a delivery that is due; answers the seconds until its next try, or None
    (delivered, given up, not due, or taken by another worker). Never raises for the
    receiver's failures: they are the try's log."""
    now = now or timezone.now()
    claimed = (
        Delivery.objects.filter(pk=delivery_id)
        .filter(_claimable(now))
        .update(status=Delivery.Status.SENDING, claimed_at=now)
    )
    if not claimed:
        return None
    delivery = Delivery.objects.select_related("subscription").get(pk=delivery_id)
    subscription = delivery.subscription
    if not subscription.active and delivery.event_type != EventType.TEST:
        # not the receiver's failure: logged, given up, and not counted against it
        return _record(delivery, send.Answer(None, 0, str(PAUSED_NOTE)), now, paused=True)
    return _record(delivery, _try(delivery, subscription), now)


def _try(delivery: Delivery, subscription: Subscription) -> send.Answer:
    try:
        target = guard.target(subscription.url, allow_private=allow_private())
    except guard.UnsafeURL as exc:
        return send.Answer(None, 0, str(exc)[:300])
    body = json.dumps(delivery.payload, separators=(",", ":"), ensure_ascii=False).encode()
    # signed when sent (the receiver checks the timestamp against its clock)
    headers = signing.headers(
        subscription.secret, msg_id=delivery.event_id, timestamp=int(time.time()), body=body
    )
    return send.post(target, body=body, headers=headers, timeout=attempt_timeout())


@transaction.atomic
def _record(
    delivery: Delivery, answer: send.Answer, now: dt.datetime, *, paused: bool = False
) -> float | None:
    subscription = (
        Subscription.objects.select_for_update().filter(pk=delivery.subscription_id).first()
    )
    if subscription is None:  # deleted while the try was made: nothing left to log
        return None
    number = delivery.log.count() + 1  # the log's numbering goes on across re-sends
    Attempt.objects.create(
        delivery=delivery,
        number=number,
        at=now,
        status_code=answer.status_code,
        duration_ms=answer.duration_ms,
        error=answer.error[:300],
    )
    delivery.attempts += 1  # tries since it was made or last re-sent
    delivery.claimed_at = None
    wait: dt.timedelta | None = None
    if answer.ok:
        delivery.status, delivery.delivered_at, delivery.next_attempt_at = (
            Delivery.Status.SUCCEEDED,
            now,
            None,
        )
        if subscription.failing_since is not None:
            subscription.failing_since = None
            subscription.save(update_fields=["failing_since"])
    else:
        if delivery.attempts < MAX_ATTEMPTS and subscription.active:
            wait = RETRY_DELAYS[delivery.attempts - 1]
            delivery.status, delivery.next_attempt_at = Delivery.Status.RETRYING, now + wait
        else:
            delivery.status, delivery.next_attempt_at = Delivery.Status.FAILED, None
        if not paused:
            _failing(subscription, answer, now)
    delivery.save(
        update_fields=["attempts", "claimed_at", "status", "delivered_at", "next_attempt_at"]
    )
    return wait.total_seconds() if wait is not None else None


def _failing(subscription: Subscription, answer: send.Answer, now: dt.datetime) -> None:
    if subscription.failing_since is None:
        subscription.failing_since = now
        subscription.save(update_fields=["failing_since"])
        return
    days = failing_for()
    if subscription.active and now - subscription.failing_since >= days:
        error = answer.error or f"HTTP {answer.status_code}"
        subscription.active = False
        subscription.disabled_at = now
        subscription.note = str(
            DISABLED_NOTE.format(
                date=now.date().isoformat(), days=round(days.total_seconds() / 86400), error=error
            )
        )[:300]
        subscription.save(update_fields=["active", "disabled_at", "note"])


def deliveries_purge(*, now: dt.datetime | None = None) -> int:
    """Forget the deliveries made more than ``CLABBER_WEBHOOKS_KEEP_DAYS`` (30) ago that are
    over (delivered or given up), with their tries: the daily ``webhooks.purge_deliveries``."""
    cutoff = (now or timezone.now()) - kept_for()
    over = [Delivery.Status.SUCCEEDED, Delivery.Status.FAILED]
    old = Delivery.objects.filter(created_at__lt=cutoff, status__in=over)
    return old.delete()[1].get(Delivery._meta.label, 0)


def webhooks_player_anonymised(*, player: Any, names: tuple[str, ...], name: str, **_: Any) -> None:
    """``clubs.hooks.player_anonymised``: a person erased. The payloads kept of the club's
    deliveries (sent or still to send) name them no more: the player's ``{"id", "name"}``
    takes ``name`` (their initials too, for a player who kept their name off public
    pages), and their old names are replaced in every other string."""
    found = text_names.pattern(names)
    rows = Delivery.objects.filter(subscription__club_id=player.club_id).only("id", "payload")
    for row in rows.iterator():
        payload = _player_renamed(row.payload, player.pk, name)
        payload = text_names.json_replaced(payload, found, name)
        if payload != row.payload:
            row.payload = payload
            row.save(update_fields=["payload"])


def _player_renamed(value: Any, player_id: int, name: str, *, seat: bool = False) -> Any:
    """``value`` with the player's entries (``payloads._player``, in a ``players`` or
    ``sit_outs`` list) named ``name``; a team or division of the same id is left alone."""
    if isinstance(value, list):
        return [_player_renamed(v, player_id, name, seat=seat) for v in value]
    if isinstance(value, dict):
        if seat and value.get("id") == player_id and "name" in value:
            return {**value, "name": name}
        return {
            k: _player_renamed(v, player_id, name, seat=k in PLAYER_LISTS)
            if isinstance(v, (list, dict))
            else v
            for k, v in value.items()
        }
    return value


#: The payloads' keys whose lists hold players (``payloads._player``).
PLAYER_LISTS = frozenset({"players", "sit_outs"})
