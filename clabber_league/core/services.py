"""Writes of the core app: the upkeep of what the API keeps for Idempotency-Key replays.

The replays themselves are the API's (``core/idempotency.py``); the clean-up is a service so
that the periodic task calls it without importing the API layer. Apps above keep keys of
their own (a deal's correction keeps its key with its game, ``games.replay``): they register
a purge on :data:`idempotency_purging`, and the one daily job forgets theirs too.
"""

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from .hooks import idempotency_purging
from .models import IdempotencyRecord


def retention() -> timedelta:
    """How long a kept response answers a replay (``IDEMPOTENCY_RETENTION_HOURS``)."""
    return timedelta(hours=getattr(settings, "IDEMPOTENCY_RETENTION_HOURS", 24))


def idempotency_records_purge() -> int:
    """Delete the kept responses older than the retention, the API's and those the apps
    keep (:data:`idempotency_purging`); returns how many."""
    cutoff = timezone.now() - retention()
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=cutoff).delete()
    return deleted + sum(idempotency_purging.ask(cutoff=cutoff))
