"""A knockout round's ties put on league nights and tables, as the league's fixtures are.

The nights and tables are a division's schedule config's (its weekday, skipped dates and
venues, in order); the placing is the schedule's own pure timetable
(``scheduling.planning.timetable``): a tie goes on the first night with a free table where
neither side plays (a league fixture of its team, or another cup tie). A tie placed by
hand passes the league's checks (``scheduling.services.fixture_changes.night_check``: the
club's venue and table, no fixture of its teams that night, the table free of fixtures)
and the same checks against the other cup ties of that night.

The other way round, a league fixture moved or generated onto a night sees the cup ties
placed there through ``scheduling.hooks.night_bookings`` (``cups_night_bookings``,
registered in ``CupsConfig.ready``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.models import Division, Team, TeamMember, Venue
from clabber_league.scheduling import planning
from clabber_league.scheduling.hooks import Booking
from clabber_league.scheduling.models import Fixture, ScheduleConfig
from clabber_league.scheduling.services.fixture_changes import night_check

from ..models import Cup, Entrant, Tie
from . import CupError

NO_CONFIG = gettext_lazy(
    "{division} has no schedule: a round is placed on the league nights and tables of a "
    "division's schedule."
)
DIVISION_OTHER_CLUB = gettext_lazy("This division is not one of the club's.")
NO_ROUND = gettext_lazy("This cup has no ties to place in that round.")
TIE_DONE = gettext_lazy("This tie is decided: it is not placed again.")
TABLE_TAKEN_BY_TIE = gettext_lazy(
    "Table {table} at {venue} is taken that night by the cup tie {tie}."
)
ENTRANT_BUSY = gettext_lazy("{name} already plays a cup tie that night ({tie}).")
PLACE_NEEDS_DATE = gettext_lazy("Give the night the tie is played.")
MAX_PLACE_NIGHTS = 52


def _entrant_teams(entrants: list[Entrant]) -> dict[int, set[int]]:
    """Each entrant's teams: its own, or the teams its player plays for."""
    out: dict[int, set[int]] = {e.pk: ({e.team_id} if e.team_id else set()) for e in entrants}
    by_player = {e.player_id: e.pk for e in entrants if e.player_id}
    if by_player:
        for player_id, team_id in TeamMember.objects.filter(
            player_id__in=list(by_player)
        ).values_list("player_id", "team_id"):
            out[by_player[player_id]].add(team_id)
    return out


class _Nights(Mapping):
    """What is taken on a night (the entrants busy and the tables in use), read when the
    timetable first asks for that night."""

    def __init__(
        self,
        cup: Cup,
        entrants: list[Entrant],
        placing: set[int],
        thirds: dict[int, int] | None = None,
    ) -> None:
        self.cup = cup
        # A table of three's third player, and the id its table is known by in the
        # timetable (its home side's): the table cannot go on a night the third is busy.
        self.thirds = thirds or {}
        self.teams_of = _entrant_teams(entrants)
        self.players_of = {e.pk: e.player_id for e in entrants if e.player_id}
        self.placing = placing
        self.cache: dict[dt.date, tuple[set[int], set[planning.Table]]] = {}

    def get(self, night: dt.date, default: Any = None) -> tuple[set[int], set[planning.Table]]:
        if night not in self.cache:
            self.cache[night] = self._read(night)
        return self.cache[night]

    __getitem__ = get

    def __iter__(self) -> Iterator[dt.date]:
        return iter(self.cache)

    def __len__(self) -> int:
        return len(self.cache)

    def __bool__(self) -> bool:  # never "empty": every night is read when asked for
        return True

    def _read(self, night: dt.date) -> tuple[set[int], set[planning.Table]]:
        club_id = self.cup.club_id
        busy_teams: set[int] = set()
        taken: set[planning.Table] = set()
        for home, away, venue, table in Fixture.objects.filter(
            club_id=club_id, date=night
        ).values_list("home_id", "away_id", "venue_id", "table"):
            busy_teams.update((home, away))
            if table is not None:
                taken.add(planning.Table(venue, table))
        busy_entrants: set[tuple[str, int]] = set()
        for home, away, venue, table in (
            Tie.objects.filter(cup__club_id=club_id, date=night)
            .exclude(pk__in=self.placing)
            .values_list("home__team_id", "away__team_id", "venue_id", "table")
        ):
            busy_teams.update(t for t in (home, away) if t)
            if table is not None:
                taken.add(planning.Table(venue, table))
        for home, away, third in (
            Tie.objects.filter(cup__club_id=club_id, date=night)
            .exclude(pk__in=self.placing)
            .values_list("home__player_id", "away__player_id", "third__player_id")
        ):
            busy_entrants.update(("player", p) for p in (home, away, third) if p)
        busy = {
            pk
            for pk, teams in self.teams_of.items()
            if teams & busy_teams or ("player", self.players_of.get(pk)) in busy_entrants
        }
        busy |= {table for third, table in self.thirds.items() if third in busy}
        return busy, taken


