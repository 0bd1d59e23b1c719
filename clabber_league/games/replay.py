"""Where a deal's correction keeps its ``Idempotency-Key`` (``PUT .../games/<id>/deals/<id>/``):
a :class:`core.idempotency.Keeper` the correction view names (``@idempotent(keeper=
correction_keeper, at_table=by_table_link)``); the mechanism is the core's, one for every view.

A phone's outbox queues corrections made offline and sends each with its own key; when
the answer is lost it sends the same request again: the retry answers the first answer
again, status and body, and writes nothing (even when the deal was corrected again since,
or the game confirmed meanwhile); the same key with another request (another body, or
another deal) is refused with 422; a request that failed keeps nothing.

The key is kept with its game (``CorrectionKey``), per caller: a logged-in caller's own,
or the game's table link phone's (``Authorization: Table``, anonymous, so the core's
per-user record cannot hold it), for ``IDEMPOTENCY_RETENTION_HOURS``: the daily clean-up
(``core.purge_idempotency_keys``) deletes the older ones (:func:`correction_keys_purge`,
on ``core.hooks.idempotency_purging``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.core.idempotency import Keeper, Key

from .models import CorrectionKey, TableLink


def by_table_link(view: Any, request: Request) -> bool:
    """Whether the request comes from the phone of the game's table link (``Table`` auth)."""
    return isinstance(getattr(request, "auth", None), TableLink)


class Corrections(Keeper):
    """A correction's first answer, kept with its game per caller and key."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id

    def find(self, key: Key) -> CorrectionKey | None:
        return CorrectionKey.objects.filter(
            game_id=self.game_id, caller=key.caller, key=key.value
        ).first()

    def keep(self, key: Key, request: Request, response: Response) -> None:
        CorrectionKey.objects.create(
            game_id=self.game_id,
            caller=key.caller,
            key=key.value,
            fingerprint=key.fingerprint,
            status=response.status_code,
            body=response.data,
        )


def correction_keeper(view: Any, request: Request, kwargs: dict) -> Keeper | None:
    """The keeper of a correction to the game of the URL (none for a malformed id)."""
    game_id = kwargs.get("game_id")
    return Corrections(int(game_id)) if str(game_id).isdigit() else None


def correction_keys_purge(*, cutoff: dt.datetime) -> list[int]:
    """The daily clean-up's part for corrections: delete the keys made before
    ``cutoff``; answers ``[how many]`` (a handler of ``core.hooks.idempotency_purging``)."""
    deleted, _ = CorrectionKey.objects.filter(created_at__lt=cutoff).delete()
    return [deleted]
