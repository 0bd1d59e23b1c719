"""Web push at its boundary: pywebpush encrypts the payload for one device and POSTs it to
the device's push service with a VAPID signature (settings ``CLABBER_VAPID_PRIVATE_KEY``,
``CLABBER_VAPID_SUBJECT``). The one function the services call is :func:`send`, which
says what became of the try: sent, gone (the endpoint answered 404 or 410: the browser
unsubscribed or the subscription expired, so the caller deletes it) or failed (anything
else: tried again with the next notification, never raised)."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

SENT, GONE, FAILED = "sent", "gone", "failed"
#: How long a push service keeps a message for a device that is offline (seconds).
TTL = 12 * 3600


def timeout() -> float:
    return float(getattr(settings, "CLABBER_PUSH_TIMEOUT", 10))


def send(subscription: dict[str, Any], payload: dict[str, Any]) -> str:
    from pywebpush import WebPushException, webpush
    from requests import RequestException

    try:
        webpush(
            subscription_info=subscription,
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=settings.CLABBER_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": getattr(settings, "CLABBER_VAPID_SUBJECT", "") or ""},
            timeout=timeout(),
            ttl=TTL,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            return GONE
        logger.warning("push to %s failed: %s", subscription.get("endpoint", "")[:60], status)
        return FAILED
    except (RequestException, ValueError, TypeError):
        logger.exception("push to %s failed", subscription.get("endpoint", "")[:60])
        return FAILED
    return SENT
