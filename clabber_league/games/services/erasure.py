"""A person erased (``clubs.hooks.player_anonymised``): the confirmation records of the
club's games that named the player take the anonymous name."""

from __future__ import annotations

from typing import Any

from clabber_league.clubs.models import Player

from ..models import DealRevision


def games_player_anonymised(*, player: Player, name: str, **_: Any) -> None:
    """A confirmation's record (``DealRevision.after``: ``{"player": id, "name": ...}``)
    names the player who accepted: it takes ``name``."""
    rows = DealRevision.objects.filter(
        game__club_id=player.club_id,
        action=DealRevision.Action.CONFIRM,
        after__player=player.pk,
    ).only("id", "after")
    for row in rows:
        if "name" in row.after:
            row.after = {**row.after, "name": name}
            row.save(update_fields=["after"])
