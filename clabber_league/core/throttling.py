"""Throttles that say where the caller stands: ``RateLimit`` and ``RateLimit-Policy``.

Following the IETF httpapi RateLimit header fields draft, every throttled response carries
``RateLimit-Policy: "<scope>";q=<requests>;w=<seconds>`` and
``RateLimit: "<scope>";r=<remaining>;t=<seconds until the window frees one>``; a refused
request is a 429 with ``Retry-After`` as well (and the API's error body). Counts are kept
in the throttle's cache (Django's ``default`` cache), so every worker of a site counts
together when that cache is shared.

Use these classes instead of DRF's in ``throttle_classes`` and ``DEFAULT_THROTTLE_CLASSES``.
"""

from typing import Any

from rest_framework import throttling
from rest_framework.request import Request

ATTRIBUTE = "rate_limit_state"


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
        current = getattr(request._request, ATTRIBUTE, None)
        if current is None or state[0] < current[0]:
            setattr(request._request, ATTRIBUTE, state)
        return allowed


class ScopedRateThrottle(RateLimitHeadersMixin, throttling.ScopedRateThrottle):
    pass


class AnonRateThrottle(RateLimitHeadersMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(RateLimitHeadersMixin, throttling.UserRateThrottle):
    pass


def rate_limit_headers(state: tuple[int, str, int, int, int]) -> dict[str, str]:
    remaining, scope, limit, window, reset = state
    return {
        "RateLimit-Policy": f'"{scope}";q={limit};w={window}',
        "RateLimit": f'"{scope}";r={remaining};t={reset}',
    }
