"""``Idempotency-Key`` on the API's writes, as the IETF httpapi draft describes it: one
mechanism for every view that takes the header (creating POSTs, a deal recorded by a page's
phone or a table phone, a deal's correction).

Mark a view method with :func:`idempotent`; the schema then documents the header and 422.
A client sends ``Idempotency-Key: <unique string>`` (1 to 80 printable ASCII characters):

- the key is the **caller's** (:class:`Key`: a logged-in user's, or the phone at a table's):
  two callers never share one;
- the first request runs, and its successful answer is kept for ``IDEMPOTENCY_RETENTION``
  (24 hours);
- a retry with the same key and the **same request** (method, path and JSON body) gets
  that answer again, status included, and nothing is done twice;
- the same key with **another request** is refused with 422 (:func:`check_replay`);
- a request that failed (4xx/5xx) keeps nothing: fix it and send it again with the same key.

Where the first answer is kept is the view's :class:`Keeper`: by default a row of its own
per caller (:class:`Responses`, ``core.IdempotencyRecord``); a deal's correction keeps it
with its game (``games.replay``). Either way the key's row is written in the same
transaction as the work, and it is unique per caller: that unique index is the check, so a
first request reads nothing more. A retry (or one racing the first request) fails on that
row, its work is rolled back with it, and it answers the first one's response.

A view whose POST creates one row that carries the key itself (recording a deal: the
deal's own ``idempotency_key`` column, unique per game) is marked ``idempotent(keeper=None)``:
no separate row is written, the row's unique index is the check, and the view reads the
caller's :class:`Key` (``request.idempotency_key``) and replays from the row it finds, with
the same 400 and 422 answers. Such a key is kept as long as its row, and once the row is
deleted for ``IDEMPOTENCY_RETENTION`` more (a deleted deal's key stays on its game: a retry
is told the deal was deleted, 409, and is not given a new one).

Anonymous requests and requests without the header work as before; a malformed key is
refused with 400 from anyone (:func:`request_key`), never cut to fit.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

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
        raise ValidationError({"errors": [{"field": HEADER, "message": KEY_INVALID}]})
    return key


@dataclass(frozen=True)
class Key:
    """A request's ``Idempotency-Key`` as its caller sent it: a logged-in user's
    (``user_id``) or the phone at a table's (``table``: the key is the game's table's,
    whoever holds its link), with the request's fingerprint (:func:`request_fingerprint`)."""

    value: str
    fingerprint: str
    user_id: int | None = None
    table: bool = False

    @property
    def stored(self) -> str:
        """The key as a row keeps it: a table's as sent; a user's ``u<user id>:<key>``, so
        two callers never share one (a key too long for that is kept by its SHA-256)."""
        if self.table:
            return self.value
        stored = f"u{self.user_id}:{self.value}"
        if len(stored) > KEY_MAX_LENGTH:
            digest = hashlib.sha256(self.value.encode("ascii")).hexdigest()
            stored = f"u{self.user_id}#{digest}"[:KEY_MAX_LENGTH]
        return stored

    @property
    def caller(self) -> str:
        """Whose key it is: ``table`` or ``user:<id>``."""
        return TABLE_CALLER if self.table else f"user:{self.user_id}"


TABLE_CALLER = "table"


def idempotency_key(request: Request, *, table: bool = False) -> Key | None:
    """The caller's :class:`Key`; ``None`` without the header, or for an anonymous caller
    not at a table. 400 for a malformed key, whoever sends it. ``table``: the request
    comes from the phone at a table (the view knows how it was let in)."""
    value = request_key(request)  # 400 for a malformed key, whoever sends it
    if value is None:
        return None
    if table:
        return Key(value, request_fingerprint(request), table=True)
    if not request.user.is_authenticated:
        return None
    return Key(value, request_fingerprint(request), user_id=request.user.pk)


