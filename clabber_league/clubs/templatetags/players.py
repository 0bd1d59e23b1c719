"""``{% load players %}``: a player's name as this page may show it (``clubs.privacy``)."""

from typing import Any

from django import template

from clabber_league.clubs.privacy import sees_names

register = template.Library()


@register.filter
def shown_name(player: Any, access: Any) -> str:
    """In full to the club's members, else by initials for a player who chose so."""
    if player is None:
        return ""
    return player.shown_name(to_member=sees_names(access))
