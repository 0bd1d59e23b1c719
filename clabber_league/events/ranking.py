"""A club night's ranking: every player on their own, ranked on what their sides scored.

Pure Python (no Django): the caller reads the night's rounds and passes one
:class:`RoundRow` per player per round; the room display, the prize list, the API and
the season of nights all rank through :func:`night_ranking`.

How a night ranks (README "Club nights"; CLUB-NIGHTS.md: "each player scores their
pair's points for the round; the night ranks players on their total"):

* **Points.** A player's night score is the sum of their round scores over the rounds
  they played, plus what they were awarded for each round they sat out. A round's score
  is set by the night's ranking method (:data:`METHODS`, :func:`round_scores`):

  - ``points``: the side's points as scored (what a klaverjas drive adds up; fair while
    every table is of one size and plays the same round);
  - ``share``: the side's share of the points scored at its table, scaled so that an even
    result is 50 whatever the table's size (``50 x sides x own / table total``): at a
    table of four the two sides' scores add up to 100, at a table of three the three
    sides' to 150. A table of four's losers no longer outrank a table of three's runners-up
    because a two-sided table hands out more points per side;
  - ``match_points``: bridge's match points per table: 100 for beating every other side
    at the table, 0 for beating none, a tie counting half (a table of three: 100, 50, 0).

  A table that has scored nothing yet gives its players 0 under every method.
* **A sit-out** scores what the event's rule awards: a fixed score in the method's units
  (the row carries it), or the player's own average over the rounds they played (the row
  carries ``None`` and the average is taken here, so it follows the night as it goes; 0
  while they have played nothing). A sit-out is neither won nor lost.
* **Tiebreaks**, in this order, each looking only at the players still level
  (:data:`TIEBREAKS`):

  1. *rounds won*: more rounds in which their side won the table's game;
  2. *head-to-head*: in the rounds where two of the level players sat at the same table
     on opposite sides, the one whose side scored more takes a point; more such points
     first;
  3. *best round*: the higher single round.

  Players level after all of them share the place and are listed by name.

Every line says why it stands above the next one when the two are level on points
(:attr:`RankedPlayer.reason`), so a player reading the wall can check the order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from clabber_league.rules.errors import gettext_noop, msg

#: The tiebreaks after points, in the order they are applied, with the sentence a reader
#: sees when one decides (the key is what :attr:`RankedPlayer.tiebreak` names): a whole
#: sentence each, kept with its values (``msg``) so that a page shows it in its language.
TIEBREAKS: tuple[tuple[str, str], ...] = (
    (
        "won",
        gettext_noop("Level on {points} points with {name}: more rounds won ({mine} to {theirs})."),
    ),
    (
        "head_to_head",
        gettext_noop(
            "Level on {points} points with {name}: better head-to-head in the rounds they "
            "met as opponents ({mine} to {theirs})."
        ),
    ),
    (
        "best_round",
        gettext_noop(
            "Level on {points} points with {name}: a higher best round ({mine} to {theirs})."
        ),
    ),
)

#: The ranking methods: how one round at one table scores (see the module's docstring).
METHODS: tuple[str, ...] = ("points", "share", "match_points")

#: How each method's round score reads on the ranking page.
METHOD_RULES: dict[str, str] = {
    "points": gettext_noop("Players are ranked on the points their sides scored over the night"),
    "share": gettext_noop(
        "Players are ranked on their sides' share of the points scored at their table, "
        "added up over the night: each round, 50 x the number of sides x the side's points "
        "/ the table's points, so that an even result scores 50 at a table of three as at a "
        "table of four"
    ),
    "match_points": gettext_noop(
        "Players are ranked on match points per table, added up over the night: each round, "
        "100 for beating every other side at the table, 0 for beating none, a tie counting "
        "half (at a table of three 100, 50 and 0)"
    ),
}

#: The sit-out's score in one phrase, by sit-out rule (``fixed`` takes the score).
SIT_OUT_RULES: dict[str, str] = {
    "average": gettext_noop(
        "a round sat out scores the player's own average of the rounds they played"
    ),
    "fixed": gettext_noop("a round sat out scores {score}"),
}

TIEBREAK_RULE = gettext_noop(
    "Players level are split by rounds won, then head-to-head (in the rounds they sat at one "
    "table on opposite sides, whose side scored more), then their best single round. Players "
    "still level share the place."
)

#: The whole rule in one paragraph, for the pages that print the ranking.
RANKING_RULE = gettext_noop(
    "Players are ranked on the points their sides scored over the night (a sit-out scores "
    "what the night's rule awards). Players level on points are split by rounds won, then "
    "head-to-head (in the rounds they sat at one table on opposite sides, whose side scored "
    "more), then their best single round. Players still level share the place."
)


#: How the paragraph is put together (a translation may order its parts otherwise).
RULE_PARAGRAPH = gettext_noop("{method}; {sit_out}. {tiebreaks}")


def ranking_rule(
    method: str = "points",
    sit_out: str = "average",
    score: int = 0,
    translate: Callable[[str], str] = str,
) -> str:
    """The night's whole ranking rule in one paragraph: its method, its sit-out's score
    and its tiebreaks, as the ranking page explains it. English, or in a page's language
    when it passes its ``gettext`` as ``translate`` (the API keeps English)."""
    sit = translate(SIT_OUT_RULES.get(sit_out, SIT_OUT_RULES["average"])).format(score=score)
    return translate(RULE_PARAGRAPH).format(
        method=translate(METHOD_RULES[method]), sit_out=sit, tiebreaks=translate(TIEBREAK_RULE)
    )


Score = int | float


def _number(value: float) -> Score:
    """A score as it is shown: two decimals at most, a whole number without them."""
    value = round(value, 2)
    return int(value) if value == int(value) else value


@dataclass(frozen=True)
class RoundRow:
    """One player's round: their side's ``points`` at their ``table`` and whether it won.

    ``side`` names the player's side at the table (``"A"``, ``"B"``, ``"C"``): two players
    of one round and table on different sides were opponents. A sit-out has
    ``sat_out=True``, no table, and ``points`` the awarded score, or ``None`` for the
    player's average."""

    player: int
    round: int
    points: Score | None
    won: bool = False
    sat_out: bool = False
    table: int | None = None
    side: str = ""