@transaction.atomic
def round_place(
    *,
    cup: Cup,
    bracket: str = "main",
    round: int,
    division: Division,
    start: dt.date | None = None,
) -> list[Tie]:
    """Put the round's ties that are still to play on ``division``'s league nights (from
    ``start``, default today) and tables, as the schedule places fixtures. Ties already
    decided (byes, walkovers, results) are left alone; the others are (re)placed."""
    if division.club_id != cup.club_id:
        raise CupError.one("division", DIVISION_OTHER_CLUB)
    config = ScheduleConfig.objects.filter(division=division).first()
    if config is None:
        raise CupError.one("division", NO_CONFIG.format(division=division.name), kind=CONFLICT)
    Cup.objects.select_for_update().filter(pk=cup.pk).first()
    ties = list(
        cup.ties.select_for_update(of=("self",))
        .filter(bracket=bracket, round=round)
        .exclude(status__in=Tie.DONE)
        .order_by("order")
    )
    if not ties:
        raise CupError.one("round", NO_ROUND, kind=CONFLICT)
    venues = config.ordered_venues()
    list(Venue.objects.select_for_update().filter(pk__in=[v.pk for v in venues]).order_by("pk"))
    entrants = list(cup.entrants.all())
    # A side not known yet is nobody else: it gets an id of its own that no entrant has.
    meetings = [
        planning.Meeting(round, t.home_id or -(2 * t.pk), t.away_id or -(2 * t.pk + 1))
        for t in ties
    ]
    by_meeting = dict(zip(meetings, ties, strict=True))
    first = max(start or timezone.localdate(), config.start_date)
    nights = planning.league_nights(
        start=first,
        weekday=config.weekday,
        skip=list(config.skip_dates.values_list("date", flat=True)),
        after=first - dt.timedelta(days=1),
    )
    thirds = {t.third_id: t.home_id or -(2 * t.pk) for t in ties if t.third_id}
    occupied = _Nights(cup, entrants, {t.pk for t in ties}, thirds)
    try:
        placements = list(
            planning.timetable(
                [planning.RoundPlan(number=round, meetings=tuple(meetings))],
                nights=nights,
                tables=planning.tables_of([(v.pk, v.tables) for v in venues]),
                total_meetings=len(meetings),
                occupied=occupied,
                max_nights=MAX_PLACE_NIGHTS,
            )
        )
    except planning.PlanningError as exc:
        raise CupError(exc.errors, kind=CONFLICT) from exc
    for p in placements:
        tie = by_meeting[p.meeting]
        tie.date, tie.venue_id, tie.table = p.date, p.venue, p.table
    Tie.objects.bulk_update(ties, ["date", "venue", "table"])
    return ties


