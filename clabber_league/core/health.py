"""Health checks: can this process reach its database and its Celery broker?

Used by ``/healthz`` (load balancers, Docker health checks, ``make run``) and by
the API's error handling. Each check answers quickly and never raises.
"""

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str
    ms: float

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail, "ms": round(self.ms, 1)}


def database_check() -> Check:
    start = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not reachable"
        return Check(False, f"{type(exc).__name__}: {exc}".strip(), _ms(start))
    return Check(True, connection.vendor, _ms(start))


def broker_check() -> Check:
    start = time.perf_counter()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Check(True, "in-process (no broker configured, tasks run eagerly)", _ms(start))
    from clabber_league.config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return Check(False, f"{type(exc).__name__}: {exc}".strip(), _ms(start))
    return Check(True, "redis", _ms(start))


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000
