"""Celery tasks of scheduling: thin, ids in, a service does the work.

``generate_schedule`` is queued by ``schedule_generate`` once the request's
transaction commits. The three periodic tasks are run by celery beat from the
``PeriodicTask`` rows that ``manage.py setup_periodic_tasks`` creates.
"""

import datetime as dt

from celery import shared_task
from django.utils import timezone

from .services.generation import schedule_run_execute
from .services.jobs import fixtures_flag_overdue, fixtures_remind, nights_publish


# No result stored: the run's row is its result, and a task queued with Redis down then
# fails at once on the broker, never on the result backend (issue 31).
@shared_task(name="scheduling.generate_schedule", acks_late=True, ignore_result=True)
def generate_schedule(run_id: int) -> dict[str, object]:
    run = schedule_run_execute(run_id=run_id)
    return {"run": run.pk, "state": run.state, "fixtures": run.fixtures_created}


@shared_task(name="scheduling.publish_nights")
def publish_nights() -> int:
    """Publish tonight's fixture list of every club that plays tonight."""
    return nights_publish(on=timezone.localdate())


@shared_task(name="scheduling.send_reminders")
def send_reminders(days_ahead: int = 1) -> int:
    """Email the players of every fixture ``days_ahead`` days from today."""
    return fixtures_remind(on=timezone.localdate() + dt.timedelta(days=days_ahead))


@shared_task(name="scheduling.flag_overdue")
def flag_overdue() -> int:
    """Flag fixtures whose night has passed without a result."""
    return fixtures_flag_overdue(today=timezone.localdate())
