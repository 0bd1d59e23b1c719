"""What each event says: the envelope and its ``data`` (docs/webhooks.md shows each).

Every delivery's body is one JSON object, the same envelope for every type::

    {"id": "msg_...", "type": "result.confirmed", "version": 1,
     "created": "2026-12-05T20:31:07Z", "club": {"slug": "...", "name": "..."},
     "data": {...}}

``version`` is the envelope's and the data's: fields may be added under the same version;
one removed, renamed or given another meaning makes a new version (docs/webhooks.md).
Players are named as the public pages name them (``Player.shown_name``: initials for a
member who keeps their name off public pages), since a receiver is not a club member.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from django.utils import timezone

from clabber_league.clubs.models import Club, Player
from clabber_league.events.models import Event, Round
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture

VERSION = 1


def event_id_new() -> str:
    return "msg_" + uuid.uuid4().hex


def _when(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _day(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def envelope(*, event_id: str, type_: str, club: Club, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": event_id,
        "type": type_,
        "version": VERSION,
        "created": _when(timezone.now()),
        "club": {"slug": club.slug, "name": club.name},
        "data": data,
    }


def _named(obj: Any) -> dict[str, Any] | None:
    return {"id": obj.pk, "name": obj.name} if obj is not None else None


def _player(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.shown_name(to_member=False)}


def game_data(game: Game) -> dict[str, Any]:
    """A confirmed game: its result, its sides (teams and players), where it belongs."""
    teams = {s.side: s.team for s in game.sides.select_related("team")}
    sides: dict[str, Any] = {}
    for seat in game.seats.select_related("player").order_by("seat"):
        side = sides.setdefault(seat.side, {"team": _named(teams.get(seat.side)), "players": []})
        side["players"].append(_player(seat.player))
    for side, team in teams.items():
        sides.setdefault(side, {"team": _named(team), "players": []})
    return {
        "game": {
            "id": game.pk,
            "status": game.status,
            "winner": game.winner or None,
            "scores": game.scores,
            "deals": game.deal_count,
            "played_on": _day(game.played_on),
            "confirmed_at": _when(game.confirmed_at),
            "division": _named(game.division) if game.division_id else None,
            "fixture": game.fixture_id,
            "sides": dict(sorted(sides.items())),
        }
    }


def fixture_data(fixture: Fixture, change: str) -> dict[str, Any]:
    """A fixture moved, postponed or given a forfeit (``change``: moved, postponed, forfeit,
    result)."""
    return {
        "change": change,
        "fixture": {
            "id": fixture.pk,
            "division": _named(fixture.division),
            "round": fixture.round_number,
            "home": _named(fixture.home),
            "away": _named(fixture.away),
            "date": _day(fixture.date),
            "original_date": _day(fixture.original_date),
            "venue": _named(fixture.venue) if fixture.venue_id else None,
            "table": fixture.table,
            "status": fixture.status,
            "forfeit_winner": fixture.forfeit_winner_id,
            "note": fixture.note,
        },
    }


def _event(event: Event) -> dict[str, Any]:
    return {
        "id": event.pk,
        "name": event.name,
        "date": _day(event.date),
        "rounds": event.rounds,
        "status": event.status,
    }


def draw_data(round_: Round) -> dict[str, Any]:
    """A round drawn: its tables with their players in seat order, and who sits out."""
    tables = list(round_.tables.order_by("number"))
    sit_outs = list(round_.sit_outs.values_list("player_id", flat=True))
    ids = {p for t in tables for p in t.seats} | set(sit_outs)
    players = Player.objects.in_bulk(ids)
    return {
        "event": _event(round_.event),
        "round": {
            "number": round_.number,
            "seed": round_.seed,
            "tables": [
                {
                    "number": t.number,
                    "game": t.game_id,
                    "first_dealer": t.first_dealer,
                    "players": [_player(players[p]) for p in t.seats],
                }
                for t in tables
            ],
            "sit_outs": [_player(players[p]) for p in sorted(sit_outs)],
        },
    }


def night_data(event: Event) -> dict[str, Any]:
    """A night finished: the event (its ranking is at the API's ``.../ranking/``)."""
    return {"event": _event(event)}


def ping_data() -> dict[str, Any]:
    return {"message": "A test event from Clabber League: your endpoint received it."}
