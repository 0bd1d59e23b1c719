"""A person erased (``clubs.hooks.player_anonymised``): what the club's nights wrote in
words (a round's draw notes, its message and their stored values) names the player no
more. Seats, entries and the draw's input hold player ids, not names."""

from __future__ import annotations

from typing import Any

from clabber_league.clubs import names as text_names
from clabber_league.clubs.models import Player

from ..models import Round


def events_player_anonymised(
    *, player: Player, names: tuple[str, ...], name: str, **_: Any
) -> None:
    fields = ["notes", "message", "message_data"]
    text_names.names_replaced(
        Round.objects.filter(event__club_id=player.club_id).only("id", *fields),
        fields,
        names,
        name,
    )
