"""The scheduling API: schedule configs, runs (202 and their status), postpone and forfeit."""

from __future__ import annotations

import pytest

from clabber_league.leagues.models import Venue
from clabber_league.scheduling.api import (
    USE_ACTION,
    USE_ACTION_STATUS,
)
from clabber_league.scheduling.models import Fixture, ScheduleConfig, ScheduleRun
from clabber_league.scheduling.services.fixture_changes import (
    FIXTURE_HAS_RESULT,
    FIXTURE_KEPT,
    fixture_forfeit,
)
from clabber_league.scheduling.services.generation import (
    BROKER_DOWN,
    RUN_ACTIVE,
    RUN_NOT_RETRYABLE,
    schedule_run_execute,
)
from tests.clients import api_client
from tests.factories import ClubFactory, MembershipFactory, UserFactory

from .conftest import SEASON_START, configure

pytestmark = pytest.mark.django_db


def _url(club, path: str) -> str:
    return f"/api/clubs/{club.slug}/{path}"


def test_the_secretary_sets_up_a_division_schedule(club, division, teams, hall, annex, secretary):
    body = {
        "division": division.pk,
        "format": "round_robin",
        "cycles": 2,
        "games_per_fixture": 3,
        "weekday": 0,
        "start_date": "2026-09-01",
        "start_time": "19:30",
        "venues": [annex.pk, hall.pk],
        "skip_dates": [{"date": "2026-12-28", "reason": "Christmas week"}],
    }
    response = api_client(secretary, token=True).post(
        _url(club, "schedule-configs/"), body, format="json"
    )
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["venues"] == [annex.pk, hall.pk]  # the order tables fill in
    assert data["skip_dates"] == [{"date": "2026-12-28", "reason": "Christmas week"}]
    assert (data["cycles"], data["games_per_fixture"], data["start_time"]) == (2, 3, "19:30:00")
    division.refresh_from_db()
    assert division.games_per_fixture == 3

    patch = api_client(secretary, token=True).patch(
        _url(club, f"schedule-configs/{data['id']}/"), {"weekday": 3}, format="json"
    )
    assert patch.status_code == 200, patch.content
    assert patch.json()["weekday"] == 3
    assert patch.json()["venues"] == [annex.pk, hall.pk]  # kept


