"""The exact roem test's cheap first check against its full search (KLAVERJAS.md 7.9).

``klaverjas.exact_possible`` first tries a few ready placements of the roem
(``split_found_directly``) and searches (``split_searched``) only when none fits. The
answer must stay exact: the first check never accepts what the search refuses, and the
combined answer is the search's answer, on claims and totals taken from deals really
played and then changed (other points, tricks, roem, sides, runs without their suit),
legal and illegal alike.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clabber_league.rules import get_ruleset, klaverjas
from clabber_league.rules.cards import SUITS, card_bit, four_mask, sequence_mask
from clabber_league.rules.simulate import play_klaverjas

SLUGS = ("klaverjas-rotterdams", "klaverjas-amsterdams")


def _candidates(claims, trump):
    """The card masks one trick's claims may be (as a table writes them, a run may leave
    out its suit: then it may lie in any suit)."""
    stuk = card_bit(trump, "K") | card_bit(trump, "Q")
    runs = [c for c in claims if c["kind"].startswith("run")]
    fours = [c for c in claims if c["kind"].startswith("four")]
    if fours:
        return ((four_mask(fours[0]["kind"][5:]), 0),)
    if not runs:
        return ((stuk, 0),)
    run = runs[0]
    length = int(run["kind"][4])
    suits = [run["suit"]] if run.get("suit") else SUITS
    masks = [sequence_mask(s, run["top"], length) for s in suits]
    if len(claims) > 1:  # a run with stuk holds the trump King and Queen
        masks = [m for m in masks if m & stuk == stuk]
    return tuple((m, 0) for m in masks)


def _question(slug, seed, changes):
    """The exact test's arguments for a played deal with ``changes`` applied."""
    ruleset = get_ruleset(slug)
    rng = random.Random(seed)
    play = play_klaverjas(ruleset, rng, dealer=rng.randrange(4))
    trump = play["trump"]
    points, tricks = [0, 0], [0, 0]
    claimed: dict[int, tuple[int, list[dict]]] = {}
    roem = [0, 0]
    for n, trick in enumerate(play["tricks"], start=1):
        side = trick["winner"] % 2
        points[side] += trick["points"]
        tricks[side] += 1
        if trick["roem"]:
            claimed[n] = (side, [dict(c) for c in trick["roem"]])
            roem[side] += sum(ruleset.roem_table[c["kind"]] for c in trick["roem"])
    last = play["tricks"][-1]["winner"] % 2
    shift = changes["shift"]
    points = (points[0] + shift, points[1] - shift)
    if min(points) < 0:
        points = (points[0] - shift, points[1] + shift)
    if changes["move_trick"] and tricks[0] and tricks[1]:  # each side keeps a trick
        tricks[0] = min(7, max(1, tricks[0] + changes["move_trick"]))
        tricks[1] = 8 - tricks[0]
    given_tricks = tuple(tricks) if changes["tricks_given"] else None
    if changes["as_totals"]:
        totals = tuple(max(0, r + d) for r, d in zip(roem, changes["roem_change"], strict=True))
        return ruleset, trump, points, given_tricks, last, totals, (), 0
    slots = []
    for n in sorted(claimed):
        side, claims = claimed[n]
        if changes["other_side"] == n:
            side = 1 - side
        if changes["drop_suit"]:
            for c in claims:
                c.pop("suit", None)
        slots.append((side, _candidates(claims, trump), n))
    slots.sort(key=lambda s: (s[0], s[2]))
    sides_claiming = {s for s, _, _ in slots}
    totals = tuple(None if s in sides_claiming else 0 for s in (0, 1))
    last_extra = 1 if last in sides_claiming and 8 not in claimed else 0
    return (
        ruleset,
        trump,
        points,
        given_tricks,
        last,
        totals,
        tuple((s, c) for s, c, _ in slots),
        last_extra,
    )


