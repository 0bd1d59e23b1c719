"""The ranking's writes: its recomputation, the hook that queues it, its settings.

``ranking_recompute`` rebuilds a federation's ranking whole from every source
(``sources.all_events``) in one transaction: the events rated, each player's history and
their ratings are deleted and written again, so the ranking never depends on the order in
which results arrived and a corrected or removed result simply drops out. It is run by the
Celery task ``ranking.recompute`` (``tasks.py``), queued once the transaction that confirmed
(or changed a confirmed) game commits: ``ranking_game_changed``, the handler of
``games.hooks.game_changed``. A source outside the games (the exchange's imports) queues it
with ``ranking_results_changed(federation_id=...)``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_noop

from clabber_league.core.errors import ServiceError
from clabber_league.federation.models import Federation, FederationClub, FederationPlayer
from clabber_league.games.models import Game

from . import compute
from .models import NationalRating, OrganiserSpace, RankedEvent, RankingSettings, RatingStep
from .sources import all_events

PLACING_POINTS_SHAPE = gettext_noop(
    "Give a list of whole points (at least 0) for each event category, e.g. "
    '{"night": [5, 3, 2, 1]}.'
)
PRIVATE_UNKNOWN = gettext_noop("Choose to anonymise or to hide private players.")


class RankingError(ServiceError):
    """A ranking setting refused."""


def ranking_settings(federation: Federation) -> RankingSettings:
    """The federation's settings, created with the defaults the first time."""
    settings, _ = RankingSettings.objects.get_or_create(federation=federation)
    return settings


def ranking_settings_update(
    *, federation: Federation, private_players: str | None = None, placing_points: Any = None
) -> RankingSettings:
    """Change how private players show and what a placing is worth; the ranking is
    recomputed (on commit) when the points change."""
    errors = []
    if private_players is not None and private_players not in RankingSettings.Private.values:
        errors.append({"field": "private_players", "message": PRIVATE_UNKNOWN})
    if placing_points is not None and not (
        isinstance(placing_points, dict)
        and all(
            isinstance(k, str)
            and isinstance(v, list)
            and all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in v)
            for k, v in placing_points.items()
        )
    ):
        errors.append({"field": "placing_points", "message": PLACING_POINTS_SHAPE})
    if errors:
        raise RankingError(errors)
    with transaction.atomic():
        settings = ranking_settings(federation)
        if private_players is not None:
            settings.private_players = private_players
        if placing_points is not None and placing_points != settings.placing_points:
            settings.placing_points = placing_points
            ranking_results_changed(federation_id=federation.pk)
        settings.save()
    return settings


def _resolver(federation: Federation):
    """Federation numbers to the ids of the players kept (a merged number is followed to
    the record it was merged into); one query."""
    rows = FederationPlayer.objects.filter(federation=federation).values_list(
        "pk", "number", "merged_into_id"
    )
    by_number, into = {}, {}
    for pk, number, merged_into in rows:
        by_number[number] = pk
        into[pk] = merged_into

    def kept(pk: int) -> int:
        seen = set()
        while into.get(pk) and pk not in seen:
            seen.add(pk)
            pk = into[pk]
        return pk

    def resolve(event: compute.EventResult) -> list[list[int]]:
        return [
            [kept(by_number[n]) for n in side.numbers if n in by_number] for side in event.sides
        ]

    return resolve


def _restart(federation: Federation, since: dt.date) -> dict[int, compute.Standing] | None:
    """Each player's rating as it stood before ``since``: their last history row before
    it (rows are written in the order the events are replayed, so the highest id is the
    last). None when nothing was rated yet: then everything is replayed."""
    if not NationalRating.objects.filter(federation=federation).exists():
        return None
    last = (
        RatingStep.objects.filter(federation=federation, event__date__lt=since)
        .values("player_id")
        .annotate(last=Max("id"))
        .values("last")
    )
    return {
        s.player_id: compute.Standing(
            mu=s.mu,
            sigma=s.sigma,
            events=s.events_after,
            points=s.points_after,
            last_event_on=s.event.date,
        )
        for s in RatingStep.objects.filter(id__in=last).select_related("event")
    }


