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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement

from .errors import RulesBug

Bits = int


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


def _reach(groups: tuple[tuple[int, int], ...], dims: int, cap: int, radix: int
           ) -> dict[tuple[int, ...], Bits]:
    """card counts of the tracked piles -> bits of reachable points (``pA*radix + pB``)."""
    reach: dict[tuple[int, ...], Bits] = {(0,) * dims: 1}
    for value, count in groups:
        nxt: dict[tuple[int, ...], Bits] = {}
        get = nxt.get
        if dims == 1:
            for (ca,), bits in reach.items():
                for a in range(min(count, cap - ca) + 1):
                    key = (ca + a,)
                    nxt[key] = get(key, 0) | (bits << (a * value))
        else:
            step = value * radix
            for (ca, cb), bits in reach.items():
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
            table[t] = _or(bits for (ca,), bits in reach.items()
                           if ca <= size and self._nonzero - ca <= n - size)
        return table

    @cached_property
    def _alone_any(self) -> Bits:
        return _or(self._alone.values())

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
        table = {}
        for v in self.vectors:
            cap_a, cap_b = v[0] * k, v[1] * k
            cap_rest = v[2] * k if shape.sides == 3 else shape.left_out
            table[v] = _or(bits for (ca, cb), bits in reach.items()
                           if ca <= cap_a and cb <= cap_b and self._nonzero - ca - cb <= cap_rest)
        return table

    @cached_property
    def _joint_any(self) -> dict[int | None, Bits]:
        table = self._joint
        result: dict[int | None, Bits] = {None: _or(table.values())}
        for side in range(self.shape.sides):
            result[side] = _or(bits for v, bits in table.items() if v[side] > 0)
        return result

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

    def possible(self, points: Sequence[int], tricks: Sequence[int] | None = None,
                 last: int | None = None) -> bool:
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


@lru_cache(maxsize=128)
def feasibility_table(shape: PackShape) -> FeasibilityTable:
    """The cached table of one pack shape."""
    return FeasibilityTable(shape)
