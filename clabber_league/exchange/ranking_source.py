"""The federation's imported results as a source of its national ranking (issue 34).

``ranking`` rates the confirmed games of its member clubs on this site; a club elsewhere
sends its results as a file. Each final file (its period closed by an officer; a replaced
file is history) is one event of the ranking, as ``docs/ranking.md`` maps it: its sides'
players by federation number (a merged number counts as the record it was merged into;
unknown and inactive numbers are left out), each side's placing, and its score as its share
of the points at its tables, so that files under different house rules compare.

A member club that scores its games on this site is ranked from those games
(``ranking.sources.local_events``); its files (the same nights, exported) are left out, or
each night would count twice. A club that plays elsewhere is ranked from its files.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

from django.db.models import Exists, OuterRef

from clabber_league.federation.models import Federation
from clabber_league.games.models import Game
from clabber_league.ranking.compute import EventResult, SideResult
from clabber_league.ranking.sources import ranking_clubs

from .models import Flag, ImportedResult, ResultFile

SHARE_SCALE = 10_000
"""A side's share of the points (0 to 1) is sent as a score out of this many."""


def imported_events(federation: Federation) -> Iterator[EventResult]:
    rows = (
        ImportedResult.objects.filter(
            federation=federation,
            result_file__status=ResultFile.Status.FINAL,
            federation_player__isnull=False,
        )
        .exclude(flag__in=[Flag.UNKNOWN, Flag.INACTIVE])
        .exclude(Exists(_played_here()), result_file__club_id__in=ranking_clubs(federation))
        .select_related("federation_player", "result_file")
        .order_by("result_file_id", "side", "pk")
    )
    for _file_id, file_rows in groupby(rows, key=lambda row: row.result_file_id):
        event = _event(list(file_rows))
        if event is not None:
            yield event


def _played_here():
    """Confirmed games of the file's club on this site: it is ranked from those."""
    return Game.objects.filter(
        club_id=OuterRef("result_file__club_id"), status=Game.Status.CONFIRMED
    )


def _event(rows: list[ImportedResult]) -> EventResult | None:
    result_file = rows[0].result_file
    sides: dict[str, list[ImportedResult]] = {}
    for row in rows:  # a club night's players are each their own side
        sides.setdefault(row.side or f"player {row.pk}", []).append(row)
    results = []
    for side_rows in sides.values():
        first = side_rows[0]
        results.append(
            SideResult(
                numbers=tuple(sorted({row.federation_player.number for row in side_rows})),
                score=round((first.score_share or 0) * SHARE_SCALE),
                placing=first.place,
                points_available=SHARE_SCALE,
            )
        )
    if len(results) < 2:
        return None  # nobody to be ranked against
    rules = rows[0].rules or {}
    options = rules.get("options") or {}
    target = options.get("target")
    return EventResult(
        key=f"file:{result_file.club_id}:{result_file.event_key}",
        date=result_file.date_to,
        category=result_file.kind,
        sides=tuple(results),
        rules=str(rules.get("name") or rules.get("base") or ""),
        target=target if isinstance(target, int) else None,
    )