@dataclass(frozen=True)
class RankedPlayer:
    """One line of the night's ranking."""

    player: int
    name: str
    position: int
    shared: bool
    points: Score
    won: int
    played: int
    sat_out: int
    best_round: Score
    rounds: Mapping[int, Score] = field(default_factory=dict)  # round number -> score
    #: Why this line is above the next one when both are level on points: the tiebreak's
    #: key (``TIEBREAKS``), "" when not level or when they share the place.
    tiebreak: str = ""
    reason: str = ""


def _average(points: Sequence[Score]) -> Score:
    """The average of played rounds: whole points rounded half up, other scores to two
    decimals (0 for none)."""
    if not points:
        return 0
    if all(isinstance(p, int) for p in points):
        return (2 * sum(points) + len(points)) // (2 * len(points))  # type: ignore[operator]
    return _number(sum(points) / len(points))


def round_scores(rows: Iterable[RoundRow], method: str = "points") -> list[RoundRow]:
    """The rows with each played round's ``points`` turned into the method's score.

    The rows of one round and table are the table: each side's points are read once
    (partners carry the same). Sit-out rows pass unchanged (their score is already in the
    method's units, or ``None`` for the average)."""
    if method not in METHODS:
        raise ValueError(f"unknown ranking method {method!r}")
    rows = list(rows)
    if method == "points":
        return rows
    tables: dict[tuple[int, int | None], dict[str, Score]] = defaultdict(dict)
    for row in rows:
        if not row.sat_out:
            tables[(row.round, row.table)][row.side or str(row.player)] = row.points or 0
    out = []
    for row in rows:
        if row.sat_out:
            out.append(row)
            continue
        sides = tables[(row.round, row.table)]
        mine = row.points or 0
        out.append(replace(row, points=_table_score(method, mine, list(sides.values()))))
    return out


def _table_score(method: str, mine: Score, sides: Sequence[Score]) -> Score:
    """One side's score at a table whose sides scored ``sides`` (its own among them)."""
    total = sum(sides)
    if total <= 0 or len(sides) < 2:
        return 0  # nothing scored at the table yet
    if method == "share":
        return _number(50 * len(sides) * mine / total)
    beaten = sum(1 for other in sides if other < mine)
    tied = sum(1 for other in sides if other == mine) - 1  # not counting itself
    return _number(100 * (beaten + tied / 2) / (len(sides) - 1))


@dataclass
class _Tally:
    player: int
    name: str
    played: list[tuple[int, Score]] = field(default_factory=list)  # (round, score)
    sat: list[tuple[int, Score | None]] = field(default_factory=list)
    won: int = 0

    def rounds(self) -> dict[int, Score]:
        played = dict(self.played)
        average = _average(list(played.values()))
        for number, awarded in self.sat:
            played[number] = average if awarded is None else awarded
        return dict(sorted(played.items()))


