"""Writing schedules: venues, generating a division's fixtures, moving and forfeiting
fixtures, and the periodic work (publishing nights, reminders, overdue flags).

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

Seasons, divisions and teams are written by ``leagues.services``, for the pages and the
API alike.
"""

from __future__ import annotations

import copy
import datetime as dt
import logging
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.core.mail import get_connection
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import Q
from django.utils import timezone

from clabber_league.clubs.models import Club
from clabber_league.core.errors import CONFLICT, ServiceError
from clabber_league.core.mail import mail_send
from clabber_league.leagues.models import Division, Team, TeamMember
from clabber_league.leagues.services import GAMES_PER_FIXTURE, division_update

from . import bulk, planning, selectors
from .hooks import fixture_changed
from .models import (
    Fixture,
    LeagueNight,
    ScheduleConfig,
    ScheduleRun,
    ScheduleVenue,
    SkipDate,
    Venue,
)

logger = logging.getLogger(__name__)

NO_CONFIG = "Set up the division's schedule (format, league night, venues) first."
RUN_ACTIVE = "This division's schedule is already being generated; wait for it to finish."
BROKER_DOWN = (
    "The task queue (Redis) did not answer, so the schedule was not generated. "
    "Nothing was changed; try again in a minute."
)
WORKER_LOST = (
    "The worker stopped before finishing; nothing was changed. Generate the schedule again."
)
RUN_NOT_RETRYABLE = "Only a failed or stalled run can be retried."
RUN_FAILED = "Generating the schedule failed; nothing was changed. ({detail})"
VENUE_OTHER_CLUB = "This venue is not one of the club's."
DIVISION_OTHER_CLUB = "This division is not one of the club's."
VENUE_NAME_TAKEN = "The club already has a venue of this name."
TABLES_RANGE = "A venue has 1 to 500 tables."
TABLE_RANGE = "{venue} has tables 1 to {tables}."
TABLE_NEEDS_VENUE = "Give the venue of the table."
TABLE_TAKEN = "Table {table} at {venue} is taken that night by {home} v {away}."
TEAM_BUSY = "{team} already plays that night ({home} v {away})."
FIXTURE_DONE = "This fixture has a result; it can no longer be moved."
FIXTURE_HAS_GAMES = "Games have been recorded for this fixture; it cannot be forfeited."
FORFEIT_WINNER = "The winner of a forfeit is one of the fixture's two teams."
FORFEIT_TWICE = "This fixture is already a forfeit."
FIXTURE_KEPT = "This fixture has a result or games; it cannot be deleted."
FIXTURE_HAS_RESULT = (
    "This fixture has a result or games: its teams, division and games cannot be changed."
)
TEAM_SELF = "A team cannot play itself."
TEAM_OTHER_DIVISION = "This team is not in the division."
GAMES_PLANNED = "A fixture is 1 to 9 games."
FORMAT_UNKNOWN = "The format is round_robin or swiss."

#: A queued or running run with no sign of life for this long is taken to have stopped.
STALE_AFTER = dt.timedelta(minutes=10)
#: On PostgreSQL a running run's worker beats every HEARTBEAT_EVERY (a thread of its own,
#: on a connection of its own); a worker that died stops beating, and its run is shown as
#: stalled, retryable, once the last beat is HEARTBEAT_STALE old.
HEARTBEAT_EVERY = 5.0
HEARTBEAT_STALE = dt.timedelta(seconds=30)
#: Notes stored on a run (the rest are counted).
MAX_NOTES = 300


class ScheduleError(ServiceError):
    """A rejected schedule write (``core.errors.ServiceError``)."""


# --- venues -----------------------------------------------------------------------------------


def _venue_errors(club_id: int, name: str, tables: int, venue: Venue | None = None) -> list:
    errors = []
    clash = Venue.objects.filter(club_id=club_id, name=name)
    if venue is not None:
        clash = clash.exclude(pk=venue.pk)
    if clash.exists():
        errors.append({"field": "name", "message": VENUE_NAME_TAKEN})
    if not 1 <= tables <= 500:
        errors.append({"field": "tables", "message": TABLES_RANGE})
    return errors


