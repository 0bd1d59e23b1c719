"""Klaverjas over deals really played (KLAVERJAS.md): 32 cards dealt, every trick played
under the system's obligations (follow suit; trump and overtrump; Amsterdams frees a
player whose partner wins the trick), the roem found in each trick.

Every such deal is accepted, in every form a table writes it (points with or without the
last trick, roem as totals or per-trick claims), and scored as 7.4-7.6 say. Every change
of its points or roem is accepted exactly when some split of the 32 cards into 8 tricks
allows it: an oracle written apart from the engine (the claimed cards fixed, the other
cards given to the sides card by card) decides which changes are possible.
"""

import json
import random
import re
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clabber_league.rules import RulesError, get_ruleset, score_deal
from clabber_league.rules.cards import RANKS, SUITS
from clabber_league.rules.simulate import (
    klaverjas_deal_json,
    klaverjas_legal,
    play_klaverjas,
    trick_roem,
)
from tests.rules.json_strategies import any_json

SLUGS = ("klaverjas-rotterdams", "klaverjas-amsterdams")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRUMP = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def _played(slug, seed):
    ruleset = get_ruleset(slug)
    rng = random.Random(seed)
    play = play_klaverjas(ruleset, rng, dealer=rng.randrange(4))
    return ruleset, play, rng


def _facts(ruleset, play):
    """Each side's card points (with the last trick), tricks and roem, from the cards."""
    points, tricks, roem = {"A": 0, "B": 0}, {"A": 0, "B": 0}, {"A": 0, "B": 0}
    for trick in play["tricks"]:
        side = "AB"[trick["winner"] % 2]
        points[side] += trick["points"]
        tricks[side] += 1
        roem[side] += sum(ruleset.roem_table[c["kind"]] for c in trick["roem"])
    points["AB"[play["tricks"][-1]["winner"] % 2]] += 10
    return points, tricks, roem


# --- the play itself keeps the rules ------------------------------------------------------


@SETTINGS
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32 - 1))
def test_every_card_is_played_once_and_each_trick_follows_the_obligations(slug, seed):
    ruleset, play, _ = _played(slug, seed)
    cards = [c for t in play["tricks"] for c in t["cards"]]
    assert len(cards) == len(set(cards)) == 32
    hands = [list(h) for h in play["hands"]]
    leader = (play["dealer"] + 1) % 4
    for trick in play["tricks"]:
        so_far = []
        for offset, card in enumerate(trick["cards"]):
            seat = (leader + offset) % 4
            assert card in klaverjas_legal(ruleset, hands[seat], so_far, play["trump"], seat)
            hands[seat].remove(card)
            so_far.append((seat, card))
        leader = trick["winner"]
    assert sum(t["points"] for t in play["tricks"]) == 152


def test_a_trick_holds_the_roem_of_its_four_cards():
    ruleset = get_ruleset("klaverjas-amsterdams")
    kinds = lambda cards: [c["kind"] for c in trick_roem(ruleset, cards, "hearts")]  # noqa: E731
    assert kinds([("hearts", "K"), ("hearts", "Q"), ("hearts", "7"), ("hearts", "J")]) == [
        "run-3",
        "stuk",
    ]
    assert kinds([("clubs", "10"), ("clubs", "J"), ("clubs", "Q"), ("clubs", "K")]) == ["run-4"]
    assert kinds([(s, "J") for s in SUITS]) == ["four-J"]
    assert ruleset.roem_table["four-J"] == 200
    assert kinds([("clubs", "A"), ("clubs", "Q"), ("clubs", "J"), ("spades", "K")]) == []


def test_amsterdams_frees_a_player_whose_partner_wins_and_rotterdams_does_not():
    hand = [("clubs", "A"), ("hearts", "7")]  # trump hearts; diamonds led, none held
    trick = [(0, ("diamonds", "A")), (1, ("diamonds", "7"))]  # seat 0 (partner of 2) wins
    rotterdams = get_ruleset("klaverjas-rotterdams")
    amsterdams = get_ruleset("klaverjas-amsterdams")
    assert klaverjas_legal(rotterdams, hand, trick, "hearts", 2) == [("hearts", "7")]
    assert set(klaverjas_legal(amsterdams, hand, trick, "hearts", 2)) == set(hand)


# --- every played deal is accepted and scored as the specification says ------------------


