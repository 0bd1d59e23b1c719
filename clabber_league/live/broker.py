"""The followers of this process, fed by one Redis pub/sub connection (ASGI only).

Each server process (a uvicorn worker) keeps one ``PSUBSCRIBE`` on every live channel,
however many followers it serves, and hands each message to the queues of the followers
of its stream. A follower whose queue is full (a client that stopped reading) is told to
start again from the board (``RESET``); when Redis goes away every follower is told
``DOWN`` and its page polls until the stream answers again.

The Redis log a follower resumes from (``Last-Event-ID``) is read with ``since``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from . import streams

logger = logging.getLogger(__name__)

#: How long a new follower waits for the process's subscription to start (the first
#: follower of a process starts it): on a busy machine (bench/live.py, 500 followers
#: arriving at once on a load of 10) one second was too short for a few of them.
SUBSCRIBE_SECONDS = 3.0

#: What a follower's queue may hold before it is told to start again from the board.
QUEUE_SIZE = 256

DOWN = ("down", "")
RESET = ("reset", "")


class Unavailable(Exception):
    """Redis is not configured or does not answer: the page polls instead."""


class Broker:
    def __init__(self, url: str, loop: asyncio.AbstractEventLoop) -> None:
        self.url = url
        self.loop = loop
        self.followers: dict[str, set[asyncio.Queue]] = {}
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.client: Any = None
        self.error = ""

    def _client(self) -> Any:
        if self.client is None:
            import redis.asyncio as aioredis

            timeout = float(getattr(settings, "LIVE_REDIS_TIMEOUT", 0.25))
            self.client = aioredis.Redis.from_url(
                self.url, socket_connect_timeout=max(timeout, 1.0), socket_timeout=5.0
            )
        return self.client

    async def follow(self, stream: str) -> asyncio.Queue:
        """A queue that receives ``(event id, json)`` for ``stream``; raises ``Unavailable``
        when the subscription is not running within ``SUBSCRIBE_SECONDS``."""
        if self.task is None or self.task.done():
            self.ready.clear()
            self.task = asyncio.get_running_loop().create_task(self._listen())
        if not self.ready.is_set():  # subscribed, or the subscription failed, or too slow
            waiter = asyncio.ensure_future(self.ready.wait())
            await asyncio.wait(
                {waiter, self.task}, timeout=SUBSCRIBE_SECONDS, return_when=asyncio.FIRST_COMPLETED
            )
            waiter.cancel()
        if not self.ready.is_set():
            raise Unavailable(self.error or "Redis did not answer")
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self.followers.setdefault(stream, set()).add(queue)
        return queue

    def leave(self, stream: str, queue: asyncio.Queue) -> None:
        queues = self.followers.get(stream)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.followers[stream]

    def count(self) -> int:
        return sum(len(queues) for queues in self.followers.values())

    def _deliver(self, stream: str, item: tuple[str, str]) -> None:
        for queue in tuple(self.followers.get(stream, ())):
            try:
                queue.put_nowait(item)
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    while True:
                        queue.get_nowait()
                queue.put_nowait(RESET)

    def _tell_all(self, item: tuple[str, str]) -> None:
        for stream in tuple(self.followers):
            self._deliver(stream, item)

    async def _listen(self) -> None:
        pubsub = self._client().pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(streams.channel_pattern())
            self.ready.set()
            while True:
                message = await pubsub.get_message(timeout=30.0)
                if message is None:
                    continue
                channel = message["channel"]
                data = message["data"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                data = data.decode() if isinstance(data, bytes) else data
                event_id, _, payload = data.partition(" ")
                self._deliver(streams.stream_of_channel(channel), (event_id, payload))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis went away: every follower polls
            self.error = str(error) or error.__class__.__name__
            logger.warning("live: the Redis subscription stopped (%s)", self.error)
        finally:
            self.ready.clear()
            self._tell_all(DOWN)
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def since(self, stream: str, last_id: str, limit: int = 500) -> list[tuple[str, str]]:
        """The events of ``stream`` after ``last_id`` from its log, oldest first; ``[RESET]``
        when the log no longer reaches back to it (trimmed or expired)."""
        client = self._client()
        key = streams.log_key(stream)
        first = await client.xrange(key, "-", "+", count=1)
        if not first:
            return [RESET]
        first_id = _text(first[0][0])
        if streams.event_id_order(first_id) > streams.event_id_order(last_id):
            return [RESET]  # the event it saw is gone: what came after may be too
        entries = await client.xrange(key, f"({last_id}", "+", count=limit)
        return [(_text(entry_id), _text(fields.get(b"d", b"{}"))) for entry_id, fields in entries]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


_brokers: dict[int, Broker] = {}


def broker() -> Broker:
    """This event loop's broker (one per server process in practice); ``Unavailable``
    when no Redis is configured for the live pages."""
    url = getattr(settings, "LIVE_REDIS_URL", "")
    if not url:
        raise Unavailable("LIVE_REDIS_URL is not set")
    loop = asyncio.get_running_loop()
    found = _brokers.get(id(loop))
    if found is None or found.url != url or found.loop is not loop:
        found = _brokers[id(loop)] = Broker(url, loop)
    return found


def known_ids(items: Iterable[tuple[str, str]]) -> set[str]:
    return {event_id for event_id, _ in items}