def venue_create(*, club: Club, name: str, tables: int = 4) -> Venue:
    """A venue of the club with ``tables`` tables (1 to 500; 4 unless said)."""
    errors = _venue_errors(club.pk, name, tables)
    if errors:
        raise ScheduleError(errors)
    return Venue.objects.create(club=club, name=name, tables=tables)


def venue_update(*, venue: Venue, name: str | None = None, tables: int | None = None) -> Venue:
    """Rename a venue or change its number of tables; what is not given stays."""
    name = venue.name if name is None else name
    tables = venue.tables if tables is None else tables
    errors = _venue_errors(venue.club_id, name, tables, venue)
    if errors:
        raise ScheduleError(errors)
    venue.name, venue.tables = name, tables
    venue.save(update_fields=["name", "tables"])
    return venue


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
        errors.append({"field": "format", "message": FORMAT_UNKNOWN})
    if cycles not in (1, 2):
        errors.append({"field": "cycles", "message": planning.CYCLES_RANGE})
    if not 0 <= weekday <= 6:
        errors.append({"field": "weekday", "message": planning.WEEKDAY_RANGE})
    if swiss_rounds < 1:
        errors.append(
            {
                "field": "swiss_rounds",
                "message": planning.SWISS_ROUNDS_RANGE.format(teams="The", most="n - 1"),
            }
        )
    if any(v.club_id != division.club_id for v in venues):
        errors.append({"field": "venues", "message": VENUE_OTHER_CLUB})
    if games_per_fixture is not None and not 1 <= games_per_fixture <= 9:
        errors.append({"field": "games_per_fixture", "message": GAMES_PER_FIXTURE})
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


# --- generating a schedule ------------------------------------------------------------------


def _is_stale(run: ScheduleRun, now: dt.datetime) -> bool:
    if not run.is_active:
        return False
    last = run.heartbeat_at or run.started_at or run.created_at
    if run.state == ScheduleRun.State.RUNNING and connection.vendor == "postgresql":
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
        raise ScheduleError.one("division", NO_CONFIG)
    now = timezone.now()
    with transaction.atomic():
        for active in ScheduleRun.objects.select_for_update().filter(
            division=division, state__in=ScheduleRun.ACTIVE
        ):
            if not _is_stale(active, now):
                raise ScheduleError.one("division", RUN_ACTIVE)
            _finish(active.pk, state=ScheduleRun.State.FAILED, message=WORKER_LOST)
        try:
            with transaction.atomic():
                run = ScheduleRun.objects.create(
                    club=division.club, division=division, created_by=user, message="Queued."
                )
        except IntegrityError as exc:  # another request queued one a moment ago
            raise ScheduleError.one("division", RUN_ACTIVE) from exc
        transaction.on_commit(lambda: _enqueue(run.pk))
    return run


def schedule_run_retry(*, run: ScheduleRun, user: Any = None) -> ScheduleRun:
    """Generate again after a failed or stalled run."""
    if not (run.state == ScheduleRun.State.FAILED or _is_stale(run, timezone.now())):
        raise ScheduleError.one("run", RUN_NOT_RETRYABLE)
    return schedule_generate(division=run.division, user=user)


def _enqueue(run_id: int) -> None:
    from kombu.exceptions import OperationalError as KombuOperationalError

    from .tasks import generate_schedule

    try:
        # No retries: with the broker down the request answers at once, the run failed.
        generate_schedule.apply_async(args=[run_id], retry=False)
    except (KombuOperationalError, OSError, ConnectionError) as exc:
        logger.warning("schedule run %s not queued: %s", run_id, exc)
        _finish(run_id, state=ScheduleRun.State.FAILED, message=BROKER_DOWN)


def _finish(run_id: int, *, state: str, message: str, **fields: Any) -> None:
    ScheduleRun.objects.filter(pk=run_id).update(
        state=state, message=message[:300], finished_at=timezone.now(), **fields
    )


