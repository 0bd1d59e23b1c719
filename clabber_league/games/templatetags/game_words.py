"""``{% load game_words %}``: a game's sides and result by name, on any page or email.

- ``{% game_sides game %}``: "Mules v Dads", "Ann & Bob v Cy & Di", "Ann v Bob v Cy";
- ``{% game_scores game %}``: "Mules 479 · Dads 564";
- ``{% game_winner game %}``: "won by Dads", "a tied game" or "" (no winner yet);
- ``{% game_side game "B" %}``: one side's name.

Names are the teams', else the players' (``games.wording.game_side_names``); a visitor who
is not a member of the club sees players as they chose to be shown (``clubs.privacy``).
For a list, load the games with ``sides__team`` and ``seats__player`` prefetched.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import pgettext

from clabber_league.clubs.privacy import sees_names
from clabber_league.games import wording

register = template.Library()


def _names(context: template.Context, game: Any) -> dict[str, str]:
    access = context.get("access") or getattr(context.get("request"), "club_access", None)
    to_member = True if access is None else sees_names(access)
    return wording.game_side_names(game, to_member=to_member)


@register.simple_tag(takes_context=True)
def game_sides(context: template.Context, game: Any) -> str:
    names = _names(context, game)
    versus = f" {pgettext('versus', 'v')} "
    return versus.join(names[side] for side in sorted(names))


@register.simple_tag(takes_context=True)
def game_scores(context: template.Context, game: Any) -> str:
    return wording.game_scores(game, _names(context, game))


@register.simple_tag(takes_context=True)
def game_winner(context: template.Context, game: Any) -> str:
    return wording.winner_words(game.winner, _names(context, game))


@register.simple_tag(takes_context=True)
def game_side(context: template.Context, game: Any, letter: str) -> str:
    """One side's name (``letter`` as the game stores it)."""
    return _names(context, game).get(letter, letter)
