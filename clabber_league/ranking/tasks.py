"""Celery tasks of the ranking: thin, ids in, a service does the work.

``ranking.recompute`` is queued by ``services.ranking_results_changed`` once the
transaction that changed a result commits."""

from celery import shared_task

from clabber_league.federation.models import Federation

from .services import ranking_recompute, ranking_task_started


@shared_task(name="ranking.recompute", acks_late=True, ignore_result=True)
def recompute(federation_id: int) -> dict[str, object]:
    asked, since = ranking_task_started(federation_id)
    federation = Federation.objects.filter(pk=federation_id).first()
    if federation is None or not asked:
        return {"federation": federation_id, "events": 0}
    events = ranking_recompute(federation=federation, since=since)
    return {"federation": federation_id, "since": str(since or ""), "events": events}
