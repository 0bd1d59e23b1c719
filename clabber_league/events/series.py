"""A season of club nights: one ranking over the nights of a series.

Pure Python (no Django): the caller passes each player's night results and the series'
method; the series page, the API and the tests all rank through :func:`series_ranking`.

The rules (README "Club nights"; CLUB-NIGHTS.md: "season rankings count a player's best
nights: the best 6 of 8"; minimums and percentages when players miss evenings):

* **Methods** (:data:`METHODS`):

  - ``total``: the sum of the player's night points;
  - ``average``: that sum divided by the nights they played (exact, shown to one
    decimal), fair to players who miss evenings;
  - ``best``: the sum of their best N nights (``best_n``); with fewer nights they count
    what they have. The nights that count are marked (:attr:`SeriesLine.counted`).

* **Minimum attendance.** A player who played fewer nights than ``min_attendance`` is
  listed apart (:attr:`SeriesRanking.unranked`), with their score, and not ranked.
* **Ties**: the score first, then more nights played, then the best single night; still
  level: the place is shared, listed by name. Each line says why it stands above the
  next one when the two have the same score (:attr:`SeriesLine.reason`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from clabber_league.rules.errors import gettext_noop, msg

#: The ways a series ranks its players, with the sentence a page shows for each.
METHODS: dict[str, str] = {
    "total": gettext_noop("Total points over all nights"),
    "average": gettext_noop("Average points per night played"),
    "best": gettext_noop("Best nights only"),
}

#: How a series' rule reads with its numbers (pages translate them).
RULE_BEST = gettext_noop("Best {best} of {nights} nights")
RULE_MIN_ATTENDANCE = gettext_noop("{rule}; at least {nights} nights to be ranked")

MAX_NIGHTS = 1000  # a series holds at most this many nights (bounded work)

ERROR_METHOD = "Choose one of: " + ", ".join(METHODS) + "."
ERROR_BEST_N = "Best N of M needs N, a whole number of nights of at least 1."
ERROR_MIN_ATTENDANCE = "The minimum attendance is a whole number of nights, 0 or more."
ERROR_TWICE = "A player has two results for one night."


class SeriesRuleError(ValueError):
    """A series rule that cannot be used; ``field`` names the setting."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class NightResult:
    """One player's result of one night of the series."""

    player: int
    night: int  # the event's id
    points: int
    position: int = 0  # their place that night (0: unknown)


@dataclass(frozen=True)
class SeriesLine:
    """One player's line of the series."""

    player: int
    name: str
    position: int  # 0 for players listed apart (under the minimum attendance)
    shared: bool
    score: Fraction  # total, average or best-N total
    attended: int
    total: int
    best_night: int
    nights: Mapping[int, int] = field(default_factory=dict)  # night id -> points
    counted: frozenset[int] = frozenset()  # the nights that count towards the score
    tiebreak: str = ""
    reason: str = ""

    @property
    def score_display(self) -> str:
        """The score as a page prints it: whole, or to one decimal for an average."""
        if self.score.denominator == 1:
            return str(self.score.numerator)
        tenths = (self.score * 10 * 2 + 1) // 2  # half up
        return f"{tenths // 10}.{tenths % 10}"


@dataclass(frozen=True)
class SeriesRanking:
    method: str
    best_n: int | None
    nights: tuple[int, ...]
    min_attendance: int
    ranked: tuple[SeriesLine, ...]
    unranked: tuple[SeriesLine, ...]  # under the minimum attendance, by score

    def describe(self, translate: Callable[[str], str] = str) -> str:
        """The rule in words: English, or in a page's language when it passes its
        ``gettext`` as ``translate`` (the API keeps English)."""
        if self.method == "best":
            text = translate(RULE_BEST).format(best=self.best_n, nights=len(self.nights))
        else:
            text = translate(METHODS[self.method])
        if self.min_attendance:
            text = translate(RULE_MIN_ATTENDANCE).format(rule=text, nights=self.min_attendance)
        return text