CHANGES = st.fixed_dictionaries(
    {
        "shift": st.sampled_from((0, 0, 0, 2, -3, 10, -11, 20, -20, 35)),
        "move_trick": st.sampled_from((0, 0, 1, -1, 2, -3, 7, -7)),
        "tricks_given": st.booleans(),
        "as_totals": st.booleans(),
        "roem_change": st.tuples(
            st.sampled_from((0, 0, 20, -20, 50, 100, 30, 120)),
            st.sampled_from((0, 0, 20, -20, 40, 70, 140, 200)),
        ),
        "other_side": st.integers(0, 8),
        "drop_suit": st.booleans(),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=st.sampled_from(SLUGS), seed=st.integers(0, 2**32 - 1), changes=CHANGES)
def test_the_first_check_never_accepts_what_the_search_refuses(slug, seed, changes):
    question = _question(slug, seed, changes)
    klaverjas.forget_answers()
    searched = klaverjas.split_searched(*question)
    if klaverjas.split_found_directly(*question):
        assert searched
    klaverjas.forget_answers()
    assert klaverjas.exact_possible(*question) == searched


ROEM_TOTALS = st.sampled_from((0, 0, 20, 40, 50, 60, 70, 90, 100, 120, 140, 200))
CLAIM = st.one_of(
    st.tuples(
        st.sampled_from(("run-3", "run-4")),
        st.sampled_from((None, *SUITS)),
        st.sampled_from(("A", "K", "Q", "J", "10")),
    ),
    st.tuples(st.just("stuk"), st.none(), st.none()),
    st.tuples(st.just("four"), st.none(), st.sampled_from(("A", "J", "9", "7", "K"))),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(SLUGS),
    trump=st.sampled_from(SUITS),
    points_a=st.integers(0, 152),
    tricks_a=st.none() | st.integers(0, 8),
    last=st.integers(0, 1),
    totals=st.tuples(ROEM_TOTALS, ROEM_TOTALS),
    claims=st.lists(st.tuples(st.integers(0, 1), CLAIM), max_size=3),
)
def test_on_random_questions_the_first_check_never_accepts_what_the_search_refuses(
    slug, trump, points_a, tricks_a, last, totals, claims
):
    ruleset = get_ruleset(slug)
    slots = []
    for side, (kind, suit, rank) in sorted(claims, key=lambda c: c[0]):
        if kind == "four":
            claim = [{"kind": f"four-{rank}"}]
        elif kind == "stuk":
            claim = [{"kind": "stuk"}]
        else:
            claim = [{"kind": kind, "suit": suit, "top": rank}]
        slots.append((side, _candidates(claim, trump)))
    claiming = {side for side, _ in slots}
    question = (
        ruleset,
        trump,
        (points_a, 152 - points_a),
        None if tricks_a is None else (tricks_a, 8 - tricks_a),
        last,
        tuple(None if s in claiming else totals[s] for s in (0, 1)),
        tuple(slots),
        1 if last in claiming else 0,
    )
    klaverjas.forget_answers()
    searched = klaverjas.split_searched(*question)
    if klaverjas.split_found_directly(*question):
        assert searched
    klaverjas.forget_answers()
    assert klaverjas.exact_possible(*question) == searched


def test_the_first_check_decides_most_played_deals_and_the_search_the_rest():
    """Over deals played and then changed, the first check accepts most legal questions
    (each also accepted by the search) and the search still refuses the illegal ones."""
    rng = random.Random(36)
    direct = searched_only = refused = 0
    for i in range(600):
        changes = {
            "shift": rng.choice((0, 0, 0, 10, -20)),
            "move_trick": rng.choice((0, 0, 0, 1, -7, 7)),
            "tricks_given": rng.random() < 0.5,
            "as_totals": i % 2 == 0,
            "roem_change": (rng.choice((0, 0, 0, 20, 30, 40)), rng.choice((0, 0, 0, 50, 120))),
            "other_side": rng.randrange(12),
            "drop_suit": rng.random() < 0.3,
        }
        question = _question(SLUGS[i % 2], rng.randrange(2**32), changes)
        searched = klaverjas.split_searched(*question)
        quick = klaverjas.split_found_directly(*question)
        assert searched or not quick
        assert klaverjas.exact_possible(*question) == searched
        direct += quick
        searched_only += searched and not quick
        refused += not searched
    assert direct > 4 * searched_only
    assert refused > 0
