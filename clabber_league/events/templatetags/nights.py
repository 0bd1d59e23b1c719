"""``{% load nights %}``: money and places as the club-night pages print them."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from clabber_league.events.prizes import money

register = template.Library()


@register.filter
def rule_text(rule: Any) -> str:
    """A prize rule's or a series ranking's ``describe()`` in the page's language:
    ``{{ result.prize_list.rule|rule_text }}``."""
    return rule.describe(gettext)


@register.filter
def cents(value: Any) -> str:
    """Integer cents as an amount with two decimals (``1250`` -> ``12.50``)."""
    try:
        return money(int(value))
    except (TypeError, ValueError):
        return ""


@register.filter
def place(line: Any) -> str:
    """A ranking line's place, ``=`` marking a shared one (``3=``)."""
    position = getattr(line, "position", 0)
    return f"{position}=" if getattr(line, "shared", False) else str(position)


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` in a template (``None`` when absent)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None