class KeyReused(exceptions.APIException):
    """422: the key was used for another request (``core.api``: ``idempotency_key_reused``)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = KEY_REUSED
    default_code = "unprocessable"


def check_replay(kept_fingerprint: str, fingerprint: str) -> None:
    """A key found with its first answer answers it again, unless this request is another
    one (422). An answer kept without a fingerprint is replayed."""
    if kept_fingerprint and kept_fingerprint != fingerprint:
        raise KeyReused(KEY_REUSED)


class Keeper:
    """Where a view keeps a request's first answer under its key: rows with ``fingerprint``,
    ``status``, ``body`` and ``created_at``. :meth:`find` reads the row of a key (``None``
    if there is none), :meth:`keep` writes one (its unique index refuses a second)."""

    def find(self, key: Key) -> Any:
        raise NotImplementedError

    def keep(self, key: Key, request: Request, response: Response) -> None:
        raise NotImplementedError


class Responses(Keeper):
    """The default: a row per user and key (``core.IdempotencyRecord``)."""

    def __init__(self, user: Any) -> None:
        self.user = user

    def find(self, key: Key) -> IdempotencyRecord | None:
        return IdempotencyRecord.objects.filter(user=self.user, key=key.value).first()

    def keep(self, key: Key, request: Request, response: Response) -> None:
        IdempotencyRecord.objects.create(
            user=self.user,
            key=key.value,
            fingerprint=key.fingerprint,
            method=request.method,
            path=request.path[:500],
            status=response.status_code,
            body=response.data,
        )


def _responses(view: Any, request: Request, kwargs: dict) -> Keeper | None:
    return Responses(request.user) if request.user.is_authenticated else None


#: A view's keeper for one request (None: the request is served as if it had no key).
KeeperFor = Callable[[Any, Request, dict], Keeper | None]
#: Whether a request comes from the phone at a table (its key is then the table's).
AtTable = Callable[[Any, Request], bool]


def idempotent(
    method: Callable[..., Response] | None = None,
    *,
    keeper: KeeperFor | None = _responses,
    at_table: AtTable | None = None,
) -> Any:
    """Make a view's write honour ``Idempotency-Key``: ``@idempotent``, or
    ``@idempotent(keeper=..., at_table=...)``.

    ``keeper`` says where the first answer is kept (:class:`Responses` by default); ``None``
    when the view keeps the key on the row it writes: the wrapper then checks the key
    (400), hands the view the caller's :class:`Key` as ``request.idempotency_key`` and the
    view replays (:func:`check_replay`). ``at_table`` says whether a request comes from the
    phone at a table (its key is then the table's, and an anonymous phone has one)."""

    def decorate(method: Callable[..., Response]) -> Callable[..., Response]:
        @functools.wraps(method)
        def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
            table = bool(at_table(view, request)) if at_table is not None else False
            key = idempotency_key(request, table=table)
            request.idempotency_key = key
            kept_by = keeper(view, request, kwargs) if keeper and key else None
            if kept_by is None:
                return method(view, request, *args, **kwargs)
            for _ in range(2):  # twice only when the key's old row was past its retention
                outcome = _run_once(
                    lambda: method(view, request, *args, **kwargs), kept_by, key, request
                )
                if outcome is not None:
                    return outcome
            raise IntegrityError(f"{HEADER} {key.value!r} kept colliding")  # pragma: no cover

        wrapper.idempotent = True  # type: ignore[attr-defined]  # the schema documents it
        return wrapper

    return decorate(method) if method is not None else decorate


def _run_once(
    work: Callable[[], Response], keeper: Keeper, key: Key, request: Request
) -> Response | None:
    """Do the work and keep its response under the key, in one transaction.

    The key's unique index is the check: a first request costs no read of it. When the key
    was used before, the insert fails (or the work is refused, the game being finished by
    the first request, say), everything is rolled back, and only then is the kept response
    read and answered. ``None``: the kept row was past its retention and is gone; try again.
    """
    try:
        with transaction.atomic():
            response = work()
            if not 200 <= response.status_code < 300:
                raise _Refused(response)  # nothing was done: the key may be used again
            keeper.keep(key, request, response)
            return response
    except IntegrityError:
        # The key was used before (or a request with it committed first): this one's work
        # is rolled back with the failed insert, and the first one's response is the answer.
        kept, expired = _kept(keeper, key)
        if kept is not None:
            return _replay(kept, key)
        if expired:
            return None
        raise
    except _Refused as refused:
        kept, _ = _kept(keeper, key)
        return _replay(kept, key) if kept is not None else refused.response
    except Exception:
        # A retry whose work is now refused (the first request finished the game, say)
        # answers what the first request answered.
        kept, _ = _kept(keeper, key)
        if kept is not None:
            return _replay(kept, key)
        raise


class _Refused(Exception):  # not an error: a response to pass through, past the rollback
    def __init__(self, response: Response) -> None:
        self.response = response


def _kept(keeper: Keeper, key: Key) -> tuple[Any, bool]:
    """The kept answer under the caller's key, and whether one past its retention was
    just removed (the key is then free again)."""
    record = keeper.find(key)
    if record is not None and record.created_at < timezone.now() - retention():
        record.delete()
        return None, True
    return record, False


def _replay(record: Any, key: Key) -> Response:
    check_replay(record.fingerprint or "-", key.fingerprint)  # a kept answer always has one
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
