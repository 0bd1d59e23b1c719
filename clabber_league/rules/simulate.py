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

from .cards import LAST_TRICK_BONUS, NO_TRUMPS, RANKS, SUITS
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
    if ruleset.is_klaverjas:
        return _simulate_klaverjas(ruleset, rng, dealer % 4, renege_share, min(tricks_share, 0.5))
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


# ----------------------------------------------------------------------------
# Klaverjas (KLAVERJAS.md): the cards played under each system's obligations


def _beats(ruleset: RuleSet, card: Card, best: Card, led: str, trump: str) -> bool:
    """Whether ``card`` beats ``best``, the card winning the trick so far."""
    if card[0] == trump:
        if best[0] != trump:
            return True
        return ruleset.trump_order.index(card[1]) < ruleset.trump_order.index(best[1])
    if best[0] == trump or card[0] != led:
        return False
    return ruleset.plain_order.index(card[1]) < ruleset.plain_order.index(best[1])


def klaverjas_legal(
    ruleset: RuleSet,
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    trump: str,
    seat: int,
) -> list[Card]:
    """The cards ``seat`` may play to ``trick`` (KLAVERJAS.md 7.2): follow suit; trumps led,
    overtrump if you can; unable to follow, trump, overtrumping a trump already played if
    you can and undertrumping only with nothing else. Amsterdams (``maker_left_of_dealer``
    rule set) frees a player whose partner wins the trick from trumping; Rotterdams does
    not."""
    if not trick:
        return list(hand)
    led = trick[0][1][0]
    winner_seat, best = trick[0]
    for s, card in trick[1:]:
        if _beats(ruleset, card, best, led, trump):
            winner_seat, best = s, card
    follow = [c for c in hand if c[0] == led]
    trumps = [c for c in hand if c[0] == trump]
    if led == trump:
        if not follow:
            return list(hand)
        higher = [c for c in follow if _beats(ruleset, c, best, led, trump)]
        return higher or follow
    if follow:
        return follow
    partner_wins = winner_seat % 2 == seat % 2
    if ruleset.maker_left_of_dealer and partner_wins:
        return list(hand)
    if not trumps:
        return list(hand)
    if best[0] == trump:
        higher = [c for c in trumps if _beats(ruleset, c, best, led, trump)]
        if higher:
            return higher
        others = [c for c in hand if c[0] != trump]
        return others or trumps
    return trumps


def trick_roem(ruleset: RuleSet, cards: Sequence[Card], trump: str) -> list[dict[str, Any]]:
    """The roem that lies in one trick's four cards, as claims without the trick number:
    a run of 3 or 4 (natural order), stuk (trump King and Queen), four of a rank; only
    kinds with a value in the rule set (KLAVERJAS.md 7.3)."""
    values = ruleset.roem_table
    found: list[dict[str, Any]] = []
    ranks = {r for _, r in cards}
    if len(ranks) == 1:
        rank = next(iter(ranks))
        if values.get(f"four-{rank}", 0):
            found.append({"kind": f"four-{rank}"})
        return found
    for suit in SUITS:
        held = sorted(RANKS.index(r) for s, r in cards if s == suit)
        best: tuple[int, int] | None = None  # start, length
        for start in held:
            length = 1
            while start + length in held:
                length += 1
            if length >= 3 and (best is None or length > best[1]):
                best = (start, length)
        if best is not None and values.get(f"run-{best[1]}", 0):
            found.append({"kind": f"run-{best[1]}", "suit": suit, "top": RANKS[best[0]]})
    if (trump, "K") in cards and (trump, "Q") in cards and values.get("stuk", 0):
        found.append({"kind": "stuk"})
    return found


