"""A play-off's knockout, built from its league stage once that stage is complete.

The build runs as a Celery task (``cups.tasks.build_knockout``), as schedule generation
does: it is queued when the transaction that completed the stage commits (the last league
game confirmed: ``progress.cups_game_changed``; or the secretary asking), and its state
and message are on the stage (``Stage.build``, ``Stage.message``). The task takes the top
N (per division, or overall) from the division tables, seeds them and draws the bracket,
all or nothing, and writes how the seeding was made (``Stage.notes``, ``Entrant.note``).
Its worker beats the stage's ``heartbeat_at`` (core.heartbeat): a build whose worker died
(``Stage.build_stalled``) can be started again within a minute.

**Who goes through.** Per division: the first N of each table, in the league's own order
(its tiebreakers). Overall: every team of the stage in the order match points, game
difference, points difference, points scored (then its place in its own division).
Teams still level for the last place (they share a place in their division's table, or
are equal on every one of those counts overall) are settled by the stage's tie rule: by
lot from the cup's shown seed (``bracket.random_seeding``), or all of them go through.

**Seeds.** Per division: the places first (every division's winner before any runner-up),
teams of one place by match points, game difference, points difference. Overall: the
overall order.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.core import heartbeat, messages
from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.models import Team
from clabber_league.rules.errors import gettext_noop, msg
from clabber_league.standings.ordering import Line
from clabber_league.standings.selectors import standings_table

from .. import bracket as planner
from ..models import Cup, Stage
from . import CupError
from .setup import (
    STAGE_UNFINISHED,
    TOO_FEW_OVERALL,
    TOO_FEW_QUALIFY,
    Candidate,
    _seed_from,
    cup_seed_of,
    division_unfinished,
    stored_notes,
)

logger = logging.getLogger(__name__)

BUILD_ACTIVE = gettext_lazy("The knockout is being built already.")
BUILD_DONE = gettext_lazy(
    "The knockout is built already: seed it again from the cup's page instead."
)
NOT_A_PLAYOFF = gettext_lazy("This cup has no league stage.")
#: What the build says on the stage (``Stage.message`` in English, ``Stage.message_data``
#: for the pages: ``core.messages``).
QUEUED = gettext_noop("Queued: the league stage is complete.")
READING = gettext_noop("Reading the division tables.")
BUILT = gettext_noop("{count} teams went through; the bracket is drawn.")
BROKER_DOWN = gettext_noop("The task queue is not reachable: try again in a minute.")
BUILD_FAILED = gettext_noop("The knockout could not be built: {detail}")
WORKER_LOST = gettext_noop(
    "The worker stopped before finishing; nothing was changed. Build it again."
)
#: How the seeding of a play-off's knockout was made (``Stage.notes``/``notes_data``).
TOP_PER_DIVISION = gettext_noop(
    "The top {top} of each division go through. Seeds: the places first (every "
    "division's winner before any runner-up), teams of one place by match points, "
    "game difference, points difference, points scored; within a division the "
    "league's own order (its tiebreakers)."
)
TOP_OVERALL = gettext_noop(
    "The top {top} overall go through, in the order match points, game difference, "
    "points difference, points scored (then the place in their own division); the "
    "seeds follow that order."
)
LEVEL_ALL_GO = gettext_noop(
    "{division}: {names} were level for the last {places} place(s): all of them go "
    "through (the stage's tie rule)."
)
LEVEL_ALL_GO_OVERALL = gettext_noop(
    "Overall: {names} were level for the last {places} place(s): all of them go "
    "through (the stage's tie rule)."
)
LEVEL_BY_LOT = gettext_noop(
    "{division}: {names} were level for the last {places} place(s): drawn by lot from "
    "seed '{seed}': {chosen} went through."
)
LEVEL_BY_LOT_OVERALL = gettext_noop(
    "Overall: {names} were level for the last {places} place(s): drawn by lot from "
    "seed '{seed}': {chosen} went through."
)
#: Why a team has its seed (``Entrant.note``): its place, never an English ordinal.
PLACED = gettext_noop(
    "Place {place} in {division}, {points} match points, game difference {difference}"
)
PLACED_SHARED = gettext_noop(
    "Place {place} (shared) in {division}, {points} match points, game difference {difference}"
)


def _said(stage_id: int, message: Any, **fields: Any) -> int:
    """Update the stage's row with ``fields`` and its message: a sentence (``msg``) kept
    in English and as its template and values."""
    return Stage.objects.filter(pk=stage_id).update(
        message=str(message)[:300], message_data=messages.message_data([message]), **fields
    )


def _cross(line: Line) -> tuple[int, int, int, int]:
    """The order of teams of different divisions: match points, game difference, points
    difference, points scored (best first)."""
    return (
        -line.match_points,
        -line.game_difference,
        -line.points_difference,
        -line.counters.get("points_for", 0),
    )


def _cut(
    rows: list[tuple[int, Any, Line]],
    top: int,
    level: Callable[[tuple[int, Any, Line]], Any],
    rule: str,
    seed: str,
    where: str | None,
) -> tuple[list[tuple[int, Any, Line]], list[Any]]:
    """The first ``top`` of ``rows`` (already in order), with teams level across the cut
    settled by ``rule``; and a note saying how, when it was needed (``where``: the
    division's name, None overall)."""
    if len(rows) <= top:
        return rows, []
    last = level(rows[top - 1])
    if level(rows[top]) != last:
        return rows[:top], []
    group = [r for r in rows if level(r) == last]
    first = rows.index(group[0])
    places = top - first
    names = ", ".join(r[2].name for r in group)
    at = {} if where is None else {"division": where}
    if rule == Stage.TieRule.ALL:
        template = LEVEL_ALL_GO if where is not None else LEVEL_ALL_GO_OVERALL
        return rows[:first] + group, [msg(template, **at, names=names, places=places)]
    drawn = planner.random_seeding(group, f"{seed}:{where or 'Overall'}")[:places]
    chosen = {id(r) for r in drawn}
    kept = [r for r in group if id(r) in chosen]  # they keep their order in the table
    template = LEVEL_BY_LOT if where is not None else LEVEL_BY_LOT_OVERALL
    note = msg(
        template,
        **at,
        names=names,
        places=places,
        seed=seed,
        chosen=", ".join(r[2].name for r in kept),
    )
    return rows[:first] + kept, [note]


def qualifiers(*, stage: Stage, cup: Cup) -> tuple[list[Candidate], list[Any]]:
    """Who goes through from a complete league stage, in seed order, each with the reason
    for its seed, and the notes that explain the whole seeding."""
    divisions = list(stage.divisions.select_related("season").order_by("pk"))
    top = stage.top or 2
    rows: list[tuple[int, Any, Line]] = []
    notes: list[Any] = []
    tables = [(index, d, standings_table(division=d)) for index, d in enumerate(divisions)]
    if stage.per == Stage.Per.DIVISION:
        for index, division, table in tables:
            if len(table.lines) < top:
                message = msg(
                    TOO_FEW_QUALIFY, division=division.name, teams=len(table.lines), top=top
                )
                raise CupError.one("top", message, kind=CONFLICT)
            mine = [(index, division, line) for line in table.lines]
            chosen, said = _cut(
                mine, top, lambda r: r[2].position, stage.tie_rule, cup_seed_of(cup), division.name
            )
            rows += chosen
            notes += said
        rows.sort(key=lambda r: (r[2].position, _cross(r[2]), r[0]))
        notes.insert(0, msg(TOP_PER_DIVISION, top=top))
    else:
        everyone = [(i, d, line) for i, d, table in tables for line in table.lines]
        everyone.sort(key=lambda r: (_cross(r[2]), r[2].position, r[0]))
        if len(everyone) < top:
            message = msg(TOO_FEW_OVERALL, teams=len(everyone), top=top)
            raise CupError.one("top", message, kind=CONFLICT)
        rows, said = _cut(
            everyone,
            top,
            lambda r: (_cross(r[2]), r[2].position),
            stage.tie_rule,
            cup_seed_of(cup),
            None,
        )
        notes += said
        notes.insert(0, msg(TOP_OVERALL, top=top))
    teams = Team.objects.in_bulk([r[2].team_id for r in rows])
    candidates = []
    for _index, division, line in rows:
        note = msg(
            PLACED_SHARED if line.shared else PLACED,
            place=line.position,
            division=division.name,
            points=line.match_points,
            difference=f"{line.game_difference:+d}",
        )
        candidates.append(Candidate(thing=teams[line.team_id], note=[note]))
    return candidates, notes


# --- queueing and running the build --------------------------------------------------------


def _unfinished(stage: Stage) -> list[dict[str, Any]]:
    errors = []
    for division in stage.divisions.order_by("pk"):
        why = division_unfinished(division)
        if why is not None:
            message = msg(STAGE_UNFINISHED, division=division.name, why=why)
            errors.append({"field": "stage", "message": message})
    return errors


def stage_build_queue_if_complete(*, stage: Stage) -> bool:
    """Queue the build of the knockout when the league stage is complete (once)."""
    if stage.build != Stage.Build.WAITING or _unfinished(stage):
        return False
    _queue(stage)
    return True


def _queue(stage: Stage) -> None:
    updated = Stage.objects.filter(
        pk=stage.pk, build__in=[Stage.Build.WAITING, Stage.Build.FAILED]
    ).update(
        build=Stage.Build.QUEUED,
        message=QUEUED,
        message_data=messages.message_data([msg(QUEUED)]),
        heartbeat_at=timezone.now(),
    )
    if updated:
        stage.build = Stage.Build.QUEUED
        transaction.on_commit(lambda: _enqueue(stage.pk))


@transaction.atomic
def stage_build(*, cup: Cup, user: Any = None) -> Stage:
    """Build a play-off's knockout now (the secretary asking, or again after a failed
    build). Refused while its league stage is unfinished, with what is missing (409)."""
    stage = Stage.objects.select_for_update().filter(cup=cup, kind=Stage.Kind.LEAGUE).first()
    if stage is None:
        raise CupError.one("cup", NOT_A_PLAYOFF, kind=CONFLICT)
    if stage.build_stalled:  # its worker died: build again (Stage.build_stalled)
        _said(stage.pk, msg(WORKER_LOST), build=Stage.Build.FAILED)
        stage.build = Stage.Build.FAILED
    if stage.build in Stage.ACTIVE:
        raise CupError.one("cup", BUILD_ACTIVE, kind=CONFLICT)
    if stage.build == Stage.Build.DONE:
        raise CupError.one("cup", BUILD_DONE, kind=CONFLICT)
    errors = _unfinished(stage)
    if errors:
        raise CupError(errors, kind=CONFLICT)
    _queue(stage)
    return stage


def _enqueue(stage_id: int) -> None:
    from ..tasks import build_knockout

    try:
        build_knockout.apply_async(args=[stage_id], retry=False, ignore_result=True)
    except Exception as exc:  # whatever Redis raised: the stage must not stay "queued"
        logger.warning(
            "knockout build of stage %s not queued: %s: %s", stage_id, type(exc).__name__, exc
        )
        _said(stage_id, msg(BROKER_DOWN), build=Stage.Build.FAILED)


def stage_build_execute(*, stage_id: int) -> Stage:
    """The task's work: seed the knockout from the complete league stage and draw it, all
    or nothing. Never raises for a refused build: the stage records it as failed."""
    claimed = Stage.objects.filter(pk=stage_id, build=Stage.Build.QUEUED).update(
        build=Stage.Build.RUNNING,
        message=READING,
        message_data=messages.message_data([msg(READING)]),
        heartbeat_at=timezone.now(),
    )
    stage = Stage.objects.select_related("cup").get(pk=stage_id)
    if not claimed:
        return stage
    running = Stage.objects.filter(pk=stage_id, build=Stage.Build.RUNNING)
    beating = heartbeat.Heartbeat(running, name=f"heartbeat of the build of stage {stage_id}")
    try:
        with transaction.atomic():
            cup = Cup.objects.select_for_update().get(pk=stage.cup_id)
            if not running.select_for_update().exists():
                return stage  # given up as stalled meanwhile: the new build does the work
            errors = _unfinished(stage)
            if errors:
                raise CupError(errors, kind=CONFLICT)
            candidates, notes = qualifiers(stage=stage, cup=cup)
            knockout = cup.stages.get(kind=Stage.Kind.KNOCKOUT)
            knockout.notes, knockout.notes_data = stored_notes(notes)
            knockout.build = Stage.Build.DONE
            knockout.save(update_fields=["notes", "notes_data", "build"])
            cup.status = Cup.Status.SEEDED
            cup.seeding = Cup.Seeding.STANDINGS
            cup.seed_text = cup_seed_of(cup)  # shown now that the entrants are known
            cup.save(update_fields=["status", "seeding", "seed_text"])
            _seed_from(cup, candidates, Cup.Seeding.STANDINGS)
            from .setup import cup_draw

            cup_draw(cup=cup)
            _said(
                stage_id,
                msg(BUILT, count=len(candidates)),
                build=Stage.Build.DONE,
                finished_at=timezone.now(),
            )
    except CupError as exc:
        said = [e["message"] for e in exc.errors]
        Stage.objects.filter(pk=stage_id).update(
            build=Stage.Build.FAILED,
            message=" ".join(str(m) for m in said)[:300],
            message_data=messages.message_data(said),
        )
    except Exception as exc:  # any failure is recorded on the stage
        logger.exception("knockout build of stage %s failed", stage_id)
        detail = f"{type(exc).__name__}: {exc}"[:200]
        _said(stage_id, msg(BUILD_FAILED, detail=detail), build=Stage.Build.FAILED)
    finally:
        beating.close()
    stage.refresh_from_db()
    return stage


__all__: Sequence[str] = ["qualifiers", "stage_build", "stage_build_execute"]
