"""Error reports to Sentry (or anything that speaks its protocol: GlitchTip, self-hosted
Sentry), on only when ``SENTRY_DSN`` is set.

The settings call ``init_sentry()`` once, so the web processes and the Celery workers and
beat (which load the same settings) report alike: an unhandled exception in a view or a
task, and every ``logger.error``/``logger.exception`` (the API's "unhandled API error" among
them), arrive with the request id as a tag (``core.requestlog``). No personal data is sent
(``send_default_pii`` off: no cookies, no user's e-mail or address).

| variable | meaning | default |
|---|---|---|
| ``SENTRY_DSN`` | the project's DSN; unset or empty: Sentry is off | off |
| ``SENTRY_ENVIRONMENT`` | e.g. ``production``, ``staging`` | ``production`` |
| ``SENTRY_RELEASE`` | the release the events are filed under | the package version |
| ``SENTRY_TRACES_SAMPLE_RATE`` | share of requests traced for performance, 0 to 1 | ``0`` |
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def init_sentry(environ: Mapping[str, str] = os.environ) -> bool:
    """Start the Sentry client if ``SENTRY_DSN`` is set; True when it was started."""
    dsn = (environ.get("SENTRY_DSN") or "").strip()
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    from clabber_league import __version__

    sentry_sdk.init(
        dsn=dsn,
        environment=environ.get("SENTRY_ENVIRONMENT") or "production",
        release=environ.get("SENTRY_RELEASE") or f"clabber-league@{__version__}",
        traces_sample_rate=float(environ.get("SENTRY_TRACES_SAMPLE_RATE") or "0"),
        send_default_pii=False,
        integrations=[DjangoIntegration(), CeleryIntegration(monitor_beat_tasks=False)],
    )
    return True
