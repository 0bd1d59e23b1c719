"""Showing the rules engine's messages in the reader's language.

The engine (``clabber_league.rules``) is standard library only: it writes its
messages in English and keeps each one's template and values
(:class:`clabber_league.rules.errors.Message`). A page calls :func:`translated`
to show a message in the active language; the API keeps the English text.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext


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
    try:
        return gettext(template).format(**message.params)
    except (KeyError, IndexError, ValueError):
        return text


def translated_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's ``{"field", "message"}`` entries with each message translated."""
    return [{**entry, "message": translated(entry["message"])} for entry in errors]
