"""Which card points the sides can really have taken, derived from the pack.

A side's card points are the sum of the values of the cards in its tricks.
So a set of per-side points is possible only if the pack can be split into
piles, one per side, where each side's pile is a whole number of its tricks
(``trick_size`` cards each) and sums to its points; where not every card is
played the cards left out form one more pile.  Jointly means *from one
pack*: 151 for one side and 1 for the other is impossible in Clabber, though
either alone might look harmless.  A side that took no trick has no cards,
hence 0 points, and cannot have taken the last trick.

Nothing here is a hand-written list.  A dynamic programme runs over the
pack's *card-value groups* (which card of a value a side holds does not
matter) and records, for every count of cards per tracked pile, the set of
reachable point sums as the bits of a Python ``int``.  Cards worth 0 are
left out of the programme: they only fill piles up to their size.  One pile
is never tracked, its points being what the others leave.

* 2 sides, every card played: track side A (B is the rest).
* 2 sides, cards left out, or 3 sides, every card played: track A and B.
* 3 sides with cards left out (``klaberjass-3``: 2 cards): the few possible
  value-sets of the left-out cards are fixed by the points (the pack total
  minus the sides' points), and each gives a 3-side, every-card-played table
  of the remaining cards.

Tables are cached per :class:`PackShape` (the card values, which depend only
on the rule set's point tables and on whether there is a trump suit), so a
lookup during validation is a dictionary access and a bit test.

Bounded by the value limits (RULES.md section 5: a card is worth at most 100).
A table's bits grow with the square of the points a pile can hold, so:

* the card values are first divided by their greatest common divisor, the
  *unit*: a pack of 100s is the pack of 1s, and points that are not a whole
  number of units are impossible outright.  A unit of 1 (every built-in rule
  set) builds the table directly, so the usual lookup has no extra step;
* the programme frees each state as it extends it, so it never holds two
  full generations;
* a pack whose exact table would still cost more than :data:`JOINT_BITS_MAX`
  (many high values with no common divisor: 100, 99, 98 ...) builds no joint
  table (:class:`RelaxedTable`).  Its points are first checked pile by pile:
  every side, the left-out cards and every union of them exactly, but each on
  its own; that never refuses a real deal and refuses most impossible points in
  a few bit tests.  What passes is then searched for exactly, for that one point
  vector (:meth:`FeasibilityTable.search`): the card-value groups are dealt into
  the piles, highest value first, a branch cut as soon as a pile's remaining
  points cannot be made by the groups still to come (exact one-pile tables per
  group index) and a failed state remembered.  The answer is exact, as with a
  table; the search expands at most :data:`SEARCH_STATES_MAX` states (the worst
  packs met need about 2,000, tests/rules/test_exact_points_of_dearest_packs.py)
  and, should one ever need more, keeps the pile-by-pile answer, so a real deal
  is never refused.  Answers are cached (:data:`ANSWERS_KEPT`);
* the built tables share a budget (:data:`TABLE_BUDGET_BYTES`): when it is
  exceeded, the tables built longest ago drop their bits and rebuild them if
  they are used again, so no number of different house rules can make the
  cache grow without end.
"""

from __future__ import annotations

import threading
from array import array
from collections import Counter, OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from math import gcd
from typing import Final

from .errors import RulesBug

Bits = int

TABLE_BUDGET_BYTES: Final = 32 * 2**20
"""Bits the built tables may hold together before the oldest are dropped."""
JOINT_BITS_MAX: Final = 48 * 8 * 2**20
"""The most a joint table may cost (:meth:`FeasibilityTable.joint_bits`) to be built;
a dearer pack is checked pile by pile (:class:`RelaxedTable`)."""
ALL_JOINT_BITS_MAX: Final = 8 * JOINT_BITS_MAX
"""The most all the joint tables of a pack with cards left out may cost together."""
TABLES_KEPT: Final = 256
"""Tables that may hold bits at once, however few."""
SEARCH_STATES_MAX: Final = 100_000
"""The most states one exact search (:meth:`FeasibilityTable.search`) may expand; each is
remembered once it fails, so this also bounds the search's memory (about 250 bytes a state
under tracemalloc: some 25 MB at the cap).  The worst packs met need under 2,000."""
ANSWERS_KEPT: Final = 4096
"""Exact searches' answers kept (per pack shape, points, tricks and last trick)."""


