"""The ranking's arithmetic: the input shape of a rated event, the normalisation rule,
and OpenSkill over one event. No Django here: it is tested alone, and the sources
(``sources.py``: local confirmed games; the exchange's imported rows, once wired) only
have to produce :class:`EventResult` values.

**The input shape** (what a source yields, one value per event, in any order)::

    EventResult(
        key="club-7:game-1234",           # stable and unique in the federation
        date=date(2026, 11, 3),
        category="night",                 # league, cup, night, friendly, or the file's type
        rules="clabber · target 1000",    # for people: the rule set or house rules
        target=1000,                      # None when not known
        sides=(
            SideResult(numbers=("NKU-12", "NKU-40"), score=1032, placing=1),
            SideResult(numbers=("NKU-7",), unlinked=1, score=871, placing=2),
        ),
    )

``numbers`` are federation player numbers (a merged one is followed to the number kept);
``unlinked`` counts the side's players who have no approved number: they play as
newcomers whose rating is not kept. ``placing`` is the event's own placing (1 is first,
equal placings share a number); when a source leaves it out it is decided by the
normalised score. ``points_available`` is the points scored by every side in the games the
side played (a club night's tables differ); left out, the sum of all sides' scores.

**The rule for results under different house rules: each side's share of the points.**
A side's normalised score is its score divided by the points scored in the games it played
(every side's, its own included): 1032 of 1903 is 0.542. A share means the same whatever
the target (500, 1000 or 1500), the rule set's point scale (clabber's 162 a deal or a
house rule's bonuses) and a deal limit that ends a round short of the target, where the
target would not: a game cut short by the clock never reaches it, and a game to 1500 is
won by the same kind of margin as one to 500, only over more deals. The share places the
sides of an event that gives no placing, and it pools results of different venues into one
placing when a source gives several clubs' results under one event key (a simultaneous
national night). The event's own placing, when given, wins: the club decided it by its
rules. Rating uses the placing only (OpenSkill's Plackett-Luce model over the sides, ranked
1, 2, ...), so a win under any house rules moves the ratings as much as any other.

**Placing points** (in the spirit of master points): a federation may give points per
placing for each event category (``{"night": [5, 3, 2, 1]}``); each player of a side
placed k gets the k-th number, none past the list's end. They add up and never go down;
they are shown beside the rating and do not change it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT = MODEL.rating()


@dataclass(frozen=True)
class SideResult:
    """One side of an event: its players by federation number, its score and placing."""

    numbers: tuple[str, ...]
    score: int
    placing: int | None = None
    unlinked: int = 0
    points_available: int | None = None


@dataclass(frozen=True)
class EventResult:
    """The results of one event, as every source gives them (see the module's docstring)."""

    key: str
    date: dt.date
    category: str
    sides: tuple[SideResult, ...]
    rules: str = ""
    target: int | None = None


@dataclass
class Standing:
    """A player's running rating while the events are replayed."""

    mu: float = DEFAULT.mu
    sigma: float = DEFAULT.sigma
    events: int = 0
    points: int = 0
    last_event_on: dt.date | None = None

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Step:
    """One player's move in one event: a history row before it is stored."""

    player: int
    placing: int
    share: float
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    points: int
    events_after: int = 0
    points_after: int = 0


@dataclass
class Rated:
    event: EventResult
    steps: list[Step] = field(default_factory=list)


def shares(sides: Sequence[SideResult]) -> list[float]:
    """Each side's normalised score: its share of the points scored in the games it
    played. A negative score counts as 0; when nothing was scored, the sides share
    equally."""
    total = sum(max(s.score, 0) for s in sides)
    out = []
    for side in sides:
        available = side.points_available if side.points_available is not None else total
        if available <= 0:
            out.append(1 / len(sides))
        else:
            out.append(max(side.score, 0) / available)
    return out


def placings(sides: Sequence[SideResult]) -> list[int]:
    """The event's placing of each side: the given one when every side has one, else by
    normalised score (equal shares share a placing)."""
    if all(s.placing is not None for s in sides):
        return [int(s.placing) for s in sides]  # type: ignore[arg-type]
    share = shares(sides)
    return [1 + sum(1 for other in share if other > mine + 1e-12) for mine in share]


def placing_points(table: Mapping[str, Sequence[int]], category: str, placing: int) -> int:
    """The points a placing is worth in an event of ``category`` (0 past the list)."""
    points = table.get(category) or ()
    return int(points[placing - 1]) if 0 < placing <= len(points) else 0


def rate_event(
    event: EventResult,
    ids: Sequence[Sequence[int]],
    ratings: dict[int, Standing],
    points_table: Mapping[str, Sequence[int]],
) -> list[Step]:
    """Rate one event, updating ``ratings`` in place. ``ids`` are the federation player ids
    of each side (its numbers resolved). Fewer than two sides, or no side with a known
    player: nothing is rated."""
    sides = [
        (side, list(dict.fromkeys(pids)))
        for side, pids in zip(event.sides, ids, strict=True)
        if pids or side.unlinked
    ]
    if sum(1 for _, pids in sides if pids) < 1 or len(sides) < 2:
        return []
    place = placings([s for s, _ in sides])
    share = shares([s for s, _ in sides])
    teams = []
    for side, pids in sides:
        team = [
            MODEL.rating(mu=ratings.setdefault(p, Standing()).mu, sigma=ratings[p].sigma)
            for p in pids
        ]
        team += [MODEL.rating() for _ in range(side.unlinked)]
        teams.append(team)
    rated = MODEL.rate(teams, ranks=place)
    steps = []
    for (_side, pids), team, placing, sh in zip(sides, rated, place, share, strict=True):
        points = placing_points(points_table, event.category, placing)
        for pid, new in zip(pids, team, strict=False):
            row = ratings[pid]
            before = (row.mu, row.sigma)
            row.mu, row.sigma = new.mu, new.sigma
            row.events += 1
            row.points += points
            row.last_event_on = event.date
            steps.append(
                Step(pid, placing, sh, *before, new.mu, new.sigma, points, row.events, row.points)
            )
    return steps


def rate_all(
    events: Iterable[tuple[EventResult, Sequence[Sequence[int]]]],
    points_table: Mapping[str, Sequence[int]],
    start: dict[int, Standing] | None = None,
) -> tuple[list[Rated], dict[int, Standing]]:
    """Replay every event in date order (then by key, so a recomputation is repeatable)
    from OpenSkill's default rating, or from ``start`` (the ratings before the first of
    ``events``, when only the later events are replayed)."""
    ratings: dict[int, Standing] = dict(start or {})
    out = []
    for event, ids in sorted(events, key=lambda e: (e[0].date, e[0].key)):
        steps = rate_event(event, ids, ratings, points_table)
        if steps:
            out.append(Rated(event, steps))
    return out, ratings
