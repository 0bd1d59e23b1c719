"""The knockout bracket planner: who plays whom, round by round. Pure Python, no Django.

A cup's Django app (``cups.services``) seeds its entrants 1..n, asks :func:`plan` for the
bracket and stores one tie per :class:`Match`; as ties are decided it hands the winners to
:func:`advance`, which says who is in every match so far and who is champion. Entrants are
known here only by their **seed** (1 is the best); the caller maps seeds to teams or players.

The rules (README "Cups and play-offs"):

* **Size and rounds.** The main bracket has ``rounds = ceil(log2 n)`` rounds over
  ``size = 2 ** rounds`` places; round ``r`` has ``size / 2 ** r`` matches.
* **Seeding order** (:func:`seed_positions`): the standard order, in which seed ``s`` meets
  seed ``size + 1 - s`` in round 1 and, if the better seeds keep winning, seed ``s`` meets
  ``size_r + 1 - s`` in every round (``size_r`` = the places left). Seeds 1 and 2 are in
  different halves, so they can only meet in the final.
* **Byes** exist only in round 1 of the main bracket, and only the top ``size - n`` seeds get
  one: a bye is a match against :data:`BYE` (seed ``0``, nobody) which the seed wins without
  a game. Bye matches are part of the plan so every round has its full number of matches
  (the drawing and the keys stay regular); :attr:`Match.is_bye` marks them and a caller
  need not store a tie for them.
* **Double elimination** (``double=True``): the losers of the main ("winners'") bracket drop
  into a losers' bracket of ``2 * (rounds - 1)`` rounds. Its round 1 pairs the losers of
  main round 1; each even round ``2j`` meets the survivors with the losers of main round
  ``j + 1`` (their order reversed in every other such round, which keeps early rematches
  away); each odd round ``2j + 1`` pairs the survivors. The grand final (key ``"GF"``) sets
  the main bracket's winner (home) against the losers' bracket's winner (away). With
  ``reset=True`` a second final (``"GF2"``) is played only if the away side wins the first,
  so that the champion is the only entrant not to have lost twice. A bye in main round 1
  has no loser, so the losers' bracket carries that empty place on: a match against an
  empty place is won without a game, as in round 1.
* **Third place** (``third_place=True``, single elimination, 4 or more entrants): the two
  losing semi-finalists meet (key ``"3P"``).
* **Plate** (``plate=True``, single elimination): the losers of the main bracket's played
  round-1 matches (not the byes) play a single-elimination bracket of their own. Its
  "seeds" are those matches in order of their better seed (the loser of the match of the
  best seed is plate seed 1), with byes to the top plate seeds when their number is not a
  power of two. It needs at least two played round-1 matches, and with 4 entrants it
  would be the third-place match, so not both.

* **Tables of three** (``table=3``, three-handed rule sets: ``clabber-3``, ``klaberjass-3``):
  a tie is one table of three players and only its winner goes on, so the bracket has
  ``rounds = ceil(log3 n)`` rounds and round ``r`` has ``3 ** (rounds - r)`` tables. The
  tables' seeding (:func:`table_positions`) puts seeds 1, 2 and 3 in different thirds, so
  that seeds 1 and 2 can only meet in the final. Round 1 has ``3 ** (rounds - 1)`` tables,
  each headed by one of the top seeds: the top seeds sit out (a bye: a table of one) as
  far as the field is short of a full house; the rest of the field fills the other tables
  three to a table, the weakest with the best heads (a snake). When the field's count
  leaves one place over (a table of three eliminates two entrants, and ``n`` minus the
  tables is odd), one table -- that of the best head without a bye -- is **a player
  short**: its two play heads-up (the cup app plays the rule set's two-handed game there:
  ``clabber-3`` → ``clabber-2``, ``klaberjass-3`` → ``klaberjass``). So round 1 has at most
  one table of two, and every later table has three. It needs 3 entrants or more, and has
  no double elimination, third-place match or plate (a table has two losers).

Match keys: ``"M<round>-<index>"`` (main), ``"L<round>-<index>"`` (losers), ``"GF"``,
``"GF2"``, ``"3P"``, ``"P<round>-<index>"`` (plate); ``index`` counts from 1, top to bottom.
:attr:`Bracket.matches` lists every match after the matches its sources name.

Random draws: :func:`random_seeding` shuffles entrants with a shown seed string
(:func:`draw_seed` makes one: 128 bits the server chooses, so that its published SHA-256
cannot be reversed), so anyone can repeat the draw: ``random.Random(seed).shuffle(ids)``
in any Python 3 (:data:`ALGORITHM` names this way of drawing).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from clabber_league.rules.errors import gettext_noop

T = TypeVar("T")

#: The seed of nobody: a bye, or the empty place a bye leaves in the losers' bracket.
BYE: Final = 0

#: The largest field the planner draws (a request must not do unbounded work).
MAX_ENTRANTS: Final = 4096

MAIN: Final = "main"
LOSERS: Final = "losers"
FINAL: Final = "final"
RESET: Final = "reset"
THIRD: Final = "third"
PLATE: Final = "plate"

#: The order the brackets are listed and drawn in.
BRACKETS: Final = (MAIN, FINAL, RESET, THIRD, LOSERS, PLATE)

TOO_FEW_ENTRANTS: Final = "A knockout needs at least 2 entrants."
TOO_MANY_ENTRANTS: Final = f"A knockout takes at most {MAX_ENTRANTS} entrants."
THIRD_PLACE_NEEDS_FOUR: Final = "A third-place match needs at least 4 entrants."
THIRD_PLACE_NOT_DOUBLE: Final = (
    "A double-elimination cup has no third-place match: its losers' bracket decides third."
)
PLATE_NOT_DOUBLE: Final = (
    "A double-elimination cup has no plate: its first-round losers play on in the losers' bracket."
)
PLATE_TOO_FEW: Final = "A plate needs at least two first-round matches that are played (not byes)."
PLATE_IS_THIRD_PLACE: Final = (
    "With 4 entrants the plate would be the third-place match (both are the first round's "
    "losers): choose one."
)
TABLE_SIZES: Final = (2, 3)
TABLE_SIZE: Final = "A tie is played by 2 or 3 sides."
THREE_TOO_FEW: Final = "A knockout of tables of three needs at least 3 entrants."
THREE_SINGLE_ONLY: Final = (
    "A knockout of tables of three is single elimination, without a third-place match or a "
    "plate: a table has two losers."
)
#: The rounds' headings (a page passes its gettext to ``Plan.round_title``).
GRAND_FINAL: Final = gettext_noop("Grand final")
GRAND_FINAL_RESET: Final = gettext_noop("Grand final, second match")
THIRD_PLACE: Final = gettext_noop("Third place")
LOSERS_FINAL: Final = gettext_noop("Losers' final")
LOSERS_ROUND: Final = gettext_noop("Losers' round {round}")
PLATE_FINAL: Final = gettext_noop("Plate final")
PLATE_ROUND: Final = gettext_noop("Plate round {round}")
FINAL_TITLE: Final = gettext_noop("Final")
SEMI_FINALS: Final = gettext_noop("Semi-finals")
QUARTER_FINALS: Final = gettext_noop("Quarter-finals")
ROUND_NUMBERED: Final = gettext_noop("Round {round}")

RESET_NEEDS_DOUBLE: Final = "Only a double-elimination cup can have a grand-final reset."
UNKNOWN_MATCH: Final = "There is no match {key} in this bracket."
NOT_READY: Final = "Match {key} cannot have a winner yet: both sides are not known."
NOT_IN_MATCH: Final = "Seed {winner} is not playing in match {key}."
NO_GAME: Final = "Match {key} is not played: it was decided without a game."


class BracketError(ValueError):
    """A bracket that cannot be planned, or results that do not fit it. The message is
    for people (one of this module's constants) and names what is wrong."""


@dataclass(frozen=True)
class Source:
    """Where one side of a match comes from: a seed, the winner or the loser of an earlier
    match, or a bye (nobody)."""

    kind: str  # "seed" | "winner" | "loser" | "bye"
    seed: int | None = None
    match: str | None = None

    @classmethod
    def of_seed(cls, seed: int) -> Source:
        return cls("seed", seed=seed)

    @classmethod
    def winner_of(cls, key: str) -> Source:
        return cls("winner", match=key)

    @classmethod
    def loser_of(cls, key: str) -> Source:
        return cls("loser", match=key)

    @classmethod
    def bye(cls) -> Source:
        return cls("bye")

    def __str__(self) -> str:
        if self.kind == "seed":
            return f"seed {self.seed}"
        if self.kind == "bye":
            return "bye"
        return f"{self.kind} of {self.match}"


@dataclass(frozen=True)
class Match:
    """One tie of the bracket. ``home`` is the better-placed side (the upper line when
    drawn); ``index`` counts from 1 within its bracket's round, top to bottom."""

    key: str
    bracket: str
    round: int
    index: int
    home: Source
    away: Source
    third: Source | None = None  # a table of three: its third side

    @property
    def sides(self) -> tuple[Source, ...]:
        """The match's sides, top to bottom: two, or three at a table of three."""
        return (self.home, self.away) if self.third is None else (self.home, self.away, self.third)

    @property
    def is_bye(self) -> bool:
        """A main round-1 match with one entrant (or none) against byes: its seed goes
        through without a game."""
        if self.third is None:
            return self.home.kind == "bye" or self.away.kind == "bye"
        return sum(1 for side in self.sides if side.kind != "bye") <= 1

    @property
    def is_short(self) -> bool:
        """A table of three with one place empty: its two entrants play heads-up."""
        return self.third is not None and sum(1 for s in self.sides if s.kind == "bye") == 1


@dataclass(frozen=True)
class Bracket:
    """A planned knockout: every match, in an order where each match comes after the
    matches its sides come from."""

    entrants: int
    rounds: int  # main bracket rounds: ceil(log2(entrants))
    matches: tuple[Match, ...]
    double: bool = False
    third_place: bool = False
    plate: bool = False
    reset: bool = False
    table: int = 2  # sides per match: 2, or 3 (a table of three, the winner goes on)
    _by_key: dict[str, Match] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {m.key: m for m in self.matches})

    @property
    def size(self) -> int:
        """Places in the main bracket's first round (entrants plus byes)."""
        return self.table**self.rounds

    @property
    def byes(self) -> int:
        return self.size - self.entrants

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seeds who go through round 1 without a game (a bye), best first."""
        out = []
        for m in self.matches:
            if m.bracket == MAIN and m.round == 1 and m.is_bye:
                out += [s.seed for s in m.sides if s.kind == "seed"]
        return tuple(sorted(out))

    def match(self, key: str) -> Match:
        try:
            return self._by_key[key]
        except KeyError:
            raise BracketError(UNKNOWN_MATCH.format(key=key)) from None

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def round_matches(self, bracket: str, round: int) -> tuple[Match, ...]:
        """The matches of one round of one bracket, top to bottom."""
        return tuple(m for m in self.matches if m.bracket == bracket and m.round == round)

    def sections(self) -> list[tuple[str, int]]:
        """Every (bracket, round) that has matches, in drawing order: the main rounds, the
        final(s), third place, the losers' rounds, the plate rounds."""
        seen = dict.fromkeys((m.bracket, m.round) for m in self.matches)
        return sorted(seen, key=lambda br: (BRACKETS.index(br[0]), br[1]))

    def round_title(self, bracket: str, round: int, translate: Callable[[str], str] = str) -> str:
        """A heading for one round: "Final", "Semi-finals", "Round 2", "Losers' round 3";
        in a page's language when it passes its ``gettext`` as ``translate``."""
        numbered = ROUND_NUMBERED
        if bracket == FINAL:
            return translate(GRAND_FINAL)
        if bracket == RESET:
            return translate(GRAND_FINAL_RESET)
        if bracket == THIRD:
            return translate(THIRD_PLACE)
        if bracket == LOSERS:
            last = max(m.round for m in self.matches if m.bracket == LOSERS)
            if round == last:
                return translate(LOSERS_FINAL)
            numbered = LOSERS_ROUND
        elif bracket == PLATE:
            last = max(m.round for m in self.matches if m.bracket == PLATE)
            if round == last:
                return translate(PLATE_FINAL)
            numbered = PLATE_ROUND
        else:
            from_end = self.rounds - round
            named = {0: FINAL_TITLE, 1: SEMI_FINALS}
            if self.table != 3:
                named[2] = QUARTER_FINALS
            if from_end in named:
                return translate(named[from_end])
        return translate(numbered).format(round=round)


