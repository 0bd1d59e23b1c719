"""Chart data for pages of other apps, from what those pages already loaded.

``{% game_running_chart game deals side_names ruleset as chart %}`` turns a game's stored
running totals (``Deal.running_*``, the engine's numbers) into the data of the running
totals chart on the score sheet: no query, no scoring.
"""

from typing import Any

from django import template
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def game_running_chart(game: Any, deals: Any, side_names: Any, ruleset: Any) -> dict[str, Any]:
    sides = list(game.scores)
    deals = list(deals)
    names = side_names or {}
    return {
        "type": "line",
        "labels": ["0", *[str(d.number) for d in deals]],
        "datasets": [
            {
                "label": names.get(side) or gettext("Side {side}").format(side=side),
                "data": [0, *[d.running.get(side, 0) for d in deals]],
            }
            for side in sides
        ],
        "target": getattr(ruleset, "target", None),
        "yTitle": gettext("Running total"),
    }
