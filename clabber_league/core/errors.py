"""The one error type of the service layer (HackSoft's ``ApplicationError`` idea).

A service that refuses a write raises :class:`ServiceError` (or one of the per-app
subclasses, ``GameError``, ``ScheduleError`` ...) with the same ``errors`` list the rules
engine gives: ``[{"field": "sides.B", "message": "..."}]``, one entry per mistake, and a
``kind`` saying what sort of refusal it is:

* ``invalid``   the input breaks a rule (HTTP 400);
* ``conflict``  the input is fine but the thing's state forbids it now (HTTP 409);
* ``not_found`` something the input names does not exist for this club (HTTP 404);
* ``forbidden`` the caller may not do this (HTTP 403);
* ``throttled`` too many tries: wait ``retry_after`` seconds (HTTP 429, ``Retry-After``).

A refusal that collects several mistakes marks the conflicts among them with
:func:`conflict`; it is a conflict (409) when all of them are, else invalid (400).

The API's exception handler (``core.api.exception_handler``) turns it into the one error
body (a problem whose ``errors`` are these, and whose ``code`` is an entry's ``code`` where
one gives it, else the status's) with the kind's status, so no API view catches it; the pages
catch it and show the messages beside the form's fields. Nothing here imports Django: the
planners and services below the web layer may raise it freely.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Self

INVALID = "invalid"
CONFLICT = "conflict"
NOT_FOUND = "not_found"
FORBIDDEN = "forbidden"
THROTTLED = "throttled"

#: The HTTP status of each kind of refusal.
STATUS = {INVALID: 400, CONFLICT: 409, NOT_FOUND: 404, FORBIDDEN: 403, THROTTLED: 429}


class ServiceError(Exception):
    """A rejected write: ``errors`` are ``{"field", "message"}`` entries, ``kind`` one of
    :data:`STATUS`. Nothing was written."""

    default_kind: ClassVar[str] = INVALID

    def __init__(
        self,
        errors: Iterable[dict[str, str]],
        *,
        kind: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        #: Seconds to wait before trying again (a ``throttled`` refusal): ``Retry-After``.
        self.retry_after = retry_after
        entries = list(errors)
        #: The problem code the API answers with (``core.api.PROBLEMS``): the first an
        #: entry names (``{"field", "message", "code"}``), else None: the kind's status's.
        self.code: str | None = next((e["code"] for e in entries if e.get("code")), None)
        self.errors: list[dict[str, str]] = [
            {"field": e["field"], "message": e["message"]} for e in entries
        ]
        if not self.errors:
            raise ValueError("a ServiceError needs at least one error entry")
        # An entry may say its own kind (``conflict(...)``): when every entry is of one
        # kind, that is the refusal's; a mix is invalid input first (400).
        kinds = {e.get("kind") or self.default_kind for e in entries}
        self.kind = kind or (kinds.pop() if len(kinds) == 1 else INVALID)
        if self.kind not in STATUS:
            raise ValueError(f"unknown ServiceError kind {self.kind!r}")
        super().__init__(
            "; ".join(
                f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in self.errors
            )
        )

    @classmethod
    def one(cls, field_name: str, message: str, *, kind: str | None = None) -> Self:
        """One mistake, on one field (``""`` for the request as a whole)."""
        return cls([{"field": field_name, "message": message}], kind=kind)

    @property
    def status(self) -> int:
        """The HTTP status the API answers with."""
        return STATUS[self.kind]

    def messages_for(self, field_name: str) -> list[str]:
        """The messages about one field (a page shows them beside it)."""
        return [e["message"] for e in self.errors if e["field"] == field_name]


def conflict(field_name: str, message: str) -> dict[str, str]:
    """An error entry that is a conflict with what is stored (a name taken, a state that
    forbids the change): a refusal made only of these answers 409, not 400."""
    return {"field": field_name, "message": message, "kind": CONFLICT}
