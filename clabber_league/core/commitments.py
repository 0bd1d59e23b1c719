"""Committed seeds: a draw's random seed is chosen by the server and published first as its
SHA-256 hash, then (once the draw is made) as itself, so that anyone can check that the
seed was fixed before the entrants were and recompute the draw from it.

A seed is 128 random bits from :mod:`secrets` (32 hex digits): its hash cannot be reversed
by trying seeds, so nobody learns the draw before the seed is revealed.

A seed that must stay secret in the database until it is used (a club night's next round:
the club's own backup download holds every row of the club) is stored as a random *nonce*
and worked out with the server's secret key (:func:`seed_from_nonce`): whoever reads the
rows, the backup included, still cannot tell the seed. (Rotating ``SECRET_KEY`` changes the
seeds of rounds not yet drawn, and so their published hashes.)
"""

from __future__ import annotations

import hashlib
import secrets

from django.utils.crypto import salted_hmac

#: Hex digits of a seed (128 bits).
SEED_HEX_DIGITS = 32


def seed_new() -> str:
    """A fresh seed: 128 bits from the operating system's random source, as hex."""
    return secrets.token_hex(SEED_HEX_DIGITS // 2)


def seed_from_nonce(nonce: str) -> str:
    """The seed a stored nonce stands for: an HMAC (SHA-256) of it under the server's
    secret key, 32 hex digits (a seed like :func:`seed_new`'s)."""
    mac = salted_hmac("clabber_league.core.commitments.seed", nonce, algorithm="sha256")
    return mac.hexdigest()[:SEED_HEX_DIGITS]


def seed_hash(seed: str) -> str:
    """The commitment to ``seed``: the SHA-256 of its UTF-8 bytes, as hex (what
    ``sha256sum`` prints for ``printf %s SEED``)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
