"""Throttles that say where the caller stands: ``RateLimit`` and ``RateLimit-Policy``.

Following the IETF httpapi RateLimit header fields draft, every throttled response carries
``RateLimit-Policy: "<scope>";q=<requests>;w=<seconds>`` and
``RateLimit: "<scope>";r=<remaining>;t=<seconds until the window frees one>``; a refused
request is a 429 with ``Retry-After`` as well (and the API's error body). Counts are kept
in the throttle's cache (Django's ``default`` cache), so every worker of a site counts
together when that cache is shared.

Use these classes instead of DRF's in ``throttle_classes`` and ``DEFAULT_THROTTLE_CLASSES``.

**Every authenticated API answer** says where its caller stands: :class:`ApiRateThrottle`
(the default throttle, scope ``api``, ``CLABBER_API_RATE``) counts each member's API token
on its own and everything else a person sends (the site's session, an older DRF token) per
person; anonymous requests are not counted by it. An answer refused before the throttles
ran (a 403, a 404) still carries the headers, read without counting (:func:`peek`).
"""

import math
import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

ATTRIBUTE = "rate_limit_state"
#: Set on the request by an authentication that counts per credential, not per person
#: (``clubs.authentication``: ``"token:<id>"`` for a member's API token).
RATE_KEY_ATTRIBUTE = "rate_limit_key"
#: The ``api`` scope's rate where ``DEFAULT_THROTTLE_RATES`` names none.
DEFAULT_API_RATE = "600/minute"


class RateLimitHeadersMixin:
    """Records the state of a ``SimpleRateThrottle`` for the response's headers."""

    def allow_request(self, request: Request, view: Any) -> bool:
        allowed = super().allow_request(request, view)  # type: ignore[misc]
        if getattr(self, "rate", None) is None or getattr(self, "key", None) is None:
            return allowed
        limit, window = self.num_requests, self.duration  # type: ignore[attr-defined]
        history = self.history  # type: ignore[attr-defined]
        remaining = max(0, limit - len(history))
        reset = int(window - (self.now - history[-1])) if history else window  # type: ignore[attr-defined]
        scope = getattr(self, "scope", None) or type(self).__name__.lower()
        state = (remaining, str(scope), limit, window, max(reset, 0))
        _record(request, state)
        return allowed


class ScopedRateThrottle(RateLimitHeadersMixin, throttling.ScopedRateThrottle):
    pass


class AnonRateThrottle(RateLimitHeadersMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(RateLimitHeadersMixin, throttling.UserRateThrottle):
    pass


class ApiRateThrottle(throttling.BaseThrottle):
    """Authenticated API requests: one count per API token, else one per person.

    A fixed window (``CLABBER_API_RATE``, e.g. ``600/minute``) counted with the cache's
    ``incr`` (``add`` at a window's first request): one small counter whatever the rate,
    where DRF's sliding window would store and rewrite every request's time. ``t`` of the
    ``RateLimit`` header is when the window ends and the count starts again."""

    scope = "api"

    def __init__(self) -> None:
        self.num_requests, self.duration = _api_rate()
        self.reset = self.duration

    def allow_request(self, request: Request, view: Any) -> bool:
        ident = rate_key(getattr(request, "_request", request), request.user)
        if ident is None:
            return True
        key, self.reset = _window(ident, self.duration)
        try:
            count = cache.incr(key)
        except ValueError:  # the window's first request (or two at once: one adds)
            count = 1 if cache.add(key, 1, timeout=self.duration + 1) else cache.incr(key)
        state = (max(0, self.num_requests - count), self.scope, self.num_requests)
        _record(request, (*state, self.duration, self.reset))
        return count <= self.num_requests

    def wait(self) -> float | None:
        return self.reset


def _api_rate() -> tuple[int, int]:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get("api") or DEFAULT_API_RATE
    count, period = rate.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


def _now() -> float:
    return time.time()


def _window(ident: str, duration: int) -> tuple[str, int]:
    """The cache key of this window's count, and the seconds until the window ends."""
    now = _now()
    start = int(now // duration) * duration
    return f"throttle_api_{ident}_{start}", max(1, math.ceil(start + duration - now))


def _record(request: Request, state: tuple[int, str, int, int, int]) -> None:
    """Keep the tightest limit the request is under, for the response's headers."""
    current = getattr(request._request, ATTRIBUTE, None)
    if current is None or state[0] < current[0]:
        setattr(request._request, ATTRIBUTE, state)


def rate_key(request: HttpRequest, user: Any) -> str | None:
    """Whose count a request is: its API token's, else its person's; None if anonymous."""
    key = getattr(request, RATE_KEY_ATTRIBUTE, None)
    if key:
        return key
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return None


def peek(request: HttpRequest) -> tuple[int, str, int, int, int] | None:
    """The ``api`` count of an authenticated request that no throttle counted (refused
    before the throttles ran), read without counting it; None for anonymous requests or
    where ``ApiRateThrottle`` is not a default throttle."""
    if ApiRateThrottle not in api_settings.DEFAULT_THROTTLE_CLASSES:
        return None
    ident = rate_key(request, getattr(request, "user", None))
    if ident is None:
        return None
    limit, duration = _api_rate()
    key, reset = _window(ident, duration)
    count = cache.get(key) or 0
    return (max(0, limit - count), ApiRateThrottle.scope, limit, duration, reset)


def rate_limit_headers(state: tuple[int, str, int, int, int]) -> dict[str, str]:
    remaining, scope, limit, window, reset = state
    return {
        "RateLimit-Policy": f'"{scope}";q={limit};w={window}',
        "RateLimit": f'"{scope}";r={remaining};t={reset}',
    }
