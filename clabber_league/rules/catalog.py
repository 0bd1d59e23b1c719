"""The catalog: every built-in rule set, its options and meld table, as data and markdown.

:func:`catalog` is what the docs table and the rules page are generated from;
:func:`catalog_markdown` renders it (``python -m clabber_league.rules catalog
--markdown``).  The house-rule examples of seed 001 (Czech Darda, Polish
Derda) and seed 004 (to 501) are included with ``include_examples=True``: they
are built from options alone.
"""

from __future__ import annotations

from typing import Any, Final

from .calculator import POT_MAX
from .errors import MAX_ERRORS, gettext_noop, msg
from .game import MAX_DEALS
from .klaverjas import trick_values
from .options import (
    CARD_VALUE_MAX,
    DEALS_PER_GAME_MAX,
    MELD_COMPARE_DOCS,
    MELD_KINDS,
    MELD_VALUE_MAX,
    OPTION_DOCS,
    OPTION_NAMES,
    RENEGE_PENALTY_MAX,
    ROEM_KINDS,
    TARGET_MAX,
)
from .rulesets import BUILTIN_RULESETS, HOUSE_RULE_EXAMPLES, RULESET_NAME_MAX, RuleSet, get_ruleset
from .validation import NUMBER_MAX

KLAVERJAS_DEAL: Final = (
    ("maker", "the side that played (A: seats 0 and 2, B: seats 1 and 3)"),
    ("trump", "clubs, diamonds, hearts or spades (never none)"),
    ("points", "card points per side without the last trick, adding up to 152"),
    (
        "points_with_last",
        "instead of points: the tally sheet's points, the last trick's 10 included, adding up "
        "to 162",
    ),
    ("last_trick", "the side that took the last trick (trick 8)"),
    ("tricks", "tricks per side, adding up to 8; needed when one side has all 152 card points"),
    (
        "roem",
        'per side a total (the sheet\'s roem, e.g. {"A": 70}) or a list of claims '
        '{"trick": 1-8, "kind": ...}, the kind run-3, run-4, stuk or four-A ... four-7; a run '
        "may name suit and top",
    ),
    ("renege", "the side(s) that reneged (both: the deal is dealt again)"),
    ("dealer", "the dealer's seat 0-3, for the forced-maker check (maker_left_of_dealer)"),
)
"""The fields of a klaverjas deal (KLAVERJAS.md 7.1), for the catalog and the docs."""


def _options(ruleset: RuleSet) -> dict[str, Any]:
    if ruleset.is_klaverjas:
        return {
            "target": ruleset.target,
            "deals_per_game": ruleset.deals_per_game,
            "renege_penalty": ruleset.renege_penalty,
            "roem_values": dict(ruleset.roem_values),
            "pit_bonus": ruleset.pit_bonus,
            "pit_for": ruleset.pit_for,
            "renege_bonus": ruleset.renege_bonus,
            "renege_roem": ruleset.renege_roem,
            "maker_left_of_dealer": ruleset.maker_left_of_dealer,
            "trump_order": list(ruleset.trump_order),
            "trump_points": dict(ruleset.trump_points),
            "plain_points": dict(ruleset.plain_points),
        }
    return {
        "target": ruleset.target,
        "tie_at_target": ruleset.tie_at_target,
        "tie_hangs": ruleset.tie_hangs,
        "no_trick_no_meld": ruleset.no_trick_no_meld,
        "renege_penalty": ruleset.renege_penalty,
        "passout_redeal": ruleset.passout_redeal,
        "second_round_other_suit": ruleset.second_round_other_suit,
        "meld_values": dict(ruleset.meld_values),
        "meld_order": list(ruleset.meld_order),
        "meld_compare": ruleset.meld_compare,
        "bell_value": ruleset.bell_value,
        "trump_order": list(ruleset.trump_order),
        "trump_points": dict(ruleset.trump_points),
        "plain_points": dict(ruleset.plain_points),
        "winning_melds": list(ruleset.winning_melds),
    }


