"""Celery tasks of club nights: thin, ids in, a service does the work.

``draw_round`` is queued by ``services.rounds.round_draw`` once the request's transaction
commits, for a draw too large to make in the request."""

from celery import shared_task

from .services.rounds import round_draw_execute


# No result stored: the round's row is its result (see scheduling.tasks).
@shared_task(name="events.draw_round", acks_late=True, ignore_result=True)
def draw_round(round_id: int) -> dict[str, object]:
    round_ = round_draw_execute(round_id=round_id)
    if round_ is None:  # drawn again meanwhile: this round was replaced
        return {"round": round_id, "status": "replaced"}
    return {"round": round_.pk, "status": round_.status}
