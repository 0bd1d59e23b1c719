"""Hypothesis strategies for *any* JSON a client could send to the calculator.

Three kinds of input, all as JSON text: any JSON value; deal- and game-shaped objects
whose every field is either plausible or any JSON value of the wrong type; and the same
objects with one field nested as deep as the JSON parser goes. The calculator must answer
each with a result or the error body (CLI exit 0 or 2, HTTP 200 or 400), never a traceback.
"""

from __future__ import annotations

import json
import sys

from hypothesis import strategies as st

from clabber_league.rules.options import OPTION_NAMES

SLUGS = ("clabber", "clabber-3", "klaberjass", "klaberjass-3", "zensa", "bela-4")
NAMES = (
    "A",
    "B",
    "C",
    "D",
    "",
    "hearts",
    "spades",
    "none",
    "J",
    "9",
    "A",
    "7",
    "sequence",
    "four",
    "four-J",
    "run-6",
    "run-9",
    "made",
    "set",
    "renege",
    "value-length",
)
DEAL_FIELDS = (
    "ruleset",
    "options",
    "maker",
    "trump",
    "bidding",
    "points",
    "last_trick",
    "tricks",
    "melds",
    "bell",
    "renege",
    "passed",
    "pot",
    "sheet",
    "mark",
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=200),
    st.integers(),
    st.sampled_from([10**400, -(10**400), 2**63, 1000, 101, 1001]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(NAMES),
    st.text(max_size=12),
)
any_json = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(NAMES + DEAL_FIELDS) | st.text(max_size=6), inner, max_size=4
        )
    ),
    max_leaves=16,
)
sides = st.sampled_from(("A", "B", "C"))
meld = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(("sequence", "four", "four-J", "run-7", "run-3")) | any_json,
        "suit": st.sampled_from(("hearts", "spades", "clubs")) | any_json,
        "top": st.sampled_from(("A", "K", "9", "7")) | any_json,
        "rank": st.sampled_from(("J", "A", "8")) | any_json,
        "length": st.integers(min_value=0, max_value=9) | any_json,
        "player": st.sampled_from(("A1", 1, "B2")) | any_json,
    },
)
per_side = st.dictionaries(sides, st.integers(min_value=0, max_value=170) | any_json, max_size=3)
options = st.dictionaries(
    st.sampled_from(OPTION_NAMES) | st.text(max_size=6),
    st.integers(min_value=0, max_value=1200)
    | st.dictionaries(
        st.sampled_from(("A", "J", "9", "run-3", "four-J", "run-6")),
        st.integers(min_value=-1, max_value=1200) | any_json,
        max_size=4,
    )
    | any_json,
    max_size=4,
)
ruleset = (
    st.sampled_from(SLUGS)
    | st.fixed_dictionaries(
        {"base": st.sampled_from(SLUGS) | any_json}, optional={"name": any_json, "options": options}
    )
    | any_json
)
deal_fields = {
    "ruleset": ruleset,
    "options": options | any_json,
    "maker": sides | any_json,
    "trump": st.sampled_from(("hearts", "clubs", "none")) | any_json,
    "bidding": st.fixed_dictionaries(
        {
            "round": st.sampled_from((1, 2, 2.0)) | any_json,
            "turned": st.sampled_from(("hearts", "spades")),
        }
    )
    | any_json,
    "points": per_side | any_json,
    "last_trick": sides | any_json,
    "tricks": per_side | any_json,
    "melds": st.dictionaries(sides, st.lists(meld | any_json, max_size=3), max_size=3) | any_json,
    "bell": sides | any_json,
    "renege": st.lists(sides | any_json, max_size=3) | any_json,
    "passed": st.booleans() | any_json,
    "pot": st.integers(min_value=0, max_value=500) | any_json,
}
deal = st.fixed_dictionaries({}, optional=deal_fields)
sheet_row = st.fixed_dictionaries(
    {"sheet": per_side | any_json},
    optional={"maker": sides | any_json, "mark": st.sampled_from(("made", "set")) | any_json},
)
game = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": ruleset,
        "options": options | any_json,
        "deals": st.lists(deal | sheet_row | any_json, max_size=4) | any_json,
    },
)

# Deep nesting: as deep as the parser itself allows, put into one field of a deal.
PARSER_LIMIT = sys.getrecursionlimit()


@st.composite
def deeply_nested(draw: st.DrawFn, outer: st.SearchStrategy) -> str:
    depth = draw(st.integers(min_value=1, max_value=PARSER_LIMIT + 50))
    opener, closer = draw(st.sampled_from((("[", "]"), ('{"a": ', "}"))))
    leaf = json.dumps(draw(scalars))
    nested = opener * depth + leaf + closer * depth
    body = draw(outer)
    if not isinstance(body, dict):
        return nested
    field = draw(st.sampled_from((*DEAL_FIELDS, "deals")))
    text = json.dumps({**body, field: "@@"})
    return text.replace('"@@"', nested)


def as_text(strategy: st.SearchStrategy) -> st.SearchStrategy[str]:
    return strategy.map(json.dumps)


deal_texts = st.one_of(as_text(any_json), as_text(deal), deeply_nested(deal))
game_texts = st.one_of(as_text(any_json), as_text(game), deeply_nested(game))
