"""Random legal deals, for property tests and the benchmark.

A deal is made the way a table makes one: shuffle the rule set's pack, deal
every player a hand, choose trump and maker, play one card of each hand per
trick (the trick going to a random side), declare the melds each hand holds
and the bell.  So every deal produced is legal by construction, with card
points spread as in real play; a few are passed out or stopped by a renege.
The JSON is that of RULES.md section 6.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import NO_TRUMPS, SUITS
from .melds import run_kind
from .rulesets import RuleSet, get_ruleset


def _hand_melds(ruleset: RuleSet, hand: list[tuple[str, str]], player: str | None
                ) -> list[dict[str, Any]]:
    """The melds a hand shows: valued fours first, then the longest runs, no card twice."""
    cards = set(hand)
    melds: list[dict[str, Any]] = []
    for rank in ruleset.pack_ranks:
        if ruleset.meld_value(f"four-{rank}") and all((s, rank) in cards for s in SUITS):
            cards -= {(s, rank) for s in SUITS}
            melds.append({"kind": "four", "rank": rank})
    for suit in SUITS:
        run: list[str] = []
        for rank in (*ruleset.pack_ranks, None):
            if rank is not None and (suit, rank) in cards:
                run.append(rank)
                continue
            if len(run) >= 3 and run_kind(ruleset, len(run)):
                melds.append({"kind": "sequence", "suit": suit, "top": run[0],
                              "length": len(run)})
            run = []
    if player is not None:
        for meld in melds:
            meld["player"] = player
    return melds


def random_deal(ruleset: RuleSet | str, rng: random.Random, *, passed: float = 0.04,
                renege: float = 0.02, tricks: float = 0.5, players: float = 0.3
                ) -> dict[str, Any]:
    """One legal deal's JSON; the fractions set how often each optional part appears."""
    rules = get_ruleset(ruleset)
    slug = rules.slug
    if rng.random() < passed:
        return {"ruleset": slug, "passed": True}
    sides = rules.sides
    seats = [sides[i % len(sides)] for i in range(rules.players)]
    pack = [(s, r) for s in SUITS for r in rules.pack_ranks]
    rng.shuffle(pack)
    hands = [pack[i * rules.hand_size:(i + 1) * rules.hand_size] for i in range(rules.players)]

    trump = rng.choice(SUITS)
    turned = trump
    rnd = 1
    if rules.allows_no_trumps and rng.random() < 0.1:
        trump, rnd = NO_TRUMPS, 2
    elif rng.random() < 0.4:
        rnd = 2
        others = [s for s in SUITS if s != trump] if rules.second_round_other_suit else SUITS
        turned = rng.choice(others)
    maker = rng.choice(sides)

    def value(card: tuple[str, str]) -> int:
        if card[0] == trump:
            return rules.trump_point_table[card[1]]
        return rules.plain_point_table[card[1]]

    points = dict.fromkeys(sides, 0)
    won = dict.fromkeys(sides, 0)
    favourite = maker if rng.random() < 0.6 else rng.choice(sides)
    last = sides[0]
    for t in range(rules.tricks):
        last = favourite if rng.random() < 0.5 else rng.choice(sides)
        won[last] += 1
        points[last] += sum(value(hand[t]) for hand in hands)

    melds: dict[str, list[dict[str, Any]]] = {}
    bell = None
    named = rng.random() < players
    for seat, hand in enumerate(hands):
        side = seats[seat]
        player = f"{side}{seats[: seat + 1].count(side)}" if named else None
        found = _hand_melds(rules, hand, player)
        if found:
            melds.setdefault(side, []).extend(found)
        if trump != NO_TRUMPS and (trump, "K") in hand and (trump, "Q") in hand:
            bell = side

    deal: dict[str, Any] = {
        "ruleset": slug, "maker": maker, "trump": trump,
        "bidding": {"round": rnd, "turned": turned},
        "points": points, "last_trick": last,
    }
    if melds:
        deal["melds"] = melds
    if bell is not None:
        deal["bell"] = bell
    if rng.random() < tricks:
        deal["tricks"] = won
    if rng.random() < renege:
        deal["renege"] = rng.sample(list(sides), 1 if rng.random() < 0.9 else len(sides))
    return deal


__all__ = ["random_deal"]
