"""Rule sets: the eleven built-in games and clubs' house rules, as data.

Like python-chess's variants, every rule set is one frozen
:class:`RuleSet` registered under its slug, and everything that differs
between games is *data* on it: players and sides, pack and hand, tricks per
deal, the meld table, the maker test's family, and the options of RULES.md
section 2.1.  A club's house rules are ``{"name": .., "base": <slug>,
"options": {..}}``: the base rule set with options applied, no new code.

Seed 001's regional games need options only (see :data:`HOUSE_RULE_EXAMPLES`)::

    >>> darda = get_ruleset(HOUSE_RULE_EXAMPLES["darda"])
    >>> darda.meld_value("four-Q"), darda.bell_value, darda.trump_order[0]
    (200, 40, 'Q')
    >>> get_ruleset(HOUSE_RULE_EXAMPLES["derda"]).meld_value("run-3")
    30

An unknown slug, base or option is a :class:`RulesError` naming the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any, Final

from .cards import (
    DEFAULT_PLAIN_ORDER,
    DEFAULT_PLAIN_POINTS,
    DEFAULT_TRUMP_ORDER,
    DEFAULT_TRUMP_POINTS,
    LAST_TRICK_BONUS,
    PACK_RANKS,
    pack_values,
)
from .errors import RulesBug, RulesError, gettext_noop, msg, shown
from .feasibility import PackShape, Table, feasibility_table
from .options import OPTION_DOCS, OPTION_NOT_OBJECT, options_key, parse_options

RULESET_NAME_MAX: Final = 100
"""Characters in a house-rules name."""
RULESET_UNKNOWN: Final = gettext_noop("Unknown rule set {name}; the rule sets are: {known}.")
RULESET_SPEC_INVALID: Final = (
    'A rule set is a slug such as "clabber" or house rules '
    '{{"name": .., "base": <slug>, "options": {{..}}}} (a name of at most '
    f"{RULESET_NAME_MAX} characters), not {{value}}."
)


class Family(StrEnum):
    """Which maker test applies (RULES.md 3.1)."""

    CLABBER = "clabber"
    KLABERJASS = "klaberjass"
    KLAVERJAS = "klaverjas"
    """Dutch klaverjas (RULES.md section 7, KLAVERJAS.md): roem per trick, nat, pit."""


class DealerRotation(StrEnum):
    """Who deals next after a scored deal (RULES.md 3.2)."""

    LEFT = "left"
    WINNER = "winner"


@dataclass(frozen=True)
class RuleSet:
    """One game's rules.  Mostly data; derived facts are cached properties."""

    slug: str
    title: str
    family: Family
    players: int
    sides: tuple[str, ...]
    pack: int
    hand_size: int
    tricks: int
    description: str = ""
    base: str = ""
    allows_no_trumps: bool = False
    dealer_rotation: DealerRotation = DealerRotation.LEFT
    # RULES.md 2.1 options
    target: int | None = 500
    """None: no target (a klaverjas game is a fixed number of deals)."""
    tie_at_target: str = "tie"
    tie_hangs: bool = False
    no_trick_no_meld: bool = False
    renege_penalty: int | None = None
    passout_redeal: bool = False
    second_round_other_suit: bool = False
    meld_values: tuple[tuple[str, int], ...] = ()
    meld_order: tuple[str, ...] = ()
    meld_compare: str = "order"
    bell_value: int = 20
    trump_order: tuple[str, ...] = DEFAULT_TRUMP_ORDER
    trump_points: tuple[tuple[str, int], ...] = tuple(DEFAULT_TRUMP_POINTS.items())
    plain_points: tuple[tuple[str, int], ...] = tuple(DEFAULT_PLAIN_POINTS.items())
    winning_melds: tuple[str, ...] = ()
    # KLAVERJAS.md section 7 options (klaverjas rule sets only)
    roem_values: tuple[tuple[str, int], ...] = ()
    pit_bonus: int = 100
    pit_for: str = "any"
    renege_bonus: int = 0
    renege_roem: str = "all"
    maker_left_of_dealer: bool = False
    deals_per_game: int | None = None
    """A game is this many deals (klaverjas: 16); None: played to the target."""
    house_options: str = field(default="", repr=False)
    """The options applied to ``base``, canonical JSON; empty for a built-in."""

    # ----- derived facts -------------------------------------------------
    @cached_property
    def pack_ranks(self) -> tuple[str, ...]:
        return PACK_RANKS[self.pack]

    @cached_property
    def plain_order(self) -> tuple[str, ...]:
        return tuple(r for r in DEFAULT_PLAIN_ORDER if r in self.pack_ranks)

    @property
    def trick_size(self) -> int:
        """Cards in one trick: one from each player."""
        return self.players

    @cached_property
    def players_per_side(self) -> int:
        return self.players // len(self.sides)

    @cached_property
    def cards_played(self) -> int:
        return self.tricks * self.trick_size

    @cached_property
    def all_cards_played(self) -> bool:
        return self.cards_played == self.pack

    @cached_property
    def side_index(self) -> Mapping[str, int]:
        return MappingProxyType({s: i for i, s in enumerate(self.sides)})

    @cached_property
    def meld_table(self) -> Mapping[str, int]:
        """Valued meld kinds -> points, best first (``meld_order``)."""
        return MappingProxyType(dict(self.meld_values))

    def meld_value(self, kind: str) -> int:
        """Points of a meld kind; 0 where the kind is no meld in this rule set."""
        return self.meld_table.get(kind, 0)

    @cached_property
    def meld_rank(self) -> Mapping[str, int]:
        """Position of each valued kind in ``meld_order`` (0 is best)."""
        return MappingProxyType({k: i for i, k in enumerate(self.meld_order)})

    @cached_property
    def roem_table(self) -> Mapping[str, int]:
        """Roem kind -> value (klaverjas, KLAVERJAS.md 7.3); a kind at 0 is no roem."""
        return MappingProxyType(dict(self.roem_values))

    @property
    def is_klaverjas(self) -> bool:
        return self.family is Family.KLAVERJAS

    @cached_property
    def trump_rank(self) -> Mapping[str, int]:
        """Position of each rank in ``trump_order`` (0 is the highest trump)."""
        return MappingProxyType({r: i for i, r in enumerate(self.trump_order)})

    @cached_property
    def trump_point_table(self) -> Mapping[str, int]:
        return MappingProxyType(dict(self.trump_points))

    @cached_property
    def plain_point_table(self) -> Mapping[str, int]:
        return MappingProxyType(dict(self.plain_points))

    def card_points_total(self, no_trumps: bool = False) -> int:
        """Card points in the whole pack: 152 with a trump suit, 120 at no trumps."""
        return self._card_points_totals[bool(no_trumps)]

    @cached_property
    def _card_points_totals(self) -> tuple[int, int]:
        return sum(self._pack_values[0]), sum(self._pack_values[1])

    def pack_card_values(self, no_trumps: bool = False) -> tuple[int, ...]:
        return self._pack_values[bool(no_trumps)]

    @cached_property
    def _pack_values(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (
            pack_values(
                self.pack_ranks, self.trump_point_table, self.plain_point_table, no_trumps=False
            ),
            pack_values(
                self.pack_ranks, self.trump_point_table, self.plain_point_table, no_trumps=True
            ),
        )

    def feasibility(self, no_trumps: bool = False) -> Table:
        """The card-point feasibility table of this pack (shared by equal shapes)."""
        return self._feasibility[bool(no_trumps)]

    @cached_property
    def _feasibility(self) -> tuple[Table, Table]:
        def table(no_trumps: bool) -> Table:
            return feasibility_table(
                PackShape(
                    self.pack_card_values(no_trumps), self.trick_size, self.tricks, len(self.sides)
                )
            )

        return table(False), table(True)

    def max_card_points(self, no_trumps: bool = False) -> int:
        """The most card points the played cards can hold (146 in ``klaberjass``)."""
        return sum(self.pack_card_values(no_trumps)[: self.cards_played])

    def renege_points(self, no_trumps: bool = False) -> int:
        """What a non-offending side scores for a renege, besides its melds and bell."""
        if self.renege_penalty is not None:
            return self.renege_penalty
        return self.card_points_total(no_trumps) + LAST_TRICK_BONUS

    # ----- data round trip -------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        """House-rules data ``{"name", "base", "options"}``, JSON-serialisable."""
        options = json.loads(self.house_options) if self.house_options else {}
        return {"name": self.slug, "base": self.base or self.slug, "options": options}


# ----------------------------------------------------------------------------
# The eleven built-ins (RULES.md section 2)

_CLABBER_MELDS: Final = (
    ("four-J", 200),
    ("four-9", 100),
    ("four-A", 100),
    ("four-10", 100),
    ("four-K", 100),
    ("four-Q", 100),
    ("run-5", 100),
    ("run-4", 50),
    ("run-3", 20),
)
_CUMMINGS_ORDER: Final = (
    "four-J",
    "run-5",
    "four-A",
    "four-K",
    "four-Q",
    "four-10",
    "four-9",
    "run-4",
    "run-3",
)
_KLABERJASS_MELDS: Final = (("run-4", 50), ("run-3", 20))
_ZENSA_MELDS: Final = (
    ("four-J", 200),
    ("four-A", 100),
    ("four-K", 100),
    ("four-Q", 100),
    ("four-10", 100),
    ("run-6", 100),
    ("run-5", 100),
    ("run-4", 50),
    ("run-3", 20),
)


def _clabber(
    slug: str,
    title: str,
    players: int,
    sides: tuple[str, ...],
    hand: int,
    tricks: int,
    description: str,
    **extra: Any,
) -> RuleSet:
    values = extra.pop("meld_values", _CLABBER_MELDS)
    order = extra.pop("meld_order", tuple(k for k, _ in values))
    return RuleSet(
        slug=slug,
        title=title,
        family=Family.CLABBER,
        players=players,
        sides=sides,
        pack=24,
        hand_size=hand,
        tricks=tricks,
        description=description,
        base=slug,
        second_round_other_suit=True,
        no_trick_no_meld=False,
        meld_compare="order",
        meld_values=tuple(sorted(values, key=lambda kv: order.index(kv[0]))),
        meld_order=tuple(order),
        **extra,
    )


def _klaberjass(
    slug: str,
    title: str,
    players: int,
    sides: tuple[str, ...],
    hand: int,
    tricks: int,
    description: str,
    **extra: Any,
) -> RuleSet:
    values = extra.pop("meld_values", _KLABERJASS_MELDS)
    return RuleSet(
        slug=slug,
        title=title,
        family=Family.KLABERJASS,
        players=players,
        sides=sides,
        pack=32,
        hand_size=hand,
        tricks=tricks,
        description=description,
        base=slug,
        second_round_other_suit=False,
        no_trick_no_meld=True,
        meld_compare=extra.pop("meld_compare", "length"),
        meld_values=tuple(values),
        meld_order=tuple(k for k, _ in values),
        **extra,
    )


KLAVERJAS_ROEM: Final = (
    ("run-3", 20),
    ("run-4", 50),
    ("stuk", 20),
    ("four-A", 100),
    ("four-K", 100),
    ("four-Q", 100),
    ("four-J", 100),
    ("four-10", 100),
    ("four-9", 100),
    ("four-8", 100),
    ("four-7", 100),
)
"""Roem of one trick, Rotterdams (NKU): four Jacks 100 (KLAVERJAS.md 7.3)."""


def _klaverjas(slug: str, title: str, description: str, **extra: Any) -> RuleSet:
    return RuleSet(
        slug=slug,
        title=title,
        family=Family.KLAVERJAS,
        players=4,
        sides=("A", "B"),
        pack=32,
        hand_size=8,
        tricks=8,
        description=description,
        base=slug,
        target=None,
        deals_per_game=16,
        second_round_other_suit=False,
        no_trick_no_meld=False,
        meld_compare="order",
        meld_values=(),
        meld_order=(),
        **extra,
    )


_AB: Final = ("A", "B")
_ABC: Final = ("A", "B", "C")

_BUILTINS: Final = (
    _clabber(
        "clabber",
        "Clabber (Evansville)",
        4,
        _AB,
        6,
        6,
        "Four players in two fixed partnerships, 24-card pack, 6 cards each.",
    ),
    _clabber(
        "clabber-3",
        "Clabber for three",
        3,
        _ABC,
        8,
        8,
        "Three players, each for himself, 8 cards each; the maker must beat both.",
    ),
    _clabber(
        "clabber-2",
        "Clabber for two",
        2,
        _AB,
        9,
        9,
        "Two players, 6 dealt and 3 more after bidding; 6 cards dead, 9 tricks of 2.",
    ),
    _clabber(
        "clabber-6",
        "Clabber for six",
        6,
        _AB,
        4,
        4,
        "Six players in two teams of three, 4 cards each.",
    ),
    _clabber(
        "clabber-cummings",
        "Clabber, Cummings meld order",
        4,
        _AB,
        6,
        6,
        "Clabber with the 100-point melds re-ordered: a sequence of five beats "
        "four Aces; four Tens and four Nines are the lowest fours.",
        meld_order=_CUMMINGS_ORDER,
    ),
    _clabber(
        "clabber-wadesville",
        "Clabber, Wadesville",
        4,
        _AB,
        6,
        6,
        "Clabber where a six-card sequence is its own meld, 300 points, above four Jacks.",
        meld_values=(("run-6", 300), *_CLABBER_MELDS),
    ),
    _klaberjass(
        "klaberjass",
        "Klaberjass",
        2,
        _AB,
        9,
        9,
        "Two players, 32-card pack, 9 cards each after bidding, 9 tricks, no drawing; "
        "the winner of a deal deals the next.",
        dealer_rotation=DealerRotation.WINNER,
    ),
    _klaberjass(
        "klaberjass-3",
        "Klaberjass for three",
        3,
        _ABC,
        10,
        10,
        "Three players, each for himself, 10 cards each, 2 cards out.",
    ),
    _klaberjass(
        "klaberjass-4",
        "Klaberjass for four",
        4,
        _AB,
        8,
        8,
        "Four players in two partnerships, 8 cards each, every card played.",
    ),
    _klaberjass(
        "zensa",
        "Zensa (Senserln)",
        2,
        _AB,
        9,
        9,
        "Bavarian two-handed Klaberjass with fours and longer sequences; "
        "melds compare by points first.",
        meld_values=_ZENSA_MELDS,
        meld_compare="value-length",
    ),
    _klaberjass(
        "bela-4",
        "Bela for four (South Africa)",
        4,
        _AB,
        8,
        8,
        "Four players in two partnerships; a second-round bid may be no trumps "
        '(trump "none": every suit plain, 120 card points, no bela).',
        allows_no_trumps=True,
    ),
    _klaverjas(
        "klaverjas-rotterdams",
        "Klaverjas, Rotterdams (NKU)",
        "Dutch klaverjas, NKU rules: four players in two partnerships, 32 cards, 8 tricks; "
        "roem from the cards of one trick, both sides keep theirs; the maker needs more than "
        "half of all points and roem or goes nat; pit 100; a game is 16 deals. The dealer "
        "may play or pass; when all pass the dealer must play.",
        roem_values=KLAVERJAS_ROEM,
    ),
    _klaverjas(
        "klaverjas-amsterdams",
        "Klaverjas, Amsterdams (KBN)",
        "Dutch klaverjas, KBN rules: as Rotterdams, but the player left of the dealer must "
        "play (the maker is the side left of the dealer) and four Jacks are 200 roem.",
        roem_values=tuple((k, 200 if k == "four-J" else v) for k, v in KLAVERJAS_ROEM),
        maker_left_of_dealer=True,
    ),
)

BUILTIN_RULESETS: Final[Mapping[str, RuleSet]] = MappingProxyType({r.slug: r for r in _BUILTINS})
"""slug -> RuleSet: the eleven built-in rule sets of RULES.md section 2 and the two
klaverjas rule sets of section 7."""

for _r in _BUILTINS:
    if _r.players * _r.hand_size < _r.cards_played or _r.cards_played > _r.pack:
        raise RulesBug(f"built-in rule set {_r.slug} deals fewer cards than it plays")

HOUSE_RULE_EXAMPLES: Final[Mapping[str, Mapping[str, Any]]] = MappingProxyType(
    {
        # Seed 001, Czechia: Queen is the highest trump (Jass), 9 next; four Nines 150,
        # four Queens 200 and a sure win, bela 40; fours of 7s and 8s do not score.
        "darda": {
            "name": "darda",
            "base": "klaberjass-4",
            "options": {
                "trump_order": ["Q", "9", "A", "10", "K", "J", "8", "7"],
                "trump_points": {"Q": 20, "9": 14, "A": 11, "10": 10, "K": 4, "J": 3},
                "meld_values": {
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
            },
        },
        # Seed 001, Poland: a sequence of three ("Derda") is 30, of four ("Fuf") 50, bella 20.
        "derda": {
            "name": "derda",
            "base": "klaberjass",
            "options": {"meld_values": {"run-3": 30, "run-4": 50}},
        },
        # Seed 004: two-handed Klaberjass played to 501.
        "klaberjass-501": {
            "name": "klaberjass-501",
            "base": "klaberjass",
            "options": {"target": 501},
        },
    }
)
"""House rules written with options alone, shown in the catalog and the docs."""


def _unknown(name: object) -> str:
    return msg(RULESET_UNKNOWN, name=shown(name), known=", ".join(BUILTIN_RULESETS))


@lru_cache(maxsize=512)
def _derive(base_slug: str, name: str, key: str) -> RuleSet:
    base = BUILTIN_RULESETS[base_slug]
    if not key:
        return base if name == base_slug else replace(base, slug=name)
    options = json.loads(key)
    updates = parse_options(base, options)
    return replace(base, slug=name, base=base_slug, house_options=key, **updates)


def _with_options(ruleset: RuleSet, options: Any, prefix: str) -> RuleSet:
    if options is None:
        return ruleset
    if not isinstance(options, Mapping):  # [], 0 and "" are no options object
        raise RulesError(OPTION_NOT_OBJECT, prefix)
    if not options:
        return ruleset
    merged = json.loads(ruleset.house_options) if ruleset.house_options else {}
    merged.update(options)
    base = BUILTIN_RULESETS[ruleset.base or ruleset.slug]
    try:
        if not all(name in OPTION_DOCS for name in merged):
            parse_options(base, merged)  # names the unknown options without a cache key
            raise RulesBug("unknown options were accepted")
        try:
            key = options_key(merged)
        except (RecursionError, ValueError, TypeError):
            # Too deep (or not JSON) to be a cache key: checked uncached, which rejects it.
            parse_options(base, merged)
            raise RulesBug("options that cannot be a cache key were accepted") from None
        return _derive(base.slug, ruleset.slug, key)
    except RulesError as exc:
        raise exc.prefixed(prefix) from None


def get_ruleset(
    spec: str | Mapping[str, Any] | RuleSet,
    options: Mapping[str, Any] | None = None,
    *,
    field_prefix: str = "",
) -> RuleSet:
    """A rule set from its slug, house-rules data or a RuleSet, with ``options`` applied.

    Errors name ``ruleset`` (unknown slug), ``ruleset.base``, ``ruleset.options.X``
    (options inside house-rules data) and ``options.X`` (``options``), each put
    under ``field_prefix`` when one is given (``deals[2]``).
    """

    def path(name: str) -> str:
        return f"{field_prefix}.{name}" if field_prefix else name

    if isinstance(spec, RuleSet):
        ruleset = spec
    elif isinstance(spec, str):
        found = BUILTIN_RULESETS.get(spec)
        if found is None:
            raise RulesError(_unknown(spec), path("ruleset"))
        ruleset = found
    elif isinstance(spec, Mapping):
        base = spec.get("base", spec.get("name"))
        if not isinstance(base, str) or base not in BUILTIN_RULESETS:
            raise RulesError(_unknown(base), path("ruleset.base"))
        name = spec.get("name", base)
        if not isinstance(name, str) or not name or len(name) > RULESET_NAME_MAX:
            raise RulesError(msg(RULESET_SPEC_INVALID, value=shown(name)), path("ruleset.name"))
        ruleset = _with_options(
            BUILTIN_RULESETS[base], spec.get("options"), path("ruleset.options")
        )
        if ruleset.slug != name:
            ruleset = _derive(base, name, ruleset.house_options)
    else:
        raise RulesError(msg(RULESET_SPEC_INVALID, value=shown(spec)), path("ruleset"))
    return _with_options(ruleset, options, path("options"))


def ruleset_from_data(data: Mapping[str, Any] | str) -> RuleSet:
    """Inverse of :meth:`RuleSet.to_data`; errors name ``ruleset...`` fields."""
    return get_ruleset(data)
