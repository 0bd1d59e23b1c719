"""Errors of the rules engine: what a club scorer is told, and what cannot happen.

Two kinds, kept apart as Tabbycat's draw generators do:

* :class:`RulesError` rejects input that breaks the rules of the game or the
  calculator contract (RULES.md section 5).  It carries a list of entries
  ``{"field": <JSON path of the input>, "message": <sentence for a scorer>}``,
  so one answer can name several mistakes at once.
* :class:`RulesBug` is raised when the engine itself reaches a state that its
  own checks should have made impossible.  It is never the user's fault and is
  never turned into a 400 answer.
"""

from __future__ import annotations

from collections.abc import Iterable


class RulesError(ValueError):
    """A rejected input: one or more ``{"field", "message"}`` entries."""

    def __init__(self, errors: Iterable[dict[str, str]] | str, field: str = "") -> None:
        if isinstance(errors, str):
            entries = [{"field": field, "message": errors}]
        else:
            entries = [{"field": e["field"], "message": e["message"]} for e in errors]
        if not entries:
            raise RulesBug("RulesError raised without any error entry")
        self.errors: list[dict[str, str]] = entries
        super().__init__(str(self))

    def __str__(self) -> str:
        return "; ".join(
            f"{e['field']}: {e['message']}" if e["field"] else e["message"] for e in self.errors
        )

    def prefixed(self, prefix: str) -> RulesError:
        """The same errors with every field put under ``prefix`` (``deals[3]`` ...)."""
        return RulesError(
            {"field": _join(prefix, e["field"]), "message": e["message"]} for e in self.errors
        )

    def to_data(self) -> dict[str, list[dict[str, str]]]:
        """The error body of the calculator contract: ``{"errors": [...]}``."""
        return {"errors": [dict(e) for e in self.errors]}


class RulesBug(RuntimeError):
    """An internal inconsistency of the engine ("cannot happen"), never a user error."""


class ErrorList:
    """Collects several rejections before raising them together as one RulesError."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: list[dict[str, str]] = []

    def add(self, field: str, message: str) -> None:
        self.entries.append({"field": field, "message": message})

    def extend(self, error: RulesError, prefix: str = "") -> None:
        for e in error.errors:
            self.entries.append({"field": _join(prefix, e["field"]), "message": e["message"]})

    def has(self, field: str) -> bool:
        """Whether an error was already recorded for ``field`` or anything under it."""
        return any(
            e["field"] == field or e["field"].startswith((field + ".", field + "["))
            for e in self.entries
        )

    def __bool__(self) -> bool:
        return bool(self.entries)

    def raise_if_any(self) -> None:
        if self.entries:
            raise RulesError(self.entries)


def _join(prefix: str, field: str) -> str:
    if not prefix:
        return field
    if not field:
        return prefix
    if field.startswith("["):
        return prefix + field
    return f"{prefix}.{field}"