def test_a_config_refuses_another_clubs_venue(club, division, secretary):
    elsewhere = Venue.objects.create(club=ClubFactory(), name="Elsewhere", tables=3)
    response = api_client(secretary, token=True).post(
        _url(club, "schedule-configs/"),
        {"division": division.pk, "venues": [elsewhere.pk]},
        format="json",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["venues"]
    assert not ScheduleConfig.objects.exists()


def test_generating_answers_202_with_the_run_and_its_status_can_be_polled(
    club, division, teams, secretary, django_capture_on_commit_callbacks
):
    configure(division)
    client = api_client(secretary, token=True)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(_url(club, "schedule-runs/"), {"division": division.pk})
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    assert response.json()["state"] == "queued"
    assert len(callbacks) == 1  # the task goes out when the request's transaction commits
    schedule_run_execute(run_id=run_id, today=SEASON_START)  # what the worker does
    status = client.get(_url(club, f"schedule-runs/{run_id}/")).json()
    assert (status["state"], status["progress"], status["fixtures_created"]) == ("done", 100, 15)
    fixtures = client.get(_url(club, f"fixtures/?division={division.pk}")).json()
    assert fixtures["count"] == 15


def test_a_second_generation_while_one_runs_is_refused(club, division, teams, secretary):
    configure(division)
    client = api_client(secretary, token=True)
    assert client.post(_url(club, "schedule-runs/"), {"division": division.pk}).status_code == 202
    second = client.post(_url(club, "schedule-runs/"), {"division": division.pk})
    assert second.status_code == 409
    assert second.json()["errors"][0]["message"] == RUN_ACTIVE


def test_a_failed_run_is_retried_with_a_new_run(club, division, teams, secretary):
    configure(division)
    failed = ScheduleRun.objects.create(
        club=club, division=division, state="failed", message=BROKER_DOWN
    )
    response = api_client(secretary, token=True).post(
        _url(club, f"schedule-runs/{failed.pk}/retry/")
    )
    assert response.status_code == 202
    assert response.json()["id"] != failed.pk
    done = ScheduleRun.objects.create(club=club, division=division, state="done")
    refused = api_client(secretary, token=True).post(_url(club, f"schedule-runs/{done.pk}/retry/"))
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["message"] == RUN_NOT_RETRYABLE


@pytest.fixture
def fixtures(division, teams, hall, generate):
    configure(division, venues=[hall])
    generate(division)
    return list(Fixture.objects.filter(division=division).order_by("round_number", "id"))


def test_postponing_and_moving_through_the_api(club, fixtures, hall, secretary):
    fixture = fixtures[0]
    client = api_client(secretary, token=True)
    url = _url(club, f"fixtures/{fixture.pk}/postpone/")
    response = client.post(url, {"date": None, "note": "Snow"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["date"]) == ("postponed", None)
    moved = client.post(
        url, {"date": "2026-12-21", "venue": hall.pk, "table": 2}, format="json"
    ).json()
    assert (moved["status"], moved["date"], moved["table"]) == ("scheduled", "2026-12-21", 2)
    assert moved["original_date"] == "2026-09-07"
    too_far = client.post(url, {"date": "2026-12-21", "venue": hall.pk, "table": 9}, format="json")
    assert too_far.status_code == 400
    assert too_far.json()["errors"][0]["field"] == "table"


def test_a_forfeit_through_the_api(club, fixtures, secretary):
    fixture = fixtures[0]
    response = api_client(secretary, token=True).post(
        _url(club, f"fixtures/{fixture.pk}/forfeit/"),
        {"winner": fixture.home_id, "kind": "walkover", "note": "no show"},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["forfeit_winner"], body["note"]) == (
        "forfeit",
        fixture.home_id,
        "Walkover: no show",
    )


def test_this_clubs_ids_do_not_exist_under_another_club(club, fixtures, division):
    """(This club's URLs for a stranger: tests/security/test_permissions.py.)"""
    other = ClubFactory()
    stranger = MembershipFactory(
        club=other, role="admin", user=UserFactory(username="stranger")
    ).user
    client = api_client(stranger, token=True)
    fixture = fixtures[0]
    assert (
        client.post(
            _url(other, f"fixtures/{fixture.pk}/postpone/"), {"date": None}, format="json"
        ).status_code
        == 404
    )
    response = client.post(_url(other, "schedule-runs/"), {"division": division.pk})
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["division"]


def test_anonymous_visitors_read_a_public_clubs_runs_only(club, fixtures):
    assert api_client().get(_url(club, "schedule-runs/")).status_code == 404
    club.is_public = True
    club.save()
    assert api_client().get(_url(club, "fixtures/")).status_code == 200
    assert api_client().post(_url(club, "schedule-runs/"), {}).status_code in (401, 403)


def test_a_plain_update_cannot_move_a_fixture_past_the_checks_of_postpone(
    club, fixtures, hall, secretary
):
    """PUT/PATCH leave date, venue, table and status to the actions; the rest still updates."""
    first, clash = fixtures[0], fixtures[1]  # same night, both at the Hall
    assert (first.date, first.venue_id) == (clash.date, clash.venue_id)
    client = api_client(secretary, token=True)
    url = _url(club, f"fixtures/{first.pk}/")
    response = client.patch(url, {"table": clash.table, "status": "forfeit"}, format="json")
    assert response.status_code == 400
    errors = {e["field"]: e["message"] for e in response.json()["errors"]}
    assert errors == {
        "table": USE_ACTION.format(action="postpone"),
        "status": USE_ACTION_STATUS,
    }
    first.refresh_from_db()
    assert first.table != clash.table and first.status == "scheduled"
    # The representation read back is accepted as it is (nothing moves), and the round changes.
    body = {**client.get(url).json(), "round_number": 7}
    response = client.put(url, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["round_number"] == 7
    # Moving it onto the taken table through postpone is refused by fixture_move.
    taken = client.post(
        url + "postpone/",
        {"date": str(clash.date), "venue": hall.pk, "table": clash.table},
        format="json",
    )
    assert taken.status_code == 409 and taken.json()["errors"][0]["field"] == "table"


def test_a_forfeited_fixture_keeps_its_teams_and_is_not_deleted(club, fixtures, secretary):
    fixture = fixture_forfeit(fixture=fixtures[0], winner=fixtures[0].home)
    client = api_client(secretary, token=True)
    url = _url(club, f"fixtures/{fixture.pk}/")
    response = client.patch(url, {"games_planned": 3}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"] == [{"field": "games_planned", "message": FIXTURE_HAS_RESULT}]
    response = client.delete(url)
    assert response.status_code == 409
    assert response.json()["errors"] == [{"field": "fixture", "message": FIXTURE_KEPT}]
    assert Fixture.objects.filter(pk=fixture.pk, status="forfeit").exists()
    assert client.delete(_url(club, f"fixtures/{fixtures[1].pk}/")).status_code == 204
