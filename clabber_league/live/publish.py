"""A game's news published to its live streams, once its transaction has committed.

``live_game_changed`` is the live app's handler of ``games.hooks.game_changed`` (connected
in ``LiveConfig.ready``): the games app sends it inside the transaction of every deal
recorded, corrected or deleted and every game confirmed. The handler reads nothing and
writes nothing there: it registers ``transaction.on_commit``, so a deal rolled back is
never announced, and the row lock is released before anything is looked up or sent.

After the commit (still in the saving request), ``publish_game_news`` finds the streams
the game belongs to (a club night's table, a league fixture's division and date, a cup
tie) and sends the news to Redis in one round trip (a Lua script: ``XADD`` to each
stream's short log, ``PUBLISH`` on its channel).

**The deal's save never fails or waits because of Redis.** Every error is caught and
logged; the client tries once (no retries), gives up after ``LIVE_REDIS_TIMEOUT`` seconds,
and after an error this process leaves Redis alone for ``RETRY_AFTER`` seconds: during an
outage a save pays at most one timeout per process per ``RETRY_AFTER``. Followers then
see the news by polling (``views.live_board_json``), which reads the database.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import transaction

from clabber_league.cups.models import TieGame
from clabber_league.events.models import Table
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture

from . import streams

logger = logging.getLogger(__name__)

#: Seconds a process leaves Redis alone after an error before it tries again.
RETRY_AFTER = 5.0

# KEYS: the logs; ARGV[1]: the news (JSON), ARGV[2]: log length, ARGV[3]: log seconds,
# ARGV[4..]: the channels, one per log. Returns the event ids.
_PUBLISH = """
local ids = {}
for i, key in ipairs(KEYS) do
  local id = redis.call('XADD', key, 'MAXLEN', '~', ARGV[2], '*', 'd', ARGV[1])
  redis.call('EXPIRE', key, ARGV[3])
  redis.call('PUBLISH', ARGV[3 + i], id .. ' ' .. ARGV[1])
  ids[i] = id
end
return ids
"""


class _Publisher:
    """One Redis client per process, with its circuit breaker."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.client: Any = None
        self.script: Any = None
        self.url = ""
        self.down_until = 0.0

    def _connect(self, url: str) -> Any:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        timeout = float(getattr(settings, "LIVE_REDIS_TIMEOUT", 0.25))
        client = redis.Redis.from_url(
            url,
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
            retry_on_timeout=False,
        )
        self.script = client.register_script(_PUBLISH)
        return client

    def send(self, stream_names: list[str], news: dict[str, Any]) -> list[str]:
        url = getattr(settings, "LIVE_REDIS_URL", "")
        if not url or not stream_names or time.monotonic() < self.down_until:
            return []
        import redis

        with self.lock:
            if self.client is None or url != self.url:
                self.client, self.url = self._connect(url), url
            client, script = self.client, self.script
        keys = [streams.log_key(name) for name in stream_names]
        args = [
            json.dumps(news, separators=(",", ":")),
            int(getattr(settings, "LIVE_LOG_LENGTH", 200)),
            int(getattr(settings, "LIVE_LOG_SECONDS", 6 * 3600)),
            *(streams.channel(name) for name in stream_names),
        ]
        try:
            ids = script(keys=keys, args=args, client=client)
        except (redis.RedisError, OSError) as error:
            self.down_until = time.monotonic() + RETRY_AFTER
            logger.warning(
                "live: Redis did not take the news of game %s (%s); followers poll, and "
                "this process tries Redis again in %.0f s",
                news.get("game"),
                error,
                RETRY_AFTER,
            )
            return []
        return [i.decode() if isinstance(i, bytes) else str(i) for i in ids]


_publisher = _Publisher()


def game_news(game: Game) -> dict[str, Any]:
    """What a follower needs to update one table: the game's running score by side, its
    number of deals and its status; ``t`` is when it was sent (ms since the epoch)."""
    return {
        "game": game.pk,
        "scores": game.scores,
        "deals": game.deal_count,
        "status": game.status,
        "winner": game.winner,
        "t": int(time.time() * 1000),
    }


def game_streams(game_id: int, division_id: int | None, fixture_id: int | None) -> list[str]:
    """The live streams a game belongs to (at most three small queries, after the commit)."""
    found: list[str] = []
    event_id = (
        Table.objects.filter(game_id=game_id).values_list("round__event_id", flat=True).first()
    )
    if event_id is not None:
        found.append(streams.night(event_id))
    if fixture_id is not None:
        date = Fixture.objects.filter(pk=fixture_id).values_list("date", flat=True).first()
        if date is not None and division_id is not None:
            found.append(streams.league(division_id, date))
    cup_id = TieGame.objects.filter(game_id=game_id).values_list("tie__cup_id", flat=True).first()
    if cup_id is not None:
        found.append(streams.cup(cup_id))
    return found


def publish_game_news(
    game_id: int, division_id: int | None, fixture_id: int | None, news: dict[str, Any]
) -> list[str]:
    """Send ``news`` to the game's streams; the event ids Redis gave (none when it is down
    or not configured). Never raises: the deal is saved whatever happens here."""
    try:
        names = game_streams(game_id, division_id, fixture_id)
        news = {**news, "t": int(time.time() * 1000)}
        return _publisher.send(names, news)
    except Exception:  # the deal is committed: nothing here may turn it into an error
        logger.exception("live: the news of game %s was not published", game_id)
        return []


def live_game_changed(*, game: Game, **_kwargs: Any) -> None:
    """``games.hooks.game_changed``: publish the game's news once the transaction commits
    (nothing at all without ``LIVE_REDIS_URL``: the live pages then poll the database)."""
    if not getattr(settings, "LIVE_REDIS_URL", ""):
        return
    news = game_news(game)
    game_id, division_id, fixture_id = game.pk, game.division_id, game.fixture_id
    transaction.on_commit(lambda: publish_game_news(game_id, division_id, fixture_id, news))
