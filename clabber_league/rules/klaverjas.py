"""Dutch klaverjas (KLAVERJAS.md, section 7 of the rules): the deal checked and scored.

The two rule sets ``klaverjas-rotterdams`` and ``klaverjas-amsterdams`` share this
module; what differs between them is data on the rule set (four Jacks 100 or 200 roem,
``maker_left_of_dealer``).  A deal as a klaverjas table writes it::

    {"maker": "A", "trump": "hearts",
     "points": {"A": 72, "B": 80},            # card points without the last trick: 152
     "last_trick": "A",
     "tricks": {"A": 5, "B": 3},              # needed when one side has all 152
     "roem": {"A": 20, "B": [{"trick": 3, "kind": "run-4", "suit": "clubs", "top": "K"}]},
     "renege": [], "dealer": 0}

``points_with_last`` may stand instead of ``points``: the tally sheet's numbers, the last
trick's 10 included (they add up to 162); ``last_trick`` says which side's number holds it.
Roem per side is a whole number (what the sheet holds) or a list of claims, each
``{"trick": 1..8, "kind": "run-3" | "run-4" | "run" (with ``length``) | "stuk" |
"four" (with ``rank``) | "four-J" ...}``; a run may carry ``suit`` and ``top``, and when
it leaves them out every run that fits is tried.

The exact test (7.9): there must be a split of the 32 cards into 8 tricks of 4 that holds
every claimed combination in a trick of the claiming side (a total: some tricks of that
side whose roem adds up to it), gives each side its tricks and card points and the last
trick to ``last_trick``.  The roem cards are chosen suit by suit (a run and stuk lie in one
suit, a four is chosen first), keeping only what the card-point test needs: the values of
the cards each side's roem tricks hold; then the other cards must split into the sides'
remaining places with exactly their card points, a subset-sum over at most 32 values.
Answers are cached (a total does not depend on which suit is trump).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from .cards import LAST_TRICK_BONUS, RANK_INDEX, RANKS, SUIT_INDEX, SUITS, four_mask
from .deal import Deal, DealResult, Outcome
from .errors import ErrorList, RulesBug, RulesError, field_key, gettext_noop, msg, shown
from .rulesets import RuleSet
from .validation import (
    LAST_TRICK_MISSING,
    MAKER_MISSING,
    NUMBER_MAX,
    POINTS_MISSING,
    POINTS_NOT_OBJECT,
    POINTS_NOT_WHOLE,
    SIDE_UNKNOWN,
    TRICKS_MISSING,
    TRICKS_NOT_OBJECT,
    TRICKS_NOT_WHOLE,
    _check_points,
    _per_side,
    _renege,
    _trump,
    is_side,
    is_whole,
)

DEAL_NOT_OBJECT: Final = gettext_noop("A deal must be a JSON object.")
NOT_IN_KLAVERJAS: Final = gettext_noop(
    "{name} has no place in klaverjas ({ruleset}): roem is written per trick in roem."
)
PASSED_IN_KLAVERJAS: Final = gettext_noop(
    "A klaverjas deal is never passed out: when nobody else plays, the forced player must."
)
DEALER_INVALID: Final = gettext_noop(
    "dealer is the dealer's seat, 0 to 3 (side A sits at 0 and 2, side B at 1 and 3), not {value}."
)
MAKER_NOT_LEFT_OF_DEALER: Final = gettext_noop(
    "In {ruleset} the player left of the dealer must play: with seat {dealer} dealing, "
    "the maker must be side {side}, not {maker}."
)
POINTS_BOTH_FORMS: Final = gettext_noop(
    "Give points (without the last trick, adding up to 152) or points_with_last (as on the "
    "tally sheet, adding up to 162), not both."
)
POINTS_WITH_LAST_SUM: Final = gettext_noop(
    "points_with_last are the tally sheet's points, the last trick included: they add up to "
    "{total}; these add up to {sum}."
)
POINTS_WITH_LAST_SHORT: Final = gettext_noop(
    "Side {side} took the last trick, so its points with the last trick are at least 10, "
    "not {value}."
)
TRICKS_FOR_PIT: Final = gettext_noop(
    "Side {side} has all {total} card points: give tricks to decide pit (a trick of "
    "four cards worth 0 may have gone to the other side)."
)
NO_TRICK_ROEM: Final = gettext_noop(
    "Side {side} took no trick, so it has no roem (roem belongs to the side that wins the trick)."
)
ROEM_NOT_OBJECT: Final = gettext_noop(
    'roem must be an object per side: a number or a list of claims, such as {{"A": 20, "B": 0}}.'
)
ROEM_NOT_WHOLE: Final = gettext_noop(
    "Roem must be a whole number of at least 0 or a list of claims, not {value}."
)
ROEM_NOT_TENS: Final = gettext_noop("Roem comes in tens (20, 50, 100 ...); {value} is not.")
ROEM_NOT_A_SUM: Final = gettext_noop(
    "{value} roem cannot lie in the tricks side {side} can have won (at most {tricks}) in "
    "{ruleset}: one trick holds {values}."
)
ROEM_IMPOSSIBLE: Final = gettext_noop(
    "This roem ({roem}) cannot lie in these tricks beside these card points ({points}): no "
    "split of the 32 cards into 8 tricks gives both."
)
CLAIMS_TOO_MANY: Final = gettext_noop("A side claims roem in at most 8 tricks, not {count}.")
CLAIM_NOT_OBJECT: Final = gettext_noop(
    'A roem claim is an object such as {{"trick": 3, "kind": "run-3", "suit": "hearts", '
    '"top": "K"}}, {{"trick": 5, "kind": "stuk"}} or {{"trick": 8, "kind": "four", "rank": "J"}}.'
)
CLAIM_TRICK: Final = gettext_noop("trick is the trick's number, 1 to 8, not {value}.")
CLAIM_KIND: Final = gettext_noop(
    "Unknown roem {value}: a claim is run-3, run-4, stuk or four (of a rank)."
)
CLAIM_RUN_LENGTH: Final = gettext_noop(
    "Trick {trick}: a run in one trick has 3 or 4 cards (a trick holds four), not {value}."
)
CLAIM_SUIT: Final = gettext_noop("Trick {trick}: unknown suit {value}; the suits are {suits}.")
CLAIM_RANK: Final = gettext_noop("Trick {trick}: unknown rank {value}; the ranks are {ranks}.")
CLAIM_RUN_NOT_IN_PACK: Final = gettext_noop(
    "Trick {trick}: a run of {length} topped by {top} needs cards below the 7; runs follow "
    "A K Q J 10 9 8 7."
)
CLAIM_NO_VALUE: Final = gettext_noop("Trick {trick}: {kind} is no roem in {ruleset} (valued 0).")
CLAIM_TWO_RUNS: Final = gettext_noop("Trick {trick}: four cards cannot hold two runs.")
CLAIM_RUN_AND_FOUR: Final = gettext_noop(
    "Trick {trick}: four cards cannot hold a run and four of a kind."
)
CLAIM_FOUR_AND_STUK: Final = gettext_noop(
    "Trick {trick}: four of a kind and stuk cannot lie in one trick."
)
CLAIM_TWO_FOURS: Final = gettext_noop("Trick {trick}: four cards hold one four of a kind at most.")
CLAIM_STUK_TWICE: Final = gettext_noop(
    "Trick {trick}: there is one stuk (King and Queen of trumps) in a deal; it is claimed "
    "in trick {other} already."
)
CLAIM_STUK_NOT_TRUMP: Final = gettext_noop(
    "Trick {trick}: stuk is the King and Queen of trumps ({trump}), not of {suit}."
)
CLAIM_STUK_RUN: Final = gettext_noop(
    "Trick {trick}: with stuk in the trick the run must hold the King and Queen of trumps "
    "({trump})."
)
CLAIM_FOUR_TWICE: Final = gettext_noop(
    "Trick {trick}: the four {rank}s are claimed in trick {other} already."
)
CLAIM_SHARES_CARD: Final = gettext_noop(
    "Trick {trick}: the {cards} is claimed in trick {other} already; a card lies in one trick."
)
CLAIM_LAST_TRICK: Final = gettext_noop(
    "Trick 8 is the last trick, taken by side {last}: side {side} cannot have its roem."
)
CLAIM_BOTH_SIDES: Final = gettext_noop(
    "Trick {trick} is claimed by both sides; roem goes to the side that won the trick."
)
CLAIMS_MORE_THAN_TRICKS: Final = gettext_noop(
    "Side {side} claims roem in more tricks ({count}) than it won ({tricks})."
)
CLAIMS_LAST_TRICK_MISSING: Final = gettext_noop(
    "Side {side} took the last trick (8), but its claims put every trick it won ({tricks}) "
    "elsewhere."
)

OPTIONS_MEMO_MAX: Final = 200_000
WALK_MAX: Final = 20_000
"""The most suit-by-suit states one exact roem search expands (bounded time and memory)."""


class _GaveUp(Exception):
    """An exact roem search reached :data:`WALK_MAX` states."""


CLAIM_FIELDS: Final = ("trick", "kind", "suit", "top", "length", "rank")
STUK_MASK_BITS: Final = (RANKS.index("K"), RANKS.index("Q"))


# ----------------------------------------------------------------------------
# Roem of one trick


def trick_values(ruleset: RuleSet) -> tuple[int, ...]:
    """Every roem one trick can carry in this rule set (besides 0), KLAVERJAS.md 7.3."""
    return _trick_values(ruleset.roem_values)


@lru_cache(maxsize=64)
def _trick_values(roem_values: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    rv = dict(roem_values)
    run3, run4, stuk = rv.get("run-3", 0), rv.get("run-4", 0), rv.get("stuk", 0)
    found = {run3, run4, stuk, run3 + stuk, run4 + stuk}
    found |= {v for k, v in rv.items() if k.startswith("four-")}
    return tuple(sorted(v for v in found if v > 0))


@lru_cache(maxsize=1024)
def _sums(values: tuple[int, ...], tricks: int) -> frozenset[int]:
    """Every sum of at most ``tricks`` values (repeats allowed)."""
    reach = {0}
    for _ in range(tricks):
        reach |= {r + v for r in reach for v in values}
    return frozenset(reach)


def _bit(suit: int, rank: int) -> int:
    return 1 << (suit * 8 + rank)


def _run_mask(suit: int, start: int, length: int) -> int:
    return ((1 << length) - 1) << (suit * 8 + start)


def _card_names(mask: int) -> str:
    return ", ".join(f"{RANKS[i % 8]} of {SUITS[i // 8]}" for i in range(32) if mask >> i & 1)


# ----------------------------------------------------------------------------
# The exact test


@lru_cache(maxsize=16)
def _card_values(
    trump_points: tuple[tuple[str, int], ...], plain_points: tuple[tuple[str, int], ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Card points by natural rank index: (trump suit, plain suit)."""
    t, p = dict(trump_points), dict(plain_points)
    return tuple(t[r] for r in RANKS), tuple(p[r] for r in RANKS)