class _Heartbeat:
    """Beats ``heartbeat_at`` of a running run every HEARTBEAT_EVERY from a thread of the
    worker's own (with its own connection), whatever the generation is doing: when the
    worker dies, the beats stop. PostgreSQL only: SQLite has one writer at a time."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        if connection.vendor == "postgresql":
            self.thread = threading.Thread(target=self._beat, daemon=True, name="run-heartbeat")
            self.thread.start()

    def _beat(self) -> None:
        from django.db import connection as own  # this thread's connection

        try:
            while not self.stop.wait(HEARTBEAT_EVERY):
                ScheduleRun.objects.filter(pk=self.run_id, state=ScheduleRun.State.RUNNING).update(
                    heartbeat_at=timezone.now()
                )
        except Exception:  # a lost beat only makes the run look stalled sooner
            logger.warning("heartbeat of schedule run %s stopped", self.run_id, exc_info=True)
        finally:
            own.close()

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=HEARTBEAT_EVERY * 2)


class _Progress:
    """Writes a run's progress on a connection of its own, so it is seen at once even while
    the generating transaction is still open. SQLite (one writer) gets no mid-run updates."""

    def __init__(self, run_id: int) -> None:
        self.run_id = run_id
        self.last = -1
        self.side = None
        if connection.vendor == "postgresql":
            wrapper = connections[DEFAULT_DB_ALIAS]
            settings_dict = copy.deepcopy(wrapper.settings_dict)
            self.side = type(wrapper)(settings_dict, alias="scheduling-progress")

    def __call__(self, percent: int, message: str) -> None:
        percent = max(0, min(99, percent))
        if percent == self.last:
            return
        self.last = percent
        now = timezone.now()
        if self.side is None:
            if not connection.in_atomic_block:
                ScheduleRun.objects.filter(pk=self.run_id).update(
                    progress=percent, message=message, heartbeat_at=now
                )
            return
        table = ScheduleRun._meta.db_table
        with self.side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET progress = %s, message = %s, heartbeat_at = %s "
                "WHERE id = %s AND state = %s",
                [percent, message[:300], now, self.run_id, ScheduleRun.State.RUNNING],
            )

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


def schedule_run_execute(*, run_id: int, today: dt.date | None = None) -> ScheduleRun:
    """The task's work: generate the run's division schedule, all or nothing. Never raises
    for a failed generation: the run records it as failed with a message.

    Rounds planned again never go on a night before ``today`` (default: today)."""
    claimed = ScheduleRun.objects.filter(pk=run_id, state__in=ScheduleRun.ACTIVE).update(
        state=ScheduleRun.State.RUNNING,
        started_at=timezone.now(),
        heartbeat_at=timezone.now(),
        progress=1,
        message="Reading the teams, nights and venues.",
    )
    run = ScheduleRun.objects.select_related("division__season", "club").get(pk=run_id)
    if not claimed:
        return run  # already done or failed
    progress = _Progress(run_id)
    heartbeat = _Heartbeat(run_id)
    try:
        with transaction.atomic():
            summary = _generate(run, progress, today or timezone.localdate())
            ScheduleRun.objects.filter(pk=run_id).update(
                state=ScheduleRun.State.DONE,
                progress=100,
                message=summary["message"][:300],
                notes=summary["notes"],
                fixtures_created=summary["created"],
                fixtures_kept=summary["kept"],
                heartbeat_at=timezone.now(),
                finished_at=timezone.now(),
            )
    except (ScheduleError, planning.PlanningError) as exc:
        _finish(
            run_id,
            state=ScheduleRun.State.FAILED,
            message=" ".join(e["message"] for e in exc.errors),
        )
    except Exception as exc:  # any failure is recorded on the run
        logger.exception("schedule run %s failed", run_id)
        detail = f"{type(exc).__name__}: {exc}".strip()[:200]
        _finish(run_id, state=ScheduleRun.State.FAILED, message=RUN_FAILED.format(detail=detail))
    finally:
        heartbeat.close()
        progress.close()
    run.refresh_from_db()
    return run


def _generate(run: ScheduleRun, progress: _Progress, today: dt.date) -> dict[str, Any]:
    division = run.division
    config = ScheduleConfig.objects.select_for_update().filter(division=division).first()
    if config is None:
        raise ScheduleError.one("division", NO_CONFIG)
    venues = config.ordered_venues()
    # Divisions sharing a venue generate one at a time (and moves onto it wait).
    list(Venue.objects.select_for_update().filter(pk__in=[v.pk for v in venues]).order_by("pk"))
    team_ids = list(division.teams.order_by("id").values_list("id", flat=True))
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
    progress(5, "Planning the rounds.")
    notes = planning.Notes(venue_names={v.pk: v.name for v in venues})
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
    last_kept = max((f.date for f in kept if f.date), default=None)
    after = last_kept
    if kept:
        yesterday = today - dt.timedelta(days=1)
        after = max(last_kept or yesterday, yesterday)
    nights = planning.league_nights(
        start=config.start_date,
        weekday=config.weekday,
        skip=list(config.skip_dates.values_list("date", flat=True)),
        after=after,
    )
    tables = planning.tables_of([(v.pk, v.tables) for v in venues])

    if config.format == ScheduleConfig.Format.SWISS:
        rounds, total = _swiss_rounds(division, config, team_ids, kept, kept_rounds)
        rounds_count = 1
    else:
        rounds = planning.remaining_round_robin(
            team_ids,
            cycles=config.cycles,
            played=[(f.home_id, f.away_id) for f in kept],
            taken_numbers=kept_rounds,
        )
        rounds_count = planning.round_robin_rounds(len(team_ids), config.cycles)
        total = max(planning.round_robin_meetings(len(team_ids), config.cycles) - len(kept), 1)

    doomed = Fixture.objects.filter(division=division).exclude(round_number__in=kept_rounds)
    progress(8, "Clearing the unplayed rounds.")
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
    span: list[dt.date] = []  # the first and the last night used

    def spanned() -> Iterator[planning.Placement]:
        for p in placements:
            if not span:
                span.extend((p.date, p.date))
            elif p.date > span[1]:
                span[1] = p.date
            yield p

    def on_batch(written: int) -> None:
        progress(10 + int(85 * written / total), f"Writing fixtures: {written:,} of {total:,}.")

    created = bulk.write_fixtures(
        spanned(),
        club_id=division.club_id,
        division_id=division.pk,
        games_planned=division.games_per_fixture,
        on_batch=on_batch,
    )
    season = division.season
    if span and season.end_date and span[1] > season.end_date:
        notes.add(
            "past_end",
            f"The schedule runs to {_day(span[1])}, after the season's end "
            f"({_day(season.end_date)}).",
            date=span[1].isoformat(),
        )
    items = notes.compacted()
    if len(items) > MAX_NOTES:
        items = [
            *items[:MAX_NOTES],
            {"kind": "more", "text": f"... and {len(items) - MAX_NOTES} more notes like these."},
        ]
    if created:
        message = f"{created:,} fixtures planned, {_day(span[0])} to {_day(span[1])}."
    else:
        message = "Nothing left to plan: every round has a result."
    if kept:
        message += f" {len(kept):,} fixtures of rounds with results were kept."
    return {"message": message, "notes": items, "created": created, "kept": len(kept)}


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


# --- moving and forfeiting fixtures ---------------------------------------------------------


def _lock(fixture: Fixture) -> Fixture:
    """Lock the division's schedule config (generation holds it too), then the fixture."""
    list(ScheduleConfig.objects.select_for_update().filter(division_id=fixture.division_id))
    return (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("home", "away", "venue", "division__season")
        .get(pk=fixture.pk)
    )


