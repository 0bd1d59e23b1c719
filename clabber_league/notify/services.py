"""Notifications' writes: a member's choices and devices, what the hooks record, and sending.

**Choosing.** On ``/me/settings/`` a member picks, per kind (``models.Kind``), push, email,
both or neither, and their quiet hours (``notify_settings_save``); each browser or phone
that agrees to web push is stored with its endpoint and keys (``push_subscription_save``).

**Recording.** The lower layers send their hooks inside their transactions; the handlers
here (``notify_*``, connected in ``NotifyConfig.ready``) write one :class:`Notification`
per member concerned, in that member's language (their own, else the club's), and queue
``notify.send`` with ``transaction.on_commit``: a write that rolls back tells nobody. A
cause sends once (``Notification.key``): a hook sent twice for the same thing adds nothing.

**Sending** (``notification_send``, the task): the row is claimed with one conditional
UPDATE; inside the member's quiet hours (in the club's time zone) a table or a draw is
dropped, anything else is held until the quiet hours end (``due_at``; the minute's sweep
``notifications_due`` sends it). Otherwise each chosen channel is tried: web push to every
device of the member (a device whose endpoint answers 404 or 410 is deleted), and an email
when they chose it and have an address. A member with no device gets the email, or
nothing; nothing fails.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs import names as text_names
from clabber_league.clubs.locale import club_locale, pick_language
from clabber_league.clubs.models import Club, Membership, Player
from clabber_league.core.errors import ServiceError
from clabber_league.core.mail import mail_send, site_url
from clabber_league.events.models import Event, Round
from clabber_league.events.selectors import SEAT_NAMES_4, event_ranking
from clabber_league.games.models import Game
from clabber_league.games.services import confirmation_state
from clabber_league.leagues.models import TeamMember
from clabber_league.members.models import MemberProfile
from clabber_league.reports.models import Report
from clabber_league.reports.selectors import report_players
from clabber_league.scheduling.models import Fixture
from clabber_league.webhooks import guard

from . import push
from .models import (
    DROPPED_WHEN_QUIET,
    Channel,
    Kind,
    Notification,
    NotifySettings,
    PushSubscription,
)

logger = logging.getLogger(__name__)

MAX_DEVICES = 10
#: A pending notification not picked up by its task this long after it was due (the
#: broker was down) is sent by the minute's sweep; one claimed this long ago lost its worker.
SWEEP_AFTER = dt.timedelta(minutes=2)
STALE_SENDING = dt.timedelta(minutes=5)

CHANNEL_UNKNOWN = _("Unknown channel {name!r}: choose push or email.")
KIND_UNKNOWN = _("Unknown kind of notification {name!r}.")
QUIET_BOTH = _("Give both the start and the end of your quiet hours, or neither.")
QUIET_SAME = _("The quiet hours start and end at the same time: leave both empty for none.")
ENDPOINT_BAD = _("This is not a push endpoint this server can send to: {reason}")
ENDPOINT_LONG = _("At most 1000 characters.")
KEY_BAD = _("A push subscription's {name} key, base64url, as the browser gives it.")
TOO_MANY_DEVICES = _("At most {count} devices: remove one first.")
DEVICE_UNKNOWN = _("No such device of yours.")

SEAT_NUMBER = _("seat {number}")

TABLE_TITLE = _("Round {round}: table {table}")
TABLE_BODY = _("{event}: you play round {round} at table {table}, {seat}, with {others}.")
SIT_OUT_TITLE = _("Round {round}: you sit out")
SIT_OUT_BODY = _("{event}: you sit out round {round}.")
DRAW_TITLE = _("The draw for round {round} is out")
DRAW_BODY = _("{event}: round {round} is drawn, {tables} tables.")
ACCEPT_TITLE = _("A result awaits your acceptance")
ACCEPT_BODY = _(
    "{game}: finished {score}. Accept the result for your side (My games), or raise a dispute."
)
# The dash is written, not escaped: xgettext keeps a "\u2013" escape as six letters, and a
# msgid that differs from the string at run time is never translated.
FIXTURE_MOVED_TITLE = _("Your fixture moved: {home} – {away}")  # noqa: RUF001
FIXTURE_MOVED_BODY = _("{home} – {away} ({division}) is now on {date}{where}.")  # noqa: RUF001
FIXTURE_POSTPONED_TITLE = _("Your fixture is postponed: {home} – {away}")  # noqa: RUF001
FIXTURE_POSTPONED_BODY = _(
    "{home} – {away} ({division}) is postponed: a new date will follow."  # noqa: RUF001
)
FIXTURE_WHERE = _(" at {venue}")
FIXTURE_TABLE = _(", table {table}")
RESULTS_TITLE = _("{event}: the results")
RESULTS_BODY_WINNER = _("{event} is over. Winner: {winner} with {points} points.")
RESULTS_BODY_YOU = _("You finished {place} of {count} with {points} points.")
TEST_TITLE = _("Clabber League")
TEST_BODY = _("Notifications reach this device.")


class NotifyError(ServiceError):
    pass


# --- settings ------------------------------------------------------------------------------


def vapid_public_key() -> str:
    return getattr(settings, "CLABBER_VAPID_PUBLIC_KEY", "") or ""


def push_configured() -> bool:
    return bool(vapid_public_key() and getattr(settings, "CLABBER_VAPID_PRIVATE_KEY", ""))


def allow_private() -> bool:
    """Endpoints on private addresses and plain http (a test's own push service)."""
    return bool(getattr(settings, "CLABBER_PUSH_ALLOW_PRIVATE", False))


# --- a member's choices --------------------------------------------------------------------


def settings_for(user: Any) -> NotifySettings:
    """The member's choices (unsaved defaults when they never saved any)."""
    found = NotifySettings.objects.filter(user=user).first()
    return found or NotifySettings(user=user, channels={})


@transaction.atomic
def notify_settings_save(
    *,
    user: Any,
    channels: Mapping[str, Iterable[str]],
    quiet_start: dt.time | None = None,
    quiet_end: dt.time | None = None,
) -> NotifySettings:
    """Save the channels chosen per kind (every kind: one missing means none) and the
    quiet hours (both or neither)."""
    errors = []
    kinds = {str(k) for k in Kind}
    chosen: dict[str, list[str]] = {k: [] for k in Kind.values}
    for kind, names in channels.items():
        if kind not in kinds:
            errors.append({"field": "channels", "message": KIND_UNKNOWN.format(name=kind)})
            continue
        for name in names:
            if name not in Channel.values:
                errors.append(
                    {"field": f"{kind}", "message": str(CHANNEL_UNKNOWN.format(name=name))}
                )
            elif name not in chosen[kind]:
                chosen[kind].append(name)
    if (quiet_start is None) != (quiet_end is None):
        field = "quiet_end" if quiet_end is None else "quiet_start"
        errors.append({"field": field, "message": str(QUIET_BOTH)})
    elif quiet_start is not None and quiet_start == quiet_end:
        errors.append({"field": "quiet_end", "message": str(QUIET_SAME)})
    if errors:
        raise NotifyError(errors)
    row, _created = NotifySettings.objects.select_for_update().get_or_create(user=user)
    row.channels = {k: [c for c in Channel.values if c in v] for k, v in chosen.items()}
    row.quiet_start, row.quiet_end = quiet_start, quiet_end
    row.save()
    return row


def _b64url(value: str) -> bool:
    import base64
    import binascii

    if not value or len(value) > 200:
        return False
    try:
        base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return all(c.isalnum() or c in "-_=" for c in value)


@transaction.atomic
def push_subscription_save(
    *, user: Any, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> PushSubscription:
    """Keep one device's push subscription (the same endpoint again: its keys are
    renewed, and it becomes this member's: one browser, another login)."""
    errors = []
    endpoint = (endpoint or "").strip()
    if len(endpoint) > 1000:
        errors.append({"field": "endpoint", "message": str(ENDPOINT_LONG)})
    else:
        reason = _endpoint_refusal(endpoint)
        if reason:
            errors.append({"field": "endpoint", "message": str(ENDPOINT_BAD.format(reason=reason))})
    for name, value in (("p256dh", p256dh), ("auth", auth)):
        if not _b64url(value or ""):
            errors.append({"field": f"keys.{name}", "message": str(KEY_BAD.format(name=name))})
    if errors:
        raise NotifyError(errors)
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
    existing = PushSubscription.objects.filter(endpoint=endpoint).first()
    others = PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint)
    if others.count() >= MAX_DEVICES:
        raise NotifyError.one("endpoint", str(TOO_MANY_DEVICES.format(count=MAX_DEVICES)))
    row = existing or PushSubscription(endpoint=endpoint)
    row.user, row.p256dh, row.auth, row.label = user, p256dh, auth, (label or "")[:120]
    row.save()
    return row


def _endpoint_refusal(endpoint: str) -> str:
    """Why the server must not POST to this endpoint, or "" (a browser's push service is
    https on a public address; a test's own may be http on 127.0.0.1 when allowed)."""
    if not endpoint.startswith("https://") and not allow_private():
        return "https only"
    try:
        guard.target(endpoint, allow_private=allow_private())
    except guard.UnsafeURL as exc:
        return str(exc)
    return ""


def push_subscription_delete(*, user: Any, pk: Any = None, endpoint: str = "") -> int:
    """Forget one of the member's devices (by id, or by endpoint: the browser unsubscribed)."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint:
        rows = rows.filter(endpoint=endpoint)
    elif str(pk).isdigit():
        rows = rows.filter(pk=pk)
    else:
        raise NotifyError.one("device", str(DEVICE_UNKNOWN), kind="not_found")
    deleted, _rows = rows.delete()
    if not deleted:
        raise NotifyError.one("device", str(DEVICE_UNKNOWN), kind="not_found")
    return deleted


# --- the hooks: nothing but a task queued once the write commits --------------------------


#: What each hook's task loads and records: cause -> (model, recorder).
def _causes() -> dict[str, tuple[Any, Callable[[Any], None]]]:
    return {
        "draw": (Round, record_draw),
        "acceptance": (Game, record_acceptance),
        "fixture": (Fixture, record_fixture_moved),
        "night": (Event, record_night_finished),
        "report": (Report, record_report_published),
    }


def _later(cause: str, pk: int) -> None:
    """Queue ``notify.record`` once the sender's transaction commits: the write that caused
    it pays no query for its notifications (a deal's budget, ``tests/games/test_statements``),
    and one that rolls back tells nobody."""

    def queue() -> None:
        from .tasks import record

        try:
            record.apply_async(args=[cause, pk], retry=False, ignore_result=True)
        except Exception:  # the broker is down: these notifications are not sent
            logger.exception("could not queue the notifications of %s %s", cause, pk)

    transaction.on_commit(queue)


def notifications_of(*, cause: str, pk: int) -> None:
    """The task's work: load what the hook named (gone: nothing) and record its
    notifications."""
    model, recorder = _causes()[cause]
    found = model.objects.filter(pk=pk).first()
    if found is not None:
        recorder(found)


def notify_draw_published(*, round_: Round, **_kwargs: Any) -> None:
    """events.hooks.draw_published."""
    _later("draw", round_.pk)


def notify_game_changed(*, game: Game, status_before: str | None = None, **_kwargs: Any) -> None:
    """games.hooks.game_changed: only a game that has just finished (acceptance awaited)."""
    if game.status == Game.Status.FINISHED and status_before != Game.Status.FINISHED:
        _later("acceptance", game.pk)


def notify_fixture_moved(*, fixture: Fixture, **_kwargs: Any) -> None:
    """scheduling.hooks.fixture_moved."""
    _later("fixture", fixture.pk)


def notify_night_finished(*, event: Event, **_kwargs: Any) -> None:
    """events.hooks.night_finished."""
    _later("night", event.pk)


def notify_report_published(*, report: Report, **_kwargs: Any) -> None:
    """reports.hooks.report_published."""
    _later("report", report.pk)


# --- recording -----------------------------------------------------------------------------


def _languages(user_ids: Iterable[int]) -> dict[int, str]:
    return dict(
        MemberProfile.objects.filter(user_id__in=list(user_ids))
        .exclude(language="")
        .values_list("user_id", "language")
    )


def notifications_record(
    *,
    club: Club | None,
    kind: str,
    key: str,
    recipients: Mapping[int, Any],
    render: Callable[[Any], tuple[str, str]],
    url: str = "",
) -> list[int]:
    """One notification per recipient (user id -> what ``render`` needs for them), each
    written by ``render`` in the member's language; queued once the transaction commits.
    A recipient already told of this ``key`` is skipped."""
    if not recipients:
        return []
    told = set(
        Notification.objects.filter(key=key, user_id__in=list(recipients)).values_list(
            "user_id", flat=True
        )
    )
    languages = _languages(recipients)
    now = timezone.now()
    rows = []
    for user_id, context in recipients.items():
        if user_id in told:
            continue
        language = languages.get(user_id, "")
        with _locale(club, language):
            title, body = render(context)
            language = translation.get_language() or ""
        rows.append(
            Notification(
                user_id=user_id,
                club=club,
                kind=kind,
                key=key[:120],
                title=" ".join(str(title).split())[:200],
                body=str(body)[:2000],
                url=url,
                language=language,
                due_at=now,
            )
        )
    if not rows:
        return []
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        Notification.objects.filter(
            key=key[:120], user_id__in=[r.user_id for r in rows], status=Notification.Status.PENDING
        ).values_list("pk", flat=True)
    )
    transaction.on_commit(lambda: _enqueue(ids))
    return ids


def _locale(club: Club | None, language: str) -> Any:
    """The member's language (else the club's) and the club's zone."""
    if club is not None:
        return club_locale(club, language=language or None)
    return translation.override(pick_language(language))


def _enqueue(ids: Iterable[int], eta: dt.datetime | None = None) -> None:
    from .tasks import send

    for pk in ids:
        try:
            send.apply_async(args=[pk], eta=eta, retry=False, ignore_result=True)
        except Exception:  # the broker is down: the minute's sweep sends it
            logger.exception("could not queue notification %s", pk)


def _seat_name(seat: int, seats: int) -> str:
    if seats == 4:
        return str(SEAT_NAMES_4[seat])
    return str(SEAT_NUMBER.format(number=seat + 1))


def _users_of_players(player_ids: Iterable[int]) -> dict[int, int]:
    """player id -> user id, for the players with a login."""
    return dict(
        Player.objects.filter(pk__in=list(player_ids), user__isnull=False).values_list(
            "pk", "user_id"
        )
    )


def _event_url(event: Event) -> str:
    return reverse("events:detail", kwargs={"club_slug": event.club.slug, "pk": event.pk})


def record_draw(round_: Round) -> None:
    """A round drawn: each seated player learns their table and seat; each
    player sitting out, that they do; the club's other members, that the draw is out."""
    event = round_.event
    club = event.club
    tables = list(round_.tables.order_by("number"))
    sit_outs = list(round_.sit_outs.values_list("player_id", flat=True))
    ids = {p for t in tables for p in t.seats} | set(sit_outs)
    players = Player.objects.in_bulk(ids)
    users = _users_of_players(ids)
    seated: dict[int, Any] = {}
    for table in tables:
        for seat, player_id in enumerate(table.seats):
            if player_id not in users:
                continue
            others = [players[p].name for p in table.seats if p != player_id and p in players]
            seated[users[player_id]] = (table.number, seat, len(table.seats), others)
    for player_id in sit_outs:
        if player_id in users:
            seated.setdefault(users[player_id], None)
    common = {"event": event.name, "round": round_.number}

    def render_table(context: Any) -> tuple[str, str]:
        if context is None:
            return SIT_OUT_TITLE.format(**common), SIT_OUT_BODY.format(**common)
        number, seat, size, others = context
        words = {"table": number, "seat": _seat_name(seat, size), "others": ", ".join(others)}
        return TABLE_TITLE.format(**common, **words), TABLE_BODY.format(**common, **words)

    url = _event_url(event)
    key = f"draw:{round_.pk}"
    notifications_record(
        club=club, kind=Kind.TABLE, key=key, recipients=seated, render=render_table, url=url
    )
    members = Membership.objects.filter(club=club, user__is_active=True).exclude(
        user_id__in=list(seated)
    )
    everyone = dict.fromkeys(members.values_list("user_id", flat=True))

    def render_draw(_context: Any) -> tuple[str, str]:
        words = {**common, "tables": len(tables)}
        return DRAW_TITLE.format(**words), DRAW_BODY.format(**words)

    notifications_record(
        club=club, kind=Kind.DRAW, key=key, recipients=everyone, render=render_draw, url=url
    )


def record_acceptance(game: Game) -> None:
    """A game that has just finished waits for the acceptance of each side that did not
    enter it; its players with a login are told."""
    if game.status != Game.Status.FINISHED:
        return
    state = confirmation_state(game=game)
    waiting = set(state.waiting)
    users = {account for side, _p, account in state.seats if side in waiting and account}
    if not users:
        return
    names = _users_of_seats(game)
    score = "\u2013".join(str(s) for s in game.scores if s is not None)

    def render(_context: Any) -> tuple[str, str]:
        return str(ACCEPT_TITLE), ACCEPT_BODY.format(game=names, score=score)

    notifications_record(
        club=game.club,
        kind=Kind.ACCEPTANCE,
        key=f"accept:{game.pk}:{state.last_revision}",
        recipients=dict.fromkeys(users),
        render=render,
        url=reverse("members:my-games"),
    )


def _users_of_seats(game: Game) -> str:
    sides: dict[str, list[str]] = {}
    for seat in game.seats.select_related("player").order_by("seat"):
        sides.setdefault(seat.side, []).append(seat.player.name)
    return " \u2013 ".join(" & ".join(names) for _side, names in sorted(sides.items()))


def record_fixture_moved(fixture: Fixture) -> None:
    """A fixture moved or postponed: the players of both teams learn the new date."""
    player_ids = TeamMember.objects.filter(team_id__in=(fixture.home_id, fixture.away_id))
    users = _users_of_players(player_ids.values_list("player_id", flat=True))
    if not users:
        return
    words = {
        "home": fixture.home.name,
        "away": fixture.away.name,
        "division": fixture.division.name,
    }

    def render(_context: Any) -> tuple[str, str]:
        if fixture.date is None:
            return FIXTURE_POSTPONED_TITLE.format(**words), FIXTURE_POSTPONED_BODY.format(**words)
        from django.utils.formats import date_format

        where = FIXTURE_WHERE.format(venue=fixture.venue.name) if fixture.venue_id else ""
        if fixture.table:
            where += FIXTURE_TABLE.format(table=fixture.table)
        date = date_format(fixture.date, "DATE_FORMAT")
        return (
            FIXTURE_MOVED_TITLE.format(**words),
            FIXTURE_MOVED_BODY.format(**words, date=date, where=where),
        )

    cause = f"{fixture.date}:{fixture.venue_id}:{fixture.table}:{fixture.status}"
    notifications_record(
        club=fixture.club,
        kind=Kind.FIXTURE,
        key=f"fixture:{fixture.pk}:{cause}",
        recipients=dict.fromkeys(set(users.values())),
        render=render,
        url=reverse("scheduling:index", kwargs={"club_slug": fixture.club.slug}),
    )


def record_night_finished(event: Event) -> None:
    """A club night over: every player of the night learns the winner and
    their own place."""
    ranking = event_ranking(event, to_member=True)
    if not ranking.lines or ranking.pairs:
        lines_by_player: dict[int, Any] = {}
    else:
        lines_by_player = {line.player: line for line in ranking.lines}
    player_ids = event.entries.values_list("player_id", flat=True)
    users = _users_of_players(player_ids)
    if not users:
        return
    top = ranking.lines[0] if ranking.lines else None
    count = len(ranking.lines)

    def render(line: Any) -> tuple[str, str]:
        title = RESULTS_TITLE.format(event=event.name)
        if top is None:
            return title, ""
        body = str(RESULTS_BODY_WINNER.format(event=event.name, winner=top.name, points=top.points))
        if line is not None:
            body += " " + RESULTS_BODY_YOU.format(
                place=line.position, count=count, points=line.points
            )
        return title, body

    notifications_record(
        club=event.club,
        kind=Kind.RESULTS,
        key=f"night:{event.pk}",
        recipients={user: lines_by_player.get(player) for player, user in users.items()},
        render=render,
        url=_event_url(event),
    )


def record_report_published(report: Report) -> None:
    """A league night's or a cup round's report is out: its players learn the results (a
    club night's already did, at its end)."""
    if report.kind == Report.Kind.NIGHT or not report.published:
        return
    users = _users_of_players(report_players(report))
    if not users:
        return
    lines = [line for line in report.body.splitlines() if line.strip()]
    summary = "\n".join(lines[:4])[:400]

    def render(_context: Any) -> tuple[str, str]:
        return RESULTS_TITLE.format(event=report.title), summary

    notifications_record(
        club=report.club,
        kind=Kind.RESULTS,
        key=f"report:{report.pk}",
        recipients=dict.fromkeys(set(users.values())),
        render=render,
        url=reverse("reports:detail", kwargs={"club_slug": report.club.slug, "pk": report.pk}),
    )


def notification_test(*, user: Any) -> list[int]:
    """A test push to the member's own devices (the settings page's button)."""

    def render(_context: Any) -> tuple[str, str]:
        return str(TEST_TITLE), str(TEST_BODY)

    return notifications_record(
        club=None,
        kind="test",
        key=f"test:{timezone.now().timestamp()}",
        recipients={user.pk: None},
        render=render,
        url=reverse("members:settings"),
    )


# --- sending -------------------------------------------------------------------------------


def quiet_until(row: NotifySettings, club: Club | None, now: dt.datetime) -> dt.datetime | None:
    """When the member's quiet hours end, if ``now`` is inside them (in the club's zone)."""
    start, end = row.quiet_start, row.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = club.zone if club is not None else timezone.get_default_timezone()
    local = now.astimezone(zone)
    t = local.time().replace(tzinfo=None)
    inside = start <= t < end if start < end else (t >= start or t < end)
    if not inside:
        return None
    day = local.date() if t < end else local.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, end, tzinfo=zone)