@lru_cache(maxsize=256)
def _layout(
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    roem: tuple[tuple[str, int], ...],
    trump: int,
) -> tuple[tuple[int, ...], tuple[tuple[int, int, int, tuple[int, ...]], ...]]:
    """Each card's points (by bit) with ``trump`` the trump suit, and the valued fours:
    (rank index, roem, card mask, the four cards' points)."""
    trump_values, plain_values = _card_values(trump_points, plain_points)
    values = tuple((trump_values if i // 8 == trump else plain_values)[i % 8] for i in range(32))
    rv = dict(roem)
    fours = tuple(
        (r, rv[f"four-{RANKS[r]}"], four_mask(RANKS[r]), tuple(values[s * 8 + r] for s in range(4)))
        for r in range(8)
        if rv.get(f"four-{RANKS[r]}", 0)
    )
    return values, fours


@lru_cache(maxsize=64)
def _suit_most(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
) -> tuple[int, ...]:
    """The most roem (both sides together) the suits from each suit on can hold in runs and
    stuk, for the search's bound."""
    values = _layout(trump_points, plain_points, roem, trump)[0]
    per_suit = [
        max(
            (
                c[0] + c[1]
                for c in _suit_configs(
                    roem, s == trump, 0, (True, True), tuple(values[s * 8 : s * 8 + 8])
                )
            ),
            default=0,
        )
        for s in range(4)
    ]
    return tuple(sum(per_suit[s:]) for s in range(4))


@lru_cache(maxsize=64)
def _options_memo(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
) -> dict[tuple[Any, ...], Any]:
    """A memo of :func:`_suit_options` for one pack and trump, keyed by small numbers only
    (bounded: cleared by :func:`forget_answers`, at most 200,000 entries kept)."""
    return {}


@lru_cache(maxsize=100_000)
def _reach(values: tuple[int, ...]) -> tuple[int, ...]:
    """For each count n, a bit mask of the sums that some n of ``values`` make."""
    bits = [1] + [0] * len(values)
    for i, v in enumerate(values):
        for n in range(i, -1, -1):
            if bits[n]:
                bits[n + 1] |= bits[n] << v
    return tuple(bits)


@lru_cache(maxsize=4096)
def _suit_configs(
    roem: tuple[tuple[str, int], ...],
    is_trump: bool,
    excluded: int,
    sides: tuple[bool, bool],
    values: tuple[int, ...],
) -> tuple[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """The ways roem tricks of the sides in ``sides`` (A, B: may it score a total?) can
    take runs (and stuk, in trumps) of one suit, ``excluded`` cards (rank bits) being
    elsewhere: ``(roem A, roem B, tricks A, tricks B, card values A, card values B)``."""
    rv = dict(roem)
    windows: list[tuple[int, int, int]] = []  # start, length, value
    for length in (3, 4):
        value = rv.get(f"run-{length}", 0)
        for start in range(0, 9 - length):
            mask = ((1 << length) - 1) << start
            if mask & excluded:
                continue
            if value:
                windows.append((start, length, value))
            if is_trump and start <= 1 and start + length - 1 >= 2 and value + rv.get("stuk", 0):
                windows.append((start, length, value + rv.get("stuk", 0)))
    if is_trump and rv.get("stuk", 0) and not excluded & 0b110:
        windows.append((1, 2, rv["stuk"]))
    found: set[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]] = set()
    allowed = [i for i, ok in enumerate(sides) if ok]

    def walk(pos: int, used: int, ra: int, rb: int, ka: int, kb: int, va: tuple, vb: tuple):
        found.add((ra, rb, ka, kb, tuple(sorted(va)), tuple(sorted(vb))))
        for start, length, value in windows:
            if start < pos:
                continue
            mask = ((1 << length) - 1) << start
            if mask & used:
                continue
            cards = tuple(values[start : start + length])
            end = start + length
            for side in allowed:
                if side == 0:
                    walk(end, used | mask, ra + value, rb, ka + 1, kb, va + cards, vb)
                else:
                    walk(end, used | mask, ra, rb + value, ka, kb + 1, va, vb + cards)

    walk(0, 0, 0, 0, 0, 0, (), ())
    return tuple(sorted(found))


@lru_cache(maxsize=65_536)
def _suit_options(
    roem: tuple[tuple[str, int], ...],
    is_trump: bool,
    excluded: int,
    sides: tuple[bool, bool],
    values: tuple[int, ...],
    room: tuple[int, int, int, int],
    last: bool,
) -> tuple[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]], ...]:
    """:func:`_suit_configs` within ``room`` (roem A, roem B, tricks A, tricks B still
    open); in the last suit only those that fill the roem exactly."""
    ra, rb, ka, kb = room
    fitting = [
        c
        for c in _suit_configs(roem, is_trump, excluded, sides, values)
        if c[0] <= ra
        and c[1] <= rb
        and c[2] <= ka
        and c[3] <= kb
        and (not last or (c[0] == ra and c[1] == rb))
    ]
    # Most roem first: a deal's roem is usually found in the first suits tried.
    # At equal roem the cheaper cards first: they leave the sides' card points most room.
    fitting.sort(key=lambda c: (-(c[0] + c[1]), sum(c[4]) + sum(c[5])))
    return tuple(fitting)


