"""``Idempotency-Key`` on the API's creating POSTs, as the IETF httpapi draft describes it.

Mark a view method with :func:`idempotent`; the schema then documents the header and 422.
A client sends ``Idempotency-Key: <unique string>`` (1 to 80 printable ASCII characters):

- the key is the **caller's** (a logged-in user's): two users never share one;
- the first request runs, and its successful response (status and body) is kept for
  ``IDEMPOTENCY_RETENTION`` (24 hours);
- a retry with the same key and the **same request** (method, path and JSON body) gets
  that response again, status included, and nothing is done twice;
- the same key with **another request** is refused with 422;
- a request that failed (4xx/5xx) keeps nothing: fix it and send it again with the same key.

The key's row is written in the same transaction as the work, and it is unique per caller:
that unique index is the check, so a first request reads nothing more. A retry (or one
racing the first request) fails on that row, its work is rolled back with it, and it
answers the first one's response. Anonymous requests
and requests without the header work as before; a malformed key is refused with 400 from
anyone (:func:`request_key`), never cut to fit.

A view whose POST creates one row that can carry the key itself (recording a deal: the
deal's own ``idempotency_key`` column, unique per game) is marked :func:`keyed_by_row`
instead: no separate row is written, the row's unique index is the check, and the view
replays from the row it finds (:func:`caller_key`, :func:`check_replay`), with the same
400 and 422 answers as above. Such a key is kept as long as its row, and once the row
is deleted for ``IDEMPOTENCY_RETENTION`` more (a deleted deal's key stays on its game:
a retry is told the deal was deleted, 409, and is not given a new one).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from .api import Unprocessable, errors_body
from .models import IdempotencyRecord
from .services import retention

HEADER = "Idempotency-Key"
KEY_MAX_LENGTH = 80
KEY_INVALID = (
    f"The Idempotency-Key header is 1 to {KEY_MAX_LENGTH} printable ASCII characters "
    "(a UUID is a good choice)."
)
KEY_REUSED = (
    "This Idempotency-Key was already used for another request; use a new key for a new request."
)
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        f"A key unique to this request, 1 to {KEY_MAX_LENGTH} printable ASCII characters, kept "
        "24 hours. A retry with the same key and body answers the first response again "
        "(same status and body) without doing anything twice; the same key with another "
        "body is refused with 422."
    ),
)


def valid_key(key: str) -> bool:
    """1 to ``KEY_MAX_LENGTH`` printable ASCII characters (space to ``~``)."""
    return 0 < len(key) <= KEY_MAX_LENGTH and key.isascii() and key.isprintable()


def request_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key`` exactly as sent; ``None`` without the header.

    A key outside the documented form is refused with 400 whoever sends it (a logged-in
    caller, the phone at a table, anyone): it is never cut to fit, since a key cut short
    could be another request's key."""
    key = request.headers.get(HEADER)
    if key is not None and not valid_key(key):
        raise ValidationError(errors_body(HEADER, KEY_INVALID))
    return key


def idempotent(method: Callable[..., Response]) -> Callable[..., Response]:
    """Make a view's POST honour ``Idempotency-Key``."""

    @functools.wraps(method)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request_key(request)  # 400 for a malformed key, whoever sends it
        if key is None or not request.user.is_authenticated:
            return method(view, request, *args, **kwargs)
        fingerprint = request_fingerprint(request)
        for _ in range(2):  # twice only when the key's old row was past its retention
            outcome = _run_once(method, view, request, args, kwargs, key, fingerprint)
            if outcome is not None:
                return outcome
        raise IntegrityError(f"{HEADER} {key!r} kept colliding")  # pragma: no cover

    wrapper.idempotent = True  # type: ignore[attr-defined]
    return wrapper


