"""Melds: what a sequence or a four of a kind is worth, and whose melds score.

A *sequence* is three or more cards of one suit in natural order
(``A K Q J 10 9 8 7``), named by suit, top card and length; a *four* is the
four cards of one rank.  A meld's *kind* (``run-3`` ... ``run-6``,
``four-J`` ... ``four-7``, RULES.md 2.1) decides its points.  A run longer
than the longest kind that has a value counts as that kind, topped by its own
highest card: in ``clabber`` ``A K Q J 10 9`` is a ``run-5`` topped by the
Ace; in ``klaberjass`` (three 20, four or more 50) a five is a ``run-4``.

Only the side with the best single meld scores its melds (4.3).  How two
melds compare is the rule set's ``meld_compare``:

``order``  (Clabber) the row of ``meld_order``, then the higher top card,
           then trumps over plain.
``length`` (seeds 001, 004) the longer run (its real length), then the higher
           top card, then trumps over plain.  A four, possible here only by
           house rules (Czech Darda), beats any run; fours compare by points,
           then by their rank in the trump order (RULES.md 4.2).
``value``  (seed 003) points first; at equal points a four beats a run, fours
           by ``meld_order``, runs by the length of their *kind* (length counts
           only through the points), then top card, then trumps over plain.
           So a four headed by the Ace beats a five headed by the Jack in
           ``klaberjass`` (both 50).
``value-length`` (``zensa``, RULES.md 4.2) as ``value``, but runs of equal
           points compare by their *real* length: a run of seven beats a run of
           six and eight beats seven, though all count as a ``run-6``; fours by
           ``meld_order`` (zensa: J A K Q 10).

Equal best melds can only be runs in two plain suits: then nobody scores
melds.  The bell (King and Queen of trumps) is not a meld for the
comparison: it always scores for its holder's side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import RANK_INDEX, four_mask, sequence_mask
from .rulesets import RuleSet

MAX_RUN_KIND = 6


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared meld, checked against the rule set."""

    kind: str
    """The kind it counts as: ``run-5`` for a six in Clabber, ``four-J`` ..."""
    value: int
    mask: int
    """Its cards (see :mod:`~clabber_league.rules.cards`)."""
    top: str
    """Top card of a run, rank of a four."""
    length: int
    """Cards in it (4 for a four)."""
    suit: str | None = None
    trump: bool = False
    player: str | None = None

    @property
    def is_four(self) -> bool:
        return self.suit is None


def run_kind(ruleset: RuleSet, length: int) -> str | None:
    """The kind a run of ``length`` cards counts as, or None if no run kind has a value."""
    table = ruleset.meld_table
    for n in range(min(length, MAX_RUN_KIND), 2, -1):
        kind = f"run-{n}"
        if kind in table:
            return kind
    return None


def sequence(
    ruleset: RuleSet,
    suit: str,
    top: str,
    length: int,
    *,
    trump: str | None,
    player: str | None = None,
) -> Meld | None:
    """A checked-in-pack sequence as a Meld, or None if its kind has no value here."""
    kind = run_kind(ruleset, length)
    if kind is None:
        return None
    return Meld(
        kind,
        ruleset.meld_table[kind],
        sequence_mask(suit, top, length),
        top,
        length,
        suit,
        suit == trump,
        player,
    )


def four(ruleset: RuleSet, rank: str, *, player: str | None = None) -> Meld | None:
    """A four of a kind as a Meld, or None if this rule set has no such meld."""
    kind = f"four-{rank}"
    value = ruleset.meld_table.get(kind)
    if not value:
        return None
    return Meld(kind, value, four_mask(rank), rank, 4, None, False, player)


def meld_key(ruleset: RuleSet, meld: Meld) -> tuple[int, ...]:
    """A sort key: the better meld has the greater key (see the module docstring)."""
    mode = ruleset.meld_compare
    rank = ruleset.meld_rank[meld.kind]
    if mode == "order":
        top = 0 if meld.is_four else 8 - RANK_INDEX[meld.top]
        return (-rank, top, meld.trump)
    if meld.is_four:
        if mode == "length":
            return (1, meld.value, -ruleset.trump_rank[meld.top], 0)
        return (meld.value, 1, -rank, 0, 0)
    top = 8 - RANK_INDEX[meld.top]
    if mode == "length":
        return (0, meld.length, top, meld.trump)
    if mode == "value-length":
        return (meld.value, 0, meld.length, top, meld.trump)
    return (meld.value, 0, int(meld.kind[4:]), top, meld.trump)


def meld_winner(ruleset: RuleSet, melds: Mapping[str, Sequence[Meld]]) -> str | None:
    """The side whose best meld is strictly better than every other side's, or None."""
    best: list[tuple[tuple[int, ...], str]] = []
    for side, side_melds in melds.items():
        if side_melds:
            best.append((max(meld_key(ruleset, m) for m in side_melds), side))
    if not best:
        return None
    if len(best) == 1:
        return best[0][1]
    best.sort(reverse=True)
    if best[0][0] == best[1][0]:
        return None  # equal runs in plain suits: nobody scores melds
    return best[0][1]


def meld_total(melds: Iterable[Meld]) -> int:
    return sum(m.value for m in melds)
