"""``Idempotency-Key`` on a deal's correction (``PUT .../games/<id>/deals/<id>/``).

A phone's outbox queues corrections made offline and sends each with its own key; when
the answer is lost it sends the same request again. As on the API's creating POSTs
(``core.idempotency``):

- a retry with the same key and the same request (method, path and JSON body) answers the
  first answer again, status and body, and writes nothing (even when the deal was
  corrected again since, or the game confirmed meanwhile);
- the same key with another request (another body, or another deal) is refused with 422;
- a request that failed keeps nothing: fix it and send it again with the same key.

The key is kept with its game (``CorrectionKey``), per caller: a logged-in caller's own,
or the game's table link phone's (``Authorization: Table``, anonymous, so the core's
per-user record cannot hold it), for ``IDEMPOTENCY_RETENTION_HOURS``: the daily clean-up
(``core.purge_idempotency_keys``) deletes the older ones (:func:`correction_keys_purge`,
on ``core.hooks.idempotency_purging``). The row is written in
the same transaction as the correction and its unique index is the check: a retry's work
is rolled back with the failed insert, and only then is the kept answer read.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from clabber_league.core.api import Unprocessable
from clabber_league.core.idempotency import (
    HEADER,
    KEY_REUSED,
    request_fingerprint,
    request_key,
)
from clabber_league.core.services import retention

from .models import CorrectionKey, TableLink

TABLE_CALLER = "table"


def caller_of(request: Request) -> str | None:
    """Whose key it is: ``user:<id>``, ``table`` (the game's table link), or None."""
    if isinstance(getattr(request, "auth", None), TableLink):
        return TABLE_CALLER
    if request.user.is_authenticated:
        return f"user:{request.user.pk}"
    return None


def correction_keys_purge(*, cutoff: dt.datetime) -> list[int]:
    """The daily clean-up's part for corrections: delete the keys made before
    ``cutoff``; answers ``[how many]`` (a handler of ``core.hooks.idempotency_purging``)."""
    deleted, _ = CorrectionKey.objects.filter(created_at__lt=cutoff).delete()
    return [deleted]


def idempotent_correction(method: Callable[..., Response]) -> Callable[..., Response]:
    """Make a deal view's PUT honour ``Idempotency-Key`` (the URL has ``game_id``)."""

    @functools.wraps(method)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request_key(request)  # 400 for a malformed key, whoever sends it
        caller = caller_of(request)
        game_id = kwargs.get("game_id")
        if key is None or caller is None or not str(game_id).isdigit():
            return method(view, request, *args, **kwargs)
        once = _Once(int(game_id), caller, key, request_fingerprint(request))
        for _ in range(2):  # twice only when the key's old row was past its retention
            outcome = once.run(lambda: method(view, request, *args, **kwargs))
            if outcome is not None:
                return outcome
        raise IntegrityError(f"{HEADER} {key!r} kept colliding")  # pragma: no cover

    wrapper.idempotent = True  # type: ignore[attr-defined]  # the schema documents it
    return wrapper


class _Refused(Exception):  # not an error: a response to pass through, past the rollback
    def __init__(self, response: Response) -> None:
        self.response = response


class _Once:
    def __init__(self, game_id: int, caller: str, key: str, print_: str) -> None:
        self.game_id, self.caller, self.key, self.fingerprint = game_id, caller, key, print_

    def run(self, work: Callable[[], Response]) -> Response | None:
        """The work and its answer under the key, in one transaction; the kept answer for
        a retry; None when the kept row was past its retention (it is gone: run again)."""
        try:
            with transaction.atomic():
                response = work()
                if not 200 <= response.status_code < 300:
                    raise _Refused(response)
                CorrectionKey.objects.create(
                    game_id=self.game_id,
                    caller=self.caller,
                    key=self.key,
                    fingerprint=self.fingerprint,
                    status=response.status_code,
                    body=response.data,
                )
                return response
        except IntegrityError:
            kept, expired = self._kept()
            if kept is not None:
                return self._replay(kept)
            if expired:
                return None
            raise
        except _Refused as refused:
            kept, _ = self._kept()
            return self._replay(kept) if kept is not None else refused.response
        except Exception:
            # A retry whose work is now refused (the game was confirmed since, say)
            # answers what the first request answered.
            kept, _ = self._kept()
            if kept is not None:
                return self._replay(kept)
            raise

    def _kept(self) -> tuple[CorrectionKey | None, bool]:
        record = CorrectionKey.objects.filter(
            game_id=self.game_id, caller=self.caller, key=self.key
        ).first()
        if record is not None and record.created_at < timezone.now() - retention():
            record.delete()
            return None, True
        return record, False

    def _replay(self, record: CorrectionKey) -> Response:
        if record.fingerprint != self.fingerprint:
            raise Unprocessable(KEY_REUSED)
        return Response(record.body, status=record.status)
