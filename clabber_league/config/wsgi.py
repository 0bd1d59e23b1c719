"""WSGI entry point (gunicorn ``clabber_league.config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.production")
# Web requests only: one statement may run at most 15 s (settings: DATABASE_STATEMENT_TIMEOUT_MS).
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "15000")

application = get_wsgi_application()