def notification_send(*, notification_id: int, now: dt.datetime | None = None) -> str:
    """Send one notification now (the task): quiet hours, then each chosen channel.
    Returns its status after the try."""
    now = now or timezone.now()
    claimed = Notification.objects.filter(
        Q(pk=notification_id),
        Q(status__in=[Notification.Status.PENDING, Notification.Status.HELD], due_at__lte=now)
        | Q(status=Notification.Status.SENDING, due_at__lte=now - STALE_SENDING),
    ).update(status=Notification.Status.SENDING, due_at=now)
    if not claimed:
        return ""
    notification = Notification.objects.select_related("club", "user").get(pk=notification_id)
    choices = settings_for(notification.user)
    if notification.kind == "test":
        chosen = [Channel.PUSH]
    else:
        chosen = choices.chosen(notification.kind)
        until = quiet_until(choices, notification.club, now)
        if until is not None:
            if notification.kind in DROPPED_WHEN_QUIET:
                return _finish(notification, Notification.Status.DROPPED, {})
            notification.status, notification.due_at = Notification.Status.HELD, until
            notification.save(update_fields=["status", "due_at"])
            pk = notification.pk
            _enqueue([pk], eta=until)
            return notification.status
    outcome = {"push": 0, "email": 0, "removed": 0}
    if Channel.PUSH in chosen and push_configured():
        outcome.update(_push_all(notification, now))
    if Channel.EMAIL in chosen and notification.user.email:
        outcome["email"] = _email(notification)
    reached = outcome["push"] or outcome["email"]
    status = Notification.Status.SENT if reached else Notification.Status.NOTHING
    return _finish(notification, status, outcome)


