"""Committed seeds: a draw's random seed is chosen by the server and published first as its
SHA-256 hash, then (once the draw is made) as itself, so that anyone can check that the
seed was fixed before the entrants were and recompute the draw from it.

A seed is 128 random bits from :mod:`secrets` (32 hex digits): its hash cannot be reversed
by trying seeds, so nobody learns the draw before the seed is revealed.
"""

from __future__ import annotations

import hashlib
import secrets

#: Hex digits of a seed (128 bits).
SEED_HEX_DIGITS = 32


def seed_new() -> str:
    """A fresh seed: 128 bits from the operating system's random source, as hex."""
    return secrets.token_hex(SEED_HEX_DIGITS // 2)


def seed_hash(seed: str) -> str:
    """The commitment to ``seed``: the SHA-256 of its UTF-8 bytes, as hex (what
    ``sha256sum`` prints for ``printf %s SEED``)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
