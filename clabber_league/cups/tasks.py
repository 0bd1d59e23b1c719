"""Celery tasks of cups: thin, ids in, a service does the work.

``build_knockout`` is queued by ``services.build`` once the transaction that completed a
play-off's league stage commits (or the secretary asked for the build)."""

from celery import shared_task

from .services.build import stage_build_execute


# No result stored: the stage's row is its result (see scheduling.tasks).
@shared_task(name="cups.build_knockout", acks_late=True, ignore_result=True)
def build_knockout(stage_id: int) -> dict[str, object]:
    stage = stage_build_execute(stage_id=stage_id)
    return {"stage": stage.pk, "build": stage.build, "message": stage.message}