def _exact_key(
    ruleset: RuleSet,
    trump: str,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int,
) -> tuple[Any, ...]:
    key_trump = trump if slots else SUITS[0]  # a total does not depend on the trump suit
    return (
        ruleset.roem_values,
        ruleset.trump_points,
        ruleset.plain_points,
        SUITS.index(key_trump),
        points,
        tricks,
        last,
        totals,
        slots,
        last_extra,
    )


def exact_possible(
    ruleset: RuleSet,
    trump: str,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int = 0,
) -> bool:
    """Whether some split of the 32 cards into 8 tricks gives each side its card points
    (``points``, without the last trick), its tricks (``tricks`` or any), the last trick
    to side index ``last``, holds each claimed trick of ``slots`` (side index, candidate
    card masks with their roem) in a trick of that side, and gives a side with a roem
    total (``totals``, None for a side that claims per trick) roem tricks adding up to it.

    A few roem placements are tried directly first (:func:`split_found_directly`); the
    full search (:func:`split_searched`) runs only when none of them fits."""
    return _exact(*_exact_key(ruleset, trump, points, tricks, last, totals, slots, last_extra))


def split_found_directly(
    ruleset: RuleSet,
    trump: str,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int = 0,
) -> bool:
    """The cheap first check of :func:`exact_possible`: True when one of a few ready
    placements of the roem (each claim in its first free candidate, each total made of the
    cheapest or the dearest cards of a few ways to add it up) leaves cards that split
    into the sides' other places with exactly their points, which is a split of the 32
    cards; False when none does (that decides nothing: the search then looks further)."""
    return _quick(*_exact_key(ruleset, trump, points, tricks, last, totals, slots, last_extra))


def split_searched(
    ruleset: RuleSet,
    trump: str,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int = 0,
) -> bool:
    """The full search of :func:`exact_possible`, without its cheap first check."""
    return _search(*_exact_key(ruleset, trump, points, tricks, last, totals, slots, last_extra))


def _vectors(
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    claimed: Sequence[int],
    last_extra: int,
) -> list[tuple[int, int]]:
    """The trick counts (A, B) the deal allows: given, or any that leaves a side without a
    trick only when it has nothing, and each side room for its claimed tricks."""
    # A side may have no trick only when it has no points, roem, claim or last trick.
    low = [
        claimed[s] + (last_extra if s == last else 0)
        or (0 if points[s] == 0 and s != last and not totals[s] else 1)
        for s in (0, 1)
    ]
    if tricks is not None:
        return [tricks] if tricks[0] >= low[0] and tricks[1] >= low[1] else []
    return [(a, 8 - a) for a in range(low[0], 9 - low[1])]


@lru_cache(maxsize=65_536)
def _exact(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int,
) -> bool:
    args = (roem, trump_points, plain_points, trump, points, tricks, last, totals, slots)
    return _quick(*args, last_extra) or _search(*args, last_extra)


# ----------------------------------------------------------------------------
# The cheap first check: a few ready placements of the roem


PLACEMENT_WAYS: Final = 3
"""How many ways to add up one side's roem total the first check tries (fewest tricks
first), each with the cheapest and with the dearest cards."""


@lru_cache(maxsize=64)
def _pieces(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
) -> dict[int, tuple[tuple[int, tuple[int, ...]], ...]]:
    """Roem value of one trick -> the card groups that carry exactly it (mask, the cards'
    points), cheapest first: runs (a trump run holding King and Queen with its stuk),
    stuk, fours; the same combinations the search places."""
    values = _layout(trump_points, plain_points, roem, trump)[0]
    rv = dict(roem)
    stuk = rv.get("stuk", 0)
    found: dict[int, list[tuple[int, tuple[int, ...]]]] = {}

    def add(value: int, mask: int) -> None:
        if value > 0:
            cards = tuple(values[b] for b in range(32) if mask >> b & 1)
            found.setdefault(value, []).append((mask, cards))

    for suit in range(4):
        for length in (3, 4):
            for start in range(9 - length):
                mask = _run_mask(suit, start, length)
                if suit == trump and start <= 1 and start + length - 1 >= 2:
                    add(rv.get(f"run-{length}", 0) + stuk, mask)
                else:
                    add(rv.get(f"run-{length}", 0), mask)
    add(stuk, _bit(trump, STUK_MASK_BITS[0]) | _bit(trump, STUK_MASK_BITS[1]))
    for _, value, mask, _cards in _layout(trump_points, plain_points, roem, trump)[1]:
        add(value, mask)
    return {v: tuple(sorted(g, key=lambda c: sum(c[1]))) for v, g in found.items()}


