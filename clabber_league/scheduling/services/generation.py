"""Generating a division's schedule: its config, and the one adapter in front of the pure
planner (``scheduling.planning``).

**Generation** runs in a Celery task (``tasks.generate_schedule``) that calls
``schedule_run_execute``. ``schedule_generate`` only records a queued ``ScheduleRun`` and
queues the task once the request's transaction commits; if the broker does not answer
the run is marked failed with ``BROKER_DOWN`` and can be retried.

The work itself is one transaction: the division's schedule config row is locked (moves
and forfeits lock it too, so they wait), the fixtures of unplayed rounds are deleted and
the new ones inserted in bulk, and the run is marked done in the same transaction. So
the schedule is all the new fixtures or none of them; a failure (or a killed worker)
leaves the old schedule exactly as it was. A round with any result (a fixture with games,
played or forfeit) is kept whole; only rounds without one are planned again.

Progress (percent, message, heartbeat) is written on a second database connection while
the transaction runs, so the progress bar moves; SQLite has one writer at a time, so
there it jumps from "planning" to done.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clabber_league.clubs.locale import club_today
from clabber_league.core import heartbeat, messages
from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.models import Division, Venue
from clabber_league.leagues.services import GAMES_PER_FIXTURE, VENUE_OTHER_CLUB, division_update
from clabber_league.rules.errors import gettext_noop, msg

from .. import planning, selectors, store
from ..hooks import home_venues, night_bookings
from ..models import Fixture, ScheduleConfig, ScheduleRun, ScheduleVenue, SkipDate
from . import ScheduleError

logger = logging.getLogger(__name__)

NO_CONFIG = gettext_noop("Set up the division's schedule (format, league night, venues) first.")
RUN_ACTIVE = gettext_noop(
    "This division's schedule is already being generated; wait for it to finish."
)
BROKER_DOWN = gettext_noop(
    "The task queue (Redis) did not answer, so the schedule was not generated. "
    "Nothing was changed; try again in a minute."
)
WORKER_LOST = gettext_noop(
    "The worker stopped before finishing; nothing was changed. Generate the schedule again."
)
RUN_NOT_RETRYABLE = gettext_noop("Only a failed or stalled run can be retried.")
RUN_FAILED = gettext_noop("Generating the schedule failed; nothing was changed. ({detail})")
FORMAT_UNKNOWN = gettext_noop("The format is round_robin or swiss.")
SWISS_ROUNDS_LEAST = gettext_noop("Play at least 1 Swiss round.")
#: What a run says while it works and when it is done (``core.messages`` shows them).
QUEUED = gettext_noop("Queued.")
READING = gettext_noop("Reading the teams, nights and venues.")
PLANNING = gettext_noop("Planning the rounds.")
CLEARING = gettext_noop("Clearing the unplayed rounds.")
WRITING = gettext_noop("Writing fixtures: {written} of {total}.")
PAST_END = gettext_noop("The schedule runs to {last}, after the season's end ({end}).")
MORE_NOTES = gettext_noop("... and {count} more notes like these.")
PLANNED = gettext_noop("{created} fixtures planned, {first} to {last}.")
NOTHING_LEFT = gettext_noop("Nothing left to plan: every round has a result.")
KEPT = gettext_noop("{kept} fixtures of rounds with results were kept.")

#: A queued or running run with no sign of life for this long is taken to have stopped.
STALE_AFTER = dt.timedelta(minutes=10)
#: On PostgreSQL a running run's worker beats every HEARTBEAT_EVERY (a thread of its own,
#: on a connection of its own: core.heartbeat); a worker that died stops beating, and its
#: run is shown as stalled, retryable, once the last beat is HEARTBEAT_STALE old.
HEARTBEAT_EVERY = heartbeat.HEARTBEAT_EVERY
HEARTBEAT_STALE = heartbeat.HEARTBEAT_STALE
#: Notes stored on a run (the rest are counted).
MAX_NOTES = 300


@transaction.atomic
def schedule_config_save(
    *,
    division: Division,
    format: str = ScheduleConfig.Format.ROUND_ROBIN,
    cycles: int = 1,
    swiss_rounds: int = 5,
    weekday: int = 0,
    start_date: dt.date | None = None,
    start_time: dt.time | None = None,
    venues: Sequence[Venue] = (),
    skip_dates: Iterable[dt.date | tuple[dt.date, str]] = (),
    games_per_fixture: int | None = None,
) -> ScheduleConfig:
    """Create or replace the division's schedule config. ``venues`` fill in this order."""
    errors: list[dict[str, str]] = []
    if format not in ScheduleConfig.Format.values:
        errors.append({"field": "format", "message": gettext(FORMAT_UNKNOWN)})
    if cycles not in (1, 2):
        errors.append({"field": "cycles", "message": gettext(planning.CYCLES_RANGE)})
    if not 0 <= weekday <= 6:
        errors.append({"field": "weekday", "message": gettext(planning.WEEKDAY_RANGE)})
    if swiss_rounds < 1:
        errors.append({"field": "swiss_rounds", "message": gettext(SWISS_ROUNDS_LEAST)})
    if any(v.club_id != division.club_id for v in venues):
        errors.append({"field": "venues", "message": str(VENUE_OTHER_CLUB)})
    if games_per_fixture is not None and not 1 <= games_per_fixture <= 9:
        errors.append({"field": "games_per_fixture", "message": str(GAMES_PER_FIXTURE)})
    if errors:
        raise ScheduleError(errors)
    config, _ = ScheduleConfig.objects.select_for_update().update_or_create(
        division=division,
        defaults={
            "club": division.club,
            "format": format,
            "cycles": cycles,
            "swiss_rounds": swiss_rounds,
            "weekday": weekday,
            "start_date": start_date or division.season.start_date,
            "start_time": start_time,
        },
    )
    config.schedule_venues.all().delete()
    seen: set[int] = set()
    rows = []
    for venue in venues:
        if venue.pk not in seen:
            seen.add(venue.pk)
            rows.append(ScheduleVenue(config=config, venue=venue, position=len(rows)))
    ScheduleVenue.objects.bulk_create(rows)
    config.skip_dates.all().delete()
    skips: dict[dt.date, str] = {}
    for item in skip_dates:
        day, reason = item if isinstance(item, tuple) else (item, "")
        skips[day] = reason
    SkipDate.objects.bulk_create(
        SkipDate(config=config, date=day, reason=reason) for day, reason in sorted(skips.items())
    )
    if games_per_fixture is not None and games_per_fixture != division.games_per_fixture:
        division_update(division=division, games_per_fixture=games_per_fixture)
    return config


