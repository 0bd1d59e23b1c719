"""Small template helpers used across pages."""

from typing import Any

from django import template
from django.template.defaultfilters import date as date_filter

from clabber_league.core.i18n import local_format, translated

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.filter
def field_errors(form: Any, name: str) -> list[str]:
    return list(form.errors.get(name, []))


@register.filter
def join_if_list(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value) if value else "none"
    return str(value)


@register.filter
def ldate(value: Any, english_format: str) -> str:
    """``value|date`` in the active language's own order: ``{{ d|ldate:"j M Y" }}``.

    The format is given as English writes it; the catalog translates it as a
    ``"date format"`` message (Japanese gives ``Y年n月j日``, German ``j. M Y``), so a
    translator sets the order and separators, and Django's ``date`` filter gives the
    month and weekday names. Times are shown in the active time zone (the club's).
    """
    if value in (None, ""):
        return ""
    return date_filter(value, local_format(english_format))


@register.filter
def in_language(message: Any) -> str:
    """A stored or computed sentence (``rules.errors.msg``) in the active language:
    ``{{ line.reason|in_language }}``."""
    return translated(message) if message else ""
