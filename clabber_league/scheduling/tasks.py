"""Celery tasks of scheduling: thin, ids in, a service does the work.

``generate_schedule`` is queued by ``schedule_generate`` once the request's
transaction commits. The three periodic tasks are run by celery beat from the
``PeriodicTask`` rows that ``manage.py setup_periodic_tasks`` creates.
"""

import datetime as dt
from collections import defaultdict

from celery import shared_task
from django.utils import timezone

from clabber_league.clubs.locale import club_today
from clabber_league.clubs.models import Club

from .services.generation import schedule_run_execute
from .services.jobs import fixtures_flag_overdue, fixtures_remind, nights_publish


# No result stored: the run's row is its result, and a task queued with Redis down then
# fails at once on the broker, never on the result backend (issue 31).
@shared_task(name="scheduling.generate_schedule", acks_late=True, ignore_result=True)
def generate_schedule(run_id: int) -> dict[str, object]:
    run = schedule_run_execute(run_id=run_id)
    return {"run": run.pk, "state": run.state, "fixtures": run.fixtures_created}


def clubs_by_today() -> dict[dt.date, list[int]]:
    """The clubs by the date it is now in their own time zone: "tonight" in Amsterdam can
    be tomorrow already while it is still today in Evansville."""
    now = timezone.now()
    groups: dict[dt.date, list[int]] = defaultdict(list)
    for club_id, zone in Club.objects.values_list("pk", "time_zone"):
        groups[club_today(zone, now)].append(club_id)
    return groups


@shared_task(name="scheduling.publish_nights")
def publish_nights() -> int:
    """Publish tonight's fixture list of every club that plays tonight (its own tonight)."""
    return sum(
        nights_publish(on=today, club_ids=clubs) for today, clubs in clubs_by_today().items()
    )


@shared_task(name="scheduling.send_reminders")
def send_reminders(days_ahead: int = 1) -> int:
    """Email the players of every fixture ``days_ahead`` days from the club's today."""
    return sum(
        fixtures_remind(on=today + dt.timedelta(days=days_ahead), club_ids=clubs)
        for today, clubs in clubs_by_today().items()
    )


@shared_task(name="scheduling.flag_overdue")
def flag_overdue() -> int:
    """Flag fixtures whose night has passed without a result (at the club)."""
    return sum(
        fixtures_flag_overdue(today=today, club_ids=clubs)
        for today, clubs in clubs_by_today().items()
    )
