"""A person erased (``clubs.hooks.player_anonymised``): the club's cups keep the player's
entries and ties under the anonymous name."""

from __future__ import annotations

from typing import Any

from clabber_league.clubs import names as text_names
from clabber_league.clubs.models import Player

from ..models import Entrant, Stage, Tie


def cups_player_anonymised(*, player: Player, names: tuple[str, ...], name: str, **_: Any) -> None:
    """The player's entries take ``name``; the club's walkover notes, seeding notes and
    the stages' notes (a tie-break "Level on 9 points with ...") name them no more, in
    their English text nor in the values kept for the pages' languages (``note_data``,
    ``notes_data``, ``message_data``)."""
    Entrant.objects.filter(player=player).update(name=name)
    club = player.club_id
    text_names.names_replaced(
        Entrant.objects.filter(cup__club_id=club),
        ["name", "note", "note_data"],
        names,
        name,
        look_in=["name", "note"],
    )
    # Every tie with a note (a few: walkovers, level games): its values may name the
    # player where its English text, cut at 200 characters, no longer does.
    ties = ["note", "note_data"]
    text_names.names_replaced(
        Tie.objects.filter(cup__club_id=club).exclude(note="").only("id", *ties),
        ties,
        names,
        name,
    )
    stages = ["notes", "notes_data", "message", "message_data"]
    text_names.names_replaced(
        Stage.objects.filter(cup__club_id=club).only("id", *stages), stages, names, name
    )