def _check_place(club_id: int, venue: Venue | None, table: int | None) -> None:
    """A table is one of the club's venue's tables."""
    errors: list[dict[str, str]] = []
    if venue is not None and venue.club_id != club_id:
        errors.append({"field": "venue", "message": VENUE_OTHER_CLUB})
    if table is not None and venue is None:
        errors.append({"field": "table", "message": TABLE_NEEDS_VENUE})
    if venue is not None and table is not None and not 1 <= table <= venue.tables:
        errors.append(
            {"field": "table", "message": TABLE_RANGE.format(venue=venue.name, tables=venue.tables)}
        )
    if errors:
        raise ScheduleError(errors)


def _check_night(
    *,
    club_id: int,
    date: dt.date | None,
    teams: Sequence[Team],
    venue: Venue | None,
    table: int | None,
    exclude_pk: int | None = None,
) -> None:
    """Neither team plays another fixture that night and the table is free: the checks a
    generated schedule meets, for a fixture moved, created or given other teams by hand.
    The venue and that night's fixtures are locked, so two requests cannot both pass."""
    if venue is not None:
        list(Venue.objects.select_for_update().filter(pk=venue.pk))
    if date is None:
        return
    same_night = (
        Fixture.objects.select_for_update(of=("self",))
        .filter(club_id=club_id, date=date)
        .exclude(pk=exclude_pk)
        .select_related("home", "away", "venue")
    )
    for other in same_night:
        for team in teams:
            if team.pk in (other.home_id, other.away_id):
                raise ScheduleError.one(
                    "date", TEAM_BUSY.format(team=team.name, home=other.home, away=other.away)
                )
        if venue is not None and other.venue_id == venue.pk and other.table == table:
            raise ScheduleError.one(
                "table",
                TABLE_TAKEN.format(table=table, venue=venue.name, home=other.home, away=other.away),
            )


