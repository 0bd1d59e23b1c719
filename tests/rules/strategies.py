"""Hypothesis strategies for legal deals, built from the cards up.

A deal is generated the way it happens at the table: the real pack of the rule set (24 or
32 cards) is shuffled, the hands are dealt, trump and maker are chosen, and the tricks are
played (following suit when possible, else trumping when possible, else any card). From
the played tricks come each side's card points, its tricks and the last trick; from the
dealt hands come melds that really exist (each with its `player`) and the bell, when one
player holds the King and Queen of trumps. So every deal generated here is one that the
engine must accept, and any change that breaks a rule of RULES.md section 5 is one it
must reject.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.rules.support import (
    ALL_SLUGS,
    PLAIN_ORDER,
    SUITS,
    TABLES,
    TRUMP_ORDER,
    Table,
    card_points,
    pack_ranks,
    sequence_ranks,
)

Card = tuple[str, str]  # (suit, rank)

# Bounded so that the whole rules suite stays fast.
RULES_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

ALL_PLAYED_CLABBER = tuple(
    slug for slug in ALL_SLUGS if TABLES[slug].family == "clabber" and TABLES[slug].all_played
)
ALL_PLAYED_SLUGS = tuple(slug for slug in ALL_SLUGS if TABLES[slug].all_played)


def full_pack(size: int) -> list[Card]:
    return [(suit, rank) for suit in SUITS for rank in pack_ranks(size)]


def trick_winner(plays: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat that wins a trick: the highest trump, else the highest card of the suit led."""
    trumps = [(seat, card) for seat, card in plays if card[0] == trump]
    if trumps:
        return min(trumps, key=lambda play: TRUMP_ORDER.index(play[1][1]))[0]
    led = plays[0][1][0]
    followed = [(seat, card) for seat, card in plays if card[0] == led]
    return min(followed, key=lambda play: PLAIN_ORDER.index(play[1][1]))[0]


def play_out(hands: list[list[Card]], trump: str, leader: int, rnd) -> list[tuple[int, list[Card]]]:
    """Play every card in the hands; the winner of each trick leads to the next."""
    hands = [sorted(hand) for hand in hands]
    seats = len(hands)
    tricks = []
    for _ in range(len(hands[0])):
        plays: list[tuple[int, Card]] = []
        for turn in range(seats):
            seat = (leader + turn) % seats
            hand = hands[seat]
            choices = hand
            if plays:
                led = plays[0][1][0]
                choices = (
                    [c for c in hand if c[0] == led] or [c for c in hand if c[0] == trump] or hand
                )
            card = rnd.choice(choices)
            hand.remove(card)
            plays.append((seat, card))
        leader = trick_winner(plays, trump)
        tricks.append((leader, [card for _, card in plays]))
    return tricks


def sequences_in(hand: Sequence[Card], pack_size: int) -> list[tuple[str, str, int]]:
    """Maximal runs of three or more in the natural order: (suit, top, length)."""
    ranks = pack_ranks(pack_size)
    found = []
    for suit in SUITS:
        held = [rank in {r for s, r in hand if s == suit} for rank in ranks]
        start = None
        for index, has in enumerate([*held, False]):
            if has and start is None:
                start = index
            elif not has and start is not None:
                if index - start >= 3:
                    found.append((suit, ranks[start], index - start))
                start = None
    return found


def meld_cards(meld: dict[str, Any]) -> set[Card]:
    if meld["kind"] == "four":
        return {(suit, meld["rank"]) for suit in SUITS}
    return {(meld["suit"], rank) for rank in sequence_ranks(meld["top"], meld["length"])}


def hand_melds(draw, table: Table, seat: int, hand: list[Card]) -> list[dict[str, Any]]:
    """Some of the melds this hand really holds, no card in two of them."""
    player = table.seat_player(seat)
    candidates: list[dict[str, Any]] = [
        {"kind": "sequence", "suit": suit, "top": top, "length": length, "player": player}
        for suit, top, length in sequences_in(hand, table.pack)
    ]
    held = set(hand)
    candidates += [
        {"kind": "four", "rank": rank, "player": player}
        for rank in table.fours
        if all((suit, rank) in held for suit in SUITS)
    ]
    if not candidates:
        return []
    order = draw(st.permutations(candidates))
    chosen: list[dict[str, Any]] = []
    used: set[Card] = set()
    for meld in order:
        cards = meld_cards(meld)
        if not cards & used and draw(st.booleans()):
            chosen.append(meld)
            used |= cards
    return chosen


