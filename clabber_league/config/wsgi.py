"""WSGI entry point (gunicorn ``clabber_league.config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.production")
# Web requests only: one statement may run at most 15 s (settings: DATABASE_STATEMENT_TIMEOUT_MS).
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "15000")

application = get_wsgi_application()

# Under gunicorn --preload this runs in the master, and every worker is forked from it, the
# ones --max-requests replaces too (clabber_league/core/warmup.py says what it saves).
from clabber_league.core.warmup import warm_up  # noqa: E402 - needs the settings above

warm_up()
