"""Celery tasks of webhooks: thin, ids in, a service does the work.

``deliver`` is queued by ``services.event_emit`` once the transaction that made the
delivery commits; a failed try due again within ``REQUEUE_WITHIN`` seconds is queued again
with that countdown. ``deliver_due`` (celery beat, each minute: ``manage.py
setup_periodic_tasks``) queues every delivery whose next try is due: the longer waits of
the retry schedule, and tries whose worker was lost. Claiming a delivery is one
conditional UPDATE, so a delivery queued twice is still sent once per try.
"""

from celery import shared_task

from . import services

#: Longer waits are left to ``deliver_due``: a task held for hours by Redis would be
#: handed out again after the broker's visibility timeout.
REQUEUE_WITHIN = 300


@shared_task(name="webhooks.deliver", bind=True, acks_late=True, ignore_result=True)
def deliver(self, delivery_id: int) -> None:
    wait = services.delivery_attempt(delivery_id=delivery_id)
    if wait is not None and wait <= REQUEUE_WITHIN and not self.app.conf.task_always_eager:
        # on the queue it came from (a site, or a test session, may route it elsewhere)
        queue = (self.request.delivery_info or {}).get("routing_key")
        self.apply_async(args=[delivery_id], countdown=wait, queue=queue, ignore_result=True)


@shared_task(name="webhooks.deliver_due", ignore_result=True)
def deliver_due() -> int:
    due = services.deliveries_due()
    for delivery_id in due:
        deliver.apply_async(args=[delivery_id], ignore_result=True)
    return len(due)


@shared_task(name="webhooks.purge_deliveries", ignore_result=True)
def purge_deliveries() -> int:
    return services.deliveries_purge()
