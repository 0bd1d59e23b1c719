"""Work that survives a dead worker: the heartbeat of a row a Celery task is working on.

A task that works on a row for a while (a schedule run, a club night's draw, a cup's
knockout build) beats the row's ``heartbeat_at`` every ``HEARTBEAT_EVERY`` seconds from a
thread of its own, on a connection of its own, whatever the work is doing. When the worker
dies the beats stop, and once the last one is ``HEARTBEAT_STALE`` old the work is taken to
have stopped: the page says so and the secretary can start it again (``stopped``).

PostgreSQL only: SQLite has one writer at a time, so there a row that started waits the
longer ``without_beats`` before it counts as stopped.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from typing import Any

from django.utils import timezone

from . import store

logger = logging.getLogger(__name__)

#: How often a working task beats.
HEARTBEAT_EVERY = 5.0
#: A running task whose last beat is this old has stopped (its worker died).
HEARTBEAT_STALE = dt.timedelta(seconds=30)
#: Work queued this long ago that no worker has started is taken to be lost (the worker
#: that had reserved it died, say); retrying it is harmless, as every task claims its row
#: before working on it.
QUEUED_STALE = dt.timedelta(minutes=1)


def beats() -> bool:
    """Whether running tasks beat on this database."""
    return store.is_postgresql()


def stopped(
    *,
    started: bool,
    last_sign: dt.datetime | None,
    without_beats: dt.timedelta,
    now: dt.datetime | None = None,
) -> bool:
    """Whether active work has stopped. ``started``: a worker claimed it (and beats, on
    PostgreSQL); ``last_sign``: its last beat, or when it was queued."""
    if last_sign is None:
        return True  # no sign of life at all
    age = (now or timezone.now()) - last_sign
    if not started:
        return age > QUEUED_STALE
    return age > (HEARTBEAT_STALE if beats() else without_beats)


class Heartbeat:
    """Beats ``field`` of the rows of ``queryset`` (one row, filtered on its still being
    worked on) every HEARTBEAT_EVERY, from a thread with its own connection, until
    ``close``. Use as a context manager around the task's work."""

    def __init__(self, queryset: Any, *, field: str = "heartbeat_at", name: str = "heartbeat"):
        self.queryset = queryset
        self.field = field
        self.name = name
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        if beats():
            self.thread = threading.Thread(target=self._beat, daemon=True, name=name)
            self.thread.start()

    def _beat(self) -> None:
        try:
            while not self.stop.wait(HEARTBEAT_EVERY):
                self.queryset.update(**{self.field: timezone.now()})
        except Exception:  # a lost beat only makes the work look stopped sooner
            logger.warning("%s stopped", self.name, exc_info=True)
        finally:
            store.close_thread_connection()  # this thread's own

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=HEARTBEAT_EVERY * 2)

    def __enter__(self) -> Heartbeat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
