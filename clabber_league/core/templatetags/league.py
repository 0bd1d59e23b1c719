"""Small template helpers used across pages."""

from typing import Any

from django import template

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
def shown_name(player: Any, access: Any) -> str:
    """A player's name as this page may show it (``clubs.privacy``): in full to the club's
    members, else by initials for a player who chose so."""
    if player is None:
        return ""
    from clabber_league.clubs.privacy import sees_names

    return player.shown_name(to_member=sees_names(access))
