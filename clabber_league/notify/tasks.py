"""Celery tasks of notifications: thin, ids in, a service does the work.

``record`` is queued by a hook's handler once the write that caused it commits: it reads
what happened and records one notification per member. ``send`` is queued by
``services.notifications_record`` once those rows are written (with an ``eta`` for one
held by quiet hours); ``send_due`` (celery beat, each minute: ``manage.py
setup_periodic_tasks``) sends what a lost task or the end of quiet hours left waiting.
Claiming is one conditional UPDATE, so a notification queued twice is sent once."""

from celery import shared_task

from . import services


@shared_task(name="notify.record", acks_late=True, ignore_result=True)
def record(cause: str, pk: int) -> None:
    services.notifications_of(cause=cause, pk=pk)


@shared_task(name="notify.send", acks_late=True, ignore_result=True)
def send(notification_id: int) -> str:
    return services.notification_send(notification_id=notification_id)


@shared_task(name="notify.send_due", ignore_result=True)
def send_due() -> int:
    due = services.notifications_due()
    for pk in due:
        send.apply_async(args=[pk], ignore_result=True)
    return len(due)


@shared_task(name="notify.purge", ignore_result=True)
def purge() -> int:
    return services.notifications_purge()
