"""A federation's final results files count in its national ranking (issue 34), once: a
club whose games are confirmed on this site is ranked from those games, not from its file
too; a club elsewhere, from its file."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.exchange import reading, services
from clabber_league.exchange.ranking_source import imported_events
from clabber_league.games.models import Game
from clabber_league.ranking.models import RatingStep
from clabber_league.ranking.services import ranking_recompute

pytestmark = pytest.mark.django_db


def _import_and_close(federation, officer, payload, django_capture_on_commit_callbacks):
    services.result_file_import(federation=federation, content=payload, user=officer)
    period = services.period_create(
        federation=federation, start=dt.date(2026, 9, 1), end=dt.date(2026, 9, 30)
    )
    with django_capture_on_commit_callbacks(execute=False) as queued:
        services.period_close(period=period, user=officer)
    return queued


def test_a_provisional_file_does_not_count(federation, officer, club, fixture):
    payload = reading.export_event(club=club, kind="fixture", pk=fixture.pk)
    Game.objects.filter(club=club).delete()  # as if its games were on another site
    services.result_file_import(federation=federation, content=payload, user=officer)
    assert list(imported_events(federation)) == []


def test_a_closed_periods_file_of_a_club_elsewhere_is_ranked(
    federation, officer, club, fixture, django_capture_on_commit_callbacks
):
    payload = reading.export_event(club=club, kind="fixture", pk=fixture.pk)
    Game.objects.filter(club=club).delete()  # its games were played on another site
    queued = _import_and_close(federation, officer, payload, django_capture_on_commit_callbacks)
    assert queued, "closing the period queues the ranking's recomputation"
    [event] = imported_events(federation)
    assert event.date == dt.date(2026, 9, 7)
    assert len(event.sides) == 2
    numbers = {n for side in event.sides for n in side.numbers}
    assert numbers and all(side.points_available for side in event.sides)
    assert {side.placing for side in event.sides} <= {1, 2, None}
    ranking_recompute(federation=federation)
    ranked = set(RatingStep.objects.values_list("player__number", flat=True))
    assert numbers <= ranked


def test_a_file_of_games_counted_here_is_not_counted_twice(
    federation, officer, club, fixture, django_capture_on_commit_callbacks
):
    payload = reading.export_event(club=club, kind="fixture", pk=fixture.pk)
    _import_and_close(federation, officer, payload, django_capture_on_commit_callbacks)
    assert list(imported_events(federation)) == []
