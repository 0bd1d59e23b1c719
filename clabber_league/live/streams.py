"""The live streams and their names in Redis.

A stream is what one live page follows: ``night:<event id>`` (a club night),
``league:<division id>:<date>`` (a division's fixtures on one date) or ``cup:<cup id>``.
Each saved deal of a game is published to every stream the game belongs to:

- ``{prefix}ev:<stream>``: the pub/sub channel; each message is ``"<event id> <json>"``;
- ``{prefix}log:<stream>``: a Redis stream (XADD, capped at ``LIVE_LOG_LENGTH`` entries,
  expiring ``LIVE_LOG_SECONDS`` after the last event): the short log a follower that lost
  its connection resumes from (``Last-Event-ID``). The event id is the log entry's id.
"""

from __future__ import annotations

import datetime as dt
import re

from django.conf import settings

KINDS = ("night", "league", "cup")

#: A Redis stream entry id: what ``Last-Event-ID`` must look like to be looked up.
EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")


def prefix() -> str:
    return getattr(settings, "LIVE_KEY_PREFIX", "clabber:live:")


def night(event_id: int) -> str:
    return f"night:{int(event_id)}"


def league(division_id: int, date: dt.date) -> str:
    return f"league:{int(division_id)}:{date.isoformat()}"


def cup(cup_id: int) -> str:
    return f"cup:{int(cup_id)}"


def channel(stream: str) -> str:
    return f"{prefix()}ev:{stream}"


def channel_pattern() -> str:
    return f"{prefix()}ev:*"


def stream_of_channel(name: str) -> str:
    return name[len(prefix()) + len("ev:") :]


def log_key(stream: str) -> str:
    return f"{prefix()}log:{stream}"


def event_id_order(event_id: str) -> tuple[int, int]:
    """An event id as a sortable pair (Redis stream ids: milliseconds, sequence)."""
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)
