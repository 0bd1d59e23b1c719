"""Simulated deals: cards really dealt and played, for the demo league, tests and benchmarks.

:func:`simulate_deal` shuffles the rule set's pack, deals the hands, names a
maker and trump, plays every trick (follow suit, else trump if you can, else
anything; the highest trump or the highest card of the suit led wins) and
reports the deal in the calculator's JSON: card points per side, last trick,
tricks, melds that really are in the hands (with the player's seat) and the
bell. Every deal it makes is legal, so the engine accepts it; a small share are
passed out or reneged to give a realistic mix. Deterministic for a given
``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import NO_TRUMPS, RANKS, SUITS
from .rulesets import RuleSet, get_ruleset

Card = tuple[str, str]  # (suit, rank)


def _trick_winner(ruleset: RuleSet, trick: Sequence[tuple[int, Card]], trump: str) -> int:
    """The seat that wins a trick of ``(seat, card)`` pairs."""
    led = trick[0][1][0]
    trumps = [(seat, card) for seat, card in trick if card[0] == trump]
    if trumps:
        order = ruleset.trump_order
        return min(trumps, key=lambda sc: order.index(sc[1][1]))[0]
    order = ruleset.plain_order
    followers = [(seat, card) for seat, card in trick if card[0] == led]
    return min(followers, key=lambda sc: order.index(sc[1][1]))[0]


def _card_points(ruleset: RuleSet, card: Card, trump: str) -> int:
    table = ruleset.trump_point_table if card[0] == trump else ruleset.plain_point_table
    return table[card[1]]


def _legal(hand: list[Card], trick: list[tuple[int, Card]], trump: str) -> list[Card]:
    if not trick:
        return hand
    led = trick[0][1][0]
    follow = [c for c in hand if c[0] == led]
    if follow:
        return follow
    trumps = [c for c in hand if c[0] == trump]
    return trumps or hand


def hand_melds(
    ruleset: RuleSet, hand: Sequence[Card], seat: int, trump: str
) -> list[dict[str, Any]]:
    """The melds in one hand that can be shown together: maximal runs of three or more and
    scoring fours of a kind, the more valuable first where two would share a card."""
    ranks = ruleset.pack_ranks
    held = set(hand)
    candidates: list[tuple[int, set[Card], dict[str, Any]]] = []
    for suit in SUITS:
        run: list[str] = []
        for rank in [*ranks, None]:
            if rank is not None and (suit, rank) in held:
                run.append(rank)
                continue
            if len(run) >= 3 and ruleset.meld_value("run-3") > 0:
                longest = max(
                    n
                    for n in range(3, len(run) + 1)
                    if ruleset.meld_value(f"run-{n}") > 0 or n == 3
                )
                value = ruleset.meld_value(f"run-{min(len(run), longest)}")
                candidates.append(
                    (
                        value,
                        {(suit, r) for r in run},
                        {
                            "kind": "sequence",
                            "suit": suit,
                            "top": run[0],
                            "length": len(run),
                            "player": seat,
                        },
                    )
                )
            run = []
    for rank in ranks:
        if ruleset.meld_value(f"four-{rank}") > 0 and all((s, rank) in held for s in SUITS):
            candidates.append(
                (
                    ruleset.meld_value(f"four-{rank}"),
                    {(s, rank) for s in SUITS},
                    {"kind": "four", "rank": rank, "player": seat},
                )
            )
    used: set[Card] = set()
    melds = []
    for _, cards, meld in sorted(candidates, key=lambda c: -c[0]):
        if not cards & used:
            used |= cards
            melds.append(meld)
    return melds


def simulate_deal(
    ruleset: RuleSet | str,
    rng: random.Random,
    *,
    dealer: int = 0,
    passed_share: float = 0.04,
    renege_share: float = 0.02,
    tricks_share: float = 1.0,
    with_melds: bool = True,
) -> dict[str, Any]:
    """One legal deal of ``ruleset`` in the calculator's JSON (without ``ruleset``).

    ``tricks_share`` of the deals report the tricks each side took (the rest leave them out,
    as many score sheets do); melds always name the seat of the player who showed them.
    """
    ruleset = get_ruleset(ruleset)
    if rng.random() < passed_share:
        return {"passed": True}
    sides = ruleset.sides
    players = ruleset.players
    pack = [(suit, rank) for suit in SUITS for rank in ruleset.pack_ranks]
    rng.shuffle(pack)
    hands = [pack[i * ruleset.hand_size : (i + 1) * ruleset.hand_size] for i in range(players)]
    turned = rng.choice(SUITS)
    bidding_round = 1 if rng.random() < 0.6 else 2

    def strength(hand: Sequence[Card], suit: str) -> int:
        return sum(ruleset.trump_point_table[r] for s, r in hand if s == suit)

    if bidding_round == 1:
        trump = turned
    elif ruleset.allows_no_trumps and rng.random() < 0.15:
        trump = NO_TRUMPS
    else:
        choices = [s for s in SUITS if s != turned] if ruleset.second_round_other_suit else SUITS
        trump = max(choices, key=lambda suit: max(strength(h, suit) for h in hands))
    # The player with the strongest trumps names them, as at a real table (mostly).
    if trump == NO_TRUMPS or rng.random() < 0.2:
        maker_seat = rng.randrange(players)
    else:
        maker_seat = max(range(players), key=lambda seat: strength(hands[seat], trump))
    side_of = [sides[seat % len(sides)] for seat in range(players)]
    deal: dict[str, Any] = {
        "maker": side_of[maker_seat],
        "trump": trump,
        "bidding": {"round": bidding_round, "turned": turned},
    }
    melds: dict[str, list[dict[str, Any]]] = {}
    if with_melds:
        for seat, hand in enumerate(hands):
            found = hand_melds(ruleset, hand, seat, trump)
            if found:
                melds.setdefault(side_of[seat], []).extend(found)
    if melds:
        deal["melds"] = melds
    if trump != NO_TRUMPS:
        for seat, hand in enumerate(hands):
            if (trump, "K") in hand and (trump, "Q") in hand:
                deal["bell"] = side_of[seat]
    if rng.random() < renege_share:
        # Mostly one side; now and then every side, which makes the deal a redeal.
        deal["renege"] = [rng.choice(sides)] if rng.random() < 0.9 else list(sides)
        return deal

    points, tricks, last_winner = _play(ruleset, hands, trump, side_of, dealer, rng)
    deal["points"] = points
    if rng.random() < tricks_share:
        deal["tricks"] = tricks
    deal["last_trick"] = side_of[last_winner]
    return deal


def _play(
    ruleset: RuleSet,
    hands: list[list[Card]],
    trump: str,
    side_of: list[str],
    dealer: int,
    rng: random.Random,
) -> tuple[dict[str, int], dict[str, int], int]:
    """Play the hands out with random legal cards: each side's card points and tricks,
    and the seat that took the last trick."""
    sides = ruleset.sides
    players = ruleset.players
    points = dict.fromkeys(sides, 0)
    tricks = dict.fromkeys(sides, 0)
    leader = (dealer + 1) % players
    live = [list(h) for h in hands]
    last_winner = leader
    for _ in range(ruleset.tricks):
        trick: list[tuple[int, Card]] = []
        for offset in range(ruleset.trick_size):
            seat = (leader + offset) % players
            card = rng.choice(_legal(live[seat], trick, trump))
            live[seat].remove(card)
            trick.append((seat, card))
        winner = _trick_winner(ruleset, trick, trump)
        side = side_of[winner]
        points[side] += sum(_card_points(ruleset, card, trump) for _, card in trick)
        tricks[side] += 1
        leader = last_winner = winner
    return points, tricks, last_winner


def simulate_game(
    ruleset: RuleSet,
    rng: random.Random,
    *,
    first_dealer: int = 0,
    max_deals: int = 200,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """Deals until the score reaches the target; the dealer passes to the left."""
    from .calculator import score_game

    deals: list[dict[str, Any]] = []
    dealer = first_dealer
    base = {"ruleset": ruleset.base or ruleset.slug, "options": ruleset.to_data()["options"]}
    while len(deals) < max_deals:
        deals.append(simulate_deal(ruleset, rng, dealer=dealer, **kwargs))
        if score_game({**base, "deals": deals})["finished"]:
            break
        dealer = (dealer + 1) % ruleset.players
    return deals


__all__ = ["RANKS", "hand_melds", "simulate_deal", "simulate_game"]