@dataclass(frozen=True)
class PackShape:
    """What feasibility depends on: the pack's card values and how tricks are taken."""

    values: tuple[int, ...]
    """Point value of every card of the pack, highest first."""
    trick_size: int
    tricks: int
    sides: int

    @property
    def played(self) -> int:
        return self.trick_size * self.tricks

    @property
    def left_out(self) -> int:
        return len(self.values) - self.played


def _trick_vectors(tricks: int, sides: int) -> Iterator[tuple[int, ...]]:
    if sides == 1:
        yield (tricks,)
        return
    for first in range(tricks + 1):
        for rest in _trick_vectors(tricks - first, sides - 1):
            yield (first, *rest)


def _groups(values: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Non-zero values with their counts, highest first."""
    counts = Counter(v for v in values if v)
    return tuple(sorted(counts.items(), reverse=True))


def _reach(
    groups: tuple[tuple[int, int], ...], dims: int, cap: int, radix: int
) -> dict[tuple[int, ...], Bits]:
    """card counts of the tracked piles -> bits of reachable points (``pA*radix + pB``)."""
    reach: dict[tuple[int, ...], Bits] = {(0,) * dims: 1}
    for value, count in groups:
        nxt: dict[tuple[int, ...], Bits] = {}
        get = nxt.get
        if dims == 1:
            while reach:
                (ca,), bits = reach.popitem()
                for a in range(min(count, cap - ca) + 1):
                    key = (ca + a,)
                    nxt[key] = get(key, 0) | (bits << (a * value))
        else:
            step = value * radix
            while reach:
                (ca, cb), bits = reach.popitem()
                room = cap - ca - cb
                for a in range(min(count, room) + 1):
                    shifted = bits << (a * step)
                    for b in range(min(count - a, room - a) + 1):
                        key = (ca + a, cb + b)
                        nxt[key] = get(key, 0) | (shifted << (b * value))
        reach = nxt
    return reach


class FeasibilityTable:
    """Answers "could the sides have taken these card points (and tricks)?" for one shape."""

    def __init__(self, shape: PackShape) -> None:
        if shape.sides not in (2, 3) or shape.left_out < 0:
            raise RulesBug(f"no feasibility model for {shape}")
        self.shape = shape
        self.total = sum(shape.values)
        self.max_played = sum(shape.values[: shape.played])
        self.min_played = self.total - sum(shape.values[: shape.left_out])
        self.radix = self.total + 1
        self._groups = _groups(shape.values)
        self._nonzero = sum(c for _, c in self._groups)
        self.vectors = tuple(_trick_vectors(shape.tricks, shape.sides))
        if shape.sides == 3 and shape.left_out:
            self.mode = "split"
        elif shape.sides == 2 and not shape.left_out:
            self.mode = "one"
        else:
            self.mode = "two"

    def joint_bits(self) -> tuple[int, int]:
        """An upper bound on the bits the joint programme holds at once (what it costs),
        and how many such programmes may be run: one per value-set of left-out cards in
        ``split`` mode, else one."""
        shape = self.shape
        if self.mode == "one":
            return 0, 1
        if self.mode == "split":
            kept = shape.values[: len(shape.values) - shape.left_out]
            sub = FeasibilityTable(PackShape(kept, shape.trick_size, shape.tricks, shape.sides))
            return sub.joint_bits()[0], len(self._out_sets)
        cap = min(self._nonzero, len(shape.values) if shape.sides == 3 else shape.played)
        keys = (cap + 1) * (cap + 2) // 2
        return keys * sum(shape.values[:cap]) * self.radix, 1

    # ----- one side alone ------------------------------------------------
    @cached_property
    def _alone(self) -> dict[int, Bits]:
        """tricks of one side -> bits of the points those tricks can hold."""
        shape = self.shape
        reach = _reach(self._groups, 1, shape.played, 0)
        n = len(shape.values)
        table = {}
        for t in range(shape.tricks + 1):
            size = t * shape.trick_size
            table[t] = _or(
                bits
                for (ca,), bits in reach.items()
                if ca <= size and self._nonzero - ca <= n - size
            )
        _account(self, table.values())
        return table

    @cached_property
    def _counts(self) -> dict[tuple[int, ...], Bits]:
        """Nonzero cards in one pile (of any size) -> bits of the points they can hold."""
        reach = _reach(self._groups, 1, len(self.shape.values), 0)
        _account(self, reach.values())
        return reach

    @cached_property
    def _alone_any(self) -> Bits:
        return _or(self._alone.values())

    @cached_property
    def side_points(self) -> tuple[int, ...]:
        """Every number of card points one side can hold, lowest first."""
        bits = self._alone_any
        return tuple(p for p in range(bits.bit_length()) if bits >> p & 1)

    def side_can_take(self, points: int, tricks: int | None = None) -> bool:
        """Whether one side, alone, can hold ``points`` in (``tricks``) whole tricks."""
        if points < 0:
            return False
        bits = self._alone_any if tricks is None else self._alone.get(tricks, 0)
        return bool(bits >> points & 1)

    # ----- all sides together ----------------------------------------------
    @cached_property
    def _joint(self) -> dict[tuple[int, ...], Bits]:
        shape = self.shape
        k = shape.trick_size
        if self.mode == "one":
            alone = self._alone
            return {v: alone[v[0]] for v in self.vectors}
        cap = len(shape.values) if shape.sides == 3 else shape.played
        reach = _reach(self._groups, 2, cap, self.radix)
        caps = [
            (
                v,
                v[0] * k,
                v[1] * k,
                self._nonzero - (v[2] * k if shape.sides == 3 else shape.left_out),
            )
            for v in self.vectors
        ]
        table = dict.fromkeys(self.vectors, 0)
        while reach:  # folded state by state, each freed once it is in every table it fits
            (ca, cb), bits = reach.popitem()
            for v, cap_a, cap_b, least in caps:
                if ca <= cap_a and cb <= cap_b and ca + cb >= least:
                    table[v] |= bits
        _account(self, table.values())
        return table

    @cached_property
    def _joint_any(self) -> dict[int | None, Bits]:
        table = self._joint
        result: dict[int | None, Bits] = {None: _or(table.values())}
        for side in range(self.shape.sides):
            result[side] = _or(bits for v, bits in table.items() if v[side] > 0)
        _account(self, result.values())
        return result

    def _forget(self) -> None:
        """Drop the built bits (they are rebuilt if the table is used again)."""
        for name in (
            "_alone",
            "_alone_any",
            "_joint",
            "_joint_any",
            "_counts",
            "side_points",
            "_suffixes",
        ):
            self.__dict__.pop(name, None)

    # ----- one point vector, without the joint table ----------------------
    @cached_property
    def _suffixes(self) -> tuple[array, ...]:
        """For each group index ``j``: points -> a mask of how many cards of the groups
        ``j`` onwards can hold exactly those points (bit ``c``: ``c`` cards)."""
        levels = [array("Q", [1])]
        for value, count in reversed(self._groups):
            below = levels[-1]
            level = array("Q", bytes(8 * (len(below) + value * count)))
            for points, mask in enumerate(below):
                if mask:
                    for taken in range(count + 1):
                        level[points + taken * value] |= mask << taken
            levels.append(level)
        levels.reverse()
        _account(self, (), sum(8 * len(level) for level in levels))
        return tuple(levels)

    def search(
        self,
        points: Sequence[int],
        tricks: Sequence[int] | None = None,
        last: int | None = None,
        steps: list[int] | None = None,
    ) -> bool | None:
        """What :meth:`possible` answers, found by dealing the card-value groups into the
        piles for these points only, without the joint table; ``None`` if that takes more
        than :data:`SEARCH_STATES_MAX` states.

        The piles are the sides' tricks and the left-out cards, each with its points and
        the most non-zero cards it can take (zeros fill the rest).  Group by group, highest
        value first, every way to share the group's cards among the piles is tried, and a
        branch is cut as soon as some pile's remaining points cannot be made by the groups
        still to come with a number of cards that fits (an exact one-pile table per group
        index, :attr:`_suffixes`); for four piles every union of two is cut the same way.
        A failed state (group, points still wanted, room left per pile) is remembered and
        never expanded again, also across the trick vectors tried when ``tricks`` is not
        given.  ``steps`` (a one-item list) counts the states expanded.
        """
        shape = self.shape
        if any(p < 0 for p in points):
            return False
        rest = self.total - sum(points)
        if rest < 0 or (rest and not shape.left_out):
            return False
        targets = (*points, rest) if shape.left_out else tuple(points)
        if tricks is not None:
            if last is not None and tricks[last] == 0:
                return False
            vectors: Sequence[Sequence[int]] = (tricks,)
        else:
            per_card = self.total / len(shape.values)
            vectors = sorted(
                (v for v in self.vectors if last is None or v[last] > 0),
                key=lambda v: sum(
                    abs(p - t * shape.trick_size * per_card) for p, t in zip(points, v, strict=True)
                ),
            )
        walk = _Walk(self._groups, self._suffixes, steps)
        for vector in vectors:
            caps = [t * shape.trick_size for t in vector]
            if shape.left_out:
                caps.append(shape.left_out)
            try:
                if walk.start(targets, tuple(caps)):
                    return True
            except _GiveUp:
                return None
        return False

    @cached_property
    def _out_sets(self) -> dict[int, list[tuple[int, ...]]]:
        """Left-out points -> the value-sets of left-out cards that hold them."""
        counts = Counter(self.shape.values)
        found: dict[int, list[tuple[int, ...]]] = {}
        for combo in combinations_with_replacement(sorted(counts), self.shape.left_out):
            if all(combo.count(v) <= counts[v] for v in set(combo)):
                found.setdefault(sum(combo), []).append(combo)
        return found

    def _sub_table(self, out: tuple[int, ...]) -> FeasibilityTable:
        rest = Counter(self.shape.values)
        rest.subtract(out)
        values = tuple(sorted(rest.elements(), reverse=True))
        return feasibility_table(
            PackShape(values, self.shape.trick_size, self.shape.tricks, self.shape.sides)
        )

    def possible(
        self, points: Sequence[int], tricks: Sequence[int] | None = None, last: int | None = None
    ) -> bool:
        """Whether the sides can jointly have taken ``points`` (one per side, in order).

        ``tricks`` (one per side, adding up to the deal's tricks) fixes the trick
        counts; ``last`` (a side index) requires that side to have a trick.
        """
        if any(p < 0 for p in points):
            return False
        if self.mode == "split":
            out_points = self.total - sum(points)
            return any(
                self._sub_table(out).possible(points, tricks, last)
                for out in self._out_sets.get(out_points, ())
            )
        if tricks is not None:
            vector = tuple(tricks)
            if last is not None and vector[last] == 0:
                return False
            bits = self._joint.get(vector, 0)
        else:
            bits = self._joint_any[last]
        if self.mode == "one":
            if points[0] + points[1] != self.total:
                return False
            return bool(bits >> points[0] & 1)
        if self.shape.sides == 3 and sum(points) != self.total:
            return False
        return bool(bits >> (points[0] * self.radix + points[1]) & 1)


def _or(items: object) -> Bits:
    result = 0
    for bits in items:  # type: ignore[attr-defined]
        result |= bits
    return result


class _GiveUp(Exception):
    """An exact search expanded :data:`SEARCH_STATES_MAX` states."""


@lru_cache(maxsize=4096)
def _shares(count: int, most: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``count`` cards among piles taking at most ``most`` each (each at
    most ``count``, so that few keys are cached), the first pile's most first."""
    if len(most) == 1:
        return ((count,),) if count <= most[0] else ()
    return tuple(
        (first, *rest)
        for first in range(min(count, most[0]), -1, -1)
        for rest in _shares(count - first, most[1:])
    )


class _Walk:
    """The depth-first search of :meth:`FeasibilityTable.search` (state shared by its runs)."""

    def __init__(
        self,
        groups: tuple[tuple[int, int], ...],
        levels: tuple[array, ...],
        steps: list[int] | None,
    ) -> None:
        self.groups = groups
        self.levels = levels
        self.cards = [sum(c for _, c in groups[j:]) for j in range(len(groups) + 1)]
        self.failed: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()
        self.steps = steps if steps is not None else [0]
        self.limit = self.steps[0] + SEARCH_STATES_MAX

    def start(self, targets: tuple[int, ...], caps: tuple[int, ...]) -> bool:
        return self._fits(0, targets, caps) and self._walk(0, targets, caps)

    def _fits(self, j: int, wanted: tuple[int, ...], room: tuple[int, ...]) -> bool:
        """Whether each pile (and, for four, each union of two) can still be completed alone."""
        level = self.levels[j]
        spare = sum(room) - self.cards[j]
        if spare < 0:
            return False
        size = len(level)
        for points, most in zip(wanted, room, strict=True):
            if points >= size:
                return False
            least = most - spare  # the cards the other piles cannot take
            mask = level[points] & ((2 << most) - 1)
            if not (mask >> least if least > 0 else mask):
                return False
        if len(wanted) == 4:
            for a, b in ((0, 1), (0, 2), (1, 2)):
                points, most = wanted[a] + wanted[b], room[a] + room[b]
                if points >= size:
                    return False
                least = most - spare
                mask = level[points] & ((2 << most) - 1)
                if not (mask >> least if least > 0 else mask):
                    return False
        return True

    def _walk(self, j: int, wanted: tuple[int, ...], room: tuple[int, ...]) -> bool:
        if j == len(self.groups):
            return True  # _fits at the end: nothing wanted
        key = (j, wanted, room)
        if key in self.failed:
            return False
        steps = self.steps
        steps[0] += 1
        if steps[0] > self.limit:
            raise _GiveUp
        value, count = self.groups[j]
        most = tuple(min(count, r, w // value) for w, r in zip(wanted, room, strict=True))
        for share in _shares(count, most):
            after = tuple(w - x * value for w, x in zip(wanted, share, strict=True))
            left = tuple(r - x for r, x in zip(room, share, strict=True))
            if self._fits(j + 1, after, left) and self._walk(j + 1, after, left):
                return True
        self.failed.add(key)
        return False


class ScaledTable:
    """The table of a pack whose card values are all multiples of a ``unit`` above 1.

    It asks the table of the pack in units, so a pack of 100s costs what a pack of
    1s costs; points that are not a whole number of units are never possible.
    """

    def __init__(self, shape: PackShape, unit: int, table: FeasibilityTable | RelaxedTable) -> None:
        self.shape = shape
        self.unit = unit
        self.table = table
        self.total = table.total * unit
        self.max_played = table.max_played * unit
        self.min_played = table.min_played * unit

    @cached_property
    def side_points(self) -> tuple[int, ...]:
        return tuple(p * self.unit for p in self.table.side_points)

    def side_can_take(self, points: int, tricks: int | None = None) -> bool:
        units, rest = divmod(points, self.unit)
        return not rest and self.table.side_can_take(units, tricks)

    def possible(
        self, points: Sequence[int], tricks: Sequence[int] | None = None, last: int | None = None
    ) -> bool:
        unit = self.unit
        if any(p % unit for p in points):
            return False
        return self.table.possible([p // unit for p in points], tricks, last)


class RelaxedTable:
    """The check of a pack whose exact joint table would cost more than the bound.

    Only house rules with many high card values that share no common divisor (``klaberjass``
    with cards worth 100, 99, 98 ...) get here.  Each *pile* is first checked exactly but
    on its own: every side's points in its tricks, the left-out cards, and every union of
    piles (A and B together hold ``pA + pB`` in their tricks together), for some split of
    the tricks.  All of these are necessary, so this filter never refuses a real deal, and
    it refuses most impossible points at the cost of a few bit tests.  What passes it is
    then searched for exactly (:meth:`FeasibilityTable.search`: one deal of the cards that
    gives these points), so a split of points that each pile allows but no single deal
    gives is refused too.  The searches' answers are kept in a bounded cache
    (:data:`ANSWERS_KEPT`), as sheet rows ask the same points again.
    """

    def __init__(self, table: FeasibilityTable) -> None:
        self.shape = table.shape
        self.table = table
        self.total = table.total
        self.max_played = table.max_played
        self.min_played = table.min_played
        self.vectors = table.vectors
        self._piles: dict[int, Bits] = {}
        self._vector_unions: dict[tuple[int, ...], tuple[Bits, ...]] = {}

    @property
    def side_points(self) -> tuple[int, ...]:
        return self.table.side_points

    def side_can_take(self, points: int, tricks: int | None = None) -> bool:
        return self.table.side_can_take(points, tricks)

    def _pile(self, size: int) -> Bits:
        """Bits of the points that a pile of exactly ``size`` cards can hold."""
        bits = self._piles.get(size)
        if bits is None:
            reach = self.table._counts
            nonzero, n = self.table._nonzero, len(self.shape.values)
            bits = self._piles[size] = _or(
                b for (c,), b in reach.items() if c <= size and nonzero - c <= n - size
            )
        return bits

    def _unions(self, vector: Sequence[int]) -> tuple[Bits, ...]:
        """For every union of piles but the last (bit ``i``: pile ``i``), the bits of the
        points it can hold with ``vector``'s tricks."""
        unions = self._vector_unions.get(tuple(vector))
        if unions is None:
            k = self.shape.trick_size
            sizes = [t * k for t in vector]
            if self.shape.left_out:
                sizes.append(self.shape.left_out)
            unions = self._vector_unions[tuple(vector)] = tuple(
                self._pile(sum(s for i, s in enumerate(sizes) if chosen >> i & 1))
                for chosen in range(1, 1 << len(sizes) - 1)
            )
        return unions

    def pile_by_pile(
        self, points: Sequence[int], tricks: Sequence[int] | None = None, last: int | None = None
    ) -> bool:
        """The filter alone: whether every pile and union of piles could hold its points."""
        if any(p < 0 for p in points) or sum(points) > self.total:
            return False
        if not self.shape.left_out and sum(points) != self.total:
            return False
        piles = [*points, self.total - sum(points)] if self.shape.left_out else list(points)
        held = [
            sum(p for i, p in enumerate(piles) if chosen >> i & 1)
            for chosen in range(1, 1 << len(piles) - 1)
        ]
        if tricks is None:
            # First without the trick vectors: every union of sides holds its points in some
            # number of whole tricks (a sheet row asks thousands of points, most refused here).
            whole = self.table._alone_any
            for chosen in range(1, 1 << len(points)):
                if not whole >> sum(p for i, p in enumerate(points) if chosen >> i & 1) & 1:
                    return False
        vectors = self.vectors if tricks is None else (tuple(tricks),)
        for vector in vectors:
            if last is not None and vector[last] == 0:
                continue
            for bits, points_held in zip(self._unions(vector), held, strict=True):
                if not bits >> points_held & 1:
                    break
            else:
                return True
        return False

    def possible(
        self, points: Sequence[int], tricks: Sequence[int] | None = None, last: int | None = None
    ) -> bool:
        if not self.pile_by_pile(points, tricks, last):
            return False
        key = (self.shape, tuple(points), None if tricks is None else tuple(tricks), last)
        with _answers_lock:
            answer = _answers.get(key)
            if answer is not None:
                _answers.move_to_end(key)
                return answer
        found = self.table.search(points, tricks, last)
        # A search that gives up (more than SEARCH_STATES_MAX states, which no pack within
        # the value bounds has been seen to need) keeps the filter's answer: a real deal is
        # never refused.
        answer = found is not False
        with _answers_lock:
            _answers[key] = answer
            while len(_answers) > ANSWERS_KEPT:
                _answers.popitem(last=False)
        return answer


_answers_lock = threading.Lock()
_answers: OrderedDict[tuple[object, ...], bool] = OrderedDict()


Table = FeasibilityTable | ScaledTable | RelaxedTable


@lru_cache(maxsize=128)
def feasibility_table(shape: PackShape) -> Table:
    """The cached table of one pack shape (in units of its values' common divisor)."""
    unit = gcd(*shape.values)
    if unit <= 1:
        return _unit_table(shape)
    units = PackShape(
        tuple(v // unit for v in shape.values), shape.trick_size, shape.tricks, shape.sides
    )
    return ScaledTable(shape, unit, _unit_table(units))


@lru_cache(maxsize=128)
def _unit_table(shape: PackShape) -> FeasibilityTable | RelaxedTable:
    table = FeasibilityTable(shape)
    bits, runs = table.joint_bits()
    if bits > JOINT_BITS_MAX or bits * runs > ALL_JOINT_BITS_MAX:
        return RelaxedTable(table)
    return table


# ----------------------------------------------------------------------------
# The shared budget of built bits

_budget_lock = threading.Lock()
_built: OrderedDict[int, tuple[FeasibilityTable, int]] = OrderedDict()
_built_bytes = 0


def _account(table: FeasibilityTable, bits: object, extra: int = 0) -> None:
    """Count bits (and ``extra`` bytes) a table has just built; drop the oldest tables'
    bits beyond the budget."""
    global _built_bytes
    size = extra + sum((b.bit_length() + 7) // 8 for b in bits)  # type: ignore[attr-defined]
    with _budget_lock:
        key = id(table)
        if key in _built:
            _built[key] = (table, _built[key][1] + size)
            _built.move_to_end(key)
        else:
            _built[key] = (table, size)
        _built_bytes += size
        while (_built_bytes > TABLE_BUDGET_BYTES or len(_built) > TABLES_KEPT) and len(_built) > 1:
            _, (oldest, oldest_size) = _built.popitem(last=False)
            oldest._forget()
            _built_bytes -= oldest_size


def forget_tables() -> None:
    """Drop every built table (for measurements that must start cold)."""
    global _built_bytes
    feasibility_table.cache_clear()
    _unit_table.cache_clear()
    with _answers_lock:
        _answers.clear()
    with _budget_lock:
        for table, _ in _built.values():
            table._forget()
        _built.clear()
        _built_bytes = 0


def forget_answers() -> None:
    """Drop the exact searches' cached answers (for measurements of the searches)."""
    with _answers_lock:
        _answers.clear()


def built_bytes() -> int:
    """Bytes of bits the built tables hold now (what the budget bounds)."""
    return _built_bytes