def _is_stale(run: ScheduleRun, now: dt.datetime) -> bool:
    if not run.is_active:
        return False
    last = run.heartbeat_at or run.started_at or run.created_at
    if run.state == ScheduleRun.State.RUNNING and heartbeat.beats():
        return now - last > HEARTBEAT_STALE  # its worker beats while it lives
    return now - last > STALE_AFTER


def schedule_run_stalled(*, run: ScheduleRun) -> bool:
    """Whether an active run has stopped: its worker's heartbeat stopped (PostgreSQL), or
    no sign of life for STALE_AFTER. A stalled run can be retried."""
    return _is_stale(run, timezone.now())


def schedule_generate(*, division: Division, user: Any = None) -> ScheduleRun:
    """Queue the generation of the division's schedule; returns the queued run.

    The task is sent when the surrounding transaction commits. A run already queued or
    running for the division refuses a second one (unless it has stalled)."""
    if not ScheduleConfig.objects.filter(division=division).exists():
        raise ScheduleError.one("division", gettext(NO_CONFIG), kind=CONFLICT)
    now = timezone.now()
    with transaction.atomic():
        for active in ScheduleRun.objects.select_for_update().filter(
            division=division, state__in=ScheduleRun.ACTIVE
        ):
            if not _is_stale(active, now):
                raise ScheduleError.one("division", gettext(RUN_ACTIVE), kind=CONFLICT)
            _finish(active.pk, state=ScheduleRun.State.FAILED, message=msg(WORKER_LOST))
        try:
            with transaction.atomic():
                run = ScheduleRun.objects.create(
                    club=division.club, division=division, created_by=user, message=QUEUED
                )
        except IntegrityError as exc:  # another request queued one a moment ago
            raise ScheduleError.one("division", gettext(RUN_ACTIVE), kind=CONFLICT) from exc
        transaction.on_commit(lambda: _enqueue(run.pk))
    return run


def schedule_run_retry(*, run: ScheduleRun, user: Any = None) -> ScheduleRun:
    """Generate again after a failed or stalled run."""
    if not (run.state == ScheduleRun.State.FAILED or _is_stale(run, timezone.now())):
        raise ScheduleError.one("run", gettext(RUN_NOT_RETRYABLE), kind=CONFLICT)
    return schedule_generate(division=run.division, user=user)


