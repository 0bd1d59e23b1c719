"""The exact card test of RULES.md section 5: card points beside the cards shown.

Where not every card is played (``klaberjass``, ``zensa``, ``clabber-2``,
``klaberjass-3`` and house rules built on them) a deal's card points must come
from a set of *played* cards that holds every card shown in a meld or the bell
(a shown card is held, so played), split into the sides' whole tricks so that
each side gets exactly its points; the cards left out hold the rest of the
pack's points. :mod:`~clabber_league.rules.feasibility` answers the same
question without the shown cards; this module adds them.

Which card of a value lies where does not change any sum, so the pack is a
list of *value groups* (value, cards, of which shown) and a deal of the cards
is, per group, how many go to each side's tricks and how many are left out,
with at most ``cards - shown`` left out.

Two sides (``klaberjass``, ``zensa``, ``clabber-2``): :func:`possible_with_shown`
deals the groups into three piles (side A, the cards left out, side B), highest
value first, depth first, for the one point vector asked:

* each side's pile takes its points exactly and, where ``tricks`` is given,
  exactly ``tricks * trick_size`` cards; otherwise any number that, with some
  of the cards worth 0, makes whole tricks (one at least for the side that took
  the last trick);
* the left-out pile takes exactly the cards that are not played and the rest
  of the pack's points, and no shown card, whether worth points or not;
* a branch is cut as soon as one pile's remaining points cannot be made by the
  groups still to come with a number of cards that fits (exact one-pile tables
  per group index, built once per pack), and a failed state is remembered; the
  last group's share is fixed by the points still wanted.

Three sides (``klaberjass-3``, two cards left out): every value-set of left-out
cards that holds the rest of the points and no shown card is tried, and the
sides' points are looked up in the feasibility table of the cards then played
(every one of them played, so the shown ones too); these are the tables the
check without shown cards uses, cached and bounded there.

The answer is exact. The search is bounded: a pack has at most 16 value groups
(8 ranks, trump or plain), every state is remembered once it fails, and at most
:data:`STATES_MAX` states are expanded. The built-in rule sets need under a
hundred (most deals about seven); house-rule packs of many high card values with
no common divisor (100, 99, 98 ...) up to some 16,500 (tests/rules/test_shown_cards.py
holds them under half the cap). Should a search ever need more, it answers that
the deal is possible (the first filters, the sum of the shown cards and the table of
the points without them, have passed), so no real deal is ever refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import NO_TRUMPS, RANKS, SUITS
from .errors import RulesBug
from .feasibility import FeasibilityTable, PackShape, ScaledTable, feasibility_table

STATES_MAX: Final = 50_000
"""The most states one search expands (each failed state is remembered: this also bounds
its memory, some 10 MB at the cap)."""


@dataclass(frozen=True)
class _Pack:
    """What a search needs of one pack, built once per pack (:func:`_pack`)."""

    values: tuple[int, ...]
    """The non-zero card values, highest first, one per group."""
    counts: tuple[int, ...]
    """Cards of each value."""
    zeros: int
    """Cards worth 0."""
    total: int
    index: dict[int, int]
    """Value -> its group."""
    levels: tuple[tuple[int, ...], ...]
    """Per group index ``j``: points -> mask of how many cards of groups ``j`` onwards
    can hold exactly those points (bit ``c``: ``c`` cards)."""
    after: tuple[int, ...]
    """Per group index ``j``: the cards of groups ``j`` onwards."""
    points_after: tuple[int, ...]
    """Per group index ``j``: the points of groups ``j`` onwards."""


def _after(values: Sequence[int], counts: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cards and the points of the groups from each index on."""
    after = [0] * (len(counts) + 1)
    points_after = [0] * (len(counts) + 1)
    for j in range(len(counts) - 1, -1, -1):
        after[j] = after[j + 1] + counts[j]
        points_after[j] = points_after[j + 1] + counts[j] * values[j]
    return tuple(after), tuple(points_after)


