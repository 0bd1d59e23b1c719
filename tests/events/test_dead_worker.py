"""Work that survives a dead worker (issue 31): a club night's draw run by a worker beats its
round's heartbeat; once the beats stop (the worker died) the round can be drawn again
within a minute, and the dead worker's draw, should it ever wake, writes nothing."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import connection
from django.utils import timezone, translation

from clabber_league.core import heartbeat
from clabber_league.events.models import Round, Table
from clabber_league.events.services import checkin, rounds

pytestmark = pytest.mark.django_db

ON_POSTGRESQL = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="workers beat on PostgreSQL"
)


def _check_in(event, players) -> None:
    for player in players:
        checkin.entry_check_in(event=event, player=player)


def _being_drawn(event, *, beat_ago: dt.timedelta | None, queued_ago=dt.timedelta(0)) -> Round:
    now = timezone.now()
    round_ = Round.objects.create(event=event, number=1, seed=event.seed, status="drawing")
    Round.objects.filter(pk=round_.pk).update(
        created_at=now - queued_ago, heartbeat_at=None if beat_ago is None else now - beat_ago
    )
    round_.refresh_from_db()
    return round_


@ON_POSTGRESQL
def test_a_draw_whose_worker_stopped_beating_is_drawn_again(night, members):
    _check_in(night, members[:8])
    alive = _being_drawn(night, beat_ago=dt.timedelta(seconds=3), queued_ago=dt.timedelta(hours=1))
    assert alive.draw_stalled is False
    with pytest.raises(rounds.RoundError) as caught:
        rounds.round_draw(event=night)
    assert caught.value.status == 409  # its worker is alive: wait for it

    dead = heartbeat.HEARTBEAT_STALE + dt.timedelta(seconds=1)
    Round.objects.filter(pk=alive.pk).update(heartbeat_at=timezone.now() - dead)
    alive.refresh_from_db()
    assert alive.draw_stalled is True
    drawn = rounds.round_draw(event=night)
    assert (drawn.number, drawn.status) == (1, Round.Status.PLAYING)
    assert Round.objects.filter(event=night).count() == 1


def test_a_draw_no_worker_started_is_drawn_again_after_a_minute(night, members):
    _check_in(night, members[:8])
    queued = _being_drawn(night, beat_ago=None, queued_ago=dt.timedelta(seconds=10))
    assert queued.draw_stalled is False
    with pytest.raises(rounds.RoundError):
        rounds.round_draw(event=night)
    Round.objects.filter(pk=queued.pk).update(
        created_at=timezone.now() - heartbeat.QUEUED_STALE - dt.timedelta(seconds=1)
    )
    drawn = rounds.round_draw(event=night)
    assert drawn.status == Round.Status.PLAYING


def test_the_task_of_a_draw_given_up_meanwhile_writes_nothing(night, members, settings):
    settings.CLABBER_EVENT_DRAW_IN_REQUEST = 4
    _check_in(night, members[:8])
    given_up = _being_drawn(night, beat_ago=None, queued_ago=dt.timedelta(hours=1))
    drawn_again = rounds.round_draw(event=night)  # replaces the lost round
    assert not Round.objects.filter(pk=given_up.pk).exists()
    # The lost round's task, delivered late: nothing to do.
    assert rounds.round_draw_execute(round_id=given_up.pk) is None
    # A second delivery of the new round's task after its worker claimed it: left alone.
    Round.objects.filter(pk=drawn_again.pk).update(heartbeat_at=timezone.now())
    again = rounds.round_draw_execute(round_id=drawn_again.pk)
    assert again.status == Round.Status.DRAWING and not Table.objects.filter(round=again).exists()


def test_the_night_page_offers_to_draw_a_stalled_round_again(client, night, members, secretary):
    _check_in(night, members[:8])
    _being_drawn(night, beat_ago=None, queued_ago=dt.timedelta(hours=1))
    client.force_login(secretary)
    page = client.get(f"/clubs/{night.club.slug}/events/{night.pk}/").content.decode()
    assert "seems to have stopped" in page
    assert "Draw round 1" in page


def test_with_redis_down_a_large_draw_answers_at_once_and_is_drawn_again(
    night, members, settings, redis_down, django_capture_on_commit_callbacks
):
    settings.CLABBER_EVENT_DRAW_IN_REQUEST = 4  # eight players: a task's draw
    _check_in(night, members[:8])
    with django_capture_on_commit_callbacks() as sending:
        queued = rounds.round_draw(event=night)
    started = time.monotonic()
    for send in sending:  # sending the task: one quick try, then the round says why
        send()
    assert time.monotonic() - started < 2
    queued.refresh_from_db()
    assert queued.status == Round.Status.FAILED
    assert "the task queue did not answer" in queued.message
    with translation.override("nl"):  # the night's page says it in its reader's language
        dutch = queued.message_shown
    assert "the task queue did not answer" not in dutch
    assert queued.message.split(":")[0] in dutch  # the error's name, as the worker saw it
    settings.CLABBER_EVENT_DRAW_IN_REQUEST = 40  # the secretary draws again: nothing blocks it
    drawn = rounds.round_draw(event=night)
    assert (drawn.number, drawn.status) == (1, Round.Status.PLAYING)