def _enqueue(run_id: int) -> None:
    from ..tasks import generate_schedule

    try:
        # No retries: with the broker down the request answers at once, the run failed.
        generate_schedule.apply_async(args=[run_id], retry=False, ignore_result=True)
    except Exception as exc:  # whatever Redis raised: the run must not stay "queued"
        logger.warning("schedule run %s not queued: %s: %s", run_id, type(exc).__name__, exc)
        _finish(run_id, state=ScheduleRun.State.FAILED, message=msg(BROKER_DOWN))


def _finish(run_id: int, *, state: str, message: Any, **fields: Any) -> None:
    """End a run with ``message``: one sentence, or a list of them (``rules.errors.msg``
    keeps each one's template, so a page shows it in its reader's language)."""
    sentences = message if isinstance(message, list) else [message]
    ScheduleRun.objects.filter(pk=run_id).update(
        state=state,
        message=" ".join(str(m) for m in sentences)[:300],
        message_data=messages.message_data(sentences),
        finished_at=timezone.now(),
        **fields,
    )


def _heartbeat(run_id: int) -> heartbeat.Heartbeat:
    """Beats ``heartbeat_at`` of the running run while the generation works (PostgreSQL)."""
    running = ScheduleRun.objects.filter(pk=run_id, state=ScheduleRun.State.RUNNING)
    return heartbeat.Heartbeat(running, name=f"heartbeat of schedule run {run_id}")


class _Progress:
    """Writes a run's progress (``store.ProgressWriter``), so it is seen at once even while
    the generating transaction is still open. SQLite (one writer) gets no mid-run updates."""

    def __init__(self, run_id: int) -> None:
        self.last = -1
        self.writer = store.ProgressWriter(run_id)

    def __call__(self, percent: int, message: Any) -> None:
        """``message``: a sentence (``msg``, or a marked template without values)."""
        percent = max(0, min(99, percent))
        if percent == self.last:
            return
        self.last = percent
        self.writer.write(
            percent=percent,
            message=str(message),
            data=messages.message_data([message]),
            at=timezone.now(),
        )

    def close(self) -> None:
        self.writer.close()


def schedule_run_execute(*, run_id: int, today: dt.date | None = None) -> ScheduleRun:
    """The task's work: generate the run's division schedule, all or nothing. Never raises
    for a failed generation: the run records it as failed with a message.

    Rounds planned again never go on a night before ``today`` (default: today)."""
    claimed = ScheduleRun.objects.filter(pk=run_id, state__in=ScheduleRun.ACTIVE).update(
        state=ScheduleRun.State.RUNNING,
        started_at=timezone.now(),
        heartbeat_at=timezone.now(),
        progress=1,
        message=READING,
    )
    run = ScheduleRun.objects.select_related("division__season", "club").get(pk=run_id)
    if not claimed:
        return run  # already done or failed
    progress = _Progress(run_id)
    beating = _heartbeat(run_id)
    try:
        with transaction.atomic():
            # The club's today (the task runs in no club's zone: clubs.locale).
            summary = _generate(run, progress, today or club_today(run.club))
            ScheduleRun.objects.filter(pk=run_id).update(
                state=ScheduleRun.State.DONE,
                progress=100,
                message=" ".join(summary["message"])[:300],
                message_data=messages.message_data(summary["message"]),
                notes=summary["notes"],
                fixtures_created=summary["created"],
                fixtures_kept=summary["kept"],
                heartbeat_at=timezone.now(),
                finished_at=timezone.now(),
            )
    except (ScheduleError, planning.PlanningError) as exc:
        _finish(run_id, state=ScheduleRun.State.FAILED, message=[e["message"] for e in exc.errors])
    except Exception as exc:  # any failure is recorded on the run
        logger.exception("schedule run %s failed", run_id)
        detail = f"{type(exc).__name__}: {exc}".strip()[:200]
        _finish(run_id, state=ScheduleRun.State.FAILED, message=msg(RUN_FAILED, detail=detail))
    finally:
        beating.close()
        progress.close()
    run.refresh_from_db()
    return run


