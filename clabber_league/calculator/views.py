"""The rules page: every rule set and its options, generated from the rule-set data; and a
blank score sheet per rule set, to print."""

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from clabber_league.clubs.decorators import club_view
from clabber_league.core.i18n import translated
from clabber_league.leagues.models import HouseRules
from clabber_league.rules import (
    BUILTIN_RULESETS,
    HOUSE_RULE_EXAMPLES,
    RuleSet,
    catalog,
    get_ruleset,
)
from clabber_league.rules.cards import LAST_TRICK_BONUS
from clabber_league.rules.catalog import compare_modes, describe, limits


def rules_page(request: HttpRequest) -> HttpResponse:
    examples = [
        {"name": name, "json": json.dumps(_plain(data), indent=2)}
        for name, data in HOUSE_RULE_EXAMPLES.items()
    ]
    return render(
        request,
        "calculator/rules.html",
        {
            "rulesets": catalog(),
            "house_examples": examples,
            "compare_modes": [
                {**mode, "meaning": translated(mode["meaning"])} for mode in compare_modes()
            ],
            "limits": [
                {"what": translated(row["what"]), "limit": translated(row["limit"])}
                for row in limits()
            ],
        },
    )


def _plain(value: object) -> object:
    """Read-only mappings and tuples of the engine as plain JSON data."""
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def sheet_rows(target: int | None, deals_per_game: int | None = None) -> int:
    """Rows on a blank sheet: a game to 500 takes 4 to 8 deals (12 rows leave room for a
    long one); a longer game gets more, up to a page. A game of a fixed number of deals
    (klaverjas: 16) gets a row per deal."""
    if deals_per_game:
        return deals_per_game
    return max(12, min(24, (target or 500) // 40))


def _sheet(request: HttpRequest, ruleset: RuleSet, title: str, **extra: object) -> HttpResponse:
    data = describe(ruleset)
    check = data["card_points"] + LAST_TRICK_BONUS if data["all_cards_played"] else None
    return render(
        request,
        "calculator/blank_sheet.html",
        {
            "ruleset": data,
            "title": title,
            "sides": data["sides"],
            "rows": range(
                1,
                sheet_rows(data["options"]["target"], data["options"].get("deals_per_game")) + 1,
            ),
            "check": check,
            # Klaverjas: the tally sheet's layout, points and roem columns per pair.
            "klaverjas": ruleset.is_klaverjas,
            **extra,
        },
    )


def blank_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """A blank score sheet of one rule set, laid out as the paper sheets of Evansville: a
    column per side, the check column (the deal's numbers added), running totals."""
    ruleset = BUILTIN_RULESETS.get(slug)
    if ruleset is None:
        raise Http404(gettext("No such rule set."))
    return _sheet(request, ruleset, ruleset.title)


@club_view("read")
def house_rules_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The blank score sheet of a club's house rules (their target, sides and card points)."""
    house_rules = get_object_or_404(HouseRules, club=request.club, pk=pk)
    ruleset = get_ruleset(house_rules.as_rules_data())
    return _sheet(request, ruleset, house_rules.name, club=request.club)