@SETTINGS
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32 - 1))
def test_every_played_deal_is_accepted_and_scored_by_the_rules(slug, seed):
    ruleset, play, rng = _played(slug, seed)
    points, tricks, roem = _facts(ruleset, play)
    maker = play["maker"]
    other = "B" if maker == "A" else "A"
    pit = next((s for s in "AB" if tricks[s] == 8), None)
    made = points[maker] + roem[maker] > points[other] + roem[other]
    bonus = {s: 100 if s == pit else 0 for s in "AB"}
    if made:
        expected = {s: points[s] + roem[s] + bonus[s] for s in "AB"}
    else:
        expected = {maker: 0, other: 162 + roem["A"] + roem["B"] + bonus[other]}
    for claims_share in (0.0, 1.0):
        for with_last_share in (0.0, 1.0):
            deal = klaverjas_deal_json(
                ruleset,
                play,
                rng,
                claims_share=claims_share,
                with_last_share=with_last_share,
            )
            answer = score_deal({"ruleset": slug, **deal})
            assert answer["outcome"] == ("made" if made else "set")
            assert answer["score"] == expected
            assert answer["pit"] == pit
            assert answer["meld_winner"] is None
            sheet = answer["sheet"]
            assert {s: sheet["points"][s] + sheet["roem"][s] for s in "AB"} == expected


# --- an oracle for the exact test ----------------------------------------------------------


def _value(card, trump):
    suit, rank = card
    return (TRUMP if suit == trump else PLAIN)[rank]


def _combos(ruleset, trump):
    """Every set of cards one trick's roem can be, with its roem (KLAVERJAS.md 7.3)."""
    table = ruleset.roem_table
    found = []
    for suit in SUITS:
        for length in (3, 4):
            for start in range(9 - length):
                cards = frozenset((suit, r) for r in RANKS[start : start + length])
                found.append((cards, table[f"run-{length}"]))
                if suit == trump and {(suit, "K"), (suit, "Q")} <= cards:
                    found.append((cards, table[f"run-{length}"] + table["stuk"]))
    found.append((frozenset({(trump, "K"), (trump, "Q")}), table["stuk"]))
    for rank in RANKS:
        found.append((frozenset((s, rank) for s in SUITS), table[f"four-{rank}"]))
    return [(c, v) for c, v in found if v]


@lru_cache(maxsize=4096)
def _free_split(free_values, want_count, want_points):
    """Whether some ``want_count`` of ``free_values`` add up to ``want_points``, card by card."""
    reach = {(0, 0)}
    for v in free_values:
        reach |= {(n + 1, p + v) for n, p in reach if n < want_count and p + v <= want_points}
    return (want_count, want_points) in reach


def _split_exists(trump, points, tricks, fixed):
    """``fixed``: side -> card sets of its roem tricks. Points here are without the last
    trick. Some split of the pack holds them, each side its tricks and card points?"""
    used = [c for side in "AB" for cards in fixed[side] for c in cards]
    if len(used) != len(set(used)):
        return False
    if any(len(fixed[s]) > tricks[s] for s in "AB"):
        return False
    pack = [(s, r) for s in SUITS for r in RANKS]
    free = tuple(sorted(_value(c, trump) for c in pack if c not in set(used)))
    a_cards = [c for cards in fixed["A"] for c in cards]
    b_cards = [c for cards in fixed["B"] for c in cards]
    need = 4 * tricks["A"] - len(a_cards)
    rest = points["A"] - sum(_value(c, trump) for c in a_cards)
    if need < 0 or 4 * tricks["B"] - len(b_cards) < 0 or rest < 0:
        return False
    return _free_split(free, need, rest)


def _decompositions(combos, value, most):
    """Ways to make ``value`` from at most ``most`` (and at most 2) disjoint combos."""
    if value == 0:
        return [()]
    found = [(c,) for c, v in combos if v == value]
    if most >= 2:
        for (c1, v1), (c2, v2) in combinations(combos, 2):
            if v1 + v2 == value and not c1 & c2:
                found.append((c1, c2))
    return found


def _oracle(ruleset, trump, points, tricks, last, roem):
    """Totals of at most 70 per side (every way to make them uses at most two tricks)."""
    if tricks[last] == 0:
        return False
    combos = _combos(ruleset, trump)
    a_ways = _decompositions(combos, roem["A"], tricks["A"])
    b_ways = _decompositions(combos, roem["B"], tricks["B"])
    for a in a_ways:
        for b in b_ways:
            if _split_exists(trump, points, tricks, {"A": a, "B": b}):
                return True
    return False


def _accepts(data):
    try:
        score_deal(data)
    except RulesError as exc:
        assert all(
            e["field"].startswith(("roem", "points", "tricks", "last_trick")) for e in exc.errors
        ), exc.errors
        return False
    return True


SMALL_ROEM = st.sampled_from([0, 0, 20, 20, 40, 50, 70])


