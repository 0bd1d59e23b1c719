"""A person erased (``clubs.hooks.player_anonymised``): the club's cups keep the player's
entries and ties under the anonymous name."""

from __future__ import annotations

from typing import Any

from clabber_league.clubs import names as text_names
from clabber_league.clubs.models import Player

from ..models import Entrant, Stage, Tie


def cups_player_anonymised(*, player: Player, names: tuple[str, ...], name: str, **_: Any) -> None:
    """The player's entries take ``name``; the club's walkover notes, seeding notes and
    the stages' notes (a tie-break "Level on 9 points with ...") name them no more."""
    Entrant.objects.filter(player=player).update(name=name)
    found = text_names.pattern(names)
    if found is None:
        return
    club = player.club_id
    text_names.rows_replaced(
        Entrant.objects.filter(cup__club_id=club).filter(
            text_names.contains_any(["name", "note"], names)
        ),
        ["name", "note"],
        found,
        name,
    )
    text_names.rows_replaced(
        Tie.objects.filter(cup__club_id=club).filter(text_names.contains_any(["note"], names)),
        ["note"],
        found,
        name,
    )
    text_names.rows_replaced(
        Stage.objects.filter(cup__club_id=club).only("id", "notes", "message"),
        ["notes", "message"],
        found,
        name,
    )