def _generate(run: ScheduleRun, progress: _Progress, today: dt.date) -> dict[str, Any]:
    """The run's work, inside its transaction: lock the config and the venues, read what is
    kept, plan the rest, replace the unplayed rounds and describe the result."""
    division = run.division
    config = ScheduleConfig.objects.select_for_update().filter(division=division).first()
    if config is None:
        raise ScheduleError.one("division", msg(NO_CONFIG), kind=CONFLICT)
    venues = config.ordered_venues()
    # Divisions sharing a venue generate one at a time (and moves onto it wait).
    list(Venue.objects.select_for_update().filter(pk__in=[v.pk for v in venues]).order_by("pk"))
    # A team that withdrew keeps its results (in the rounds kept) but is planned no more.
    teams = division.teams.filter(withdrawn_on__isnull=True).order_by("id")
    team_ids = list(teams.values_list("id", flat=True))
    kept, kept_rounds = _kept(division)
    progress(5, PLANNING)
    notes = planning.Notes(venue_names={v.pk: v.name for v in venues})
    occupied = _occupied(division, config, venues, kept)
    nights = _nights(config, kept, today)
    tables = planning.tables_of([(v.pk, v.tables) for v in venues])
    rounds, total, rounds_count = _rounds(division, config, team_ids, kept, kept_rounds)

    doomed = Fixture.objects.filter(division=division).exclude(round_number__in=kept_rounds)
    progress(8, CLEARING)
    _delete_fixtures(doomed)

    # Everything the plan reads is in memory now: the rows stream into COPY below, and the
    # connection can do nothing else until that ends.
    placements = planning.timetable(
        rounds,
        nights=nights,
        tables=tables,
        total_meetings=total,
        occupied=occupied,
        notes=notes,
        max_nights=max(planning.MAX_NIGHTS, 2 * rounds_count),
    )
    created, span = _write(division, placements, total, progress)
    return _summary(division, notes, created=created, span=span, kept=len(kept))


def _kept(division: Division) -> tuple[list[Fixture], set[int]]:
    """The fixtures of the rounds with a result (kept whole), and those rounds' numbers."""
    kept_ids = selectors.kept_fixture_ids(division=division)
    kept_rounds = set(
        Fixture.objects.filter(pk__in=kept_ids).values_list("round_number", flat=True)
    )
    kept = list(
        Fixture.objects.filter(division=division, round_number__in=kept_rounds).only(
            "id",
            "round_number",
            "home_id",
            "away_id",
            "date",
            "venue_id",
            "table",
            "status",
            "forfeit_winner_id",
            "games_planned",
        )
    )
    return kept, kept_rounds


def _occupied(
    division: Division, config: ScheduleConfig, venues: list[Venue], kept: list[Fixture]
) -> dict[dt.date, tuple[set[int], set[planning.Table]]]:
    """By night: the teams already playing (kept fixtures) and the tables taken (kept
    fixtures, and the other divisions of the club at these venues)."""
    occupied: dict[dt.date, tuple[set[int], set[planning.Table]]] = defaultdict(
        lambda: (set(), set())
    )
    for f in kept:
        if f.date is not None:
            teams, tables = occupied[f.date]
            teams.update((f.home_id, f.away_id))
            if f.table is not None:
                tables.add(planning.Table(f.venue_id, f.table))
    # The tables other divisions of the club use at these venues are taken too.
    others = (
        Fixture.objects.filter(
            club_id=division.club_id,
            venue__in=venues,
            date__gte=config.start_date,
            table__isnull=False,
        )
        .exclude(division=division)
        .values_list("date", "venue_id", "table")
    )
    for day, venue_id, table in others.iterator(chunk_size=10_000):
        occupied[day][1].add(planning.Table(venue_id, table))
    # What the apps above hold on these nights (a cup's ties): their teams play, their
    # tables are taken (asked through the hook: scheduling does not import them).
    for booking in night_bookings.ask(club_id=division.club_id, start=config.start_date, end=None):
        teams, tables = occupied[booking.date]
        teams.update(booking.team_ids)
        if booking.venue_id is not None and booking.table is not None:
            tables.add(planning.Table(booking.venue_id, booking.table))
    return occupied


def _nights(config: ScheduleConfig, kept: list[Fixture], today: dt.date) -> Iterator[dt.date]:
    """The league nights to plan on: after the last kept fixture, and never before today
    once some rounds are kept."""
    last_kept = max((f.date for f in kept if f.date), default=None)
    after = last_kept
    if kept:
        yesterday = today - dt.timedelta(days=1)
        after = max(last_kept or yesterday, yesterday)
    return planning.league_nights(
        start=config.start_date,
        weekday=config.weekday,
        skip=list(config.skip_dates.values_list("date", flat=True)),
        after=after,
    )


