"""Who is asking, behind a reverse proxy: one answer for login throttling and API throttles.

``docs/production.md`` puts the service behind a proxy, so ``REMOTE_ADDR`` is the proxy's
address, the same for every visitor. Each proxy appends the address it received the
request from to ``X-Forwarded-For``; anything to the left of what our own proxies wrote
came from the client and may be made up. With ``DJANGO_TRUSTED_PROXY_COUNT`` proxies in
front (default 0: nothing in front, use ``REMOTE_ADDR``), the client is the address the
outermost of them saw: the ``count``-th entry from the right. A spoofed header then moves
nothing: the calculator's throttle and django-axes' lockouts key on the real address.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import ScopedRateThrottle


def client_ip(request: HttpRequest) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
    if not addresses:
        return remote
    return addresses[-min(count, len(addresses))]


class ClientScopedRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, keyed on ``client_ip`` (counts live in the shared cache)."""

    def get_ident(self, request) -> str:
        return client_ip(request)
