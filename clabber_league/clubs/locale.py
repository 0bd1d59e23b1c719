"""A club's own time zone and language, for the length of one request or task.

Every page and API call under a club's URL runs inside :func:`club_locale` (``club_view``,
``ClubScopedMixin``), so ``timezone.localdate()`` is the club's "today", times are shown in
the club's zone and a date typed into a form is read in it. A task that works for every
club (reminders, the night's fixture lists) asks :func:`club_today` per club instead.

The site's default, for a club that sets none, is ``TIME_ZONE`` and ``LANGUAGE_CODE``
(``docs/time-zones.md``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import timezone, translation

from .models import club_zone

if TYPE_CHECKING:
    from .models import Club


def language_supported(code: str) -> bool:
    return code in {c for c, _ in settings.LANGUAGES}


def supported_language(code: str | None) -> str:
    """``code`` as one of ``LANGUAGES`` (``de-ch`` is ``de``), or "" for a missing or
    unknown one."""
    if not code:
        return ""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def pick_language(*codes: str | None) -> str:
    """The first of ``codes`` that the site speaks, else ``LANGUAGE_CODE`` (English).

    The order is the caller's: on a page, the member's own choice (or a visitor's from the
    switcher), then the club's default, then the browser's ``Accept-Language``."""
    for code in codes:
        found = supported_language(code)
        if found:
            return found
    return settings.LANGUAGE_CODE


@contextlib.contextmanager
def club_locale(club: Club, *, language: str | None = None) -> Iterator[None]:
    """Inside: the club's zone is the current time zone and its language the active one
    (or ``language`` where the caller already chose: the member's own choice on a page,
    English in the API); both are restored after, whatever happens."""
    chosen = pick_language(language, club.language)
    with timezone.override(club.zone), translation.override(chosen):
        yield


def club_locale_stream(club: Club, response: Any, *, language: str | None = None) -> Any:
    """A streamed response (a CSV export) is written after its view has returned: its rows
    are produced in the club's zone and the view's language too."""
    if getattr(response, "streaming", False):
        response.streaming_content = _in_locale(club, response.streaming_content, language)
    return response


def _in_locale(club: Club, chunks: Iterable[Any], language: str | None) -> Iterator[Any]:
    with club_locale(club, language=language):
        yield from chunks


def club_today(club: Club | str, now: dt.datetime | None = None) -> dt.date:
    """The date it is now at the club (a club or the name of its zone)."""
    name = club if isinstance(club, str) else club.time_zone
    return (now or timezone.now()).astimezone(club_zone(name)).date()
