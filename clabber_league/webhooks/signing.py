"""Signing a delivery the Standard Webhooks way (standardwebhooks.com), so receivers can
check it with any of that specification's libraries.

The secret is ``whsec_`` followed by a random key in base64. Three headers go with the
body: ``webhook-id`` (the event's id, the same on every try), ``webhook-timestamp`` (Unix
seconds of this try) and ``webhook-signature``: ``v1,`` and the base64 of
HMAC-SHA256(key, ``"{id}.{timestamp}.{body}"``). A receiver recomputes it over the raw body,
compares in constant time, and refuses a timestamp more than five minutes from its clock.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

PREFIX = "whsec_"


def secret_new() -> str:
    """A fresh secret: 24 random bytes (192 bits), as Standard Webhooks writes it."""
    return PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signature(secret: str, *, msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value of ``body`` sent as ``msg_id`` at ``timestamp``."""
    key = base64.b64decode(secret.removeprefix(PREFIX))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secret: str, *, msg_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The headers of one try."""
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, msg_id=msg_id, timestamp=timestamp, body=body),
    }