def describe(ruleset: RuleSet) -> dict[str, Any]:
    """One rule set as JSON-able data."""
    return {
        "slug": ruleset.slug,
        "title": ruleset.title,
        "description": ruleset.description,
        "builtin": BUILTIN_RULESETS.get(ruleset.slug) == ruleset,
        "house_rules": ruleset.to_data(),
        "family": ruleset.family.value,
        "players": ruleset.players,
        "sides": list(ruleset.sides),
        "players_per_side": ruleset.players_per_side,
        "pack": ruleset.pack,
        "hand_size": ruleset.hand_size,
        "tricks": ruleset.tricks,
        "trick_size": ruleset.trick_size,
        "all_cards_played": ruleset.all_cards_played,
        "card_points": ruleset.card_points_total(),
        "max_card_points": ruleset.max_card_points(),
        "allows_no_trumps": ruleset.allows_no_trumps,
        "card_points_no_trumps": ruleset.card_points_total(True)
        if ruleset.allows_no_trumps
        else None,
        "renege_points": ruleset.renege_points(),
        "dealer_rotation": ruleset.dealer_rotation.value,
        "options": _options(ruleset),
        "melds": [{"kind": k, "points": v} for k, v in ruleset.meld_values],
        **(
            {
                "roem": [{"kind": k, "points": v} for k, v in ruleset.roem_values if v],
                "roem_per_trick": list(trick_values(ruleset)),
                "deal_fields": [{"field": f, "meaning": m} for f, m in KLAVERJAS_DEAL],
            }
            if ruleset.is_klaverjas
            else {}
        ),
    }


RANGE = gettext_noop("{low} to {high}")
"""A limit's range on the rules page."""
CHARACTERS = gettext_noop("{count} characters")
"""A limit in characters on the rules page."""


def limits() -> list[dict[str, str]]:
    """What the engine accepts at most (RULES.md section 5), so no input runs away."""
    return [
        {"what": gettext_noop("deals in one game"), "limit": f"{MAX_DEALS}"},
        {
            "what": gettext_noop("errors listed in one answer (then one saying how many more)"),
            "limit": f"{MAX_ERRORS}",
        },
        {
            "what": gettext_noop("house-rule card values (trump_points, plain_points)"),
            "limit": msg(RANGE, low=0, high=f"{CARD_VALUE_MAX}"),
        },
        {
            "what": gettext_noop("house-rule meld values (meld_values, bell_value)"),
            "limit": msg(RANGE, low=0, high=f"{MELD_VALUE_MAX:,}"),
        },
        {"what": "target", "limit": msg(RANGE, low=1, high=f"{TARGET_MAX:,}")},
        {
            "what": gettext_noop("deals_per_game (klaverjas)"),
            "limit": msg(RANGE, low=1, high=f"{DEALS_PER_GAME_MAX}"),
        },
        {"what": gettext_noop("roem claims of one side (klaverjas)"), "limit": "16"},
        {
            "what": "renege_penalty",
            "limit": msg(RANGE, low=0, high=f"{RENEGE_PENALTY_MAX:,}"),
        },
        {
            "what": gettext_noop("card points, tricks, sheet numbers"),
            "limit": msg(RANGE, low=0, high=f"{NUMBER_MAX:,}"),
        },
        {
            "what": gettext_noop("a hanging pot given to score"),
            "limit": msg(RANGE, low=0, high=f"{POT_MAX:,}"),
        },
        {
            "what": gettext_noop("melds listed for one side"),
            "limit": gettext_noop(
                "a third of the cards in its hands (a meld holds 3 cards or more)"
            ),
        },
        {
            "what": gettext_noop("a house-rules name"),
            "limit": msg(CHARACTERS, count=RULESET_NAME_MAX),
        },
    ]


def compare_modes() -> list[dict[str, str]]:
    """The ``meld_compare`` modes and how each ranks two melds."""
    return [{"mode": mode, "meaning": text} for mode, text in MELD_COMPARE_DOCS.items()]


def catalog(include_examples: bool = False) -> list[dict[str, Any]]:
    """Every built-in rule set (and, if asked, the house-rule examples) as data."""
    entries = [describe(r) for r in BUILTIN_RULESETS.values()]
    if include_examples:
        entries += [describe(get_ruleset(data)) for data in HOUSE_RULE_EXAMPLES.values()]
    return entries


