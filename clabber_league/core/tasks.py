"""Site-wide Celery tasks."""

import os
import socket

from celery import shared_task

from .health import database_check


@shared_task(name="core.health_probe")
def health_probe() -> dict[str, object]:
    """Run the database check from inside a worker: proves a worker is up and can reach the DB."""
    return {
        "database": database_check().as_dict(),
        "hostname": socket.gethostname(),
        "pid": os.getpid(),
    }


@shared_task(name="core.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Forget the responses kept for Idempotency-Key replays after their 24 hours."""
    from .services import idempotency_records_purge

    return idempotency_records_purge()