@lru_cache(maxsize=64)
def _pack(values: tuple[int, ...]) -> _Pack:
    groups = sorted(Counter(v for v in values if v).items(), reverse=True)
    levels = [[1]]
    for value, count in reversed(groups):
        below = levels[-1]
        level = [0] * (len(below) + value * count)
        for points, mask in enumerate(below):
            if mask:
                for taken in range(count + 1):
                    level[points + taken * value] |= mask << taken
        levels.append(level)
    levels.reverse()
    counts = tuple(c for _, c in groups)
    group_values = tuple(v for v, _ in groups)
    after, points_after = _after(group_values, counts)
    return _Pack(
        values=group_values,
        counts=counts,
        zeros=len(values) - sum(counts),
        total=sum(values),
        index={v: j for j, (v, _) in enumerate(groups)},
        levels=tuple(tuple(level) for level in levels),
        after=after,
        points_after=points_after,
    )


def shown_values(
    mask: int, trump: str, trump_points: Mapping[str, int], plain_points: Mapping[str, int]
) -> list[int]:
    """The card values of the cards in ``mask`` (bits as in :mod:`.cards`) with this trump."""
    trump_suit = SUITS.index(trump) if trump != NO_TRUMPS else -1
    found = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        rank = RANKS[i % 8]
        found.append(trump_points[rank] if i // 8 == trump_suit else plain_points[rank])
        mask ^= low
    return found


class _GiveUp(Exception):
    """A search expanded :data:`STATES_MAX` states."""


def possible_with_shown(
    pack_values: tuple[int, ...],
    trick_size: int,
    tricks_per_deal: int,
    shown: Sequence[int],
    points: Sequence[int],
    tricks: Sequence[int] | None = None,
    last: int | None = None,
    steps: list[int] | None = None,
) -> bool:
    """Whether the sides can have taken ``points`` (one per side) in whole tricks from a
    set of played cards holding the cards whose values are ``shown``.

    ``pack_values`` are the values of every card of the pack with this deal's trump (or
    no trumps), ``tricks`` fixes each side's tricks, ``last`` (a side index) needs that
    side to have a trick.  ``steps`` (a one-item list) counts the states expanded.
    Two or three sides; with three, at most :data:`THREE_SIDES_LEFT_OUT_MAX` cards are
    left out (``klaberjass-3``: 2).
    """
    pack = _pack(pack_values)
    sides = len(points)
    played = trick_size * tricks_per_deal
    left_out = len(pack_values) - played
    if sides not in (2, 3) or left_out < 0:
        raise RulesBug(f"no model of shown cards for {sides} sides, {left_out} cards left out")
    if min(points) < 0 or len(shown) > played:
        return False
    rest = pack.total - sum(points)
    if rest < 0 or (rest and not left_out):
        return False
    sizes: list[int] | None = None
    if tricks is not None:
        if len(tricks) != sides or sum(tricks) != tricks_per_deal or min(tricks) < 0:
            return False
        if last is not None and tricks[last] == 0:
            return False
        sizes = [t * trick_size for t in tricks]
    index = pack.index
    forced = [0] * len(pack.values)
    forced_zeros = 0
    for value in shown:
        if value:
            forced[index[value]] += 1
        else:
            forced_zeros += 1
    counter = steps if steps is not None else [0]
    limit = counter[0] + STATES_MAX
    try:
        if sides == 2:
            # X: side A, Y: the cards left out (no shown card), Z: side B.
            free = tuple(c - f for c, f in zip(pack.counts, forced, strict=True))
            return _Three(
                pack,
                pack.counts,
                free,
                pack.zeros,
                forced_zeros,
                (points[0], rest, points[1]),
                (None, left_out, None) if sizes is None else (sizes[0], left_out, sizes[1]),
                trick_size,
                None if last is None else (0, 2)[last],
                counter,
                limit,
            ).run()
        if left_out > THREE_SIDES_LEFT_OUT_MAX:
            raise RulesBug(f"no model of shown cards for 3 sides, {left_out} cards left out")
        # Three sides: every way to leave out cards that are not shown and hold the rest,
        # then the three sides' tricks from every other card, all of them played.
        by_tables = _tables_are_cheap(pack_values, trick_size, tricks_per_deal)
        for out, out_zeros in _left_out_sets(pack, forced, forced_zeros, left_out, rest):
            if by_tables:
                # what the feasibility table of those cards answers (cached per set of
                # values left out, as the check without shown cards keeps them)
                kept = [
                    value
                    for value, count, gone in zip(pack.values, pack.counts, out, strict=True)
                    for _ in range(count - gone)
                ]
                kept += [0] * (pack.zeros - out_zeros)
                table = feasibility_table(PackShape(tuple(kept), trick_size, tricks_per_deal, 3))
                if table.possible(points, tricks, last):
                    return True
                continue
            counts = tuple(c - o for c, o in zip(pack.counts, out, strict=True))
            if _Three(
                pack,
                counts,
                counts,
                pack.zeros - out_zeros,
                0,
                tuple(points),
                (None, None, None) if sizes is None else tuple(sizes),
                trick_size,
                last,
                counter,
                limit,
            ).run():
                return True
        return False
    except _GiveUp:
        return True


def _tables_are_cheap(pack_values: tuple[int, ...], trick_size: int, tricks: int) -> bool:
    """Whether the pack's feasibility is answered from joint tables (built per set of values
    left out), not searched for (a dear house-rule pack, :class:`RelaxedTable`)."""
    table = feasibility_table(PackShape(pack_values, trick_size, tricks, 3))
    if isinstance(table, ScaledTable):
        table = table.table
    return isinstance(table, FeasibilityTable)


THREE_SIDES_LEFT_OUT_MAX: Final = 4
"""The most cards left out that a three-sided pack may have (they are enumerated)."""


def _left_out_sets(
    pack: _Pack, forced: list[int], forced_zeros: int, left_out: int, points: int
) -> list[tuple[tuple[int, ...], int]]:
    """Every way (cards per group, cards worth 0) to leave out ``left_out`` cards holding
    ``points``, none of them shown."""
    found: list[tuple[tuple[int, ...], int]] = []
    groups = len(pack.values)
    taken = [0] * groups

    def walk(j: int, cards: int, wanted: int) -> None:
        if wanted == 0 or j == groups:
            # the rest of the cards left out are worth 0
            if wanted == 0 and cards <= pack.zeros - forced_zeros:
                found.append((tuple(taken), cards))
            return
        if not cards:
            return
        value = pack.values[j]
        for n in range(min(cards, pack.counts[j] - forced[j], wanted // value) + 1):
            taken[j] = n
            walk(j + 1, cards - n, wanted - n * value)
        taken[j] = 0

    walk(0, left_out, points)
    return found


class _Three:
    """Deal the value groups into three piles: X and Y tracked, Z what they leave.

    Each pile has its points and either a fixed number of cards or, where the tricks are
    not given (``None``), any number that the cards worth 0 can round up to whole tricks
    (one at least for the pile ``last``).  Y takes at most ``y_most[j]`` cards of group
    ``j`` and none of the ``zeros_not_y`` shown cards worth 0.
    """

    def __init__(
        self,
        pack: _Pack,
        counts: tuple[int, ...],
        y_most: tuple[int, ...],
        zeros: int,
        zeros_not_y: int,
        targets: tuple[int, ...],
        sizes: tuple[int | None, ...],
        trick_size: int,
        last: int | None,
        counter: list[int],
        limit: int,
    ) -> None:
        self.pack = pack
        self.counts = counts
        self.y_most = y_most
        self.zeros = zeros
        self.y_zeros = zeros - zeros_not_y
        self.targets = targets
        self.sizes = sizes
        self.k = trick_size
        self.last = last
        self.counter = counter
        self.limit = limit
        groups = len(counts)
        if counts is pack.counts:
            after, points_after = pack.after, pack.points_after
        else:
            after, points_after = _after(pack.values, counts)
        self.after = after
        self.points_after = points_after
        self.y_after = y_after = [0] * (groups + 1)
        for j in range(groups - 1, -1, -1):
            y_after[j] = y_after[j + 1] + y_most[j]
        self.failed: set[tuple[int | bool, ...]] = set()

    def run(self) -> bool:
        x, y, z = self.targets
        if x + y + z != self.points_after[0]:
            return False
        return self._fits(0, x, y, z, 0, 0, 0) and self._walk(0, x, y, 0, 0)

    def _fits(self, j: int, wx: int, wy: int, wz: int, nx: int, ny: int, nz: int) -> bool:
        """Whether each pile can still be completed alone by the groups from ``j`` on."""
        level = self.pack.levels[j]
        size = len(level)
        if wx >= size or wy >= size or wz >= size:
            return False
        mx, my, mz = level[wx], level[wy], level[wz]
        if not (mx and my and mz):
            return False
        sx, sy, sz = self.sizes
        left = self.after[j]
        if sy is not None:
            most = room = sy - ny
            y_left = self.y_after[j]
            if y_left < most:
                most = y_left
            least = room - self.y_zeros
            if most < 0 or least > most:
                return False
            my &= (2 << most) - 1
            if not (my >> least if least > 0 else my):
                return False
        zeros = self.zeros
        if sx is not None:
            most = room = sx - nx
            if left < most:
                most = left
            if most < 0:
                return False
            mx &= (2 << most) - 1
            least = room - zeros
            if not (mx >> least if least > 0 else mx):
                return False
        if sz is not None:
            most = room = sz - nz
            if left < most:
                most = left
            if most < 0:
                return False
            mz &= (2 << most) - 1
            least = room - zeros
            if not (mz >> least if least > 0 else mz):
                return False
        return True

    def _end(self, nx: int, ny: int, nz: int) -> bool:
        """Whether the cards worth 0 can fill the piles (every group is dealt)."""
        k = self.k
        need = 0
        for pile, (n, size) in enumerate(zip((nx, ny, nz), self.sizes, strict=True)):
            if size is None:
                fill = -n % k
                if pile == self.last and n + fill == 0:
                    fill = k
            else:
                fill = size - n
                if fill < 0 or (pile == 1 and fill > self.y_zeros):
                    return False
            need += fill
        # Zeros beyond need go to a pile of no fixed size, in whole tricks (the sizes add
        # up to the pack, so what is left over is a number of whole tricks).
        return need == self.zeros or (need < self.zeros and None in self.sizes)

    def _last(self, j: int, wx: int, wy: int, nx: int, ny: int) -> bool:
        """The last group: its share is fixed by the points still wanted."""
        value = self.pack.values[j]
        x, rest_x = divmod(wx, value)
        y, rest_y = divmod(wy, value)
        z = self.counts[j] - x - y
        if rest_x or rest_y or z < 0 or y > self.y_most[j]:
            return False
        nx, ny = nx + x, ny + y
        return self._end(nx, ny, self.after[0] - nx - ny)

    def _walk(self, j: int, wx: int, wy: int, nx: int, ny: int) -> bool:
        counts = self.counts
        groups = len(counts)
        if j >= groups - 1:
            if j == groups:
                return self._end(nx, ny, self.after[0] - nx - ny)
            return self._last(j, wx, wy, nx, ny)
        if self.sizes[0] is None:
            # Without the tricks the sides' cards count only up to whole tricks: their
            # number modulo the trick's size and whether it is none.
            nz = self.after[0] - self.after[j] - nx - ny
            key = (j, wx, wy, nx % self.k, ny, nx == 0, nz == 0)
        else:
            key = (j, wx, wy, nx, ny)
        failed = self.failed
        if key in failed:
            return False
        counter = self.counter
        counter[0] += 1
        if counter[0] > self.limit:
            raise _GiveUp
        value = self.pack.values[j]
        count = counts[j]
        dealt = self.after[0] - self.after[j]
        nz = dealt - nx - ny
        wz = self.points_after[j] - wx - wy
        sx, sy, sz = self.sizes
        most_x = wx // value
        if count < most_x:
            most_x = count
        if sx is not None and sx - nx < most_x:
            most_x = sx - nx
        most_y = wy // value
        if self.y_most[j] < most_y:
            most_y = self.y_most[j]
        if sy is not None and sy - ny < most_y:
            most_y = sy - ny
        most_z = wz // value
        if sz is not None and sz - nz < most_z:
            most_z = sz - nz
        fits = self._fits
        walk = self._walk
        for x in range(most_x, -1, -1):
            for y in range(most_y if most_y < count - x else count - x, -1, -1):
                z = count - x - y
                if z > most_z:
                    break
                ax, ay = wx - x * value, wy - y * value
                if fits(j + 1, ax, ay, wz - z * value, nx + x, ny + y, nz + z) and walk(
                    j + 1, ax, ay, nx + x, ny + y
                ):
                    return True
        failed.add(key)
        return False
