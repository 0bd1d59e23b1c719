"""``manage.py setup_periodic_tasks``: the schedule's periodic work for celery beat.

Creates (or brings back to these settings) one ``django_celery_beat`` ``PeriodicTask`` per
job, by name, so running it again changes nothing. Times are the site's ``TIME_ZONE``:

| name | task | when |
|---|---|---|
| ``scheduling: publish tonight's fixture lists`` | ``scheduling.publish_nights`` | 08:00 daily |
| ``scheduling: remind tomorrow's teams`` | ``scheduling.send_reminders`` | 10:00 daily |
| ``scheduling: flag overdue fixtures`` | ``scheduling.flag_overdue`` | 03:30 daily |
| ``core: forget old Idempotency-Key responses`` | ``core.purge_idempotency_keys`` | 03:45 daily |
| ``webhooks: send the deliveries that are due`` | ``webhooks.deliver_due`` | every minute |
| ``webhooks: forget old deliveries`` | ``webhooks.purge_deliveries`` | 04:00 daily |
| ``federation: erase players past the retention`` | ``federation.erase_departed`` | 04:15 daily |

An admin may change a time or switch a job off in the Django admin; ``--reset`` puts the
times back.
"""

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django_celery_beat.models import CrontabSchedule, PeriodicTask

JOBS = [
    {
        "name": "scheduling: publish tonight's fixture lists",
        "task": "scheduling.publish_nights",
        "minute": "0",
        "hour": "8",
        "description": "Publish the fixture list of every club that plays tonight.",
    },
    {
        "name": "scheduling: remind tomorrow's teams",
        "task": "scheduling.send_reminders",
        "minute": "0",
        "hour": "10",
        "description": "Email the players of tomorrow's fixtures.",
    },
    {
        "name": "scheduling: flag overdue fixtures",
        "task": "scheduling.flag_overdue",
        "minute": "30",
        "hour": "3",
        "description": "Flag fixtures whose night passed without a result.",
    },
    {
        "name": "core: forget old Idempotency-Key responses",
        "task": "core.purge_idempotency_keys",
        "minute": "45",
        "hour": "3",
        "description": "Delete the responses kept for Idempotency-Key replays after 24 hours.",
    },
    {
        "name": "webhooks: send the deliveries that are due",
        "task": "webhooks.deliver_due",
        "minute": "*",
        "hour": "*",
        "description": "Send each webhook delivery whose next try is due (docs/webhooks.md).",
    },
    {
        "name": "webhooks: forget old deliveries",
        "task": "webhooks.purge_deliveries",
        "minute": "0",
        "hour": "4",
        "description": "Delete webhook deliveries that are over, 30 days after they were made.",
    },
    {
        "name": "federation: erase players past the retention",
        "task": "federation.erase_departed",
        "minute": "15",
        "hour": "4",
        "description": "Erase the federation records of players who left more than "
        "CLABBER_FEDERATION_RETENTION_DAYS ago; their results stay, anonymous.",
    },
]


class Command(BaseCommand):
    help = "Create the periodic tasks of scheduling for celery beat (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset",
            action="store_true",
            help="also put back times and switch jobs on that were changed in the admin",
        )

    @transaction.atomic
    def handle(self, *args, **options):
        for job in JOBS:
            crontab, _ = CrontabSchedule.objects.get_or_create(
                minute=job["minute"],
                hour=job["hour"],
                day_of_week="*",
                day_of_month="*",
                month_of_year="*",
                timezone=settings.TIME_ZONE,
            )
            task = PeriodicTask.objects.filter(name=job["name"]).first()
            if task is None:
                PeriodicTask.objects.create(
                    name=job["name"],
                    task=job["task"],
                    crontab=crontab,
                    description=job["description"],
                )
                state = "created"
            elif options["reset"] or task.task != job["task"]:
                task.task = job["task"]
                task.crontab = crontab
                task.interval = None
                task.enabled = True
                task.description = job["description"]
                task.save()
                state = "reset"
            else:
                state = "already there"
            self.stdout.write(f"{job['name']} ({job['task']}): {state}")