def catalog_markdown(include_examples: bool = True) -> str:
    """Markdown tables of the rule sets, the meld tables and the options."""
    entries = catalog(include_examples)
    lines = [
        "## Rule sets",
        "",
        "| slug | players / sides | pack, hand | tricks | all cards played? | card points "
        "| target | maker test | melds compare |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        played, points = "yes", f"{e['card_points']}"
        if not e["all_cards_played"]:
            played = f"no: {e['tricks'] * e['trick_size']} cards"
            points = f"at most {e['max_card_points']}"
        if e["allows_no_trumps"]:
            points += f" ({e['card_points_no_trumps']} at no trumps)"
        slug = f"`{e['slug']}`"
        if not e["builtin"]:
            slug += f" (house rules on `{e['house_rules']['base']}`)"
        target = e["options"]["target"]
        compare = e["options"].get("meld_compare", "roem per trick, no comparison")
        if e["options"].get("deals_per_game"):
            deals = f"{e['options']['deals_per_game']} deals"
            target = deals if target is None else f"{deals} or {target}"
        lines.append(
            f"| {slug} | {e['players']} / {', '.join(e['sides'])} "
            f"| {e['pack']}, {e['hand_size']} | {e['tricks']} of {e['trick_size']} | {played} "
            f"| {points} | {target} | {e['family']} "
            f"| {compare} |"
        )
    klaverjas = [e for e in entries if "roem" in e]
    entries = [e for e in entries if "roem" not in e]
    kinds = [k for k in MELD_KINDS if any(k in e["options"]["meld_values"] for e in entries)]
    lines += [
        "",
        "## Meld values (0 or blank: no meld; bell separately)",
        "",
        "| slug | " + " | ".join(kinds) + " | bell |",
        "|---|" + "---|" * (len(kinds) + 1),
    ]
    for e in entries:
        values = e["options"]["meld_values"]
        lines.append(
            f"| `{e['slug']}` | "
            + " | ".join(str(values.get(k, "")) for k in kinds)
            + f" | {e['options']['bell_value']} |"
        )
    if klaverjas:
        lines += [
            "",
            "## Klaverjas roem (per trick, KLAVERJAS.md 7.3; both sides keep theirs)",
            "",
            "| slug | " + " | ".join(ROEM_KINDS) + " | one trick can hold |",
            "|---|" + "---|" * (len(ROEM_KINDS) + 1),
        ]
        for e in klaverjas:
            values = e["options"]["roem_values"]
            lines.append(
                f"| `{e['slug']}` | "
                + " | ".join(str(values.get(k, 0)) for k in ROEM_KINDS)
                + f" | {', '.join(str(v) for v in e['roem_per_trick'])} |"
            )
        lines += [
            "",
            "## A klaverjas deal (`python -m clabber_league.rules score`)",
            "",
            "| field | meaning |",
            "|---|---|",
        ]
        lines += [f"| `{f['field']}` | {f['meaning']} |" for f in klaverjas[0]["deal_fields"]]
        lines += [
            "",
            "The answer adds `pit` (the side that took all eight tricks, or null) and `sheet` "
            '(the tally sheet\'s two columns, `{"points": {..}, "roem": {..}}`); '
            "`meld_points` is each side's roem with its pit bonus, `meld_winner` always null.",
        ]
    lines += ["", "## Options", "", "| option | meaning | default |", "|---|---|---|"]
    for name in OPTION_NAMES:
        meaning, default = OPTION_DOCS[name]
        lines.append(f"| `{name}` | {meaning} | {default} |")
    lines += [
        "",
        "## How melds compare (`meld_compare`)",
        "",
        "| mode | the better meld |",
        "|---|---|",
    ]
    lines += [f"| `{m['mode']}` | {m['meaning']} |" for m in compare_modes()]
    lines += [
        "",
        "## Limits",
        "",
        "Whatever the input, the engine answers in bounded time and memory; beyond "
        "these it answers with an error naming the field.",
        "",
        "| what | limit |",
        "|---|---|",
    ]
    lines += [f"| {row['what']} | {row['limit']} |" for row in limits()]
    return "\n".join(lines) + "\n"
