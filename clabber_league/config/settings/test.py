"""The test suite: PostgreSQL and Redis when their URLs are set, else SQLite and eager tasks."""

from .base import *  # noqa: F403

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
