"""Round robins, Swiss rounds and league nights as plain data: no Django, no database.

Teams are plain ids. The adapter between these and the models is ``services.py``.

**Round robin.** The circle (Berger) method, from the FIDE Berger tables of
`caissify-pairings` (``berger_round``, checked there against the published tables): team
``i`` of the seeded list takes pairing number ``i + 1``. With an odd number of teams a
phantom takes the fixed number, so whoever meets it has the bye: each team sits out once
per cycle. Home (the team that deals first) is the Berger "white": it alternates round by
round with the fewest breaks possible. A double round robin plays the cycle again with
home and away swapped.

**Re-planning.** Rounds already played are kept; ``remaining_round_robin`` takes their
meetings out of the full plan and keeps every other round as it was, so with the same
teams the rest of the season is exactly the rest of the original plan.

**Swiss.** One round at a time from the standings (points, then games won): the FIDE
Dutch engine of `caissify-pairings` pairs it (home from its colour allocation). When it
cannot pair everyone without a repeat, a maximum-weight matching over the pairs that
have not met does (networkx), and when even that cannot, the round is refused.

**Timetabling.** Rounds go to league nights in order, one round a night when its
fixtures fit: tables are filled venue by venue (overflow goes to the next venue), and a
fixture with no free table — or whose team is still owed an earlier fixture — moves to
the next night. No team plays twice in a night and no table holds two fixtures; every
move is written down in ``Notes`` for the page to show.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count

from caissify_pairings import generate_pairings
from caissify_pairings.engines.round_robin import berger_round

from clabber_league.rules.errors import gettext_noop, msg

NEED_TWO_TEAMS = gettext_noop("A schedule needs at least two teams; this division has {count}.")
TEAMS_TWICE = gettext_noop("A team is listed twice.")
CYCLES_RANGE = gettext_noop(
    "A round robin is played once (single) or twice (double, home and away)."
)
SWISS_ROUNDS_RANGE = gettext_noop(
    "{teams} teams can play 1 to {most} Swiss rounds without a repeat."
)
SWISS_ALL_PAIRED = gettext_noop("All {rounds} Swiss rounds are already paired.")
SWISS_DEAD_END = gettext_noop(
    "Round {round} cannot be paired without two teams meeting again: every pairing left "
    "has been played. Play fewer Swiss rounds or switch the division to a round robin."
)
TOO_MANY_NIGHTS = gettext_noop(
    "{fixtures} fixtures at {tables} table(s) a night need more than {nights} league nights; "
    "add tables or venues."
)
WEEKDAY_RANGE = gettext_noop("The league night is a weekday from 0 (Monday) to 6 (Sunday).")

#: The notes of a plan (``Notes``): fixtures moved to a later night or another venue.
MOVED_TABLES_TAKEN = gettext_noop(
    "Round {round}: {count} fixture(s) moved to {when} (all {tables} tables were taken)."
)
MOVED_TEAM_OWED = gettext_noop(
    "Round {round}: {count} fixture(s) moved to {when} "
    "(a team of theirs was still owed an earlier fixture)."
)
ROUND_AT_VENUE = gettext_noop(
    "Round {round}, {when}: {count} fixture(s) at {venue} "
    "({first_venue}'s {tables} tables are full)."
)
ROUNDS_AT_VENUE = gettext_noop(
    "Rounds {first} to {last}: {count} fixture(s) a night at {venue} "
    "({first_venue}'s {tables} tables are full)."
)


def _english(params: Mapping[str, object]) -> dict[str, object]:
    """A note's values as its English text writes them: a date as ``Tue 8 Sep 2026``."""
    return {
        key: f"{value:%a} {value.day} {value:%b %Y}" if isinstance(value, dt.date) else value
        for key, value in params.items()
    }


def _kept(params: Mapping[str, object]) -> dict[str, object]:
    """A note's values as JSON keeps them: a date as ``{"date": iso}``."""
    return {
        key: {"date": value.isoformat()} if isinstance(value, dt.date) else value
        for key, value in params.items()
    }


