"""An optional read replica for the standings and leaderboards, never for a member's own
reads right after a write.

With ``DATABASE_REPLICA_URL`` set, the settings add a second database, ``replica`` (a
PostgreSQL streaming replica of the primary, directly or through its own PgBouncer), and
this router. A read goes to the replica only when all of these hold:

- the request is a ``GET`` or ``HEAD`` answered by a view of a module named in
  ``DATABASE_REPLICA_VIEWS`` (default: the standings app, whose pages and API are the
  standings tables, the leaderboards and the ratings: the most read pages of a club night,
  and only reads);
- nothing was written in this request so far (a write sends every later read of the
  request to the primary);
- the browser is not "pinned": every request that writes (any ``POST``, ``PUT``, ``PATCH``,
  ``DELETE``, or any request that wrote) sets the ``clabber_primary`` cookie for
  ``DATABASE_REPLICA_PIN_SECONDS`` (default 10 s, well over a healthy replica's lag), and
  while it lasts that browser's reads all go to the primary: the scorer who just recorded a
  deal sees it in the table at once, whatever the replica's lag.

Everything else (writes, the rest of the site, Celery tasks, management commands)
uses the primary. Hand-written statements read through ``core.store.read_connection()``,
which follows the same rule. Migrations run on the primary only (the replica follows it).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.http import HttpRequest, HttpResponse

PIN_COOKIE = "clabber_primary"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

_replica_reads: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "clabber_replica_reads", default=False
)
_wrote: contextvars.ContextVar[bool] = contextvars.ContextVar("clabber_wrote", default=False)


def replica_alias() -> str:
    """The replica's alias, ``""`` when there is none."""
    return getattr(settings, "DATABASE_REPLICA_ALIAS", "") or ""


def read_alias() -> str:
    """Where a read of this moment goes: the replica or the primary."""
    alias = replica_alias()
    if alias and _replica_reads.get() and not _wrote.get():
        return alias
    return DEFAULT_DB_ALIAS


class ReplicaRouter:
    """Django's database router: reads as ``read_alias()`` says, writes to the primary."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        alias = read_alias()
        return alias if alias != DEFAULT_DB_ALIAS else None

    def db_for_write(self, model: type, **hints: Any) -> str | None:
        _wrote.set(True)
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        # The replica holds the primary's rows: an object read there may point at one
        # read (or written) on the primary.
        known = {DEFAULT_DB_ALIAS, replica_alias()}
        if obj1._state.db in known and obj2._state.db in known:
            return True
        return None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        if replica_alias() and db == replica_alias():
            return False
        return None


def _replica_view(view_func: Callable) -> bool:
    module = getattr(getattr(view_func, "cls", view_func), "__module__", "") or ""
    prefixes = getattr(settings, "DATABASE_REPLICA_VIEWS", ())
    return any(module == p or module.startswith(p + ".") for p in prefixes)


class ReplicaMiddleware:
    """Decides per request whether its reads may use the replica, and pins a browser that
    wrote to the primary for a few seconds. Does nothing without a replica."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_alias():
            return self.get_response(request)
        reads = _replica_reads.set(False)
        wrote = _wrote.set(False)
        try:
            response = self.get_response(request)
            if request.method not in SAFE_METHODS or _wrote.get():
                response.set_cookie(
                    PIN_COOKIE,
                    "1",
                    max_age=int(getattr(settings, "DATABASE_REPLICA_PIN_SECONDS", 10)),
                    httponly=True,
                    samesite="Lax",
                    secure=bool(getattr(settings, "SESSION_COOKIE_SECURE", False)),
                )
            return response
        finally:
            _replica_reads.reset(reads)
            _wrote.reset(wrote)

    def process_view(
        self, request: HttpRequest, view_func: Callable, view_args: Any, view_kwargs: Any
    ) -> None:
        if (
            replica_alias()
            and request.method in ("GET", "HEAD")
            and request.COOKIES.get(PIN_COOKIE) != "1"
            and _replica_view(view_func)
        ):
            _replica_reads.set(True)
        return None
