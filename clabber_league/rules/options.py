"""House-rule options: the knobs a club may turn on a built-in rule set.

A club's house rules are a base rule set plus a small JSON object of options
(RULES.md section 2.1).  This module knows every option, its meaning, its
default and how to read it from plain data; :func:`parse_options` turns the
JSON into field updates for a :class:`~clabber_league.rules.rulesets.RuleSet`
and names each bad option by its JSON path (``options.target``,
``options.meld_values.run-7`` ...).

Decisions where RULES.md leaves room:

* ``meld_values``, ``trump_points`` and ``plain_points`` are merged over the
  base rule set's tables: a club lists only what differs, and removes a meld
  kind by giving it 0.
* `meld_order`, when given, must list exactly the kinds that have a value.
  When it is not given, the kinds are ordered by value, highest first, ties
  kept in the base rule set's order (then fours before runs), so adding
  ``{"run-6": 300}`` to ``clabber`` puts the six above the four Jacks.
* ``renege_penalty`` ``null`` (the default) means "all the points of a deal":
  the pack's card points plus the last trick, 162, or 130 at no trumps.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from .errors import MAX_ERRORS, ErrorList, RulesError, field_key, gettext_noop, msg, shown

if TYPE_CHECKING:
    from .rulesets import RuleSet

MELD_KINDS: Final = (
    "four-J",
    "four-9",
    "four-A",
    "four-10",
    "four-K",
    "four-Q",
    "four-8",
    "four-7",
    "run-6",
    "run-5",
    "run-4",
    "run-3",
)
"""Every meld kind the engine knows, in a canonical order (fours before runs)."""

ROEM_KINDS: Final = (
    "run-3",
    "run-4",
    "stuk",
    "four-A",
    "four-K",
    "four-Q",
    "four-J",
    "four-10",
    "four-9",
    "four-8",
    "four-7",
)
"""The roem kinds of klaverjas (KLAVERJAS.md 7.3), values in option ``roem_values``."""
KLAVERJAS_ONLY: Final = (
    "roem_values",
    "pit_bonus",
    "pit_for",
    "renege_bonus",
    "renege_roem",
    "maker_left_of_dealer",
    "deals_per_game",
)
NOT_IN_KLAVERJAS: Final = (
    "meld_compare",
    "meld_order",
    "meld_values",
    "bell_value",
    "no_trick_no_meld",
    "tie_hangs",
    "passout_redeal",
    "second_round_other_suit",
    "winning_melds",
)
PIT_FOR_MODES: Final = ("any", "maker")
RENEGE_ROEM_MODES: Final = ("all", "none")
DEALS_PER_GAME_MAX: Final = 200
MELD_COMPARE_MODES: Final = ("order", "length", "value", "value-length")
TIE_AT_TARGET_MODES: Final = ("tie", "play_on")

# Bounds on house-rule values (RULES.md section 5), so that no input makes the engine
# do unbounded work: the card values bound the feasibility tables, the meld values the
# sheet-row tables.
CARD_VALUE_MAX: Final = 100
MELD_VALUE_MAX: Final = 1000
TARGET_MAX: Final = 100_000
RENEGE_PENALTY_MAX: Final = 10_000

OPTION_UNKNOWN: Final = gettext_noop("Unknown option {name}; the options are: {known}.")
OPTION_NOT_OBJECT: Final = gettext_noop("Options must be a JSON object of option names and values.")
OPTION_INTEGER: Final = gettext_noop(
    "{name} must be a whole number from {minimum} to {maximum}, not {value}."
)
OPTION_BOOLEAN: Final = gettext_noop("{name} must be true or false, not {value}.")
OPTION_CHOICE: Final = gettext_noop("{name} must be one of {choices}, not {value}.")
OPTION_MAPPING: Final = gettext_noop("{name} must be a JSON object, not {value}.")
OPTION_LIST: Final = gettext_noop("{name} must be a list, not {value}.")
MELD_KIND_UNKNOWN_OPTION: Final = gettext_noop("Unknown meld kind {kind}; the kinds are: {known}.")
MELD_KIND_WITHOUT_VALUE: Final = gettext_noop(
    "{name} lists {kind}, which has no value in this rule set (give it one in meld_values)."
)
MELD_ORDER_MISMATCH: Final = gettext_noop(
    "meld_order must list every meld kind that has a value exactly once; "
    "missing: {missing}; extra or repeated: {extra}."
)
RANK_NOT_IN_PACK_OPTION: Final = gettext_noop(
    "{name} names the rank {rank}, which is not in the {pack}-card pack."
)
TIE_HANGS_THREE_SIDED: Final = gettext_noop(
    "tie_hangs needs two sides (a maker and one opponent); {base} has {count}."
)
OPTION_LIST_TOO_LONG: Final = gettext_noop(
    "{name} lists at most {most} meld kinds; this lists {count}."
)
OPTION_NOT_IN_KLAVERJAS: Final = gettext_noop(
    "{name} has no meaning in klaverjas ({base}): roem is scored per trick, both sides keep "
    "theirs, and no deal is passed out."
)
OPTION_KLAVERJAS_ONLY: Final = gettext_noop("{name} is a klaverjas option; {base} does not use it.")
ROEM_KIND_UNKNOWN: Final = gettext_noop("Unknown roem kind {kind}; the kinds are: {known}.")
TRUMP_ORDER_PERMUTATION: Final = gettext_noop(
    "trump_order must list each rank of the {pack}-card pack exactly once: {ranks}."
)


def _integer(name: str, value: Any, minimum: int, maximum: int) -> int:
    """A JSON integer (not ``2.0``, not ``true``) from ``minimum`` to ``maximum``."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise RulesError(
            msg(
                OPTION_INTEGER,
                name=name,
                minimum=minimum,
                maximum=f"{maximum:,}",
                value=shown(value),
            )
        )
    return value