@st.composite
def legal_deals(
    draw,
    slugs: Sequence[str] = ALL_SLUGS,
    melds: bool = True,
    bell: bool | None = None,
    tricks: bool | None = None,
) -> dict[str, Any]:
    """A played-out deal of one of `slugs`, in the JSON of RULES.md section 6.

    `bell`: False never declares one; None declares it when some player holds it, now and
    then; True always deals some player the King and Queen of trumps and declares the bell.
    `tricks`: whether the deal says how many tricks each side took (None: now and then).
    """
    slug = draw(st.sampled_from(slugs))
    table = TABLES[slug]
    seats = len(table.seats)
    trumps = SUITS + (("none",) if table.no_trumps and bell is not True else ())
    trump = draw(st.sampled_from(trumps))
    pack = list(draw(st.permutations(full_pack(table.pack))))
    if melds and draw(st.booleans()):
        # Deal someone a meld now and then: shuffles alone seldom give fours or long runs.
        give_cards(pack, draw(stacked_meld(table)), draw(st.integers(0, seats - 1)), table.hand)
    if bell is True:
        kq = [(trump, "K"), (trump, "Q")]
        give_cards(pack, kq, draw(st.integers(0, seats - 1)), table.hand)
    hands = [pack[seat * table.hand : (seat + 1) * table.hand] for seat in range(seats)]
    maker = draw(st.sampled_from(table.sides))
    rnd = draw(st.randoms(use_true_random=False))
    leader = draw(st.integers(0, seats - 1))

    points = dict.fromkeys(table.sides, 0)
    taken = dict.fromkeys(table.sides, 0)
    played = play_out(hands, trump, leader, rnd)
    for winner, cards in played:
        side = table.seats[winner]
        points[side] += sum(card_points(rank, suit, trump) for suit, rank in cards)
        taken[side] += 1

    data: dict[str, Any] = {
        "ruleset": slug,
        "maker": maker,
        "trump": trump,
        "points": points,
        "last_trick": table.seats[played[-1][0]],
    }
    if tricks if tricks is not None else draw(st.booleans()):
        data["tricks"] = taken
    bidding = draw_bidding(draw, table, trump)
    if bidding is not None:
        data["bidding"] = bidding
    if melds:
        declared: dict[str, list[dict[str, Any]]] = {}
        for seat, hand in enumerate(hands):
            for meld in hand_melds(draw, table, seat, hand):
                declared.setdefault(table.seats[seat], []).append(meld)
        if declared:
            data["melds"] = declared
    if bell is not False and trump != "none":
        for seat, hand in enumerate(hands):
            if {(trump, "K"), (trump, "Q")} <= set(hand) and (bell or draw(st.booleans())):
                data["bell"] = table.seats[seat]
    return data


def give_cards(pack: list[Card], cards: Sequence[Card], seat: int, hand_size: int) -> None:
    """Rearrange the shuffled pack so that `seat` is dealt `cards`."""
    first = seat * hand_size
    for slot, card in enumerate(cards, start=first):
        where = pack.index(card)
        pack[slot], pack[where] = pack[where], pack[slot]


@st.composite
def stacked_meld(draw, table: Table) -> list[Card]:
    """The cards of some meld of this rule set that fits in one hand."""
    ranks = pack_ranks(table.pack)
    fours = [[(suit, rank) for suit in SUITS] for rank in table.fours if table.hand >= 4]
    runs = [
        [(suit, rank) for rank in ranks[start : start + length]]
        for suit in SUITS
        for length in range(3, min(table.hand, len(ranks)) + 1)
        for start in range(len(ranks) - length + 1)
    ]
    return draw(st.sampled_from(fours + runs))


def draw_bidding(draw, table: Table, trump: str) -> dict[str, Any] | None:
    """No bidding, or how the trump came about: first round (the turned suit) or second
    (another suit in Clabber; any suit in the Klaberjass family; no trumps only there)."""
    kind = draw(st.sampled_from(["none", "first", "second"]))
    if kind == "none":
        return None
    if kind == "first" and trump != "none":
        return {"round": 1, "turned": trump}
    others = [suit for suit in SUITS if suit != trump or table.family == "klaberjass"]
    return {"round": 2, "turned": draw(st.sampled_from(others))}


@st.composite
def renege_deals(draw, slugs: Sequence[str] = ALL_SLUGS) -> dict[str, Any]:
    """A deal stopped by a renege: the dealt hands' melds and bell, one or more offenders."""
    data = draw(legal_deals(slugs))
    table = TABLES[data["ruleset"]]
    for field in ("points", "last_trick", "tricks"):
        data.pop(field, None)
    offenders = draw(st.lists(st.sampled_from(table.sides), min_size=1, unique=True))
    data["renege"] = sorted(offenders)
    return data


@st.composite
def games(draw, slugs: Sequence[str] = ALL_SLUGS, max_deals: int = 9) -> dict[str, Any]:
    """A game of one rule set: legal deals, now and then a passed one."""
    slug = draw(st.sampled_from(slugs))
    deals = draw(
        st.lists(
            st.one_of(
                legal_deals([slug]), st.builds(dict, ruleset=st.just(slug), passed=st.just(True))
            ),
            min_size=1,
            max_size=max_deals,
        )
    )
    for deal in deals:
        deal.pop("ruleset")
    return {"ruleset": slug, "deals": deals}


def rename_sides(data: Any, mapping: dict[str, str]) -> Any:
    """The same deal with the sides renamed everywhere (keys, values, player ids)."""
    if isinstance(data, dict):
        renamed = {}
        for key, value in data.items():
            new_key = mapping.get(key, key)
            if key in {"maker", "last_trick", "bell", "meld_winner"} and isinstance(value, str):
                renamed[new_key] = mapping.get(value, value)
            elif key == "player":
                renamed[new_key] = mapping[value[0]] + value[1:]
            elif key == "renege":
                renamed[new_key] = sorted(mapping[side] for side in value)
            else:
                renamed[new_key] = rename_sides(value, mapping)
        return renamed
    if isinstance(data, list):
        return [rename_sides(item, mapping) for item in data]
    return data


LOWEST_RANK = {24: "9", 32: "7"}
