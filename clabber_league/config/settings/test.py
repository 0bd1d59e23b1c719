"""The test suite: PostgreSQL and Redis when their URLs are set, else SQLite and eager tasks."""

import os
from urllib.parse import urlsplit, urlunsplit


def _redis_of_this_xdist_worker() -> None:
    """Under pytest-xdist each worker has a Redis database of its own, as it has a test
    database of its own: ``cache.clear()`` empties one Redis database (its broker queues
    too), and the throttles count per database. Worker ``gwN`` takes the N-th number of
    ``TEST_REDIS_DBS`` (comma-separated) or else ``REDIS_URL``'s database plus N. The
    Celery workers the tests start inherit the result (and are not moved again).
    """
    url, worker = os.environ.get("REDIS_URL", ""), os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker.startswith("gw") or os.environ.get("TEST_REDIS_WORKER") == worker:
        return
    index = int(worker[2:])
    parts = urlsplit(url)
    listed = [n for n in os.environ.get("TEST_REDIS_DBS", "").split(",") if n.strip()]
    base = int(parts.path.strip("/") or "0")
    db = int(listed[index]) if index < len(listed) else base + index
    os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{db}"))
    os.environ["TEST_REDIS_WORKER"] = worker


_redis_of_this_xdist_worker()

from .base import *  # noqa: E402, F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
REST_FRAMEWORK = {**REST_FRAMEWORK}  # noqa: F405
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"calculator": "10000/minute", "api": "100000/minute"}
# Every test signs up from 127.0.0.1: the sign-up limit is tested on its own (clubs tests).
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "signup": "10000/m/ip"}  # noqa: F405
# The webhooks' tests receive on 127.0.0.1, in this process or the Celery worker's; the
# tests of the address rule turn it off for themselves.
CLABBER_WEBHOOKS_ALLOW_PRIVATE = True
# The notifications' tests run their own push service on 127.0.0.1 (tests/notify).
CLABBER_PUSH_ALLOW_PRIVATE = True
