"""What the rules tests share: the pack as RULES.md section 1 describes it, each rule
set's table from section 2, and small helpers to build deals and to look at rejections.

Nothing here imports the engine's internals: the tests speak the JSON contract of
RULES.md section 6 only, so this module is a second, independent reading of the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from clabber_league.rules import RulesError, score_deal, score_game

# --- Section 1: cards ---------------------------------------------------------------------

SUITS = ("clubs", "diamonds", "hearts", "spades")
NATURAL_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7")  # for sequences
TRUMP_ORDER = ("J", "9", "A", "10", "K", "Q", "8", "7")  # trick-taking, high to low
PLAIN_ORDER = ("A", "10", "K", "Q", "J", "9", "8", "7")
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
LAST_TRICK = 10


def pack_ranks(pack_size: int) -> tuple[str, ...]:
    """A K Q J 10 9 for the 24-card pack, down to 7 for the 32-card pack."""
    return NATURAL_ORDER[:6] if pack_size == 24 else NATURAL_ORDER


def card_points(rank: str, suit: str, trump: str) -> int:
    return TRUMP_POINTS[rank] if suit == trump else PLAIN_POINTS[rank]


def sequence_ranks(top: str, length: int) -> tuple[str, ...]:
    start = NATURAL_ORDER.index(top)
    return NATURAL_ORDER[start : start + length]


# --- Section 2: the rule sets -------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One row of RULES.md section 2, as the tests read it."""

    slug: str
    seats: tuple[str, ...]  # the side of each seat, clockwise
    pack: int
    hand: int
    family: str  # "clabber" or "klaberjass"
    fours: tuple[str, ...]  # ranks whose four of a kind is a meld
    no_trumps: bool = False

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.seats))

    @property
    def all_played(self) -> bool:
        return self.hand * len(self.seats) == self.pack

    def players(self, side: str) -> list[str]:
        """Player ids of a side, e.g. A1 and A2 (seats are opaque ids in the contract)."""
        count = self.seats.count(side)
        return [f"{side}{n}" for n in range(1, count + 1)]

    def seat_player(self, seat: int) -> str:
        side = self.seats[seat]
        return f"{side}{self.seats[: seat + 1].count(side)}"


CLABBER_FOURS = ("J", "9", "A", "10", "K", "Q")
ZENSA_FOURS = ("J", "A", "K", "Q", "10")
TWO = ("A", "B")

TABLES: dict[str, Table] = {
    t.slug: t
    for t in (
        Table("clabber", TWO * 2, 24, 6, "clabber", CLABBER_FOURS),
        Table("clabber-3", ("A", "B", "C"), 24, 8, "clabber", CLABBER_FOURS),
        Table("clabber-2", TWO, 24, 9, "clabber", CLABBER_FOURS),
        Table("clabber-6", TWO * 3, 24, 4, "clabber", CLABBER_FOURS),
        Table("clabber-cummings", TWO * 2, 24, 6, "clabber", CLABBER_FOURS),
        Table("clabber-wadesville", TWO * 2, 24, 6, "clabber", CLABBER_FOURS),
        Table("klaberjass", TWO, 32, 9, "klaberjass", ()),
        Table("klaberjass-3", ("A", "B", "C"), 32, 10, "klaberjass", ()),
        Table("klaberjass-4", TWO * 2, 32, 8, "klaberjass", ()),
        Table("zensa", TWO, 32, 9, "klaberjass", ZENSA_FOURS),
        Table("bela-4", TWO * 2, 32, 8, "klaberjass", (), no_trumps=True),
    )
}
KLAVERJAS_SLUGS = ("klaverjas-rotterdams", "klaverjas-amsterdams")
"""Section 7's rule sets: roem per trick, no melds or bell, so not in :data:`TABLES`."""
ALL_SLUGS = tuple(TABLES)
"""The rule sets of RULES.md section 2 (melds, bell, a target)."""
BUILTIN_SLUGS = (*ALL_SLUGS, *KLAVERJAS_SLUGS)

