"""Celery tasks of reports: thin, ids in, a service does the work (queued by the hooks'
handlers once the write that may have completed a league night or a cup round commits)."""

import contextlib
import datetime as dt

from celery import shared_task

from . import services


@shared_task(name="reports.league_night", ignore_result=True)
def league_night(club_id: int, date: str) -> None:
    with contextlib.suppress(services.ReportError):  # a result was undone meanwhile
        services.league_night_check(club_id=club_id, date=dt.date.fromisoformat(date))


@shared_task(name="reports.cup_game", ignore_result=True)
def cup_game(game_id: int) -> None:
    services.cup_game_check(game_id=game_id)


@shared_task(name="reports.cup_tie", ignore_result=True)
def cup_tie(tie_id: int) -> None:
    services.cup_tie_check(tie_id=tie_id)


@shared_task(name="reports.night", ignore_result=True)
def night(event_id: int) -> None:
    services.night_check(event_id=event_id)
