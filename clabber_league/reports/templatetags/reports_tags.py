"""``{% club_reports club %}``: the club page's card of its latest published reports."""

from __future__ import annotations

from typing import Any

from django import template

from clabber_league.reports import selectors

register = template.Library()


@register.inclusion_tag("reports/_club_card.html")
def club_reports(club: Any) -> dict[str, Any]:
    return {"club": club, "reports": list(selectors.report_list(club=club, limit=3))}