@lru_cache(maxsize=4096)
def _ways(values: tuple[int, ...], total: int, parts: int = 8) -> tuple[tuple[int, ...], ...]:
    """The first :data:`PLACEMENT_WAYS` ways to write ``total`` as a sum of at most
    ``parts`` of ``values`` (largest values first), fewest terms first."""
    found: list[tuple[int, ...]] = []

    def walk(rest: int, i: int, way: tuple[int, ...]) -> None:
        if rest == 0:
            found.append(way)
            return
        if len(way) == parts:
            return
        for j in range(i, len(values)):
            if values[j] <= rest:
                walk(rest - values[j], j, (*way, values[j]))

    walk(total, 0, ())
    found.sort(key=len)
    return tuple(found[:PLACEMENT_WAYS])


@lru_cache(maxsize=16_384)
def _placements(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
    totals: tuple[int | None, int | None],
    used: int,
    claimed_a: tuple[int, ...],
    claimed_b: tuple[int, ...],
) -> tuple[tuple[tuple[int, ...], int, int, int, int, int, int], ...]:
    """Ready placements of the roem whatever the deal's points and tricks, the claimed
    tricks being placed already (the ``used`` cards, worth ``claimed_a`` to A and
    ``claimed_b`` to B): each total by a few ways to add it up, with the cheapest and with
    the dearest cards.  Per placement: the other cards' subset sums per count of cards
    (:func:`_any_zeros`), A's and B's roem cards (count, points) and its totals' tricks."""
    card_value = _layout(trump_points, plain_points, roem, trump)[0]
    pieces = _pieces(roem, trump_points, plain_points, trump)
    values = tuple(sorted(pieces, reverse=True))

    def choices(total: int | None, taken: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(mask, tricks, cards) for one side's total: cheapest and dearest cards."""
        if not total:
            return [(0, 0, ())]
        made = []
        for way in _ways(values, total):
            for dear in (False, True):
                mask, held = taken, []
                for value in way:
                    groups = pieces[value][::-1] if dear else pieces[value]
                    for group, group_cards in groups:
                        if not group & mask:
                            mask |= group
                            held.extend(group_cards)
                            break
                    else:
                        break
                else:
                    placed = (mask & ~taken, len(way), tuple(held))
                    if placed not in made:
                        made.append(placed)
        return made

    full = sorted(card_value)
    found = []
    for mask_a, ka, held_a in choices(totals[0], used):
        for _mask_b, kb, held_b in choices(totals[1], used | mask_a):
            va, vb = claimed_a + held_a, claimed_b + held_b
            free = list(full)
            for v in va + vb:
                free.remove(v)
            found.append(
                (
                    _any_zeros(_reach(tuple(v for v in free if v)), free.count(0)),
                    len(va),
                    len(vb),
                    sum(va),
                    sum(vb),
                    ka,
                    kb,
                )
            )
    return tuple(found)


def _quick(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int,
) -> bool:
    """True when one ready placement of the roem fits this deal's points and tricks: each
    claimed trick in its first candidate still free, then :func:`_placements`.  Then the
    32 cards split as the deal says."""
    used = 0
    claimed = [0, 0]
    held: tuple[list[int], list[int]] = ([], [])
    if slots:
        card_value = _layout(trump_points, plain_points, roem, trump)[0]
        for side, candidates in slots:
            for mask, _value in candidates:
                if not mask & used:
                    used |= mask
                    claimed[side] += 1
                    while mask:
                        low = mask & -mask
                        held[side].append(card_value[low.bit_length() - 1])
                        mask ^= low
                    break
            else:
                return False
    vectors = _vectors(points, tricks, last, totals, claimed, last_extra)
    placements = _placements(
        roem,
        trump_points,
        plain_points,
        trump,
        totals,
        used if any(totals) else 0,
        tuple(sorted(held[0])),
        tuple(sorted(held[1])),
    )
    pa, pb = points
    ca, cb = claimed
    for sums, la, lb, suma, sumb, ka, kb in placements:
        q = pa - suma
        if q < 0 or pb < sumb:
            continue
        for ta, tb in vectors:
            if ka + ca > ta or kb + cb > tb:
                continue
            need = 4 * ta - la
            if need < 0 or 4 * tb - lb < 0:
                continue
            if sums[need] >> q & 1:
                return True
    return False


@lru_cache(maxsize=16_384)
def _any_zeros(reach: tuple[int, ...], zeros: int) -> tuple[int, ...]:
    """For each count n of cards, a bit mask of the sums some n of the cards make, ``reach``
    holding the sums of the cards worth something and ``zeros`` more cards worth 0."""
    return tuple(_or(reach[max(0, n - zeros) : n + 1]) for n in range(len(reach) + zeros))


def _or(masks: tuple[int, ...]) -> int:
    found = 0
    for mask in masks:
        found |= mask
    return found


# ----------------------------------------------------------------------------
# The full search


def _search(
    roem: tuple[tuple[str, int], ...],
    trump_points: tuple[tuple[str, int], ...],
    plain_points: tuple[tuple[str, int], ...],
    trump: int,
    points: tuple[int, int],
    tricks: tuple[int, int] | None,
    last: int,
    totals: tuple[int | None, int | None],
    slots: tuple[tuple[int, tuple[tuple[int, int], ...]], ...],
    last_extra: int,
) -> bool:
    """The exact search: valued fours first, then runs and stuk suit by suit, then the
    other cards' subset sums (see the module's docstring)."""
    card_value, fours_of = _layout(trump_points, plain_points, roem, trump)
    full = sorted(card_value)
    options = _options_memo(roem, trump_points, plain_points, trump)
    claimed = (
        sum(1 for side, _ in slots if side == 0),
        sum(1 for side, _ in slots if side == 1),
    )
    vectors = _vectors(points, tricks, last, totals, claimed, last_extra)
    if not vectors:
        return False
    want = [t if t is not None else 0 for t in totals]
    scoring = (totals[0] is not None and totals[0] > 0, totals[1] is not None and totals[1] > 0)
    seen_leaves: set[tuple[Any, ...]] = set()
    budget = [WALK_MAX]

    def leaf(union: tuple[int, ...], la: int, suma: int, ka: int, kb: int) -> bool:
        """The roem tricks hold ``union`` (A's ``la`` cards worth ``suma``): do the other
        cards split into the sides' remaining places with exactly their card points?"""
        key = (union, la, suma, ka, kb)
        if key in seen_leaves:
            return False
        seen_leaves.add(key)
        free = list(full)
        for v in union:
            free.remove(v)
        zeros = free.count(0)
        reach = _reach(tuple(v for v in free if v))
        most = len(reach) - 1
        lb = len(union) - la
        q = points[0] - suma
        if q < 0 or points[1] < sum(union) - suma:
            return False
        for ta, tb in vectors:
            if ka + claimed[0] > ta or kb + claimed[1] > tb:
                continue
            need = 4 * ta - la
            if need < 0 or 4 * tb - lb < 0:
                continue
            for n in range(max(0, need - zeros), min(need, most) + 1):
                if reach[n] >> q & 1:
                    return True
        return False

    def totals_search(used: int, va: tuple[int, ...], vb: tuple[int, ...]) -> bool:
        # Fours first: each valued four whose cards are free may be a roem trick of a side.
        top = max(want[s] for s in (0, 1) if scoring[s]) if any(scoring) else 0
        fours = [f for f in fours_of if f[1] <= top and not f[2] & used]
        cap = [max(v[s] for v in vectors) - claimed[s] for s in (0, 1)]
        starts: list[tuple[int, int, int, int, int, tuple[int, ...], tuple[int, ...]]] = []

        def pick(i: int, u: int, ra: int, rb: int, ka: int, kb: int, fa: tuple, fb: tuple):
            if i == len(fours):
                starts.append((u, ra, rb, ka, kb, fa, fb))
                return
            pick(i + 1, u, ra, rb, ka, kb, fa, fb)
            _, value, mask, cards = fours[i]
            if scoring[0] and ra + value <= want[0] and ka < cap[0]:
                pick(i + 1, u | mask, ra + value, rb, ka + 1, kb, fa + cards, fb)
            if scoring[1] and rb + value <= want[1] and kb < cap[1]:
                pick(i + 1, u | mask, ra, rb + value, ka, kb + 1, fa, fb + cards)

        pick(0, used, 0, 0, 0, 0, (), ())
        visited: set[tuple[Any, ...]] = set()

        def walk(
            suit: int,
            u: int,
            ra: int,
            rb: int,
            ka: int,
            kb: int,
            union: tuple[int, ...],
            la: int,
            suma: int,
            sumb: int,
        ) -> bool:
            if suit == 4 or not any(scoring) or (ra == want[0] and rb == want[1]):
                # Every roem trick is placed: the other suits hold no more roem tricks.
                return ra == want[0] and rb == want[1] and leaf(union, la, suma, ka, kb)
            if want[0] - ra + want[1] - rb > suit_most[suit]:
                return False  # the suits left cannot hold that much roem
            key = (suit, u >> (suit * 8), ra, rb, ka, kb, union, la, suma)
            if key in visited:
                return False
            visited.add(key)
            budget[0] -= 1
            if budget[0] < 0:
                raise _GaveUp
            excluded = (u >> (suit * 8)) & 0xFF
            key = (suit, excluded, scoring, want[0] - ra, want[1] - rb, cap[0] - ka, cap[1] - kb)
            configs = options.get(key)
            if configs is None:
                if len(options) > OPTIONS_MEMO_MAX:
                    options.clear()
                configs = options[key] = _suit_options(
                    roem,
                    suit == trump,
                    excluded,
                    scoring,
                    tuple(card_value[suit * 8 : suit * 8 + 8]),
                    key[3:],
                    suit == 3,
                )
            for ca, cb, da, db, xa, xb in configs:
                pa = suma + sum(xa)
                pb = sumb + sum(xb)
                if pa > points[0] or pb > points[1]:
                    continue
                if walk(
                    suit + 1,
                    u,
                    ra + ca,
                    rb + cb,
                    ka + da,
                    kb + db,
                    tuple(sorted(union + xa + xb)) if xa or xb else union,
                    la + len(xa),
                    pa,
                    pb,
                ):
                    return True
            return False

        for u, ra0, rb0, ka0, kb0, fa, fb in starts:
            a_cards, b_cards = va + fa, vb + fb
            if walk(
                0,
                u,
                ra0,
                rb0,
                ka0,
                kb0,
                tuple(sorted(a_cards + b_cards)),
                len(a_cards),
                sum(a_cards),
                sum(b_cards),
            ):
                return True
        return False

    def slot_search(i: int, used: int, va: tuple[int, ...], vb: tuple[int, ...]) -> bool:
        if i == len(slots):
            return totals_search(used, va, vb)
        side, candidates = slots[i]
        for mask, _value in candidates:
            if mask & used:
                continue
            cards = tuple(card_value[b] for b in range(32) if mask >> b & 1)
            if side == 0:
                found = slot_search(i + 1, used | mask, va + cards, vb)
            else:
                found = slot_search(i + 1, used | mask, va, vb + cards)
            if found:
                return True
        return False

    suit_most = _suit_most(roem, trump_points, plain_points, trump)
    try:
        return slot_search(0, 0, (), ())
    except _GaveUp:
        # Never met by a deal within the bounds of roem a table can write (the cap is far
        # above what the property tests need): keep the first filter's answer, so that a
        # real deal is never refused.
        return True


def forget_answers() -> None:
    """Drop the cached answers of the exact test (for a cold measurement)."""
    for cached in (
        _exact,
        _reach,
        _suit_configs,
        _suit_options,
        _sums,
        _options_memo,
        _suit_most,
        _any_zeros,
        _pieces,
        _ways,
        _placements,
    ):
        cached.cache_clear()


# ----------------------------------------------------------------------------
# Reading a deal


def _claims(
    raw: list[Any],
    side: str,
    ruleset: RuleSet,
    trump: str | None,
    errors: ErrorList,
) -> tuple[dict[int, list[tuple[str, Any, Any, Any, str]]], int] | None:
    """One side's claims grouped by trick: trick -> [(kind, a, b, c, path)], and the roem."""
    if len(raw) > 16:
        errors.add(f"roem.{side}", msg(CLAIMS_TOO_MANY, count=len(raw)))
        return None
    rv = ruleset.roem_table
    by_trick: dict[int, list[tuple[str, Any, Any, Any, str]]] = {}
    total = 0
    ok = True
    for i, claim in enumerate(raw):
        path = f"roem.{side}[{i}]"
        if not isinstance(claim, Mapping):
            errors.add(path, msg(CLAIM_NOT_OBJECT))
            ok = False
            continue
        trick = claim.get("trick")
        if type(trick) is not int or not 1 <= trick <= 8:
            errors.add(f"{path}.trick", msg(CLAIM_TRICK, value=shown(trick)))
            ok = False
            continue
        kind = claim.get("kind")
        if not isinstance(kind, str):
            errors.add(f"{path}.kind", msg(CLAIM_KIND, value=shown(kind)))
            ok = False
            continue
        # "four-J" is a four with rank J, "run-3" a run of length 3 (unless the claim
        # names its rank or length itself).
        named = None
        if kind.startswith("four-"):
            named = kind[5:]
            kind = "four"
        if kind in ("run-3", "run-4"):
            named = int(kind[4])
            kind = "run"
        if kind == "run":
            length = claim.get("length", named)
            if type(length) is not int or not 3 <= length <= 4:
                errors.add(
                    f"{path}.length", msg(CLAIM_RUN_LENGTH, trick=trick, value=shown(length))
                )
                ok = False
                continue
            suit, top = claim.get("suit"), claim.get("top")
            if suit is not None and (not isinstance(suit, str) or suit not in SUITS):
                errors.add(
                    f"{path}.suit",
                    msg(CLAIM_SUIT, trick=trick, value=shown(suit), suits=", ".join(SUITS)),
                )
                ok = False
                continue
            if top is not None and (not isinstance(top, str) or top not in RANKS):
                errors.add(
                    f"{path}.top",
                    msg(CLAIM_RANK, trick=trick, value=shown(top), ranks=" ".join(RANKS)),
                )
                ok = False
                continue
            if top is not None and RANK_INDEX[top] + length > 8:
                errors.add(
                    f"{path}.top",
                    msg(CLAIM_RUN_NOT_IN_PACK, trick=trick, length=length, top=top),
                )
                ok = False
                continue
            name = f"run-{length}"
            entry = ("run", length, suit, top, path)
        elif kind == "four":
            rank = claim.get("rank", named)
            if not isinstance(rank, str) or rank not in RANKS:
                errors.add(
                    f"{path}.rank",
                    msg(CLAIM_RANK, trick=trick, value=shown(rank), ranks=" ".join(RANKS)),
                )
                ok = False
                continue
            name = f"four-{rank}"
            entry = ("four", rank, None, None, path)
        elif kind == "stuk":
            suit = claim.get("suit")
            if suit is not None and trump is not None and suit != trump:
                errors.add(
                    f"{path}.suit",
                    msg(CLAIM_STUK_NOT_TRUMP, trick=trick, trump=trump, suit=shown(suit)),
                )
                ok = False
                continue
            name = "stuk"
            entry = ("stuk", None, None, None, path)
        else:
            errors.add(f"{path}.kind", msg(CLAIM_KIND, value=shown(kind)))
            ok = False
            continue
        value = rv.get(name, 0)
        if not value:
            errors.add(
                f"{path}.kind", msg(CLAIM_NO_VALUE, trick=trick, kind=name, ruleset=ruleset.slug)
            )
            ok = False
            continue
        total += value
        by_trick.setdefault(trick, []).append(entry)
    return (by_trick, total) if ok else None


def _trick_candidates(
    trick: int, entries: list[tuple[str, Any, Any, Any, str]], trump: str, errors: ErrorList
) -> tuple[tuple[int, int], ...] | None:
    """The card masks that one claimed trick may hold (value 0: the value is the side's)."""
    runs, fours, stuks = [], [], []
    for e in entries:
        (runs if e[0] == "run" else fours if e[0] == "four" else stuks).append(e)
    last_path = entries[-1][4]
    if len(runs) > 1:
        errors.add(runs[1][4], msg(CLAIM_TWO_RUNS, trick=trick))
        return None
    if len(fours) > 1:
        errors.add(fours[1][4], msg(CLAIM_TWO_FOURS, trick=trick))
        return None
    if runs and fours:
        errors.add(last_path, msg(CLAIM_RUN_AND_FOUR, trick=trick))
        return None
    if fours and stuks:
        errors.add(last_path, msg(CLAIM_FOUR_AND_STUK, trick=trick))
        return None
    if len(stuks) > 1:
        errors.add(stuks[1][4], msg(CLAIM_STUK_TWICE, trick=trick, other=trick))
        return None
    if fours:
        return ((four_mask(fours[0][1]), 0),)
    t = SUIT_INDEX[trump]
    stuk_mask = _bit(t, STUK_MASK_BITS[0]) | _bit(t, STUK_MASK_BITS[1])
    if not runs:
        return ((stuk_mask, 0),)
    _, length, suit, top, path = runs[0]
    suits = (SUIT_INDEX[suit],) if suit is not None else range(4)
    tops = (RANK_INDEX[top],) if top is not None else range(9 - length)
    found = []
    for s in suits:
        for start in tops:
            mask = _run_mask(s, start, length)
            if stuks and mask & stuk_mask != stuk_mask:
                continue
            found.append((mask, 0))
    if not found:
        errors.add(path, msg(CLAIM_STUK_RUN, trick=trick, trump=trump))
        return None
    return tuple(found)


def _roem(
    data: Mapping[str, Any],
    ruleset: RuleSet,
    trump: str | None,
    errors: ErrorList,
) -> tuple[dict[str, int], dict[str, dict[int, tuple[tuple[int, int], ...]]] | None] | None:
    """Each side's roem, and each claiming side's tricks with their candidate cards."""
    raw = data.get("roem")
    sides = ruleset.sides
    roem = dict.fromkeys(sides, 0)
    slots: dict[str, dict[int, tuple[tuple[int, int], ...]]] = {}
    if raw is None:
        return roem, slots
    if not isinstance(raw, Mapping):
        errors.add("roem", msg(ROEM_NOT_OBJECT))
        return None
    ok = True
    stuk_at: int | None = None
    four_at: dict[str, int] = {}
    fixed: list[tuple[int, int]] = []  # mask, trick of fully known claimed tricks
    for side, value in raw.items():
        if not is_side(side, ruleset):
            errors.add(
                f"roem.{field_key(side)}",
                msg(SIDE_UNKNOWN, value=shown(side), sides=", ".join(sides)),
            )
            ok = False
            continue
        if value is None:
            continue
        if isinstance(value, list | tuple):
            parsed = _claims(list(value), side, ruleset, trump, errors)
            if parsed is None:
                ok = False
                continue
            by_trick, total = parsed
            roem[side] = total
            if trump is None:
                continue
            side_slots: dict[int, tuple[tuple[int, int], ...]] = {}
            for trick in sorted(by_trick):
                entries = by_trick[trick]
                for e in entries:
                    if e[0] == "stuk":
                        if stuk_at is not None:
                            errors.add(e[4], msg(CLAIM_STUK_TWICE, trick=trick, other=stuk_at))
                            ok = False
                        stuk_at = trick
                    if e[0] == "four":
                        if e[1] in four_at:
                            errors.add(
                                e[4],
                                msg(CLAIM_FOUR_TWICE, trick=trick, rank=e[1], other=four_at[e[1]]),
                            )
                            ok = False
                        four_at[e[1]] = trick
                candidates = _trick_candidates(trick, entries, trump, errors)
                if candidates is None:
                    ok = False
                    continue
                if len(candidates) == 1:
                    mask = candidates[0][0]
                    for other_mask, other_trick in fixed:
                        if mask & other_mask:
                            errors.add(
                                entries[-1][4],
                                msg(
                                    CLAIM_SHARES_CARD,
                                    trick=trick,
                                    cards=_card_names(mask & other_mask),
                                    other=other_trick,
                                ),
                            )
                            ok = False
                            break
                    fixed.append((mask, trick))
                side_slots[trick] = candidates
            slots[side] = side_slots
        elif not is_whole(value) or value > NUMBER_MAX:
            errors.add(f"roem.{side}", msg(ROEM_NOT_WHOLE, value=shown(value)))
            ok = False
        else:
            roem[side] = value
    return (roem, slots) if ok else None


def _dealer(data: Mapping[str, Any], errors: ErrorList) -> int | None:
    raw = data.get("dealer")
    if raw is None:
        return None
    if type(raw) is not int or not 0 <= raw <= 3:
        errors.add("dealer", msg(DEALER_INVALID, value=shown(raw)))
        return None
    return raw


def parse_klaverjas_deal(data: Any, ruleset: RuleSet) -> Deal:
    """Check one klaverjas deal (KLAVERJAS.md 7.1-7.9); a Deal or RulesError with every
    mistake, each naming its field (and, for roem, the trick)."""
    if not isinstance(data, Mapping):
        raise RulesError(DEAL_NOT_OBJECT)
    errors = ErrorList()
    sides = ruleset.sides
    sides_text = ", ".join(sides)
    for name in ("melds", "bell"):
        if data.get(name) not in (None, {}, []):
            errors.add(name, msg(NOT_IN_KLAVERJAS, name=name, ruleset=ruleset.slug))
    if data.get("passed") not in (None, False):
        errors.add("passed", msg(PASSED_IN_KLAVERJAS))
    renege = _renege(data.get("renege"), ruleset, errors)
    redeal = bool(renege) and len(renege) == len(sides)
    stopped = bool(renege)

    maker = data.get("maker")
    if maker is None:
        if not redeal:
            errors.add("maker", msg(MAKER_MISSING, sides=sides_text))
    elif not is_side(maker, ruleset):
        errors.add("maker", msg(SIDE_UNKNOWN, value=shown(maker), sides=sides_text))
        maker = None
    trump = _trump({"trump": data.get("trump")}, ruleset, errors, required=not redeal)
    dealer = _dealer(data, errors)
    if dealer is not None and maker is not None and ruleset.maker_left_of_dealer:
        forced = sides[(dealer + 1) % len(sides)]
        if maker != forced:
            errors.add(
                "maker",
                msg(
                    MAKER_NOT_LEFT_OF_DEALER,
                    ruleset=ruleset.slug,
                    dealer=dealer,
                    side=forced,
                    maker=maker,
                ),
            )

    last = data.get("last_trick")
    if last is not None and not is_side(last, ruleset):
        errors.add("last_trick", msg(SIDE_UNKNOWN, value=shown(last), sides=sides_text))
        last = None
    if not stopped and last is None and "last_trick" not in [e["field"] for e in errors.entries]:
        errors.add("last_trick", msg(LAST_TRICK_MISSING, sides=sides_text))

    points = _points(data, ruleset, last, stopped, errors)
    tricks = None
    if data.get("tricks") is not None:
        tricks = _per_side(
            data.get("tricks"),
            "tricks",
            ruleset,
            errors,
            TRICKS_NOT_OBJECT,
            TRICKS_NOT_WHOLE,
            None if stopped else TRICKS_MISSING,
        )
    parsed_roem = _roem(data, ruleset, trump, errors)
    roem = parsed_roem[0] if parsed_roem else None

    if (
        not stopped
        and points is not None
        and trump is not None
        and last is not None
        and not (
            errors
            and (errors.has("points") or errors.has("points_with_last") or errors.has("tricks"))
        )
    ):
        field = "points_with_last" if "points_with_last" in data else "points"
        before = len(errors.entries)
        _check_points(ruleset, False, points, tricks, last, errors)
        for entry in errors.entries[before:]:
            if entry["field"].startswith("points") and field != "points":
                entry["field"] = field + entry["field"][len("points") :]
        pack_points = ruleset.card_points_total()
        full = [s for s in sides if points[s] == pack_points]
        if full and tricks is None and len(errors.entries) == before:
            errors.add("tricks", msg(TRICKS_FOR_PIT, side=full[0], total=pack_points))
        if len(errors.entries) == before and parsed_roem is not None:
            _check_roem(ruleset, trump, points, tricks, last, parsed_roem, errors)
    elif stopped and parsed_roem is not None:
        for side in sides:
            if side not in parsed_roem[1]:
                _roem_filter(ruleset, side, roem[side], 8, errors)  # type: ignore[index]

    errors.raise_if_any()
    return Deal(
        passed=False,
        maker=maker,
        trump=trump,
        points=points,
        last_trick=last,
        tricks=tricks,
        melds=None,
        bell=None,
        renege=renege,
        roem=roem,
        dealer=dealer,
    )


def _points(
    data: Mapping[str, Any],
    ruleset: RuleSet,
    last: str | None,
    stopped: bool,
    errors: ErrorList,
) -> dict[str, int] | None:
    """Card points without the last trick, from ``points`` or ``points_with_last``."""
    with_last = data.get("points_with_last")
    if with_last is not None and data.get("points") is not None:
        errors.add("points_with_last", msg(POINTS_BOTH_FORMS))
        return None
    if with_last is None:
        raw = data.get("points")
        if raw is None and stopped:
            return None
        return _per_side(
            raw,
            "points",
            ruleset,
            errors,
            POINTS_NOT_OBJECT,
            POINTS_NOT_WHOLE,
            None if stopped else POINTS_MISSING,
        )
    given = _per_side(
        with_last,
        "points_with_last",
        ruleset,
        errors,
        POINTS_NOT_OBJECT,
        POINTS_NOT_WHOLE,
        None if stopped else POINTS_MISSING,
    )
    if given is None:
        return None
    if stopped and last is None:
        return given
    total = ruleset.card_points_total() + LAST_TRICK_BONUS
    if not stopped and sum(given.values()) != total:
        errors.add(
            "points_with_last", msg(POINTS_WITH_LAST_SUM, total=total, sum=sum(given.values()))
        )
        return None
    if last is None:
        return None
    if given[last] < LAST_TRICK_BONUS:
        errors.add(
            f"points_with_last.{last}",
            msg(POINTS_WITH_LAST_SHORT, side=last, value=given[last]),
        )
        return None
    return {s: v - (LAST_TRICK_BONUS if s == last else 0) for s, v in given.items()}


def _roem_filter(ruleset: RuleSet, side: str, value: int, tricks: int, errors: ErrorList) -> bool:
    """The first filter (7.9): a sum of one-trick values over at most ``tricks`` tricks."""
    if not value:
        return True
    values = trick_values(ruleset)
    if all(v % 10 == 0 for v in values) and value % 10:
        errors.add(f"roem.{side}", msg(ROEM_NOT_TENS, value=value))
        return False
    if value not in _sums(values, tricks):
        errors.add(
            f"roem.{side}",
            msg(
                ROEM_NOT_A_SUM,
                side=side,
                value=value,
                tricks=tricks,
                ruleset=ruleset.slug,
                values=", ".join(str(v) for v in values),
            ),
        )
        return False
    return True


def _check_roem(
    ruleset: RuleSet,
    trump: str,
    points: dict[str, int],
    tricks: dict[str, int] | None,
    last: str,
    parsed: tuple[dict[str, int], dict[str, dict[int, tuple[tuple[int, int], ...]]]],
    errors: ErrorList,
) -> None:
    roem, slots = parsed
    sides = ruleset.sides
    before = len(errors.entries)
    # A side with no trick: no roem.
    for side in sides:
        won = tricks[side] if tricks is not None else (8 if points[side] or side == last else None)
        if tricks is not None and tricks[side] == 0 and roem[side]:
            errors.add(f"roem.{side}", msg(NO_TRICK_ROEM, side=side))
            continue
        if side in slots:
            claimed = slots[side]
            if 8 in claimed and side != last:
                errors.add(f"roem.{side}", msg(CLAIM_LAST_TRICK, last=last, side=side))
                continue
            other = [s for s in sides if s != side and s in slots]
            for o in other:
                both = sorted(set(claimed) & set(slots[o]))
                if both and side == sides[0]:
                    errors.add(f"roem.{o}", msg(CLAIM_BOTH_SIDES, trick=both[0]))
            if tricks is not None and len(claimed) > tricks[side]:
                errors.add(
                    f"roem.{side}",
                    msg(
                        CLAIMS_MORE_THAN_TRICKS,
                        side=side,
                        count=len(claimed),
                        tricks=tricks[side],
                    ),
                )
            elif (
                tricks is not None
                and side == last
                and 8 not in claimed
                and len(claimed) == tricks[side]
            ):
                errors.add(
                    f"roem.{side}",
                    msg(CLAIMS_LAST_TRICK_MISSING, side=side, tricks=tricks[side]),
                )
        else:
            _roem_filter(ruleset, side, roem[side], won if won is not None else 8, errors)
    if len(errors.entries) != before:
        return
    if not any(roem.values()):
        return  # no roem: the card-point test already decided
    index = ruleset.side_index
    slot_list = tuple(
        (index[side], candidates)
        for side in sides
        for _, candidates in sorted(slots.get(side, {}).items())
    )
    ok = exact_possible(
        ruleset,
        trump,
        (points[sides[0]], points[sides[1]]),
        None if tricks is None else (tricks[sides[0]], tricks[sides[1]]),
        index[last],
        tuple(None if s in slots else roem[s] for s in sides),  # type: ignore[arg-type]
        slot_list,
        # A claiming side that took the last trick without claiming in it won one more.
        1 if last in slots and 8 not in slots[last] else 0,
    )
    if not ok:
        errors.add(
            "roem",
            msg(
                ROEM_IMPOSSIBLE,
                roem=", ".join(f"{s} {roem[s]}" for s in sides),
                points=", ".join(f"{s} {points[s]}" for s in sides),
            ),
        )


# ----------------------------------------------------------------------------
# Scoring (7.4-7.6)


def score_klaverjas(ruleset: RuleSet, deal: Deal) -> DealResult:
    """Score a checked klaverjas deal: made or nat, pit, renege (KLAVERJAS.md 7.4-7.6)."""
    sides = ruleset.sides
    zeros = dict.fromkeys(sides, 0)
    roem = dict(deal.roem or zeros)
    all_points = ruleset.card_points_total() + LAST_TRICK_BONUS
    if deal.renege:
        offenders = set(deal.renege)
        if len(offenders) == len(sides):
            return DealResult(
                Outcome.REDEAL,
                dict(zeros),
                dict(zeros),
                None,
                dict(zeros),
                klaverjas=True,
                sheet={"points": dict(zeros), "roem": dict(zeros)},
            )
        announced = sum(roem.values()) if ruleset.renege_roem == "all" else 0
        score: dict[str, int] = {}
        sheet_points: dict[str, int] = {}
        sheet_roem: dict[str, int] = {}
        for side in sides:
            if side in offenders:
                score[side] = sheet_points[side] = sheet_roem[side] = 0
            else:
                sheet_points[side] = ruleset.renege_points()
                sheet_roem[side] = announced + ruleset.renege_bonus
                score[side] = sheet_points[side] + sheet_roem[side]
        return DealResult(
            Outcome.RENEGE,
            score,
            dict(score),
            None,
            dict(roem),
            winner=_top(score),
            klaverjas=True,
            sheet={"points": sheet_points, "roem": sheet_roem},
        )
    if deal.points is None or deal.maker is None:
        raise RulesBug("a played klaverjas deal reached scoring without points or maker")
    maker = deal.maker
    first, second = sides
    other = second if maker == first else first
    last = deal.last_trick
    played = {s: deal.points[s] + (LAST_TRICK_BONUS if last == s else 0) for s in sides}
    totals = {s: played[s] + roem[s] for s in sides}
    pit = None
    if deal.tricks is not None:
        won = deal.tricks
        pit = next((s for s in sides if won[s] == ruleset.tricks), None)
    bonus_side = pit if pit is not None and (ruleset.pit_for == "any" or pit == maker) else None
    meld_points = dict(roem)
    if bonus_side is not None:
        meld_points[bonus_side] += ruleset.pit_bonus
    if totals[maker] > totals[other]:
        outcome = Outcome.MADE
        sheet_points = dict(played)
        sheet_roem = dict(meld_points)
    else:
        outcome = Outcome.SET
        sheet_points = {maker: 0, other: all_points}
        sheet_roem = {maker: 0, other: roem[maker] + meld_points[other]}
    score = {s: sheet_points[s] + sheet_roem[s] for s in sides}
    return DealResult(
        outcome,
        score,
        totals,
        None,
        meld_points,
        winner=_top(score),
        klaverjas=True,
        pit=pit,
        sheet={"points": sheet_points, "roem": sheet_roem},
    )


def _top(score: Mapping[str, int]) -> str | None:
    best = max(score.values())
    leaders = [s for s, v in score.items() if v == best]
    return leaders[0] if len(leaders) == 1 and best > 0 else None


__all__ = [
    "exact_possible",
    "forget_answers",
    "parse_klaverjas_deal",
    "score_klaverjas",
    "split_found_directly",
    "split_searched",
    "trick_values",
]