# Section 4.2: meld values per rule set, by the kind names of section 2.1.
CLABBER_VALUES = {
    "four-J": 200, "four-9": 100, "four-A": 100, "four-10": 100, "four-K": 100,
    "four-Q": 100, "run-5": 100, "run-4": 50, "run-3": 20,
}  # fmt: skip
KLABERJASS_VALUES = {"run-3": 20, "run-4": 50}
ZENSA_VALUES = {
    "run-3": 20, "run-4": 50, "run-5": 100,
    "four-J": 200, "four-A": 100, "four-K": 100, "four-Q": 100, "four-10": 100,
}  # fmt: skip
MELD_VALUES = {
    "clabber": CLABBER_VALUES,
    "clabber-3": CLABBER_VALUES,
    "clabber-2": CLABBER_VALUES,
    "clabber-6": CLABBER_VALUES,
    "clabber-cummings": CLABBER_VALUES,
    "clabber-wadesville": {**CLABBER_VALUES, "run-6": 300},
    "klaberjass": KLABERJASS_VALUES,
    "klaberjass-3": KLABERJASS_VALUES,
    "klaberjass-4": KLABERJASS_VALUES,
    "zensa": ZENSA_VALUES,
    "bela-4": KLABERJASS_VALUES,
}


# Seed 001's Czech Darda: the Queen is the highest trump (the "jasek") and the 9 next;
# darda (three) 20, four 50, five 100, four Aces, Kings, Jacks 100, four Nines 150, four
# Queens 200 and a sure win; bela 40. The trump Queen takes the Jack's 20 points and the
# trump Jack the Queen's 3, so the pack still holds 152.
CZECH_DARDA = {
    "trump_order": ["Q", "9", "A", "10", "K", "J", "8", "7"],
    "trump_points": {"Q": 20, "9": 14, "A": 11, "10": 10, "K": 4, "J": 3, "8": 0, "7": 0},
    "meld_values": {
        "run-3": 20,
        "run-4": 50,
        "run-5": 100,
        "four-A": 100,
        "four-K": 100,
        "four-J": 100,
        "four-9": 150,
        "four-Q": 200,
    },
    "meld_compare": "value",
    "bell_value": 40,
    "winning_melds": ["four-Q"],
}

# Seed 001's Polish Derda: derda (three) 30, fuf (four) 50, bella 20.
POLISH_DERDA = {"meld_values": {"run-3": 30, "run-4": 50}}


def meld_value(slug: str, meld: Mapping[str, Any]) -> int:
    """Points of one declared meld: a longer run counts as the longest kind with a value."""
    values = MELD_VALUES[slug]
    if meld["kind"] == "four":
        return values[f"four-{meld['rank']}"]
    for length in range(meld["length"], 2, -1):
        if f"run-{length}" in values:
            return values[f"run-{length}"]
    raise AssertionError(f"no value for {meld}")


# The deal of RULES.md section 6, as published there.
SECTION_6_DEAL = {
    "ruleset": "clabber",
    "options": {"target": 500},
    "maker": "A",
    "trump": "hearts",
    "bidding": {"round": 2, "turned": "spades"},
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
    "tricks": {"A": 4, "B": 2},
    "melds": {
        "A": [{"kind": "sequence", "suit": "spades", "top": "A", "length": 3}],
        "B": [{"kind": "four", "rank": "J"}],
    },
    "bell": "A",
    "renege": [],
    "passed": False,
}


# --- Building deals -----------------------------------------------------------------------


def seq(suit: str, top: str, length: int, player: str | None = None) -> dict[str, Any]:
    """A sequence meld as section 6 writes it."""
    meld: dict[str, Any] = {"kind": "sequence", "suit": suit, "top": top, "length": length}
    if player is not None:
        meld["player"] = player
    return meld


def four(rank: str, player: str | None = None) -> dict[str, Any]:
    """A four of a kind meld as section 6 writes it."""
    meld: dict[str, Any] = {"kind": "four", "rank": rank}
    if player is not None:
        meld["player"] = player
    return meld


def deal(ruleset: str = "clabber", **fields: Any) -> dict[str, Any]:
    """A deal in the JSON of section 6: maker A, hearts trump unless told otherwise.

    A field given as None is left out of the deal altogether.
    """
    data: dict[str, Any] = {"ruleset": ruleset, "maker": "A", "trump": "hearts"}
    data.update(fields)
    return {key: value for key, value in data.items() if value is not None}


def played(ruleset: str = "clabber", **fields: Any) -> dict[str, Any]:
    """A played-out deal (A 90 and B 62 card points, last trick to A, unless told
    otherwise) that is fine apart from what the test changes."""
    fields.setdefault("points", {"A": 90, "B": 62})
    fields.setdefault("last_trick", "A")
    return deal(ruleset, **fields)


