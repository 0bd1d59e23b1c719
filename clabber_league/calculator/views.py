"""The rules page: every rule set and its options, generated from the rule-set data."""

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clabber_league.rules import HOUSE_RULE_EXAMPLES, catalog
from clabber_league.rules.catalog import compare_modes, limits


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
            "compare_modes": compare_modes(),
            "limits": limits(),
        },
    )


def _plain(value: object) -> object:
    """Read-only mappings and tuples of the engine as plain JSON data."""
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