def _teams_errors(division: Division, home: Team, away: Team) -> list[dict[str, str]]:
    errors = []
    if home.pk == away.pk:
        errors.append({"field": "away", "message": TEAM_SELF})
    for name, team in (("home", home), ("away", away)):
        if team.division_id != division.pk:
            errors.append({"field": name, "message": TEAM_OTHER_DIVISION})
    return errors


def _lock_config(division: Division) -> None:
    """Generation holds the division's schedule config row; so do hand-made changes."""
    list(ScheduleConfig.objects.select_for_update().filter(division_id=division.pk))


@transaction.atomic
def fixture_create(
    *,
    division: Division,
    round_number: int,
    home: Team,
    away: Team,
    date: dt.date | None = None,
    venue: Venue | None = None,
    table: int | None = None,
    games_planned: int | None = None,
    user: Any = None,
) -> Fixture:
    """A fixture added by hand (a rearranged or extra match): the same checks as a
    generated or moved one (teams of the division, free that night; the table free). It
    is ``scheduled``, or ``postponed`` without a date; a result comes from its games or a
    forfeit, never from here."""
    planned = division.games_per_fixture if games_planned is None else games_planned
    errors = _teams_errors(division, home, away)
    if not 1 <= planned <= 9:
        errors.append({"field": "games_planned", "message": GAMES_PLANNED})
    if errors:
        raise ScheduleError(errors)
    _lock_config(division)
    _check_place(division.club_id, venue, table)
    _check_night(club_id=division.club_id, date=date, teams=(home, away), venue=venue, table=table)
    return Fixture.objects.create(
        club_id=division.club_id,
        division=division,
        round_number=round_number,
        home=home,
        away=away,
        date=date,
        venue=venue,
        table=table if venue is not None else None,
        games_planned=planned,
        status=Fixture.Status.SCHEDULED if date is not None else Fixture.Status.POSTPONED,
    )


FIXTURE_UPDATE_FIELDS = ("division", "round_number", "home", "away", "games_planned")


@transaction.atomic
def fixture_update(*, fixture: Fixture, user: Any = None, **changes: Any) -> Fixture:
    """Change a fixture's round, teams, division or games planned (``FIXTURE_UPDATE_FIELDS``).
    Once it has a result or games only the round can change; new teams must be free that
    night. Date, venue and table change through ``fixture_move``."""
    unknown = set(changes) - set(FIXTURE_UPDATE_FIELDS)
    if unknown:
        raise TypeError(f"fixture_update() got unexpected fields {sorted(unknown)}")
    fixture = _lock(fixture)
    after = {name: changes.get(name, getattr(fixture, name)) for name in FIXTURE_UPDATE_FIELDS}
    changed = [
        name
        for name in ("division", "home", "away", "games_planned")
        if name in changes and after[name] != getattr(fixture, name)
    ]
    if changed and (fixture.is_done or fixture.games.exists()):
        raise ScheduleError([{"field": name, "message": FIXTURE_HAS_RESULT} for name in changed])
    errors = _teams_errors(after["division"], after["home"], after["away"])
    if not 1 <= after["games_planned"] <= 9:
        errors.append({"field": "games_planned", "message": GAMES_PLANNED})
    if after["division"].club_id != fixture.club_id:
        errors.append({"field": "division", "message": DIVISION_OTHER_CLUB})
    if errors:
        raise ScheduleError(errors)
    if {"home", "away"} & set(changed):
        _check_night(
            club_id=fixture.club_id,
            date=fixture.date,
            teams=(after["home"], after["away"]),
            venue=None,
            table=None,
            exclude_pk=fixture.pk,
        )
    for name, value in after.items():
        setattr(fixture, name, value)
    fixture.save(update_fields=list(FIXTURE_UPDATE_FIELDS))
    return fixture


