"""Showing the rules engine's messages in the reader's language.

The engine (``clabber_league.rules``) is standard library only: it writes its
messages in English and keeps each one's template and values
(:class:`clabber_league.rules.errors.Message`). A page calls :func:`translated`
to show a message in the active language; the API keeps the English text.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy


def translated(message: Any) -> str:
    """``message`` in the active language, or as it is when it has no translation.

    A message built by ``rules.errors.msg`` is rebuilt from its translated
    template. A translation whose placeholders do not fit the values (the
    build's ``msgfmt --check-format`` should have refused it) falls back to the
    English text rather than break the page.
    """
    text = str(message)
    template = getattr(message, "template", None)
    if template is None:
        return gettext(text) if text else text
    params = {
        name: translated(value) if getattr(value, "template", None) else value
        for name, value in message.params.items()
    }
    plural = getattr(message, "plural", "")
    try:
        if plural:
            return ngettext(template, plural, message.count).format(**params)
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def translated_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's ``{"field", "message"}`` entries with each message translated."""
    return [{**entry, "message": translated(entry["message"])} for entry in errors]


DATE_FORMATS = (
    pgettext_lazy("date format", "j M Y"),
    pgettext_lazy("date format", "j F Y"),
    pgettext_lazy("date format", "l j F Y"),
    pgettext_lazy("date format", "l j F"),
    pgettext_lazy("date format", "D j M Y"),
    pgettext_lazy("date format", "D j M"),
    pgettext_lazy("date format", "j M"),
    pgettext_lazy("date format", "j M Y H:i"),
    pgettext_lazy("date format", "j M H:i"),
    pgettext_lazy("date format", "j M H:i:s"),
    pgettext_lazy("date format", "D j M H:i"),
    pgettext_lazy("date format", "H:i"),
)
"""The date formats the pages use, as English writes them (Django's ``date`` letters).

Each is a ``"date format"`` message in the catalogs: a translator gives the same date
in the language's own order and separators (``j. M Y``, ``Y年n月j日``) with the same
letters, never words. Add a format here before using it in ``ldate`` or
:func:`local_format`.
"""


def local_format(english_format: str) -> str:
    """The active language's spelling of a date format used by the pages."""
    return pgettext("date format", english_format)
