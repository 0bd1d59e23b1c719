"""What a worker writes for people to read, shown in the reader's language.

A schedule run's message and notes, a club-night draw's progress: written once, by the
worker, in no reader's language. They keep their English text (the API's) and, beside
it, each sentence's template and values (``rules.errors.msg`` marks them
``gettext_noop``). A page rebuilds them from the catalog of its own language
(``core.i18n.translated``). A date among the values is kept as ``{"date": "2026-09-08"}``
and written in the reader's order here; a count (``Count``) as ``{"number": 4000}``,
grouped as the reader's language groups thousands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.formats import date_format, number_format

from clabber_league.core.i18n import local_format, translated
from clabber_league.rules.errors import msg, ngettext

#: How a date among a message's values is written ("Tue 8 Sep 2026" in English).
DAY_FORMAT = "D j M Y"


class Count(int):
    """A count among a message's values, grouped as the reader's language groups
    thousands ("4,000" in English, "4.000" in Dutch): kept as ``{"number": 4000}``."""

    def __format__(self, spec: str) -> str:
        return format(int(self), spec or ",")


def part(message: Any) -> dict[str, Any]:
    """One sentence as stored: its template and values when it has them, else its text."""
    template = getattr(message, "template", None)
    if template is None:
        return {"text": str(message)}
    stored = {"template": template, "params": stored_params(message.params)}
    if getattr(message, "plural", ""):  # rules.errors.ngettext: the count picks the form
        stored.update(plural=message.plural, count=message.count)
    return stored


def message_data(messages: Iterable[Any]) -> dict[str, Any]:
    """``ScheduleRun.message_data`` for a message made of these sentences."""
    return {"parts": [part(m) for m in messages]}


def stored_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Values as JSON keeps them: a date becomes ``{"date": iso}``, a ``Count``
    ``{"number": n}``, a sentence of its own (``msg``) ``{"message": part}``."""
    out = {}
    for key, value in params.items():
        if getattr(value, "template", None) is not None:
            value = {"message": part(value)}
        elif isinstance(value, dt.date):
            value = {"date": value.isoformat()}
        elif isinstance(value, Count):
            value = {"number": int(value)}
        out[key] = value
    return out


def _shown_params(params: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in params.items():
        if isinstance(value, dict) and "date" in value:
            try:
                value = date_format(dt.date.fromisoformat(value["date"]), local_format(DAY_FORMAT))
            except (TypeError, ValueError):
                value = value["date"]
        elif isinstance(value, dict) and "number" in value:
            value = number_format(value["number"], force_grouping=True)
        elif isinstance(value, dict) and isinstance(value.get("message"), dict):
            value = shown(value["message"])
        out[key] = value
    return out


def shown(entry: Mapping[str, Any]) -> str:
    """A stored sentence (a ``part`` or a note) in the active language."""
    template = entry.get("template")
    if template:
        try:
            params = _shown_params(entry.get("params") or {})
            if entry.get("plural"):
                count = int(entry.get("count") or 0)
                return translated(ngettext(template, entry["plural"], count, **params))
            return translated(msg(template, **params))
        except (KeyError, IndexError, ValueError):
            pass  # values that no longer fit the template: the English text
    return translated(str(entry.get("text") or ""))


def stored_message(data: Mapping[str, Any] | None, text: str) -> str:
    """A message stored as ``message_data(...)`` beside its English ``text``, in the
    active language (the text alone, translated when the catalog has it, for rows
    written before they kept their data)."""
    parts = (data or {}).get("parts")
    if parts:
        return " ".join(shown(p) for p in parts)
    return translated(text) if text else ""


def run_message(run: Any) -> str:
    """A schedule run's message in the active language."""
    return stored_message(run.message_data, run.message)


def notes_shown(notes: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A run's notes with each ``text`` in the active language."""
    return [{**note, "text": shown(note)} for note in notes]