def _head_to_head(
    group: Sequence[int],
    seats: Mapping[tuple[int, int], list[tuple[int, str]]],
    where: Mapping[int, list[tuple[int, int]]],
    rounds: Mapping[int, Mapping[int, Score]],
) -> dict[int, int]:
    """Head-to-head points among exactly ``group``: one per round where a player's side
    out-scored another member of the group sitting at the same table on the other side."""
    members = set(group)
    score = dict.fromkeys(group, 0)
    for player in group:
        for round_number, table in where.get(player, ()):
            sides = dict(seats[(round_number, table)])
            mine = sides[player]
            for other, side in sides.items():
                if (
                    other in members
                    and side != mine
                    and rounds[player][round_number] > rounds[other][round_number]
                ):
                    score[player] += 1
    return score


def night_ranking(
    rows: Iterable[RoundRow],
    *,
    names: Mapping[int, str] | None = None,
    method: str = "points",
) -> list[RankedPlayer]:
    """Rank a night's players from their round rows (see the module's docstring): the
    rows carry each side's points as scored; ``method`` (:data:`METHODS`) turns them into
    round scores.

    A player appears once whatever number of rows they have; a player with two rows for
    one round is a caller's error (:class:`ValueError`)."""
    names = names or {}
    rows = round_scores(rows, method)
    tallies: dict[int, _Tally] = {}
    seen: set[tuple[int, int]] = set()
    seats: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    where: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for row in rows:
        if (row.player, row.round) in seen:
            raise ValueError(f"player {row.player} has two rows for round {row.round}")
        seen.add((row.player, row.round))
        tally = tallies.setdefault(
            row.player, _Tally(row.player, names.get(row.player, str(row.player)))
        )
        if row.sat_out:
            tally.sat.append((row.round, row.points))
            continue
        tally.played.append((row.round, row.points or 0))
        tally.won += 1 if row.won else 0
        if row.table is not None:
            seats[(row.round, row.table)].append((row.player, row.side))
            where[row.player].append((row.round, row.table))

    rounds = {player: tally.rounds() for player, tally in tallies.items()}
    totals = {player: _number(sum(r.values())) for player, r in rounds.items()}
    best = {player: max(r.values(), default=0) for player, r in rounds.items()}
    won = {player: tally.won for player, tally in tallies.items()}

    def by_name(player: int) -> tuple[str, int]:
        return (tallies[player].name.casefold(), player)

    criteria: list[tuple[str, Callable[[Sequence[int]], Mapping[int, Score]]]] = [
        ("won", lambda group: {p: won[p] for p in group}),
        ("head_to_head", lambda group: _head_to_head(group, seats, where, rounds)),
        ("best_round", lambda group: {p: best[p] for p in group}),
    ]
    sentences = dict(TIEBREAKS)
    ordered: list[int] = []
    shared: set[int] = set()
    reasons: dict[int, tuple[str, str]] = {}

    def split(group: list[int], level: int) -> None:
        """Order ``group`` (level on points and every criterion before ``level``)."""
        if len(group) == 1:
            ordered.append(group[0])
            return
        if level == len(criteria):
            group.sort(key=by_name)
            ordered.extend(group)
            shared.update(group)
            return
        key, measure = criteria[level]
        values = measure(group)
        distinct = sorted({values[p] for p in group}, reverse=True)
        subgroups = [[p for p in group if values[p] == value] for value in distinct]
        for index, subgroup in enumerate(subgroups):
            split(sorted(subgroup, key=by_name), level + 1)
            if index + 1 < len(subgroups):
                nxt = subgroups[index + 1]
                last = ordered[-1]
                reasons[last] = (
                    key,
                    msg(
                        sentences[key],
                        points=totals[last],
                        name=tallies[nxt[0]].name,
                        mine=values[last],
                        theirs=values[nxt[0]],
                    ),
                )

    by_points: dict[Score, list[int]] = defaultdict(list)
    for player, total in totals.items():
        by_points[total].append(player)
    for total in sorted(by_points, reverse=True):
        split(sorted(by_points[total], key=by_name), 0)

    lines: list[RankedPlayer] = []
    position = 0
    for index, player in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        if not (
            previous is not None
            and player in shared
            and previous in shared
            and totals[previous] == totals[player]
            and not lines[-1].reason  # nothing separated them: they share the place
        ):
            position = index + 1
        tally = tallies[player]
        key, reason = reasons.get(player, ("", ""))
        lines.append(
            RankedPlayer(
                player=player,
                name=tally.name,
                position=position,
                shared=False,
                points=totals[player],
                won=won[player],
                played=len(tally.played),
                sat_out=len(tally.sat),
                best_round=best[player],
                rounds=rounds[player],
                tiebreak=key,
                reason=reason,
            )
        )
    return _mark_shared(lines)


def _mark_shared(lines: list[RankedPlayer]) -> list[RankedPlayer]:
    counts: dict[int, int] = defaultdict(int)
    for line in lines:
        counts[line.position] += 1
    return [replace(line, shared=counts[line.position] > 1) for line in lines]