def _boolean(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError(msg(OPTION_BOOLEAN, name=name, value=shown(value)))
    return value


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise RulesError(
            msg(OPTION_CHOICE, name=name, choices=", ".join(choices), value=shown(value))
        )
    return value


def _mapping(name: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RulesError(msg(OPTION_MAPPING, name=name, value=shown(value)))
    return value


def _kind_list(name: str, value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        raise RulesError(msg(OPTION_LIST, name=name, value=shown(value)))
    if len(value) > len(MELD_KINDS):
        raise RulesError(
            msg(OPTION_LIST_TOO_LONG, name=name, most=len(MELD_KINDS), count=len(value))
        )
    errors = ErrorList()
    for i, kind in enumerate(value):
        if not isinstance(kind, str) or kind not in MELD_KINDS:
            errors.add(
                f"[{i}]",
                msg(MELD_KIND_UNKNOWN_OPTION, kind=shown(kind), known=", ".join(MELD_KINDS)),
            )
    errors.raise_if_any()
    return list(value)


def _points(
    name: str, value: Any, base: Mapping[str, int], pack_ranks: tuple[str, ...], pack: int
) -> dict[str, int]:
    table = dict(base)
    errors = ErrorList()
    for rank, points in _mapping(name, value).items():
        if rank not in pack_ranks:
            errors.add(
                field_key(rank),
                msg(RANK_NOT_IN_PACK_OPTION, name=name, rank=shown(rank), pack=pack),
            )
            continue
        try:
            table[rank] = _integer(f"{name}.{rank}", points, 0, CARD_VALUE_MAX)
        except RulesError as exc:
            errors.extend(exc, rank)
    errors.raise_if_any()
    return table


# name -> (meaning, default as shown in the docs)
OPTION_DOCS: Final[Mapping[str, tuple[str, str]]] = {
    "target": ("game ends when a side reaches it", "500"),
    "tie_at_target": ("`tie` (tied game) or `play_on`", "`tie`"),
    "tie_hangs": (
        "equal totals of maker and opponent: nobody scores, the pot goes to the next "
        "scored deal's winner (a deal both sides score alike carries it on; one left at the "
        "end is lost); two-sided rule sets only",
        "false",
    ),
    "no_trick_no_meld": (
        "a side that won no trick scores no meld (bell still counts; needs `tricks`)",
        "true in the Klaberjass family, false in Clabber",
    ),
    "renege_penalty": (
        "what each non-offending side scores besides its own melds and bell",
        "all the points of a deal: 162 (130 at no trumps)",
    ),
    "passout_redeal": ("after a passed-out deal the same dealer deals again", "false"),
    "second_round_other_suit": (
        "a second-round trump must differ from the turned-up suit",
        "true in Clabber, false elsewhere",
    ),
    "meld_values": (
        "points of each meld kind (0 to 1,000), merged over the rule set's table; 0 removes a kind",
        "per rule set",
    ),
    "meld_order": ("for `meld_compare: order`, the valued kinds best first", "per rule set"),
    "meld_compare": (
        "`order` (table rows), `length` (longer run first), `value` (points, then top card) "
        "or `value-length` (points, then a run's real length)",
        "`order` in Clabber, `value-length` in zensa, `length` elsewhere",
    ),
    "bell_value": ("points of the bell / bela (0 to 1,000)", "20"),
    "trump_order": ("the trump suit's trick order, high to low", "J 9 A 10 K Q (8 7)"),
    "trump_points": (
        "card points of the trump suit, by rank (0 to 100)",
        "J 20, 9 14, A 11, 10 10, K 4, Q 3",
    ),
    "plain_points": (
        "card points of the plain suits, by rank (0 to 100)",
        "A 11, 10 10, K 4, Q 3, J 2",
    ),
    "winning_melds": (
        "meld kinds that win the game outright when their side scores them (won the "
        "comparison, not set, did not renege)",
        "none",
    ),
    "roem_values": (
        "klaverjas: roem of each kind in one trick (`run-3`, `run-4`, `stuk`, `four-A` ... "
        "`four-7`; 0 to 1,000), merged over the rule set's table; 0 removes a kind",
        "run-3 20, run-4 50, stuk 20, fours 100; four Jacks 100 Rotterdams, 200 Amsterdams",
    ),
    "pit_bonus": ("klaverjas: bonus for taking all eight tricks (pit / mars)", "100"),
    "pit_for": (
        "klaverjas: `any` (the opponents' tegenpit scores it too) or `maker` (only the maker)",
        "`any`",
    ),
    "renege_bonus": ("klaverjas: extra roem for the side that did not renege", "0"),
    "renege_roem": (
        "klaverjas: `all` (the non-offender also gets all roem announced) or `none`",
        "`all`",
    ),
    "maker_left_of_dealer": (
        "klaverjas: with `dealer` given, the maker must be the side of the seat left of the "
        "dealer (forced play)",
        "true in Amsterdams, false in Rotterdams",
    ),
    "deals_per_game": (
        "klaverjas: a game is this many deals (1 to 200), or null to play to `target`",
        "16",
    ),
}
OPTION_NAMES: Final = tuple(OPTION_DOCS)

MELD_COMPARE_DOCS: Final[Mapping[str, str]] = {
    "order": gettext_noop(
        "the row of meld_order (Clabber's table), then the higher top card, then trumps over plain"
    ),
    "length": gettext_noop(
        "the longer run (its real length), then the higher top card, then trumps over "
        "plain; a four added by house rules ranks above every run (fours by points, then by rank "
        "in the trump order)"
    ),
    "value": gettext_noop(
        "points first (seed 003); at equal points a four beats a run, runs by the top "
        "card: a run's length counts only through its points"
    ),
    "value-length": gettext_noop(
        "points first (Zensa); at equal points a four beats a run, runs by their "
        "real length (seven beats six, eight beats seven), then the top card, then trumps over "
        "plain"
    ),
}
"""How each ``meld_compare`` mode ranks two melds (RULES.md 4.2 and 4.3), for the docs."""


def parse_options(base: RuleSet, options: Any) -> dict[str, Any]:
    """Check ``options`` against ``base`` and return the RuleSet fields they change.

    Raises RulesError with fields relative to the options object (``target``,
    ``meld_values.run-7``); the caller puts them under ``options``.
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise RulesError(OPTION_NOT_OBJECT)
    errors = ErrorList()
    unknown = [name for name in options if name not in OPTION_DOCS]
    if unknown:  # named once each, up to the error cap; the rest only counted
        known = ", ".join(OPTION_NAMES)
        for name in unknown[:MAX_ERRORS]:
            errors.add(field_key(name), msg(OPTION_UNKNOWN, name=shown(name), known=known))
        errors.more += len(unknown[MAX_ERRORS:])
        errors.raise_if_any()
    klaverjas = base.family.value == "klaverjas"
    for name in options:
        if klaverjas and name in NOT_IN_KLAVERJAS:
            errors.add(name, msg(OPTION_NOT_IN_KLAVERJAS, name=name, base=base.slug))
        elif not klaverjas and name in KLAVERJAS_ONLY:
            errors.add(name, msg(OPTION_KLAVERJAS_ONLY, name=name, base=base.slug))
    errors.raise_if_any()
    updates: dict[str, Any] = {}
    simple: dict[str, Callable[[str, Any], Any]] = {
        "target": lambda n, v: None if v is None and klaverjas else _integer(n, v, 1, TARGET_MAX),
        "pit_bonus": lambda n, v: _integer(n, v, 0, MELD_VALUE_MAX),
        "pit_for": lambda n, v: _choice(n, v, PIT_FOR_MODES),
        "renege_bonus": lambda n, v: _integer(n, v, 0, MELD_VALUE_MAX),
        "renege_roem": lambda n, v: _choice(n, v, RENEGE_ROEM_MODES),
        "maker_left_of_dealer": _boolean,
        "deals_per_game": (
            lambda n, v: None if v is None else _integer(n, v, 1, DEALS_PER_GAME_MAX)
        ),
        "tie_at_target": lambda n, v: _choice(n, v, TIE_AT_TARGET_MODES),
        "tie_hangs": _boolean,
        "no_trick_no_meld": _boolean,
        "passout_redeal": _boolean,
        "second_round_other_suit": _boolean,
        "renege_penalty": (
            lambda n, v: None if v is None else _integer(n, v, 0, RENEGE_PENALTY_MAX)
        ),
        "meld_compare": lambda n, v: _choice(n, v, MELD_COMPARE_MODES),
        "bell_value": lambda n, v: _integer(n, v, 0, MELD_VALUE_MAX),
    }
    for name, value in options.items():
        try:
            if name in simple:
                updates[name] = simple[name](name, value)
            elif name == "meld_values":
                table = dict(base.meld_values)
                sub = ErrorList()
                for kind, points in _mapping(name, value).items():
                    if kind not in MELD_KINDS:
                        sub.add(
                            field_key(kind),
                            msg(
                                MELD_KIND_UNKNOWN_OPTION,
                                kind=shown(kind),
                                known=", ".join(MELD_KINDS),
                            ),
                        )
                        continue
                    try:
                        table[kind] = _integer(f"meld_values.{kind}", points, 0, MELD_VALUE_MAX)
                    except RulesError as exc:
                        sub.extend(exc, kind)
                sub.raise_if_any()
                updates["meld_values"] = table
            elif name == "roem_values":
                roem = dict(base.roem_values)
                sub = ErrorList()
                for kind, points in _mapping(name, value).items():
                    if kind not in ROEM_KINDS:
                        sub.add(
                            field_key(kind),
                            msg(ROEM_KIND_UNKNOWN, kind=shown(kind), known=", ".join(ROEM_KINDS)),
                        )
                        continue
                    try:
                        roem[kind] = _integer(f"roem_values.{kind}", points, 0, MELD_VALUE_MAX)
                    except RulesError as exc:
                        sub.extend(exc, kind)
                sub.raise_if_any()
                updates["roem_values"] = tuple((k, roem.get(k, 0)) for k in ROEM_KINDS)
            elif name == "meld_order":
                updates["meld_order"] = _kind_list(name, value)
            elif name == "winning_melds":
                updates["winning_melds"] = _kind_list(name, value)
            elif name == "trump_order":
                order = value if isinstance(value, list | tuple) else None
                if (
                    order is None
                    or len(order) != len(base.pack_ranks)
                    or not all(isinstance(r, str) for r in order)
                    or sorted(order) != sorted(base.pack_ranks)
                ):
                    raise RulesError(
                        msg(
                            TRUMP_ORDER_PERMUTATION, pack=base.pack, ranks=" ".join(base.pack_ranks)
                        )
                    )
                updates["trump_order"] = tuple(order)
            elif name in ("trump_points", "plain_points"):
                updates[name] = _points(
                    name, value, dict(getattr(base, name)), base.pack_ranks, base.pack
                )
            else:
                raise RulesError(
                    msg(OPTION_UNKNOWN, name=shown(name), known=", ".join(OPTION_NAMES))
                )
        except RulesError as exc:
            errors.extend(exc, field_key(name))
    if updates.get("tie_hangs") and len(base.sides) != 2:
        errors.add("tie_hangs", msg(TIE_HANGS_THREE_SIDED, base=base.slug, count=len(base.sides)))
    errors.raise_if_any()
    _settle_meld_table(base, updates, errors)
    errors.raise_if_any()
    return updates


def _settle_meld_table(base: RuleSet, updates: dict[str, Any], errors: ErrorList) -> None:
    """Fill in ``meld_values`` / `meld_order` / ``winning_melds`` so they agree."""
    values: dict[str, int] = updates.get("meld_values", dict(base.meld_values))
    valued = [k for k, v in values.items() if v > 0]
    if "meld_order" in updates:
        order = updates["meld_order"]
        missing = [k for k in valued if k not in order]
        extra = [k for i, k in enumerate(order) if k not in valued or k in order[:i]]
        if missing or extra:
            errors.add(
                "meld_order",
                msg(
                    MELD_ORDER_MISMATCH,
                    missing=", ".join(missing) or "none",
                    extra=", ".join(extra) or "none",
                ),
            )
            return
    else:
        base_rank = {k: i for i, k in enumerate(base.meld_order)}
        canonical = {k: i for i, k in enumerate(MELD_KINDS)}
        order = sorted(
            valued,
            key=lambda k: (-values[k], base_rank.get(k, len(base_rank)), canonical[k]),
        )
    for kind in valued:
        if kind.startswith("four-") and kind[5:] not in base.pack_ranks:
            errors.add(
                f"meld_values.{kind}",
                msg(
                    RANK_NOT_IN_PACK_OPTION,
                    name="meld_values",
                    rank=shown(kind[5:]),
                    pack=base.pack,
                ),
            )
    updates["meld_values"] = tuple((k, values[k]) for k in order)
    updates["meld_order"] = tuple(order)
    winning = updates.get("winning_melds", list(base.winning_melds))
    for i, kind in enumerate(winning):
        if kind not in valued:
            errors.add(
                f"winning_melds[{i}]",
                msg(MELD_KIND_WITHOUT_VALUE, name="winning_melds", kind=kind),
            )
    updates["winning_melds"] = tuple(winning)
    for key in ("trump_points", "plain_points"):
        if key in updates:
            updates[key] = tuple(sorted(updates[key].items(), key=lambda kv: _RANK_POS[kv[0]]))


_RANK_POS: Final = {r: i for i, r in enumerate(("A", "K", "Q", "J", "10", "9", "8", "7"))}


def options_key(options: Mapping[str, Any] | None) -> str:
    """A canonical, hashable spelling of an options object (for caches and round trips)."""
    if not options:
        return ""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))
