"""Cards: suits, ranks, the two packs and what each card is worth.

Ranks have a *natural order* ``A K Q J 10 9 8 7``, used for sequences; the
24-card Clabber pack holds ``A`` to ``9`` of the four suits, the 32-card
Klaberjass pack ``A`` to ``7``.  In play a card has a trick-taking order and a
point value that depend only on whether its suit is trump (RULES.md
section 1): the Jack and the Nine of trumps are the two highest cards.

Whichever suit is trump the pack holds 152 card points (one trump suit, three
plain ones); at no trumps (``bela-4``'s second-round bid) every suit is plain
and the pack holds 120.  The last trick adds 10.

Cards are encoded as bits of an ``int`` (``suit * 8 + rank index``) so that
"no card in two melds" is a bitwise ``&``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

SUITS: Final = ("clubs", "diamonds", "hearts", "spades")
NO_TRUMPS: Final = "none"
RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7")
"""Every rank, in natural (sequence) order, highest first."""

PACK_RANKS: Final[Mapping[int, tuple[str, ...]]] = {24: RANKS[:6], 32: RANKS}
"""The ranks of each pack size, in natural order."""

LAST_TRICK_BONUS: Final = 10

DEFAULT_TRUMP_ORDER: Final = ("J", "9", "A", "10", "K", "Q", "8", "7")
DEFAULT_PLAIN_ORDER: Final = ("A", "10", "K", "Q", "J", "9", "8", "7")
DEFAULT_TRUMP_POINTS: Final[Mapping[str, int]] = {
    "J": 20,
    "9": 14,
    "A": 11,
    "10": 10,
    "K": 4,
    "Q": 3,
    "8": 0,
    "7": 0,
}
DEFAULT_PLAIN_POINTS: Final[Mapping[str, int]] = {
    "A": 11,
    "10": 10,
    "K": 4,
    "Q": 3,
    "J": 2,
    "9": 0,
    "8": 0,
    "7": 0,
}

SUIT_INDEX: Final[Mapping[str, int]] = {s: i for i, s in enumerate(SUITS)}
RANK_INDEX: Final[Mapping[str, int]] = {r: i for i, r in enumerate(RANKS)}


def card_bit(suit: str, rank: str) -> int:
    """The bit of one card."""
    return 1 << (SUIT_INDEX[suit] * 8 + RANK_INDEX[rank])


def sequence_ranks(top: str, length: int) -> tuple[str, ...]:
    """The ranks of a sequence of ``length`` cards topped by ``top`` (may run past the 7)."""
    start = RANK_INDEX[top]
    return RANKS[start : start + length]


def sequence_mask(suit: str, top: str, length: int) -> int:
    """The cards of a sequence as a bit mask."""
    base = SUIT_INDEX[suit] * 8 + RANK_INDEX[top]
    return ((1 << length) - 1) << base


def four_mask(rank: str) -> int:
    """The four cards of one rank as a bit mask."""
    shift = RANK_INDEX[rank]
    return sum(1 << (s * 8 + shift) for s in range(4))


def card_count(mask: int) -> int:
    return mask.bit_count()


def card_name(bit_index: int) -> str:
    """``"J of hearts"`` for a card's bit position."""
    return f"{RANKS[bit_index % 8]} of {SUITS[bit_index // 8]}"


def mask_cards(mask: int) -> list[str]:
    """Names of the cards in a mask, in suit then natural order."""
    return [card_name(i) for i in range(32) if mask >> i & 1]


def pack_values(
    pack_ranks: Iterable[str],
    trump_points: Mapping[str, int],
    plain_points: Mapping[str, int],
    *,
    no_trumps: bool,
) -> tuple[int, ...]:
    """The point value of every card in the pack, highest first.

    Which suit is trump does not matter: one suit scores as trumps, three as
    plain suits (four at no trumps).
    """
    ranks = tuple(pack_ranks)
    values = [plain_points[r] for r in ranks] * (4 if no_trumps else 3)
    if not no_trumps:
        values += [trump_points[r] for r in ranks]
    return tuple(sorted(values, reverse=True))
