"""WSGI entry point (gunicorn ``clabber_league.config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.production")

application = get_wsgi_application()