@transaction.atomic
def ranking_recompute(
    *,
    federation: Federation,
    events: Iterable[compute.EventResult] | None = None,
    since: dt.date | None = None,
) -> int:
    """Rebuild the federation's ranking from every result (``events`` given: from those
    only, as the benchmark and tests do). With ``since``, the events before that date and
    their history stand: only the events of that date and later are replayed, from each
    player's rating as it stood before it (a night's results added replay that night, not
    the season). Returns how many events were rated."""
    federation = Federation.objects.select_for_update().get(pk=federation.pk)
    table = ranking_settings(federation).placing_points or {}
    resolve = _resolver(federation)
    start = _restart(federation, since) if since is not None else None
    if start is None:
        since = None
    if events is None:
        source = all_events(federation, since)
    else:
        source = (e for e in events if since is None or e.date >= since)
    rated, ratings = compute.rate_all(((e, resolve(e)) for e in source), table, start)
    if since is None:
        RatingStep.objects.filter(federation=federation).delete()
        RankedEvent.objects.filter(federation=federation).delete()
    else:
        RatingStep.objects.filter(federation=federation, event__date__gte=since).delete()
        RankedEvent.objects.filter(federation=federation, date__gte=since).delete()
    NationalRating.objects.filter(federation=federation).delete()
    rows = RankedEvent.objects.bulk_create(
        [
            RankedEvent(
                federation=federation,
                key=r.event.key[:120],
                date=r.event.date,
                category=r.event.category[:20],
                rules=r.event.rules[:120],
                target=r.event.target,
                sides=len(r.event.sides),
            )
            for r in rated
        ],
        batch_size=2000,
    )
    RatingStep.objects.bulk_create(
        [
            RatingStep(
                federation=federation,
                player_id=s.player,
                event=row,
                placing=s.placing,
                share=s.share,
                mu_before=s.mu_before,
                sigma_before=s.sigma_before,
                mu=s.mu,
                sigma=s.sigma,
                points=s.points,
                events_after=s.events_after,
                points_after=s.points_after,
            )
            for row, r in zip(rows, rated, strict=True)
            for s in r.steps
        ],
        batch_size=5000,
    )
    NationalRating.objects.bulk_create(
        [
            NationalRating(
                federation=federation,
                player_id=pid,
                mu=st.mu,
                sigma=st.sigma,
                ordinal=st.ordinal,
                events=st.events,
                points=st.points,
                last_event_on=st.last_event_on,
            )
            for pid, st in ratings.items()
        ],
        batch_size=2000,
    )
    return len(rated)


#: A queued recomputation that has not started after this long is queued again (its
#: worker died): a change is never left out of the ranking for good.
QUEUED_STALE = dt.timedelta(minutes=10)


def ranking_players_changed(*, federation_id: int, **_: object) -> None:
    """``federation.hooks.players_changed``: who counts as whom changed, so every event may
    rate other people: the whole ranking is replayed once the transaction commits."""
    ranking_results_changed(federation_id=federation_id)


def ranking_results_changed(*, federation_id: int, since: dt.date | None = None) -> None:
    """Queue the federation's recomputation once the current transaction commits, to
    replay from ``since`` (the date of the earliest result changed; None: everything). A
    burst of changes (a night's games confirmed one after another) queues it once until
    the task starts: the settings row's ``queued_at``, set by one conditional update; the
    row keeps the earliest date asked meanwhile (``dirty_since``, or ``dirty_all``)."""
    from .tasks import recompute

    def queue() -> None:
        with transaction.atomic():
            RankingSettings.objects.get_or_create(federation_id=federation_id)
            row = RankingSettings.objects.select_for_update().get(federation_id=federation_id)
            if since is None:
                row.dirty_all = True
            elif row.dirty_since is None or since < row.dirty_since:
                row.dirty_since = since
            now = timezone.now()
            queue_now = row.queued_at is None or row.queued_at < now - QUEUED_STALE
            if queue_now:
                row.queued_at = now
            row.save(update_fields=["dirty_all", "dirty_since", "queued_at"])
        if queue_now:
            recompute.delay(federation_id)

    transaction.on_commit(queue)


def ranking_task_started(federation_id: int) -> tuple[bool, dt.date | None]:
    """A queued recomputation starts: it takes what was asked (everything, or from which
    date) and clears it, so a change from now on queues another. Returns (asked, since):
    ``asked`` is False when another task already took the work."""
    with transaction.atomic():
        row = (
            RankingSettings.objects.select_for_update().filter(federation_id=federation_id).first()
        )
        if row is None:
            return True, None
        asked = row.dirty_all or row.dirty_since is not None
        since = None if row.dirty_all else row.dirty_since
        row.queued_at, row.dirty_since, row.dirty_all = None, None, False
        row.save(update_fields=["queued_at", "dirty_since", "dirty_all"])
    return asked, since


def ranking_game_changed(*, game: Game, status_before: str, **_: Any) -> None:
    """Handler of ``games.hooks.game_changed``: a game confirmed, or a confirmed game
    changed (a correction), queues the recomputation of each federation its club counts
    in. A game in progress costs no query."""
    confirmed = Game.Status.CONFIRMED
    if game.status != confirmed and status_before != confirmed:
        return
    ids = set(
        FederationClub.objects.filter(club_id=game.club_id, active=True).values_list(
            "federation_id", flat=True
        )
    )
    ids.update(
        OrganiserSpace.objects.filter(club_id=game.club_id).values_list("federation_id", flat=True)
    )
    day = game.played_on or (
        timezone.localdate(game.confirmed_at) if game.confirmed_at else timezone.localdate()
    )
    for federation_id in sorted(ids):
        ranking_results_changed(federation_id=federation_id, since=day)