@transaction.atomic
def fixture_delete(*, fixture: Fixture, user: Any = None) -> None:
    """Delete a fixture without a result; one that is played, forfeit or has games is part
    of the standings and stays."""
    fixture = _lock(fixture)
    if fixture.is_done or fixture.games.exists():
        raise ScheduleError.one("fixture", FIXTURE_KEPT, kind=CONFLICT)
    fixture.delete()


@transaction.atomic
def fixture_move(
    *,
    fixture: Fixture,
    date: dt.date | None,
    venue: Venue | None = None,
    table: int | None = None,
    note: str = "",
    user: Any = None,
) -> Fixture:
    """Postpone (no date: to be arranged) or move a fixture to another night, venue or
    table. The first date it had is kept in ``original_date``."""
    fixture = _lock(fixture)
    if fixture.is_done or fixture.games.exists():
        raise ScheduleError.one("fixture", FIXTURE_DONE)
    _check_place(fixture.club_id, venue, table)
    _check_night(
        club_id=fixture.club_id,
        date=date,
        teams=(fixture.home, fixture.away),
        venue=venue,
        table=table,
        exclude_pk=fixture.pk,
    )
    if date != fixture.date and fixture.original_date is None:
        fixture.original_date = fixture.date
    fixture.date = date
    fixture.venue = venue
    fixture.table = table if venue is not None else None
    fixture.status = Fixture.Status.POSTPONED if date is None else Fixture.Status.SCHEDULED
    fixture.note = note[:200]
    fixture.flagged_at = None
    fixture.reminded_at = None
    fixture.save(
        update_fields=[
            "original_date",
            "date",
            "venue",
            "table",
            "status",
            "note",
            "flagged_at",
            "reminded_at",
        ]
    )
    return fixture


@transaction.atomic
def fixture_forfeit(*, fixture: Fixture, winner: Team, note: str = "", user: Any = None) -> Fixture:
    """Record a forfeit or walkover. The winner scores the season's ``points_win`` and every
    planned game, the loser ``points_loss`` (see ``selectors.fixture_outcomes``); the
    standings count it in the same transaction (``hooks.fixture_changed``)."""
    fixture = _lock(fixture)
    if fixture.status == Fixture.Status.FORFEIT:
        raise ScheduleError.one("fixture", FORFEIT_TWICE)
    if winner.pk not in (fixture.home_id, fixture.away_id):
        raise ScheduleError.one("winner", FORFEIT_WINNER)
    if fixture.games.exists():
        raise ScheduleError.one("fixture", FIXTURE_HAS_GAMES)
    fixture.status = Fixture.Status.FORFEIT
    fixture.forfeit_winner = winner
    fixture.note = note[:200]
    fixture.flagged_at = None
    fixture.save(update_fields=["status", "forfeit_winner", "note", "flagged_at"])
    fixture_changed.send(fixture=fixture)
    return fixture


def fixture_result_update(*, fixture_id: int) -> Fixture:
    """Keep a fixture's status in step with the games started for it: ``played`` once its
    result is decided (``leagues.results.fixture_result``), back to ``scheduled`` (or
    ``postponed`` without a date) when a correction undoes that. A forfeit is left alone.

    ``games.services`` calls it inside the transaction of the game write that changes
    whether a game counts, with the game row locked, so the schedule, the standings and
    the status never disagree, not even until the nightly job."""
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("division__season")
        .get(pk=fixture_id)
    )
    if fixture.status == Fixture.Status.FORFEIT:
        return fixture
    result = selectors.fixture_result_of(
        fixture,
        selectors.fixture_games(fixture=fixture),
        selectors.season_points(fixture.division.season),
    )
    if result.decided and fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.flagged_at = None
    elif not result.decided and fixture.status == Fixture.Status.PLAYED:
        fixture.status = (
            Fixture.Status.SCHEDULED if fixture.date is not None else Fixture.Status.POSTPONED
        )
    else:
        return fixture
    fixture.save(update_fields=["status", "flagged_at"])
    return fixture


