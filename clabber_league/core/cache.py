"""The cache on Redis that never takes a page down (issue 31: "Redis is not the site").

Django's own ``RedisCache`` raises when Redis does not answer, and every page that reads
the cache (the standings, the calculator's throttle, the PIN hand-over's count of tries)
then answers 500. ``ResilientRedisCache`` is that cache with a fallback: an error of Redis
is logged once, and for the next ``RETRY_AFTER`` seconds this process keeps its cache in
its own memory (Django's ``LocMemCache``) without trying Redis again; then it tries Redis
once more. So during an outage

- cached reads are computed again (the standings' cache keys are digests of their inputs,
  so neither copy is ever stale);
- throttles and the PIN hand-over's count of tries still count, per process instead of per
  site (the limits that matter against guessing hold in the database anyway: a member's PIN
  locks after ``MEMBER_PIN_MAX_FAILURES`` wrong tries on the profile row, logins lock out
  through django-axes' database handler);
- nothing waits: the connection to Redis gives up after ``socket_connect_timeout`` (set
  in ``CACHES``), and redis-py's own retries are off.

Used by ``CACHES`` in the settings whenever ``REDIS_URL`` is set.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

#: Seconds a process leaves Redis alone after an error before it tries again.
RETRY_AFTER = 5.0


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.RedisError, OSError)


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache``; while Redis is unreachable, a per-process memory cache."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        self.retry_after = float(options.pop("RETRY_AFTER", RETRY_AFTER))
        if "retry" not in options:
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            options["retry"] = Retry(NoBackoff(), 0)  # one try: the fallback is at hand
        params["OPTIONS"] = options
        super().__init__(server, params)
        fallback_params = {k: v for k, v in params.items() if k != "OPTIONS"}
        self.fallback = LocMemCache(f"resilient-{id(self)}", fallback_params)
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._errors = _redis_errors()

    @property
    def redis_down(self) -> bool:
        """Whether this process is using its own memory instead of Redis just now."""
        return time.monotonic() < self._down_until

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self.redis_down:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except self._errors as exc:
                with self._lock:
                    first = not self.redis_down
                    self._down_until = time.monotonic() + self.retry_after
                if first:
                    logger.warning(
                        "cache: Redis unreachable (%s: %s); using this process's memory for %.0f s",
                        type(exc).__name__,
                        exc,
                        self.retry_after,
                    )
        return getattr(self.fallback, name)(*args, **kwargs)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call("add", key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call("get", key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None):
        return self._call("set", key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._call("touch", key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> Any:
        return self._call("delete", key, version)

    def get_many(self, keys: Any, version: Any = None) -> Any:
        return self._call("get_many", keys, version)

    def has_key(self, key: Any, version: Any = None) -> Any:
        return self._call("has_key", key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> Any:
        return self._call("incr", key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        return self._call("set_many", data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> Any:
        return self._call("delete_many", keys, version)

    def clear(self) -> Any:
        return self._call("clear")
