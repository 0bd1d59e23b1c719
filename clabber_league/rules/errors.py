"""Errors of the rules engine: what a club scorer is told, and what cannot happen.

Two kinds, kept apart as Tabbycat's draw generators do:

* :class:`RulesError` rejects input that breaks the rules of the game or the
  calculator contract (RULES.md section 5).  It carries a list of entries
  ``{"field": <JSON path of the input>, "message": <sentence for a scorer>}``,
  so one answer can name several mistakes at once.
* :class:`RulesBug` is raised when the engine itself reaches a state that its
  own checks should have made impossible.  It is never the user's fault and is
  never turned into a 400 answer.

An answer is bounded whatever the input: at most :data:`MAX_ERRORS` entries are
listed, then one more saying how many were left out; and a value quoted back in a
message is shortened by :func:`shown` (a list or an object is named, never printed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final


def gettext_noop(text: str) -> str:
    """Mark a scorer's message for the translation catalogs and return it unchanged.

    The engine is standard library only, so it cannot translate: it marks its
    message templates with this name, which Django's ``makemessages`` collects
    like its own ``gettext_noop``, and :func:`msg` keeps the template and its
    values beside the English text.  A page then shows the message in the
    reader's language (``games.messages.translated``); the API and the
    calculator contract keep the English text.
    """
    return text


class Message(str):
    """An English message that remembers its template and values, to be translated later.

    It is a ``str`` (the English text), so it is compared, joined, serialised and
    raised like any message; ``template`` and ``params`` let a translating
    layer build the same sentence in another language.
    """

    template: str
    params: dict[str, Any]
    plural: str = ""
    """The plural template of a message that counts (:func:`ngettext`), else ""."""
    count: int = 0


def msg(template: str, /, **params: Any) -> Message:
    """``template.format(**params)``, keeping the template and values for translation."""
    message = Message(template.format(**params))
    message.template = template
    message.params = params
    return message


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Message:
    """A message that counts, in English (``singular`` for 1), kept for translation.

    Named as gettext's own plural call so that ``makemessages`` gathers both forms; a
    translating layer picks the language's form for ``count`` (Czech, Polish and
    Croatian have three or four).
    """
    message = msg(singular if count == 1 else plural, **params)
    message.template = singular
    message.plural = plural
    message.count = count
    return message


MAX_ERRORS: Final = 50
"""At most this many errors are listed in one answer (RULES.md section 5)."""
MORE_ERRORS: Final = gettext_noop(
    "{count} more error(s) not listed; fix the ones above and try again."
)
SHOWN_CHARS: Final = 40
"""A quoted text value is cut to this many characters in a message."""


def shown(value: Any) -> str:
    """A short, safe spelling of an input value for a message: never deep, never long.

    Strings and numbers are quoted (cut to :data:`SHOWN_CHARS`); a list or an
    object is named by its type, so a deeply nested or huge input cannot make a
    message deep or huge.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() < 128 else "a huge number"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) > SHOWN_CHARS:
            return repr(value[:SHOWN_CHARS]) + "..."
        return repr(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a " + type(value).__name__


def field_key(key: Any) -> str:
    """An input's object key as part of a field path, cut like :func:`shown`'s text."""
    text = key if isinstance(key, str) else str(key)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "..."


class RulesError(ValueError):
    """A rejected input: one or more ``{"field", "message"}`` entries."""

    def __init__(self, errors: Iterable[dict[str, str]] | str, field: str = "") -> None:
        if isinstance(errors, str):
            entries = [{"field": field, "message": errors}]
        else:
            entries = []
            more = 0
            for e in errors:
                counted = _more_count(e)
                if counted:
                    more += counted
                elif len(entries) < MAX_ERRORS:
                    entries.append({"field": e["field"], "message": e["message"]})
                else:
                    more += 1
            if more:
                entries.append({"field": "", "message": msg(MORE_ERRORS, count=more)})
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
            e if _more_count(e) else {"field": _join(prefix, e["field"]), "message": e["message"]}
            for e in self.errors
        )

    def to_data(self) -> dict[str, list[dict[str, str]]]:
        """The error body of the calculator contract: ``{"errors": [...]}``."""
        return {"errors": [dict(e) for e in self.errors]}


class RulesBug(RuntimeError):
    """An internal inconsistency of the engine ("cannot happen"), never a user error."""


class ErrorList:
    """Collects several rejections before raising them together as one RulesError."""

    __slots__ = ("entries", "more")

    def __init__(self) -> None:
        self.entries: list[dict[str, str]] = []
        self.more = 0
        """Errors counted but not kept (beyond :data:`MAX_ERRORS`)."""

    def add(self, field: str, message: str) -> None:
        if len(self.entries) < MAX_ERRORS:
            self.entries.append({"field": field, "message": message})
        else:
            self.more += 1

    def extend(self, error: RulesError, prefix: str = "") -> None:
        for e in error.errors:
            counted = _more_count(e)
            if counted:
                self.more += counted
                continue
            self.add(_join(prefix, e["field"]), e["message"])

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
            more = [{"field": "", "message": msg(MORE_ERRORS, count=self.more)}]
            raise RulesError(self.entries + (more if self.more else []))


_MORE_TAIL: Final = MORE_ERRORS.split("}", 1)[1]


def _more_count(entry: dict[str, str]) -> int:
    """How many errors a "... more error(s) not listed" entry stands for (0 for any other)."""
    message = entry["message"]
    if entry["field"] or not message.endswith(_MORE_TAIL):
        return 0
    head = message.split(" ", 1)[0]
    return int(head) if head.isdigit() else 0


def _join(prefix: str, field: str) -> str:
    if not prefix:
        return field
    if not field:
        return prefix
    if field.startswith("["):
        return prefix + field
    return f"{prefix}.{field}"
