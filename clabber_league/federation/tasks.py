"""Celery tasks of federations: thin, a service does the work.

``erase_departed`` runs daily (``manage.py setup_periodic_tasks``): the records of players
who left more than ``CLABBER_FEDERATION_RETENTION_DAYS`` ago are erased, their results
kept under an anonymous name (docs/federation.md, "Retention")."""

from celery import shared_task

from .services import departed_erase


@shared_task(name="federation.erase_departed", acks_late=True, ignore_result=True)
def erase_departed() -> int:
    return departed_erase()