def _rounds(
    division: Division,
    config: ScheduleConfig,
    team_ids: list[int],
    kept: list[Fixture],
    kept_rounds: set[int],
) -> tuple[list[planning.RoundPlan], int, int]:
    """The rounds to place, the meetings they hold and how many rounds the format has."""
    if config.format == ScheduleConfig.Format.SWISS:
        rounds, total = _swiss_rounds(division, config, team_ids, kept, kept_rounds)
        return rounds, total, 1
    rounds = planning.remaining_round_robin(
        team_ids,
        cycles=config.cycles,
        played=[(f.home_id, f.away_id) for f in kept],
        taken_numbers=kept_rounds,
    )
    rounds_count = planning.round_robin_rounds(len(team_ids), config.cycles)
    members = set(team_ids)
    kept_here = sum(1 for f in kept if f.home_id in members and f.away_id in members)
    total = max(planning.round_robin_meetings(len(team_ids), config.cycles) - kept_here, 1)
    return rounds, total, rounds_count


def _write(
    division: Division,
    placements: Iterable[planning.Placement],
    total: int,
    progress: _Progress,
) -> tuple[int, list[dt.date]]:
    """Write the placed fixtures in bulk; returns how many, and the first and last night."""
    span: list[dt.date] = []  # the first and the last night used
    # A team that plays its home fixtures at a venue of its own (the layers above say so:
    # an inter-club team at its home club) has them written there, the table left to it.
    own = {team_id: venue.pk for team_id, venue in home_venues.ask(division=division)}

    def spanned() -> Iterator[planning.Placement]:
        for p in placements:
            if p.meeting.home in own:
                p = dataclasses.replace(p, venue=own[p.meeting.home], table=None)
            if not span:
                span.extend((p.date, p.date))
            elif p.date > span[1]:
                span[1] = p.date
            yield p

    def on_batch(written: int) -> None:
        progress(
            10 + int(85 * written / total),
            msg(WRITING, written=messages.Count(written), total=messages.Count(total)),
        )

    created = store.write_fixtures(
        spanned(),
        club_id=division.club_id,
        division_id=division.pk,
        games_planned=division.games_per_fixture,
        on_batch=on_batch,
    )
    return created, span


def _summary(
    division: Division, notes: planning.Notes, *, created: int, span: list[dt.date], kept: int
) -> dict[str, Any]:
    """The run's message and notes."""
    season = division.season
    if span and season.end_date and span[1] > season.end_date:
        notes.add(
            "past_end",
            PAST_END,
            {"last": span[1], "end": season.end_date},
            date=span[1].isoformat(),
        )
    items = notes.compacted()
    if len(items) > MAX_NOTES:
        items = [
            *items[:MAX_NOTES],
            {
                "kind": "more",
                "text": MORE_NOTES.format(count=len(items) - MAX_NOTES),
                "template": MORE_NOTES,
                "params": {"count": len(items) - MAX_NOTES},
            },
        ]
    if created:
        message = [msg(PLANNED, created=f"{created:,}", first=_day(span[0]), last=_day(span[1]))]
        message[0].params.update(first=span[0], last=span[1])  # kept as dates, shown in order
    else:
        message = [msg(NOTHING_LEFT)]
    if kept:
        message.append(msg(KEPT, kept=f"{kept:,}"))
    return {"message": message, "notes": items, "created": created, "kept": kept}


def _day(day: dt.date) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


def _delete_fixtures(queryset) -> None:
    """Delete unplayed fixtures in one statement. They have no games (else their round would
    be kept), so nothing points at them; a row that does makes the transaction fail."""
    queryset._raw_delete(queryset.db)


def _swiss_rounds(
    division: Division,
    config: ScheduleConfig,
    team_ids: list[int],
    kept: list[Fixture],
    kept_rounds: set[int],
) -> tuple[list[planning.RoundPlan], int]:
    """The next Swiss round, paired from the results of the rounds kept."""
    outcomes = selectors.fixture_outcomes(division=division, fixtures=kept)
    history = [
        planning.Result(
            round=f.round_number,
            home=f.home_id,
            away=f.away_id,
            home_points=outcomes[f.pk].home_points,
            away_points=outcomes[f.pk].away_points,
            home_games=outcomes[f.pk].home_won,
            away_games=outcomes[f.pk].away_won,
        )
        for f in kept
    ]
    number = max(kept_rounds, default=0) + 1
    plan = planning.swiss_round(
        team_ids, history, round_number=number, total_rounds=config.swiss_rounds
    )
    return [plan], max(len(plan.meetings), 1)