def _check(method: str, best_n: int | None, min_attendance: int) -> None:
    if method not in METHODS:
        raise SeriesRuleError("method", ERROR_METHOD)
    if method == "best" and (isinstance(best_n, bool) or not isinstance(best_n, int) or best_n < 1):
        raise SeriesRuleError("best_n", ERROR_BEST_N)
    if isinstance(min_attendance, bool) or not isinstance(min_attendance, int):
        raise SeriesRuleError("min_attendance", ERROR_MIN_ATTENDANCE)
    if min_attendance < 0:
        raise SeriesRuleError("min_attendance", ERROR_MIN_ATTENDANCE)


def _counted(nights: Mapping[int, int], order: Sequence[int], best_n: int | None) -> set[int]:
    """The nights that count: every night, or the best ``best_n`` (the earlier of two
    equal nights)."""
    if best_n is None:
        return set(nights)
    position = {night: index for index, night in enumerate(order)}
    ranked = sorted(nights, key=lambda n: (-nights[n], position.get(n, len(order)), n))
    return set(ranked[:best_n])


_TIEBREAKS = (
    (
        "attended",
        gettext_noop("Level on {score} with {name}: more nights played ({mine} to {theirs})."),
    ),
    (
        "best_night",
        gettext_noop("Level on {score} with {name}: a better best night ({mine} to {theirs})."),
    ),
)


def series_ranking(
    results: Iterable[NightResult],
    *,
    nights: Sequence[int],
    method: str = "total",
    best_n: int | None = None,
    min_attendance: int = 0,
    names: Mapping[int, str] | None = None,
) -> SeriesRanking:
    """Rank a series from its players' night results (see the module's docstring).

    ``nights`` are the series' nights (event ids) in date order: M of "best N of M"."""
    _check(method, best_n, min_attendance)
    names = names or {}
    nights = tuple(nights)[:MAX_NIGHTS]
    per_player: dict[int, dict[int, int]] = {}
    for result in results:
        mine = per_player.setdefault(result.player, {})
        if result.night in mine:
            raise SeriesRuleError("results", ERROR_TWICE)
        mine[result.night] = result.points

    lines: list[SeriesLine] = []
    for player, played in per_player.items():
        counted = _counted(played, nights, best_n if method == "best" else None)
        total = sum(played.values())
        if method == "average":
            score = Fraction(total, len(played))
        else:
            score = Fraction(sum(played[n] for n in counted))
        lines.append(
            SeriesLine(
                player=player,
                name=names.get(player, str(player)),
                position=0,
                shared=False,
                score=score,
                attended=len(played),
                total=total,
                best_night=max(played.values()),
                nights=dict(played),
                counted=frozenset(counted),
            )
        )

    def key(line: SeriesLine) -> tuple:
        return (-line.score, -line.attended, -line.best_night, line.name.casefold(), line.player)

    lines.sort(key=key)
    ranked = [line for line in lines if line.attended >= min_attendance]
    unranked = tuple(line for line in lines if line.attended < min_attendance)
    return SeriesRanking(
        method=method,
        best_n=best_n if method == "best" else None,
        nights=nights,
        min_attendance=min_attendance,
        ranked=tuple(_place(ranked)),
        unranked=unranked,
    )


def _place(lines: Sequence[SeriesLine]) -> list[SeriesLine]:
    """Positions (shared when score, nights and best night are all equal) and the reason
    each line stands above the next one with the same score."""
    placed: list[SeriesLine] = []
    for index, line in enumerate(lines):
        nxt = lines[index + 1] if index + 1 < len(lines) else None
        tiebreak = reason = ""
        if nxt is not None and nxt.score == line.score:
            for key, sentence in _TIEBREAKS:
                mine, theirs = getattr(line, key), getattr(nxt, key)
                if mine != theirs:
                    tiebreak = key
                    reason = msg(
                        sentence,
                        score=line.score_display,
                        name=nxt.name,
                        mine=mine,
                        theirs=theirs,
                    )
                    break
        previous = placed[-1] if placed else None
        level = (
            previous is not None
            and previous.score == line.score
            and previous.attended == line.attended
            and previous.best_night == line.best_night
        )
        position = previous.position if level and previous else index + 1
        placed.append(replace(line, position=position, tiebreak=tiebreak, reason=reason))
    counts = Counter(line.position for line in placed)
    return [replace(line, shared=counts[line.position] > 1) for line in placed]
