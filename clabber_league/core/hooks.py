"""Explicit hooks: how a lower layer tells a higher one that something changed.

The apps are layered (``docs/ARCHITECTURE.md``): games sits below standings, so the game
services cannot import the standings, yet a recorded deal must change the table in the same
transaction. Instead of a model signal (invisible at the call site) or an upward import,
the lower app declares a :class:`Hook` in its ``hooks.py`` and calls it where the change
happens; the higher app registers its handler once, in its ``AppConfig.ready()``::

    # games/hooks.py (the lower layer declares and calls)
    game_changed = Hook("game_changed")
    game_changed.send(game=game, status_before=before)

    # standings/apps.py (the higher layer registers)
    game_changed.connect(standings_game_changed)

Handlers run synchronously, in registration order, inside the caller's transaction: an
exception rolls the whole write back, so the standings can never disagree with the deals.
A hook can also ask: ``ask()`` gathers what its handlers return (the bookings of a night
the cups hold, say), so the lower layer learns it without importing the higher one.
``handlers()`` lists what is registered, so a reader (or a test) can see who listens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Handler = Callable[..., None]


class Hook:
    """A named list of handlers, each called with the same keyword arguments."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._handlers: list[Handler] = []

    def connect(self, handler: Handler) -> Handler:
        """Register ``handler`` (once; connecting it again changes nothing). Usable as a
        decorator."""
        if handler not in self._handlers:
            self._handlers.append(handler)
        return handler

    def disconnect(self, handler: Handler) -> None:
        if handler in self._handlers:
            self._handlers.remove(handler)

    def handlers(self) -> tuple[Handler, ...]:
        return tuple(self._handlers)

    def send(self, **kwargs: Any) -> None:
        """Call every handler with ``kwargs``; the first exception propagates."""
        for handler in tuple(self._handlers):
            handler(**kwargs)

    def ask(self, **kwargs: Any) -> list[Any]:
        """Call every handler with ``kwargs`` and gather what they answer: each handler
        returns an iterable (or ``None``), and the items of all of them come back in one
        list, in registration order. For a hook that asks the layers above a question
        (``scheduling.hooks.night_bookings``: what else holds a night's tables?)."""
        answers: list[Any] = []
        for handler in tuple(self._handlers):
            answers.extend(handler(**kwargs) or ())
        return answers

    def __repr__(self) -> str:
        names = ", ".join(getattr(h, "__qualname__", repr(h)) for h in self._handlers)
        return f"<Hook {self.name}: {names or 'no handlers'}>"


#: Asked with ``cutoff`` (a datetime) by the daily clean-up of Idempotency-Keys
#: (``core.services.idempotency_records_purge``): each handler deletes the keys its app keeps
#: that were made before it, and answers ``[how many]``.
idempotency_purging = Hook("idempotency_purging")
