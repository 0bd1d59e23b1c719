"""Two players merged into one (``clubs.hooks.player_merging``): the merged player's
entries, sit-outs, pairs and places at the events' tables become the other's."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from clabber_league.clubs.models import Player
from clabber_league.core.errors import ServiceError

from ..models import Entry, Pair, SitOut, Table

MERGE_SAME_EVENT = gettext_lazy(
    "{source} and {target} both played {event}: one person cannot play twice."
)


def events_player_merging(*, source: Player, target: Player) -> None:
    """Move ``source``'s rows to ``target``; refused when both were at the same event."""
    shared = (
        Entry.objects.filter(player=source, event__entries__player=target)
        .select_related("event")
        .first()
    )
    if shared is not None:
        message = MERGE_SAME_EVENT.format(
            source=source.name, target=target.name, event=shared.event
        )
        raise ServiceError.one("target", message)
    Entry.objects.filter(player=source).update(player=target)
    SitOut.objects.filter(player=source).update(player=target)
    Pair.objects.filter(player_1=source).update(player_1=target)
    Pair.objects.filter(player_2=source).update(player_2=target)
    tables = Table.objects.filter(round__event__entries__player=target).distinct()
    for table in tables:
        if source.pk in table.seats:
            table.seats = [target.pk if p == source.pk else p for p in table.seats]
            table.save(update_fields=["seats"])
