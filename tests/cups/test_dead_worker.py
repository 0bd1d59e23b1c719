"""A cup's knockout build whose worker died (issue 31): the worker beats the stage's
heartbeat; once the beats stop the secretary can build it again within a minute."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.db import connection
from django.utils import timezone

from clabber_league.core import heartbeat
from clabber_league.cups.models import Cup, Stage
from clabber_league.cups.services import build, setup
from clabber_league.cups.tasks import build_knockout

from .builders import finish_by_forfeits, round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def playoffs(club, league, django_capture_on_commit_callbacks):
    """Play-offs whose league stage is complete and whose build was queued."""
    division, teams = league
    fixtures = round_robin(division, teams[:4])
    cup = setup.cup_create(club=club, name="Play-offs", divisions=[division], top=2)
    with django_capture_on_commit_callbacks():  # the queued build is not sent
        finish_by_forfeits(fixtures, teams[:4])
    stage = cup.stages.get(kind=Stage.Kind.LEAGUE)
    assert stage.build == Stage.Build.QUEUED and stage.heartbeat_at is not None
    return cup, stage


def _running(stage: Stage, beat_ago: dt.timedelta) -> None:
    Stage.objects.filter(pk=stage.pk).update(
        build=Stage.Build.RUNNING, heartbeat_at=timezone.now() - beat_ago
    )
    stage.refresh_from_db()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="workers beat on PostgreSQL")
def test_a_build_whose_worker_stopped_beating_can_be_built_again(
    playoffs, django_capture_on_commit_callbacks
):
    cup, stage = playoffs
    _running(stage, dt.timedelta(seconds=3))
    assert stage.build_stalled is False
    with pytest.raises(build.CupError) as caught:
        build.stage_build(cup=cup)
    assert caught.value.errors[0]["message"] == build.BUILD_ACTIVE

    _running(stage, heartbeat.HEARTBEAT_STALE + dt.timedelta(seconds=1))
    assert stage.build_stalled is True
    with django_capture_on_commit_callbacks() as queued:
        again = build.stage_build(cup=cup)
    assert again.build == Stage.Build.QUEUED and len(queued) == 1
    build_knockout(stage.pk)  # the new task's work
    cup.refresh_from_db()
    assert cup.status == Cup.Status.DRAWN


def test_a_build_no_worker_started_can_be_built_again_after_a_minute(
    playoffs, django_capture_on_commit_callbacks
):
    cup, stage = playoffs
    with pytest.raises(build.CupError):
        build.stage_build(cup=cup)  # queued a moment ago: wait for it
    Stage.objects.filter(pk=stage.pk).update(
        heartbeat_at=timezone.now() - heartbeat.QUEUED_STALE - dt.timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks() as queued:
        build.stage_build(cup=cup)
    assert len(queued) == 1
    build_knockout(stage.pk)
    stage.refresh_from_db()
    assert stage.build == Stage.Build.DONE


def test_the_cup_page_offers_to_build_a_stalled_knockout_again(client, playoffs, admin):
    cup, stage = playoffs
    Stage.objects.filter(pk=stage.pk).update(heartbeat_at=timezone.now() - dt.timedelta(hours=1))
    client.force_login(admin)
    page = client.get(f"/clubs/{cup.club.slug}/cups/{cup.pk}/").content.decode()
    assert "seems to have stopped" in page
    assert "Build the knockout now" in page


def test_with_redis_down_a_build_answers_at_once_and_can_be_asked_again(
    playoffs, redis_down, django_capture_on_commit_callbacks
):
    cup, stage = playoffs
    Stage.objects.filter(pk=stage.pk).update(build=Stage.Build.FAILED)
    with django_capture_on_commit_callbacks() as sending:
        build.stage_build(cup=cup)
    started = time.monotonic()
    for send in sending:  # sending the task: one quick try, then the stage says why
        send()
    assert time.monotonic() - started < 2
    stage.refresh_from_db()
    assert (stage.build, stage.message) == (Stage.Build.FAILED, build.BROKER_DOWN)
    with django_capture_on_commit_callbacks() as queued:
        build.stage_build(cup=cup)  # Redis back (the test sends nothing): queued again
    assert len(queued) == 1