def keyed_by_row(method: Callable[..., Response]) -> Callable[..., Response]:
    """Mark a view's POST that keeps ``Idempotency-Key`` on the row it creates: the schema
    documents the header and 422 as for :func:`idempotent`; the view calls
    :func:`caller_key` and, on a replay, :func:`check_replay`."""
    method.idempotent = True  # type: ignore[attr-defined]
    return method


def caller_key(request: Request) -> tuple[str, str] | None:
    """The request's key as a row keeps it, and the request's fingerprint; ``None`` without
    the header or for an anonymous caller (as :func:`idempotent`). 400 for a bad key, an
    anonymous caller's too.

    The stored key is the caller's: ``u<user id>:<key>``, so two callers never share one
    (a key too long for that is kept by its SHA-256 instead)."""
    key = request_key(request)
    if key is None or not request.user.is_authenticated:
        return None
    stored = f"u{request.user.pk}:{key}"
    if len(stored) > KEY_MAX_LENGTH:
        digest = hashlib.sha256(key.encode("ascii")).hexdigest()
        stored = f"u{request.user.pk}#{digest}"[:KEY_MAX_LENGTH]
    return stored, request_fingerprint(request)


def check_replay(kept_fingerprint: str, fingerprint: str) -> None:
    """A key found on its row answers that row again, unless this request is another one
    (422). A row kept without a fingerprint is replayed."""
    if kept_fingerprint and kept_fingerprint != fingerprint:
        raise Unprocessable(KEY_REUSED)


def _run_once(
    method: Callable[..., Response],
    view: Any,
    request: Request,
    args: tuple,
    kwargs: dict,
    key: str,
    fingerprint: str,
) -> Response | None:
    """Do the work and keep its response under the key, in one transaction.

    The key's unique index is the check: a first request costs no read of it. When the key
    was used before, the insert fails (or the work is refused, the game being finished by
    the first request, say), everything is rolled back, and only then is the kept response
    read and answered. ``None``: the kept row was past its retention and is gone; try again.
    """
    try:
        with transaction.atomic():
            response = method(view, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                raise _Refused(response)  # nothing was done: the key may be used again
            IdempotencyRecord.objects.create(
                user=request.user,
                key=key,
                fingerprint=fingerprint,
                method=request.method,
                path=request.path[:500],
                status=response.status_code,
                body=response.data,
            )
            return response
    except IntegrityError:
        # The key was used before (or a request with it committed first): this one's work
        # is rolled back with the failed insert, and the first one's response is the answer.
        kept, expired = _kept(request.user, key)
        if kept is not None:
            return _replay(kept, fingerprint)
        if expired:
            return None
        raise
    except _Refused as refused:
        kept, _ = _kept(request.user, key)
        return _replay(kept, fingerprint) if kept is not None else refused.response
    except Exception:
        # A retry whose work is now refused (the first request finished the game, say)
        # answers what the first request answered.
        kept, _ = _kept(request.user, key)
        if kept is not None:
            return _replay(kept, fingerprint)
        raise


class _Refused(Exception):  # not an error: a response to pass through, past the rollback
    def __init__(self, response: Response) -> None:
        self.response = response


def _kept(user: Any, key: str) -> tuple[IdempotencyRecord | None, bool]:
    """The kept response under the caller's key, and whether one past its retention was
    just removed (the key is then free again)."""
    record = IdempotencyRecord.objects.filter(user=user, key=key).first()
    if record is not None and record.created_at < timezone.now() - retention():
        record.delete()
        return None, True
    return record, False


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.fingerprint != fingerprint:
        raise Unprocessable(KEY_REUSED)
    return Response(record.body, status=record.status)


def is_idempotent(view: Any, http_method: str) -> bool:
    name = (getattr(view, "action_map", None) or {}).get(http_method.lower()) or http_method.lower()
    return bool(getattr(getattr(view, name, None), "idempotent", False))


def request_fingerprint(request: Request) -> str:
    """SHA-256 of the request's method, path and JSON body (keys sorted): what tells a retry
    from another request sent with the same key."""
    try:
        body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        body = repr(request.data)
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