def _finish(notification: Notification, status: str, outcome: dict) -> str:
    notification.status, notification.outcome = status, outcome
    notification.sent_at = timezone.now()
    notification.save(update_fields=["status", "outcome", "sent_at"])
    return status


def _payload(notification: Notification) -> dict[str, Any]:
    return {
        "title": notification.title,
        "body": notification.body,
        "url": notification.url or "/",
        "tag": f"clabber-{notification.kind}",
        "lang": notification.language,
    }


def _push_all(notification: Notification, now: dt.datetime) -> dict[str, int]:
    sent = removed = 0
    payload = _payload(notification)
    for device in PushSubscription.objects.filter(user=notification.user_id):
        if _endpoint_refusal(device.endpoint):  # its address changed to a private one
            continue
        answer = push.send(device.info(), payload)
        if answer == push.SENT:
            sent += 1
            PushSubscription.objects.filter(pk=device.pk).update(last_sent_at=now)
        elif answer == push.GONE:
            removed += PushSubscription.objects.filter(pk=device.pk).delete()[0]
    return {"push": sent, "removed": removed}


def _email(notification: Notification) -> int:
    with _locale(notification.club, notification.language):
        try:
            return mail_send(
                to=[notification.user.email],
                subject=notification.title,
                template="notify/email/notification",
                context={
                    "notification": notification,
                    "club": notification.club,
                    "url": site_url(notification.url) if notification.url else "",
                    "settings_url": site_url(reverse("members:settings")),
                },
            )
        except Exception:  # one bad address must not stop the push, nor the others
            logger.exception("notification %s: email not sent", notification.pk)
            return 0


def notifications_due(now: dt.datetime | None = None) -> list[int]:
    """The notifications a task should send now: held ones whose quiet hours are over,
    pending ones the broker lost, and tries whose worker was lost."""
    now = now or timezone.now()
    due = Notification.objects.filter(
        Q(status=Notification.Status.HELD, due_at__lte=now)
        | Q(status=Notification.Status.PENDING, due_at__lte=now - SWEEP_AFTER)
        | Q(status=Notification.Status.SENDING, due_at__lte=now - STALE_SENDING)
    )
    return list(due.order_by("due_at").values_list("pk", flat=True)[:1000])


def notifications_purge(days: int = 30) -> int:
    cutoff = timezone.now() - dt.timedelta(days=days)
    return Notification.objects.filter(created_at__lt=cutoff).delete()[0]


def notify_player_anonymised(
    *, player: Player, names: tuple[str, ...], name: str, **_: Any
) -> None:
    """``clubs.hooks.player_anonymised``: a person erased. The club's notifications (a
    draw's table, a game awaiting acceptance, a night's winner) name them no more."""
    fields = ["title", "body"]
    text_names.names_replaced(
        Notification.objects.filter(club_id=player.club_id), fields, names, name, look_in=fields
    )