def play_klaverjas(
    ruleset: RuleSet | str, rng: random.Random, *, dealer: int = 0
) -> dict[str, Any]:
    """Deal 32 cards and play a klaverjas deal out: the maker (forced left of the dealer in
    Amsterdams, otherwise the table's strongest trump holder), trump, and each trick's
    cards, winner seat and roem. Seats 0 and 2 are side A, 1 and 3 side B."""
    ruleset = get_ruleset(ruleset)
    pack = [(suit, rank) for suit in SUITS for rank in ruleset.pack_ranks]
    rng.shuffle(pack)
    hands = [pack[i * 8 : (i + 1) * 8] for i in range(4)]

    def strength(hand: Sequence[Card], suit: str) -> int:
        return sum(ruleset.trump_point_table[r] + 5 for s, r in hand if s == suit)

    if ruleset.maker_left_of_dealer:
        maker_seat = (dealer + 1) % 4
    elif rng.random() < 0.8:
        maker_seat = max(range(4), key=lambda seat: max(strength(hands[seat], s) for s in SUITS))
    else:
        maker_seat = rng.randrange(4)
    if rng.random() < 0.85:
        trump = max(SUITS, key=lambda s: strength(hands[maker_seat], s))
    else:
        trump = rng.choice(SUITS)
    live = [list(h) for h in hands]
    leader = (dealer + 1) % 4
    tricks: list[dict[str, Any]] = []
    for _ in range(8):
        trick: list[tuple[int, Card]] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            card = rng.choice(klaverjas_legal(ruleset, live[seat], trick, trump, seat))
            live[seat].remove(card)
            trick.append((seat, card))
        winner = _trick_winner(ruleset, trick, trump)
        cards = [c for _, c in trick]
        tricks.append(
            {
                "cards": cards,
                "winner": winner,
                "points": sum(_card_points(ruleset, c, trump) for c in cards),
                "roem": trick_roem(ruleset, cards, trump),
            }
        )
        leader = winner
    return {
        "hands": hands,
        "dealer": dealer,
        "maker": ruleset.sides[maker_seat % 2],
        "trump": trump,
        "tricks": tricks,
    }


def klaverjas_deal_json(
    ruleset: RuleSet,
    play: dict[str, Any],
    rng: random.Random,
    *,
    claims_share: float = 0.5,
    with_last_share: float = 0.3,
    tricks_share: float = 0.5,
    dealer_share: float = 0.5,
) -> dict[str, Any]:
    """A played klaverjas deal as a table enters it: points (or points_with_last), last
    trick, tricks (always when one side has every card point), roem as totals or as
    claims per trick, and sometimes the dealer."""
    sides = ruleset.sides
    points = dict.fromkeys(sides, 0)
    tricks = dict.fromkeys(sides, 0)
    claims: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
    roem = dict.fromkeys(sides, 0)
    values = ruleset.roem_table
    for n, trick in enumerate(play["tricks"], start=1):
        side = sides[trick["winner"] % 2]
        points[side] += trick["points"]
        tricks[side] += 1
        for claim in trick["roem"]:
            claims[side].append({"trick": n, **claim})
            roem[side] += values[claim["kind"]]
    last = sides[play["tricks"][-1]["winner"] % 2]
    deal: dict[str, Any] = {"maker": play["maker"], "trump": play["trump"]}
    if rng.random() < with_last_share:
        deal["points_with_last"] = {
            s: points[s] + (LAST_TRICK_BONUS if s == last else 0) for s in sides
        }
    else:
        deal["points"] = points
    deal["last_trick"] = last
    if rng.random() < tricks_share or max(points.values()) == ruleset.card_points_total():
        deal["tricks"] = tricks
    if any(roem.values()):
        if rng.random() < claims_share:
            deal["roem"] = {s: claims[s] for s in sides if claims[s]}
        else:
            deal["roem"] = {s: roem[s] for s in sides}
    if rng.random() < dealer_share:
        deal["dealer"] = play["dealer"]
    return deal


def _simulate_klaverjas(
    ruleset: RuleSet, rng: random.Random, dealer: int, renege_share: float, tricks_share: float
) -> dict[str, Any]:
    play = play_klaverjas(ruleset, rng, dealer=dealer)
    deal = klaverjas_deal_json(ruleset, play, rng, tricks_share=tricks_share)
    if rng.random() < renege_share:
        offenders = [rng.choice(ruleset.sides)] if rng.random() < 0.9 else list(ruleset.sides)
        deal = {"maker": deal["maker"], "trump": deal["trump"], "renege": offenders}
    return deal


__all__ = [
    "RANKS",
    "hand_melds",
    "klaverjas_deal_json",
    "klaverjas_legal",
    "play_klaverjas",
    "simulate_deal",
    "simulate_game",
    "trick_roem",
]