#: A plan may take this many league nights (ten years of weekly nights), or twice its
#: number of rounds when that is more.
MAX_NIGHTS = 520

logger = logging.getLogger(__name__)


class PlanningError(Exception):
    """A plan the league asked for that cannot be made; ``errors`` say why, by field."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(e["message"] for e in errors))

    @classmethod
    def one(cls, field_name: str, message: str) -> PlanningError:
        return cls([{"field": field_name, "message": message}])


class PlanBug(AssertionError):
    """Cannot happen: a plan broke one of its own guarantees."""


@dataclass(frozen=True, slots=True)
class Meeting:
    """Two teams meet in a round; ``home`` deals first."""

    round: int
    home: int
    away: int


@dataclass(frozen=True, slots=True)
class RoundPlan:
    number: int
    meetings: tuple[Meeting, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """A table to play at: ``venue`` is an id (None when the club lists no venues)."""

    venue: int | None
    number: int


@dataclass(frozen=True, slots=True)
class Placement:
    meeting: Meeting
    date: dt.date
    venue: int | None
    table: int | None  # None: a home team's own venue, seated by its club


@dataclass
class Notes:
    """What the schedule page says about a plan: overflows and warnings, in plain words."""

    venue_names: Mapping[int, str] = field(default_factory=dict)
    items: list[dict[str, object]] = field(default_factory=list)

    def add(
        self, kind: str, template: str, params: Mapping[str, object] | None = None, **data: object
    ) -> None:
        """A note: its English text, and its template (marked ``gettext_noop``) and values
        for a page to show it in its reader's language (``core.messages``). A date
        among the values is written ``Tue 8 Sep 2026`` here and kept as ``{"date": iso}``."""
        params = dict(params or {})
        self.items.append(
            {
                "kind": kind,
                "text": template.format(**_english(params)),
                "template": template,
                "params": _kept(params),
                **data,
            }
        )

    def name(self, venue: int | None) -> str:
        return self.venue_names.get(venue, f"venue {venue}") if venue is not None else "the club"

    def compacted(self) -> list[dict[str, object]]:
        """The notes, with a run of rounds that overflow alike to another venue said once."""
        out: list[dict[str, object]] = []
        for item in self.items:
            last = out[-1] if out else None
            same = (
                last is not None
                and item["kind"] == last["kind"] == "venue_overflow"
                and (item["venue"], item["count"], item["full"])
                == (last["venue"], last["count"], last["full"])
                and item["round"] == last["last_round"] + 1  # type: ignore[operator]
            )
            if not same:
                out.append({**item, "last_round": item.get("round")})
                continue
            assert last is not None
            last["last_round"] = item["round"]
            params = {
                **item["params"],  # type: ignore[dict-item]
                "first": last["round"],
                "last": item["round"],
            }
            last["template"] = ROUNDS_AT_VENUE
            last["params"] = params
            last["text"] = ROUNDS_AT_VENUE.format(**_english(params))
        for item in out:
            item.pop("last_round", None)
        return out


# --- round robin --------------------------------------------------------------------------


def _check_teams(teams: Sequence[int]) -> None:
    if len(teams) < 2:
        raise PlanningError.one("teams", msg(NEED_TWO_TEAMS, count=len(teams)))
    if len(set(teams)) != len(teams):
        raise PlanningError.one("teams", msg(TEAMS_TWICE))


def round_robin_rounds(teams: int, cycles: int = 1) -> int:
    """How many rounds a round robin of ``teams`` takes."""
    return (teams + teams % 2 - 1) * cycles


def round_robin_meetings(teams: int, cycles: int = 1) -> int:
    return teams * (teams - 1) // 2 * cycles


def round_robin(teams: Sequence[int], *, cycles: int = 1) -> Iterator[RoundPlan]:
    """Every round of a single (``cycles=1``) or double round robin, in order, lazily."""
    _check_teams(teams)
    if cycles not in (1, 2):
        raise PlanningError.one("cycles", msg(CYCLES_RANGE))
    size = len(teams) + len(teams) % 2
    position: dict[int, int | None] = {i + 1: team for i, team in enumerate(teams)}
    position.setdefault(size, None)  # the phantom: meeting it is a bye
    per_cycle = size - 1
    for cycle in range(cycles):
        for number in range(1, per_cycle + 1):
            round_number = cycle * per_cycle + number
            meetings: list[Meeting] = []
            byes: list[int] = []
            for white, black in berger_round(size, number):
                home, away = position[white], position[black]
                if cycle % 2:
                    home, away = away, home
                if home is None or away is None:
                    byes.append(away if home is None else home)  # type: ignore[arg-type]
                else:
                    meetings.append(Meeting(round_number, home, away))
            yield RoundPlan(round_number, tuple(meetings), tuple(byes))


def remaining_round_robin(
    teams: Sequence[int],
    *,
    cycles: int,
    played: Iterable[tuple[int, int]],
    taken_numbers: Iterable[int] = (),
) -> Iterator[RoundPlan]:
    """The rounds still to play when the ``played`` meetings ``(home, away)`` are kept.

    The full plan for ``teams`` with those meetings taken out; rounds left empty are
    dropped and the rest take the round numbers not in ``taken_numbers``, in order.
    In a double round robin a played meeting counts against the same home team first.
    """
    members = set(teams)
    directed: Counter[tuple[int, int]] = Counter()
    for home, away in played:
        if home in members and away in members:
            directed[(home, away)] += 1
    consumed: set[tuple[int, int]] = set()  # planned (home, away) meetings already played
    if cycles == 2:
        for (home, away), times in directed.items():
            consumed.add((home, away))
            if times > 1:
                consumed.add((away, home))
    else:
        for home, away in directed:
            consumed.add((home, away))
            consumed.add((away, home))
    free_numbers = (n for n in count(1) if n not in set(taken_numbers))
    for plan in round_robin(teams, cycles=cycles):
        meetings = [m for m in plan.meetings if (m.home, m.away) not in consumed]
        if not meetings:
            continue
        number = next(free_numbers)
        yield RoundPlan(
            number,
            tuple(Meeting(number, m.home, m.away) for m in meetings),
            plan.byes,
        )


# --- Swiss ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """A meeting of an earlier Swiss round and what each side took from it."""

    round: int
    home: int
    away: int
    home_points: float = 0
    away_points: float = 0
    home_games: int = 0
    away_games: int = 0


@dataclass
class Standing:
    team: int
    seed: int
    points: float = 0
    games: int = 0
    byes: int = 0
    opponents: set[int] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)


def swiss_most_rounds(teams: int) -> int:
    """A Swiss of ``teams`` can never have more rounds than a round robin."""
    return round_robin_rounds(teams)


def swiss_standings(teams: Sequence[int], history: Sequence[Result]) -> list[Standing]:
    """Points, games won, opponents, home/away and byes of each team, best first."""
    table = {team: Standing(team=team, seed=i + 1) for i, team in enumerate(teams)}
    by_round: dict[int, list[Result]] = defaultdict(list)
    for result in history:
        by_round[result.round].append(result)
    for number in sorted(by_round):
        before = {team: s.points for team, s in table.items()}
        present: set[int] = set()
        for r in by_round[number]:
            for team, opponent, colour in ((r.home, r.away, "white"), (r.away, r.home, "black")):
                if team not in table:
                    continue
                s = table[team]
                present.add(team)
                s.opponents.add(opponent)
                s.colours.append(colour)
                mine, theirs = before.get(team, 0), before.get(opponent, 0)
                s.floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
            if r.home in table:
                table[r.home].points += r.home_points
                table[r.home].games += r.home_games
            if r.away in table:
                table[r.away].points += r.away_points
                table[r.away].games += r.away_games
        for team, s in table.items():
            if team not in present:
                s.byes += 1
                s.colours.append("none")
                s.floats.append("down")
    return sorted(table.values(), key=lambda s: (-s.points, -s.games, s.seed))


def swiss_round(
    teams: Sequence[int],
    history: Sequence[Result],
    *,
    round_number: int,
    total_rounds: int,
) -> RoundPlan:
    """Pair round ``round_number`` of a Swiss from the results of the earlier rounds."""
    _check_teams(teams)
    most = swiss_most_rounds(len(teams))
    if not 1 <= total_rounds <= most:
        raise PlanningError.one(
            "swiss_rounds", msg(SWISS_ROUNDS_RANGE, teams=len(teams), most=most)
        )
    if round_number > total_rounds:
        raise PlanningError.one("swiss_rounds", msg(SWISS_ALL_PAIRED, rounds=total_rounds))
    standings = swiss_standings(teams, history)
    plan = _dutch_round(standings, round_number, total_rounds)
    if plan is None:
        plan = matching_round(standings, round_number)
    if plan is None:
        raise PlanningError.one("swiss_rounds", msg(SWISS_DEAD_END, round=round_number))
    return plan


def _dutch_round(standings: list[Standing], number: int, total: int) -> RoundPlan | None:
    """The FIDE Dutch pairing, or None when it leaves the round incomplete or repeats."""
    players = [
        {
            "id": s.team,
            "name": str(s.team),
            "score": float(s.points),
            "rating": s.games,
            "starting_number": s.seed,
            "color_hist": list(s.colours),
            "float_history": list(s.floats),
            "bye_count": s.byes,
        }
        for s in standings
    ]
    previous = {(min(s.team, o), max(s.team, o)) for s in standings for o in s.opponents}
    try:
        pairings = generate_pairings(
            "dutch", players, previous, number, max(total, number), max_byes_per_player=1
        )
    except Exception:  # the engine gave up: the matching below decides
        logger.info("Dutch engine could not pair round %s; using the matching", number)
        return None
    plan = _plan_from_pairs(
        number, [(p["white_id"], p.get("black_id")) for p in pairings], standings
    )
    return plan if _is_sound(plan, standings) else None


def _plan_from_pairs(
    number: int, pairs: Sequence[tuple[int, int | None]], standings: list[Standing]
) -> RoundPlan:
    meetings = tuple(Meeting(number, a, b) for a, b in pairs if b is not None)
    byes = tuple(a for a, b in pairs if b is None)
    return RoundPlan(number, meetings, byes)


def _is_sound(plan: RoundPlan, standings: list[Standing]) -> bool:
    """Everyone once, one bye at most (to a team with the fewest), and no repeat."""
    teams = [s.team for s in standings]
    seen = [t for m in plan.meetings for t in (m.home, m.away)] + list(plan.byes)
    if sorted(seen) != sorted(teams) or len(plan.byes) != len(teams) % 2:
        return False
    by_team = {s.team: s for s in standings}
    if any(m.away in by_team[m.home].opponents for m in plan.meetings):
        return False
    fewest = min(s.byes for s in standings)
    return all(by_team[t].byes == fewest for t in plan.byes)


def matching_round(standings: list[Standing], number: int) -> RoundPlan | None:
    """A maximum-weight matching over the pairs that have not met: teams close in the
    standings meet; the bye goes to the lowest team among those with the fewest byes.
    None when no pairing of everyone avoids a repeat."""
    import networkx as nx

    rank = {s.team: i for i, s in enumerate(standings)}
    n = len(standings)
    big = (n + 1) ** 2 + 1
    graph = nx.Graph()
    graph.add_nodes_from(rank)
    for i, a in enumerate(standings):
        for b in standings[i + 1 :]:
            if b.team not in a.opponents:
                graph.add_edge(a.team, b.team, weight=big - (rank[a.team] - rank[b.team]) ** 2)
    bye = object()
    if n % 2:
        fewest = min(s.byes for s in standings)
        for s in standings:
            if s.byes == fewest:
                graph.add_edge(s.team, bye, weight=big - (n - 1 - rank[s.team]) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n + n % 2:
        return None
    by_team = {s.team: s for s in standings}
    pairs: list[tuple[int, int | None]] = []
    for a, b in matching:
        if a is bye or b is bye:
            pairs.append((b if a is bye else a, None))  # type: ignore[arg-type]
            continue
        home, away = _home_first(by_team[a], by_team[b], rank)
        pairs.append((home, away))
    pairs.sort(key=lambda p: min(rank[p[0]], rank[p[1]]) if p[1] is not None else n)
    return _plan_from_pairs(number, pairs, standings)


def _home_first(a: Standing, b: Standing, rank: Mapping[int, int]) -> tuple[int, int]:
    """The team that has been home less often is home; then the one away last time."""

    def balance(s: Standing) -> tuple[int, int]:
        homes = s.colours.count("white") - s.colours.count("black")
        played = [c for c in s.colours if c != "none"]
        last_home = 1 if played and played[-1] == "white" else 0
        return homes, last_home

    if balance(a) != balance(b):
        return (a.team, b.team) if balance(a) < balance(b) else (b.team, a.team)
    return (a.team, b.team) if rank[a.team] <= rank[b.team] else (b.team, a.team)


# --- league nights and tables ---------------------------------------------------------------


def league_nights(
    *, start: dt.date, weekday: int, skip: Iterable[dt.date] = (), after: dt.date | None = None
) -> Iterator[dt.date]:
    """Every ``weekday`` from ``start`` (and after ``after``), without the ``skip`` dates.

    The arguments are read at once (not when the first night is asked for)."""
    if not 0 <= weekday <= 6:
        raise PlanningError.one("weekday", msg(WEEKDAY_RANGE))
    skipped = set(skip)
    first = start if after is None else max(start, after + dt.timedelta(days=1))
    return _weekly(first + dt.timedelta(days=(weekday - first.weekday()) % 7), skipped)


def _weekly(night: dt.date, skipped: set[dt.date]) -> Iterator[dt.date]:
    while True:
        if night not in skipped:
            yield night
        night += dt.timedelta(days=7)


def tables_of(venues: Sequence[tuple[int, int]]) -> list[Table]:
    """Every table of the ``(venue id, number of tables)`` list, venue by venue."""
    return [Table(venue, number) for venue, tables in venues for number in range(1, tables + 1)]


def timetable(
    rounds: Iterable[RoundPlan],
    *,
    nights: Iterator[dt.date],
    tables: Sequence[Table],
    total_meetings: int | None = None,
    occupied: Mapping[dt.date, tuple[set[int], set[Table]]] | None = None,
    notes: Notes | None = None,
    max_nights: int = MAX_NIGHTS,
) -> Iterator[Placement]:
    """Put every meeting of ``rounds`` on a night and at a table, lazily, in round order.

    Each night takes the next round; what does not fit (no free table, or a team that
    still owes an earlier fixture or already plays that night) waits for the next night,
    ahead of the later rounds. ``tables`` empty means as many tables as needed (numbered
    1, 2, ... with no venue). ``occupied`` holds the teams and tables already in use on a
    date by fixtures that are kept. A plan that needs more than ``max_nights`` nights is
    refused (``total_meetings`` lets that be seen before any night is planned).
    """
    notes = notes if notes is not None else Notes()
    occupied = occupied or {}
    capacity = len(tables) if tables else None
    if capacity and total_meetings and total_meetings > capacity * max_nights:
        raise PlanningError.one(
            "venues",
            msg(TOO_MANY_NIGHTS, fixtures=total_meetings, tables=capacity, nights=max_nights),
        )
    first_venue = tables[0].venue if tables else None
    rounds_left = iter(rounds)
    more_rounds = True
    pending: list[Meeting] = []
    nominal: dict[int, dt.date] = {}  # the night each round was first offered
    why_moved: dict[Meeting, str] = {}
    used = 0
    for night in nights:
        if more_rounds:
            plan = next(rounds_left, None)
            if plan is None:
                more_rounds = False
            else:
                nominal[plan.number] = night
                pending.extend(plan.meetings)
        if not pending:
            if more_rounds:
                continue
            return
        used += 1
        if used > max_nights:
            raise PlanningError.one(
                "venues",
                msg(
                    TOO_MANY_NIGHTS,
                    fixtures=total_meetings or "These",
                    tables=capacity or "unlimited",
                    nights=max_nights,
                ),
            )
        busy_teams, taken = occupied.get(night, (set(), set()))
        placed, pending, placed_here, moved_here = _place_night(
            night, pending, busy_teams, taken, tables, nominal, why_moved
        )
        yield from placed
        _note_night(notes, night, placed_here, moved_here, first_venue, capacity, tables)


def _place_night(
    night: dt.date,
    pending: list[Meeting],
    busy_teams: set[int],
    taken: set[Table],
    tables: Sequence[Table],
    nominal: Mapping[int, dt.date],
    why_moved: dict[Meeting, str],
) -> tuple[
    list[Placement],
    list[Meeting],
    Counter[tuple[int, int | None]],
    Counter[tuple[int, str]],
]:
    """One night of :func:`timetable`: the meetings placed (in order), those left for the
    next night, and the counts its notes describe. ``why_moved`` records why a meeting
    waited (``team`` or ``full``), for the night it is finally placed."""
    busy = set(busy_teams)
    free = iter([t for t in tables if t not in taken]) if tables else None
    numbers = count(1)
    placed: list[Placement] = []
    left: list[Meeting] = []
    placed_here: Counter[tuple[int, int | None]] = Counter()
    moved_here: Counter[tuple[int, str]] = Counter()
    full = False
    for index, meeting in enumerate(pending):
        if full:
            for rest in pending[index:]:
                why_moved.setdefault(rest, "full")
            left.extend(pending[index:])
            break
        if meeting.home in busy or meeting.away in busy:
            why_moved.setdefault(meeting, "team")
            left.append(meeting)
            busy.add(meeting.home)  # a team's fixtures keep their order
            busy.add(meeting.away)
            continue
        if free is None:
            table = Table(None, next(numbers))
            while table in taken:
                table = Table(None, next(numbers))
        else:
            table = next(free, None)
            if table is None:
                full = True
                why_moved.setdefault(meeting, "full")
                left.append(meeting)
                continue
        busy.add(meeting.home)
        busy.add(meeting.away)
        placed_here[(meeting.round, table.venue)] += 1
        if nominal.get(meeting.round) != night:
            moved_here[(meeting.round, why_moved.pop(meeting, "full"))] += 1
        placed.append(Placement(meeting, night, table.venue, table.number))
    return placed, left, placed_here, moved_here


def _note_night(
    notes: Notes,
    night: dt.date,
    placed: Counter[tuple[int, int | None]],
    moved: Counter[tuple[int, str]],
    first_venue: int | None,
    capacity: int | None,
    tables: Sequence[Table],
) -> None:
    for (number, reason), how_many in sorted(moved.items()):
        notes.add(
            "night_overflow",
            MOVED_TABLES_TAKEN if reason == "full" else MOVED_TEAM_OWED,
            {"round": number, "count": how_many, "when": night, "tables": capacity},
            round=number,
            date=night.isoformat(),
            count=how_many,
        )
    for (number, venue), how_many in sorted(
        placed.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)
    ):
        if venue is None or venue == first_venue:
            continue
        first_tables = sum(1 for t in tables if t.venue == first_venue)
        full = f"{notes.name(first_venue)}'s {first_tables} tables are full"
        notes.add(
            "venue_overflow",
            ROUND_AT_VENUE,
            {
                "round": number,
                "when": night,
                "count": how_many,
                "venue": notes.name(venue),
                "first_venue": notes.name(first_venue),
                "tables": first_tables,
            },
            round=number,
            date=night.isoformat(),
            venue=venue,
            count=how_many,
            full=full,
        )
