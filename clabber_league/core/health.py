"""Health checks: can this process reach its database, its Celery broker, its workers?

Used by ``/livez``, ``/readyz`` and ``/healthz`` (load balancers, Docker health checks,
``make run``; docs/health.md) and by the API's error handling. Each check answers quickly
and never raises. Only the database decides whether a web node is ready: the pages and the
API work without Redis (core/cache.py), so a Redis blip must not take every node out.
"""

import threading
import time
from dataclasses import dataclass

from django.conf import settings

from . import store


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
        vendor = store.database_ping()
    except Exception as exc:  # any driver error means "not reachable"
        return Check(False, f"{type(exc).__name__}: {exc}".strip(), _ms(start))
    return Check(True, vendor, _ms(start))


def broker_check() -> Check:
    start = time.perf_counter()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Check(True, "in-process (no broker configured, tasks run eagerly)", _ms(start))
    from celery import current_app as app  # the project's app (config/celery.py)

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return Check(False, f"{type(exc).__name__}: {exc}".strip(), _ms(start))
    return Check(True, "redis", _ms(start))


#: How long a worker count is reused: a load balancer asks every few seconds, and counting
#: the workers waits up to WORKER_PING_TIMEOUT for their replies.
WORKERS_CACHED_FOR = 30.0
WORKER_PING_TIMEOUT = 0.5
_workers_seen: tuple[float, Check] | None = None
_workers_lock = threading.Lock()


def workers_check(*, broker: Check | None = None) -> Check:
    """How many Celery workers answer a ping (reused for WORKERS_CACHED_FOR seconds). Not
    asked when the broker is down: the workers cannot be reached then either."""
    global _workers_seen
    start = time.perf_counter()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return Check(True, "in-process (tasks run eagerly)", _ms(start))
    if broker is not None and not broker.ok:
        return Check(False, "not asked: the broker is unreachable", _ms(start))
    with _workers_lock:
        seen = _workers_seen
        if seen is not None and time.monotonic() - seen[0] < WORKERS_CACHED_FOR:
            return seen[1]
        from celery import current_app as app  # the project's app (config/celery.py)

        try:
            replies = app.control.ping(timeout=WORKER_PING_TIMEOUT) or []
        except Exception as exc:
            check = Check(False, f"{type(exc).__name__}: {exc}".strip(), _ms(start))
        else:
            names = sorted(name for reply in replies for name in reply)
            detail = f"{len(names)} worker(s)" + (f": {', '.join(names)}" if names else "")
            check = Check(bool(names), detail, _ms(start))
        _workers_seen = (time.monotonic(), check)
        return check


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000