def seed_positions(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` places (a power of two), top to bottom: round 1
    pairs positions 0-1, 2-3, ... For 8: ``[1, 8, 4, 5, 2, 7, 3, 6]``."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def rounds_for(entrants: int, table: int = 2) -> int:
    """The number of main-bracket rounds: ``ceil(log_table(entrants))`` (in whole numbers,
    so 243 is 5 rounds of tables of three, not a float's 5.000000000000001)."""
    rounds, places = 0, 1
    while places < entrants:
        rounds, places = rounds + 1, places * table
    return rounds


def table_positions(count: int) -> list[int]:
    """The seeds heading ``count`` tables (a power of three), top to bottom, for tables of
    three: each run of three tables meets at one table of the next round. Seed ``s`` of the
    ``n`` heads brings ``2n + 1 - s`` and ``2n + s`` into its group (a snake), so seeds 1, 2
    and 3 are in different thirds. For 9: ``[1, 6, 7, 2, 5, 8, 3, 4, 9]``."""
    if count < 1 or 3 ** rounds_for(count, 3) != count:
        raise ValueError(f"count must be a power of three, not {count}")
    order = [1]
    while len(order) < count:
        n = len(order)
        order = [s for head in order for s in (head, 2 * n + 1 - head, 2 * n + head)]
    return order


def _tables_of_three(entrants: int) -> list[Match]:
    """The main bracket of tables of three (see the module's notes): round 1's tables, each
    headed by a top seed, the first ones byes and at most one a player short, then tables
    of the three winners before them."""
    rounds = rounds_for(entrants, 3)
    tables = 3 ** (rounds - 1)
    rest = entrants - tables  # entrants besides the heads: 2 per full table, 1 per short
    short = rest % 2
    full = rest // 2
    played = full + short
    byes = tables - played
    # The heads' companions: heads byes+1.. (best first) take the rest, the weakest with
    # the best head (a snake): first one each (reversed), then a second for the full tables.
    extra: dict[int, list[int]] = {h: [] for h in range(1, tables + 1)}
    heads = list(range(byes + 1, tables + 1))
    second = list(range(tables + 1, tables + played + 1))
    for head, seed in zip(heads, reversed(second), strict=True):
        extra[head].append(seed)
    third = list(range(tables + played + 1, entrants + 1))
    for head, seed in zip(heads[short:], third, strict=True):
        extra[head].append(seed)
    matches: list[Match] = []
    slots: list[Source] = []
    for index, head in enumerate(table_positions(tables), start=1):
        sides = [Source.of_seed(head)] + [Source.of_seed(s) for s in extra[head]]
        sides += [Source.bye()] * (3 - len(sides))
        key = f"M1-{index}"
        matches.append(Match(key, MAIN, 1, index, sides[0], sides[1], sides[2]))
        slots.append(Source.winner_of(key))
    for rnd in range(2, rounds + 1):
        groups = list(zip(slots[0::3], slots[1::3], slots[2::3], strict=True))
        slots = []
        for index, (home, away, other) in enumerate(groups, start=1):
            key = f"M{rnd}-{index}"
            matches.append(Match(key, MAIN, rnd, index, home, away, other))
            slots.append(Source.winner_of(key))
    return matches


#: The version of the random seeding a cup names (``Cup.draw_algorithm``).
ALGORITHM = "clabber-cup-seeding/1"


def draw_seed() -> str:
    """A fresh seed string for a random draw: 128 bits from :mod:`secrets`, 32 hex digits."""
    return secrets.token_hex(16)


def random_seeding(ids: Sequence[T], seed: str) -> list[T]:
    """``ids`` in a random order that ``seed`` fixes: the first is seed 1. The same ids in
    the same order with the same seed give the same draw, in any Python 3."""
    order = list(ids)
    random.Random(seed).shuffle(order)
    return order


def _single(prefix: str, bracket: str, sources: Sequence[Source]) -> list[Match]:
    """A single-elimination bracket over ``sources`` (index 0 is its seed 1), with byes to
    its top seeds in round 1."""
    rounds = rounds_for(len(sources))
    size = 2**rounds
    slots = [
        sources[seed - 1] if seed <= len(sources) else Source.bye() for seed in seed_positions(size)
    ]
    matches: list[Match] = []
    for rnd in range(1, rounds + 1):
        pairs = list(zip(slots[0::2], slots[1::2], strict=True))
        slots = []
        for index, (home, away) in enumerate(pairs, start=1):
            key = f"{prefix}{rnd}-{index}"
            matches.append(Match(key, bracket, rnd, index, home, away))
            slots.append(Source.winner_of(key))
    return matches


def _losers(main: Sequence[Match], rounds: int) -> list[Match]:
    """The losers' bracket of a double elimination over a main bracket of ``rounds``
    (none for a main bracket of one round: two entrants)."""
    if rounds < 2:
        return []
    by_round: dict[int, list[Match]] = {}
    for m in main:
        by_round.setdefault(m.round, []).append(m)
    matches: list[Match] = []

    def add(rnd: int, pairs: list[tuple[Source, Source]]) -> list[Source]:
        winners = []
        for index, (home, away) in enumerate(pairs, start=1):
            key = f"L{rnd}-{index}"
            matches.append(Match(key, LOSERS, rnd, index, home, away))
            winners.append(Source.winner_of(key))
        return winners

    first = [Source.loser_of(m.key) for m in by_round[1]]
    alive = add(1, list(zip(first[0::2], first[1::2], strict=True)))
    for j in range(1, rounds):
        dropped = [Source.loser_of(m.key) for m in by_round[j + 1]]
        if j % 2 == 1:
            dropped.reverse()
        alive = add(2 * j, list(zip(alive, dropped, strict=True)))
        if j < rounds - 1:
            alive = add(2 * j + 1, list(zip(alive[0::2], alive[1::2], strict=True)))
    return matches


def plan(
    entrants: int,
    *,
    double: bool = False,
    third_place: bool = False,
    plate: bool = False,
    reset: bool = False,
    table: int = 2,
) -> Bracket:
    """The bracket of ``entrants`` seeds (1..entrants) with the options chosen (``table``:
    2 sides a match, or 3: a table of three whose winner goes on); raises
    :class:`BracketError` with one of this module's messages for a bracket that cannot be."""
    if table not in TABLE_SIZES:
        raise BracketError(TABLE_SIZE)
    if table == 3:
        if entrants < 3:
            raise BracketError(THREE_TOO_FEW)
        if entrants > MAX_ENTRANTS:
            raise BracketError(TOO_MANY_ENTRANTS)
        if double or third_place or plate or reset:
            raise BracketError(THREE_SINGLE_ONLY)
        return Bracket(
            entrants=entrants,
            rounds=rounds_for(entrants, 3),
            matches=tuple(_tables_of_three(entrants)),
            table=3,
        )
    if entrants < 2:
        raise BracketError(TOO_FEW_ENTRANTS)
    if entrants > MAX_ENTRANTS:
        raise BracketError(TOO_MANY_ENTRANTS)
    if double and third_place:
        raise BracketError(THIRD_PLACE_NOT_DOUBLE)
    if double and plate:
        raise BracketError(PLATE_NOT_DOUBLE)
    if reset and not double:
        raise BracketError(RESET_NEEDS_DOUBLE)
    if third_place and entrants < 4:
        raise BracketError(THIRD_PLACE_NEEDS_FOUR)
    if third_place and plate and rounds_for(entrants) == 2:
        raise BracketError(PLATE_IS_THIRD_PLACE)

    rounds = rounds_for(entrants)
    main = _single("M", MAIN, [Source.of_seed(s) for s in range(1, entrants + 1)])
    matches = list(main)
    final_key = main[-1].key
    if double:
        losers = _losers(main, rounds)
        matches += losers
        # With two entrants there is no losers' bracket: the final's loser plays again.
        losers_champion = Source.winner_of(losers[-1].key) if losers else Source.loser_of(final_key)
        matches.append(Match("GF", FINAL, 1, 1, Source.winner_of(final_key), losers_champion))
        if reset:
            matches.append(Match("GF2", RESET, 1, 1, Source.winner_of("GF"), Source.loser_of("GF")))
    if third_place:
        semis = [m for m in main if m.round == rounds - 1]
        matches.append(
            Match("3P", THIRD, 1, 1, Source.loser_of(semis[0].key), Source.loser_of(semis[1].key))
        )
    if plate:
        played = sorted(
            (m for m in main if m.round == 1 and not m.is_bye),
            key=lambda m: min(m.home.seed or 0, m.away.seed or 0),
        )
        if len(played) < 2:
            raise BracketError(PLATE_TOO_FEW)
        matches += _single("P", PLATE, [Source.loser_of(m.key) for m in played])
    return Bracket(
        entrants=entrants,
        rounds=rounds,
        matches=tuple(matches),
        double=double,
        third_place=third_place,
        plate=plate,
        reset=reset,
    )


@dataclass(frozen=True)
class Slot:
    """One match as the results so far leave it. A side is a seed, :data:`BYE` (nobody) or
    ``None`` (not known yet). ``needed`` is false for a grand-final reset that the main
    bracket's winner made unnecessary by winning the first final."""

    match: Match
    home: int | None
    away: int | None
    winner: int | None = None
    loser: int | None = None  # None at a table of three (it has two)
    needed: bool = True
    third: int | None = None  # a table of three: its third side

    @property
    def sides(self) -> tuple[int | None, ...]:
        if self.match.third is None:
            return (self.home, self.away)
        return (self.home, self.away, self.third)

    @property
    def players(self) -> tuple[int, ...]:
        """The known entrants in the match (not byes, not places still to be filled)."""
        return tuple(s for s in self.sides if s not in (None, BYE))

    @property
    def decided(self) -> bool:
        return self.winner is not None or not self.needed

    @property
    def walkover(self) -> bool:
        """Decided without a game: one side (or both) is nobody."""
        return BYE in self.sides

    @property
    def ready(self) -> bool:
        """Every side is known, two or three of them entrants, and no winner yet: a game to
        play."""
        return (
            self.needed
            and self.winner is None
            and None not in self.sides
            and len(self.players) >= 2
        )


def _table_slot(
    m: Match, home: int | None, away: int | None, third: int | None, result: int | None
) -> Slot:
    """A table of three as the results leave it: one entrant (the rest byes) goes through
    without a game; two or three play; only the winner is named (there are two losers)."""
    sides = (home, away, third)
    if None in sides:
        if result is not None:
            raise BracketError(NOT_READY.format(key=m.key))
        return Slot(m, home, away, third=third)
    players = [s for s in sides if s != BYE]
    if len(players) <= 1:
        if result is not None:
            raise BracketError(NO_GAME.format(key=m.key))
        return Slot(m, home, away, third=third, winner=players[0] if players else BYE)
    if result is None:
        return Slot(m, home, away, third=third)
    if result not in players:
        raise BracketError(NOT_IN_MATCH.format(winner=result, key=m.key))
    return Slot(m, home, away, third=third, winner=result)


@dataclass(frozen=True)
class Progress:
    """Every match's state given the winners so far, and the champion once there is one."""

    bracket: Bracket
    slots: Mapping[str, Slot]
    champion: int | None

    def __getitem__(self, key: str) -> Slot:
        return self.slots[key]

    def ready(self) -> list[Slot]:
        """The matches that can be played now, in the bracket's order."""
        return [s for s in self.slots.values() if s.ready]

    def __iter__(self) -> Iterator[Slot]:
        return iter(self.slots.values())


def advance(bracket: Bracket, results: Mapping[str, int]) -> Progress:
    """Who is where, given ``results``: match key -> the winning seed, for the matches
    played so far. Byes and empty places are decided here without a result; a result for a
    match that does not exist, is not ready, was decided without a game, or names a seed
    not in it raises :class:`BracketError`."""
    for key in results:
        bracket.match(key)
    slots: dict[str, Slot] = {}

    def side(source: Source) -> int | None:
        if source.kind == "seed":
            return source.seed
        if source.kind == "bye":
            return BYE
        earlier = slots[source.match]  # type: ignore[index]
        return earlier.winner if source.kind == "winner" else earlier.loser

    for m in bracket.matches:
        home, away = side(m.home), side(m.away)
        result = results.get(m.key)
        if m.third is not None:
            slots[m.key] = _table_slot(m, home, away, side(m.third), result)
            continue
        if m.bracket == RESET and slots["GF"].winner is not None:
            gf = slots["GF"]
            if gf.winner == gf.home:  # the main bracket's winner won: no second final
                if result is not None:
                    raise BracketError(NO_GAME.format(key=m.key))
                slots[m.key] = Slot(m, home, away, needed=False)
                continue
        if home is None or away is None:
            if result is not None:
                raise BracketError(NOT_READY.format(key=m.key))
            slots[m.key] = Slot(m, home, away)
        elif BYE in (home, away):
            if result is not None:
                raise BracketError(NO_GAME.format(key=m.key))
            winner = away if home == BYE else home
            slots[m.key] = Slot(m, home, away, winner=winner, loser=BYE)
        elif result is None:
            slots[m.key] = Slot(m, home, away)
        elif result in (home, away):
            loser = away if result == home else home
            slots[m.key] = Slot(m, home, away, winner=result, loser=loser)
        else:
            raise BracketError(NOT_IN_MATCH.format(winner=result, key=m.key))

    if bracket.double and bracket.reset and slots["GF2"].needed:
        champion = slots["GF2"].winner
    elif bracket.double:
        champion = slots["GF"].winner
    else:
        champion = slots[f"M{bracket.rounds}-1"].winner
    return Progress(bracket=bracket, slots=slots, champion=champion)