@transaction.atomic
def tie_place(
    *, tie: Tie, date: dt.date | None, venue: Venue | None = None, table: int | None = None
) -> Tie:
    """Put one tie on a night (and a table) by hand, with the league's checks and the same
    checks against the other cup ties of that night."""
    tie = (
        Tie.objects.select_for_update(of=("self",))
        .select_related("cup", "home", "away", "third")
        .get(pk=tie.pk)
    )
    if tie.is_done:
        raise CupError.one("tie", TIE_DONE, kind=CONFLICT)
    if date is None and (venue is not None or table is not None):
        raise CupError.one("date", PLACE_NEEDS_DATE)
    entrants = [e for e in (tie.home, tie.away, tie.third) if e is not None]
    teams_of = _entrant_teams(entrants)
    team_ids = set().union(*teams_of.values()) if teams_of else set()
    night_check(
        club_id=tie.cup.club_id,
        date=date,
        teams=list(Team.objects.filter(pk__in=team_ids)),
        venue=venue,
        table=table,
    )
    if date is not None:
        _check_ties(tie, entrants, date, venue, table)
    tie.date, tie.venue, tie.table = date, venue, table
    tie.save(update_fields=["date", "venue", "table"])
    return tie


def _check_ties(
    tie: Tie, entrants: list[Entrant], date: dt.date, venue: Venue | None, table: int | None
) -> None:
    same_night = (
        Tie.objects.select_for_update(of=("self",))
        .filter(cup__club_id=tie.cup.club_id, date=date)
        .exclude(pk=tie.pk)
        .select_related("cup", "home", "away", "third")
    )
    teams = {e.team_id for e in entrants if e.team_id}
    players = {e.player_id for e in entrants if e.player_id}
    for other in same_night:
        for e in (other.home, other.away, other.third):
            if e is not None and (
                (e.team_id and e.team_id in teams) or (e.player_id and e.player_id in players)
            ):
                message = ENTRANT_BUSY.format(name=e.name, tie=f"{other.cup.name} {other.key}")
                raise CupError.one("date", message, kind=CONFLICT)
        if venue is not None and other.venue_id == venue.pk and other.table == table:
            message = TABLE_TAKEN_BY_TIE.format(
                table=table, venue=venue.name, tie=f"{other.cup.name} {other.key}"
            )
            raise CupError.one("table", message, kind=CONFLICT)


def cups_night_bookings(
    *, club_id: int, start: dt.date, end: dt.date | None = None, **_: Any
) -> list[Booking]:
    """The handler of ``scheduling.hooks.night_bookings``: the club's cup ties placed on a
    night from ``start`` to ``end`` (not a bye or a void tie: those are never played), so
    that a league fixture moved or generated onto that night sees them: their teams (a
    player's teams, for a cup of players) play, and their table is taken."""
    ties = (
        Tie.objects.filter(cup__club_id=club_id, date__gte=start)
        .exclude(status__in=[Tie.Status.BYE, Tie.Status.VOID])
        .select_related("cup", "home", "away", "third")
        .order_by("date", "pk")
    )
    if end is not None:
        ties = ties.filter(date__lte=end)
    ties = list(ties)
    entrants = {e.pk: e for t in ties for e in (t.home, t.away, t.third) if e is not None}
    teams_of = _entrant_teams(list(entrants.values()))
    bookings = []
    for t in ties:
        sides = " v ".join(
            e.name if e is not None else source
            for e, source in (
                (t.home, t.home_from),
                (t.away, t.away_from),
                *([(t.third, t.third_from)] if t.third_from else []),
            )
        )
        bookings.append(
            Booking(
                date=t.date,
                label=f"the cup tie {t.cup.name} {t.key}: {sides}",
                team_ids=frozenset(
                    team for e in (t.home_id, t.away_id, t.third_id) if e for team in teams_of[e]
                ),
                venue_id=t.venue_id,
                table=t.table,
            )
        )
    return bookings


__all__ = ["cups_night_bookings", "round_place", "tie_place"]