@SETTINGS
@given(
    slug=st.sampled_from(SLUGS),
    seed=st.integers(0, 2**32 - 1),
    roem_a=SMALL_ROEM,
    roem_b=SMALL_ROEM,
    shift=st.integers(-30, 30),
)
def test_changed_points_and_roem_are_accepted_exactly_when_the_cards_allow(
    slug, seed, roem_a, roem_b, shift
):
    ruleset, play, rng = _played(slug, seed)
    deal = klaverjas_deal_json(ruleset, play, rng, claims_share=0.0, with_last_share=0.0)
    tricks = {s: sum(1 for t in play["tricks"] if "AB"[t["winner"] % 2] == s) for s in "AB"}
    points = dict(deal["points"])
    points = {"A": points["A"] + shift, "B": points["B"] - shift}
    assume(min(points.values()) >= 0)
    assume(all(tricks[s] or not (points[s] or r) for s, r in (("A", roem_a), ("B", roem_b))))
    roem = {"A": roem_a, "B": roem_b}
    data = {
        "ruleset": slug,
        "maker": deal["maker"],
        "trump": deal["trump"],
        "points": points,
        "last_trick": deal["last_trick"],
        "tricks": tricks,
        "roem": roem,
    }
    expected = _oracle(ruleset, deal["trump"], points, tricks, deal["last_trick"], roem)
    assert _accepts(data) == expected


@SETTINGS
@given(
    slug=st.sampled_from(SLUGS),
    seed=st.integers(0, 2**32 - 1),
    rank=st.sampled_from(RANKS),
    trick=st.integers(1, 7),
    side=st.sampled_from("AB"),
)
def test_a_claimed_four_is_accepted_exactly_when_the_cards_allow(slug, seed, rank, trick, side):
    ruleset, play, rng = _played(slug, seed)
    deal = klaverjas_deal_json(ruleset, play, rng, claims_share=0.0, with_last_share=0.0)
    tricks = {s: sum(1 for t in play["tricks"] if "AB"[t["winner"] % 2] == s) for s in "AB"}
    assume(tricks[side] > 0 and not (deal["last_trick"] == side and tricks[side] == 1))
    data = {
        "ruleset": slug,
        "maker": deal["maker"],
        "trump": deal["trump"],
        "points": deal["points"],
        "last_trick": deal["last_trick"],
        "tricks": tricks,
        "roem": {side: [{"trick": trick, "kind": f"four-{rank}"}]},
    }
    four = frozenset((s, rank) for s in SUITS)
    fixed = {"A": (), "B": (), side: (four,)}
    expected = _split_exists(deal["trump"], deal["points"], tricks, fixed)
    assert _accepts(data) == expected
    if not expected:  # e.g. four Aces (44) claimed by a side with fewer card points
        with pytest.raises(RulesError) as caught:
            score_deal(data)
        assert [e["field"] for e in caught.value.errors] == ["roem"]


# --- any input is an answer or a refusal naming fields, never a crash ----------------------

_claim = st.fixed_dictionaries(
    {},
    optional={
        "trick": st.integers(-1, 9) | any_json,
        "kind": st.sampled_from(("run-3", "run-4", "run", "stuk", "four", "four-J", "run-5"))
        | any_json,
        "suit": st.sampled_from(("hearts", "clubs")) | any_json,
        "top": st.sampled_from(("A", "K", "9", "7")) | any_json,
        "rank": st.sampled_from(("J", "A", "7")) | any_json,
        "length": st.integers(0, 6) | any_json,
    },
)
_roem_side = st.integers(-20, 400) | st.lists(_claim | any_json, max_size=5) | any_json
_klaverjas_deal = st.fixed_dictionaries(
    {"ruleset": st.sampled_from(SLUGS)},
    optional={
        "options": st.dictionaries(
            st.sampled_from(
                ("roem_values", "pit_bonus", "pit_for", "renege_roem", "deals_per_game", "target")
            ),
            st.integers(-1, 300) | st.sampled_from(("any", "maker", "all", "none")) | any_json,
            max_size=2,
        ),
        "maker": st.sampled_from("AB") | any_json,
        "trump": st.sampled_from(("hearts", "clubs", "none")) | any_json,
        "points": st.dictionaries(st.sampled_from("ABC"), st.integers(0, 160) | any_json)
        | any_json,
        "points_with_last": st.dictionaries(st.sampled_from("AB"), st.integers(0, 170)),
        "last_trick": st.sampled_from("AB") | any_json,
        "tricks": st.dictionaries(st.sampled_from("AB"), st.integers(0, 9)) | any_json,
        "roem": st.dictionaries(st.sampled_from("ABC"), _roem_side, max_size=3) | any_json,
        "renege": st.lists(st.sampled_from("AB"), max_size=2) | any_json,
        "dealer": st.integers(-1, 5) | any_json,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_klaverjas_deal)
def test_any_klaverjas_input_is_scored_or_refused_by_field(data):
    try:
        answer = score_deal(data)
    except RulesError as exc:
        assert exc.errors and all(isinstance(e["field"], str) for e in exc.errors)
        # No template left unfilled: a "{name}" in a message comes from the input itself.
        given = json.dumps(data)
        assert all(
            all(hole in given for hole in re.findall(r"\{[a-z_]+\}", e["message"]))
            for e in exc.errors
        )
        return
    assert answer["outcome"] in {"made", "set", "renege", "redeal"}
    assert set(answer["score"]) == {"A", "B"}