def shown_cards(
    melds: Mapping[str, Iterable[Mapping[str, Any]]] | None, bell: str | None, trump: str
) -> set[tuple[str, str]]:
    """The cards (suit, rank) shown in the melds (as section 6 writes them) and the bell."""
    cards: set[tuple[str, str]] = set()
    for side_melds in (melds or {}).values():
        for meld in side_melds:
            if meld["kind"] == "four":
                cards |= {(suit, meld["rank"]) for suit in SUITS}
            else:
                cards |= {(meld["suit"], r) for r in sequence_ranks(meld["top"], meld["length"])}
    if bell is not None and trump != "none":
        cards |= {(trump, "K"), (trump, "Q")}
    return cards


def dealt_points(
    slug: str,
    melds: Mapping[str, Iterable[Mapping[str, Any]]] | None,
    *,
    trump: str = "hearts",
    bell: str | None = None,
) -> dict[str, int]:
    """Card points of a real deal of the cards in a two-sided rule set (default card values):
    the cards shown in melds and the bell are played, the cheapest other cards make up the
    rest of the played cards, and side A takes the tricks of the dearest played cards, one
    more trick than B (RULES.md section 5: where not every card is played, the points must
    come from played cards holding every card shown)."""
    table = TABLES[slug]
    tricks = table.hand  # every player plays one card to each trick
    trick_size = len(table.seats)
    played_count = tricks * trick_size
    shown = shown_cards(melds, bell, trump)
    others = sorted(
        ((s, r) for s in SUITS for r in pack_ranks(table.pack) if (s, r) not in shown),
        key=lambda card: card_points(card[1], card[0], trump),
    )
    played_cards = [*shown, *others[: played_count - len(shown)]]
    values = sorted((card_points(r, s, trump) for s, r in played_cards), reverse=True)
    a_cards = (tricks // 2 + 1) * trick_size
    return {"A": sum(values[:a_cards]), "B": sum(values[a_cards:])}


def errors_of(call, data: Mapping[str, Any]) -> list[dict[str, str]]:
    """The errors a rejected input carries; fails the test if the input was accepted."""
    try:
        answer = call(data)
    except RulesError as error:
        assert error.errors, "a RulesError must carry at least one error"
        for item in error.errors:
            assert set(item) >= {"field", "message"}, item
            assert isinstance(item["message"], str) and item["message"].strip(), item
        return list(error.errors)
    raise AssertionError(f"expected a rejection, got {answer!r}")


def assert_rejected(
    data: Mapping[str, Any],
    field: str | Iterable[str],
    *,
    mentions: Iterable[str] = (),
    call=score_deal,
) -> list[dict[str, str]]:
    """Assert the input is rejected with an error on `field` (or on one of several fields
    where RULES.md leaves open which of two fields is at fault).

    `mentions`: words of which at least one must occur in that error's message
    (case-insensitive), so that the message names what is wrong.
    """
    wanted = {field} if isinstance(field, str) else set(field)
    errors = errors_of(call, data)
    hits = [item for item in errors if item["field"] in wanted]
    assert hits, f"no error on {sorted(wanted)}: {errors}"
    words = [word.lower() for word in mentions]
    if words:
        assert any(word in item["message"].lower() for item in hits for word in words), (
            f"message does not mention any of {words}: {hits}"
        )
    return errors


def assert_rejected_under(
    data: Mapping[str, Any], *prefixes: str, call=score_deal
) -> list[dict[str, str]]:
    """Assert an error on one of `prefixes` or on a field inside it (`melds.A` covers
    `melds.A[1]` and `melds.A[1].top`). Several prefixes: where RULES.md leaves open which
    of two fields is at fault (card points that contradict the tricks, say)."""
    errors = errors_of(call, data)
    hits = [
        item
        for item in errors
        for prefix in prefixes
        if item["field"] == prefix or item["field"].startswith((prefix + ".", prefix + "["))
    ]
    assert hits, f"no error on {' or '.join(prefixes)} or inside it: {errors}"
    return errors


def game(ruleset: str, deals: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    """Score a whole game; the deals carry no ruleset of their own."""
    body: dict[str, Any] = {"ruleset": ruleset, "deals": deals}
    if options:
        body["options"] = options
    return score_game(body)


def game_deal(**fields: Any) -> dict[str, Any]:
    """A deal inside a game: like `deal` but without its own ruleset."""
    data = deal(**fields)
    del data["ruleset"]
    return data


def answer_part(answer: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {key: answer[key] for key in keys}