# --- periodic work --------------------------------------------------------------------------


def nights_publish(*, on: dt.date) -> int:
    """Publish every club's fixture list for the night ``on`` (once; later runs only update
    the count). Returns how many clubs play that night."""
    counts: dict[int, int] = defaultdict(int)
    for club_id in (
        Fixture.objects.filter(date=on)
        .exclude(status__in=Fixture.DONE)
        .values_list("club_id", flat=True)
    ):
        counts[club_id] += 1
    now = timezone.now()
    for club_id, how_many in counts.items():
        night, created = LeagueNight.objects.get_or_create(
            club_id=club_id, date=on, defaults={"published_at": now, "fixture_count": how_many}
        )
        if not created:
            night.fixture_count = how_many
            night.published_at = night.published_at or now
            night.save(update_fields=["fixture_count", "published_at"])
    return len(counts)


REMINDER_SUBJECT = "{club}: {home} v {away} on {when}"
REMINDER_TEMPLATE = "scheduling/email/reminder"  # .txt and .html (core.mail)


def fixtures_remind(*, on: dt.date, base_url: str = "") -> int:
    """Email the players (with an email address) of every fixture on ``on``, once per
    fixture. Returns how many emails were sent.

    Each email is sent on its own: one that fails (a bad address, a name that breaks a
    header, the mail server refusing one recipient) is logged and the others still go, so
    one bad row never stops a night's reminders for every club."""
    sent = 0
    fixtures = (
        Fixture.objects.filter(date=on, reminded_at__isnull=True, status=Fixture.Status.SCHEDULED)
        .select_related("club", "division", "home", "away", "venue")
        .order_by("id")
    )
    mail = get_connection(fail_silently=False)
    for fixture in fixtures:
        emails = sorted(
            set(
                TeamMember.objects.filter(team_id__in=(fixture.home_id, fixture.away_id))
                .exclude(player__user__email="")
                .exclude(player__user__isnull=True)
                .values_list("player__user__email", flat=True)
            )
        )
        when = f"{on:%A} {on.day} {on:%B}"
        url = f"{base_url}/clubs/{fixture.club.slug}/schedule/teams/{fixture.home_id}/"
        subject = REMINDER_SUBJECT.format(
            club=fixture.club.name, home=fixture.home, away=fixture.away, when=when
        )
        subject = " ".join(subject.split())  # one line, whatever the names hold
        context = {"fixture": fixture, "when": when, "url": url, "club": fixture.club}
        for email in emails:
            try:
                sent += mail_send(
                    to=[email],
                    subject=subject,
                    template=REMINDER_TEMPLATE,
                    context=context,
                    connection=mail,
                )
            except Exception:  # one failed email must not stop the others
                logger.exception("reminder for fixture %s to %s not sent", fixture.pk, email)
        Fixture.objects.filter(pk=fixture.pk).update(reminded_at=timezone.now())
    return sent


def fixtures_flag_overdue(*, today: dt.date) -> int:
    """Flag fixtures whose night has passed with no result and no game. A fixture whose
    result is decided (``leagues.results``) becomes played, should the game's transaction
    not have done it already (rows written before it did). Returns how many were flagged."""
    candidates = Fixture.objects.filter(
        Q(date__lt=today) & Q(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED])
    )
    divisions = Division.objects.filter(
        pk__in=candidates.values_list("division_id", flat=True).distinct()
    ).select_related("season")
    to_flag: list[int] = []
    to_played: list[int] = []
    for division in divisions:
        games = selectors.games_by_fixture(division=division)
        points = selectors.season_points(division.season)
        for fixture in candidates.filter(division=division).only(
            "id", "home_id", "away_id", "games_planned", "status", "flagged_at"
        ):
            mine = games.get(fixture.pk, [])
            if selectors.fixture_result_of(fixture, mine, points).decided:
                to_played.append(fixture.pk)
            elif not mine and fixture.flagged_at is None:
                to_flag.append(fixture.pk)
    Fixture.objects.filter(pk__in=to_played).update(status=Fixture.Status.PLAYED, flagged_at=None)
    Fixture.objects.filter(pk__in=to_flag).update(flagged_at=timezone.now())
    return len(to_flag)
