"""The Celery application.

Tasks are thin: they take ids, call a service and are queued with
``transaction.on_commit``. With ``REDIS_URL`` unset the settings make every task
run eagerly in-process, so a club laptop needs no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.local")

app = Celery("clabber_league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
