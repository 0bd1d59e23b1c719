"""Fixtures and venues written through the API obey the checks of the pages and of
generation: no double-booked table or team, no result set by hand, no venue without
tables."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clabber_league.leagues.models import Venue
from clabber_league.leagues.services import TABLES_RANGE, VENUE_NAME_TAKEN
from clabber_league.scheduling.api import USE_ACTION_STATUS
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.fixture_changes import (
    GAMES_PLANNED,
    TABLE_TAKEN,
    TEAM_OTHER_DIVISION,
    TEAM_SELF,
    fixture_create,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(secretary):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=secretary).key}")
    return client


def _url(club, path: str) -> str:
    return f"/api/clubs/{club.slug}/{path}"


@pytest.fixture
def booked(division, teams, hall):
    """Team 01 v Team 02 at the Hall, table 1, on 7 September."""
    return fixture_create(
        division=division,
        round_number=1,
        home=teams[0],
        away=teams[1],
        date=SEPT_7,
        venue=hall,
        table=1,
    )


SEPT_7 = "2026-09-07"


def _body(division, home, away, **extra) -> dict:
    return {"division": division.pk, "round_number": 2, "home": home.pk, "away": away.pk, **extra}


def test_a_fixture_that_double_books_a_table_is_refused(api, club, division, teams, hall, booked):
    body = _body(division, teams[2], teams[3], date=SEPT_7, venue=hall.pk, table=1)
    response = api.post(_url(club, "fixtures/"), body, format="json")
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {
            "field": "table",
            "message": TABLE_TAKEN.format(table=1, venue="The Hall", home=teams[0], away=teams[1]),
        }
    ]
    assert Fixture.objects.count() == 1
    ok = api.post(_url(club, "fixtures/"), {**body, "table": 2}, format="json")
    assert ok.status_code == 201, ok.content
    assert ok.json()["status"] == "scheduled"


def test_a_fixture_that_double_books_a_team_is_refused(api, club, division, teams, booked):
    body = _body(division, teams[0], teams[2], date=SEPT_7)
    response = api.post(_url(club, "fixtures/"), body, format="json")
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "date"
    assert response.json()["errors"][0]["message"].startswith(teams[0].name)


def test_a_new_fixture_cannot_be_played_by_decree(api, club, division, teams):
    body = _body(division, teams[2], teams[3], date=SEPT_7, status="played")
    response = api.post(_url(club, "fixtures/"), body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "status", "message": USE_ACTION_STATUS}]
    assert not Fixture.objects.exists()
    without_date = api.post(
        _url(club, "fixtures/"), _body(division, teams[2], teams[3], date=None), format="json"
    )
    assert without_date.status_code == 201, without_date.content
    assert without_date.json()["status"] == "postponed"
    assert without_date.json()["games_planned"] == division.games_per_fixture


def test_a_fixture_of_a_team_against_itself_or_from_another_division_is_refused(
    api, club, division, teams
):
    from tests.factories import DivisionFactory, TeamFactory

    other = TeamFactory(division=DivisionFactory(season=division.season))
    body = _body(division, teams[0], teams[0], games_planned=0)
    response = api.post(_url(club, "fixtures/"), body, format="json")
    assert response.status_code == 400
    assert {e["message"] for e in response.json()["errors"]} == {
        TEAM_SELF,
        GAMES_PLANNED,
    }
    response = api.post(_url(club, "fixtures/"), _body(division, teams[0], other), format="json")
    assert response.json()["errors"] == [{"field": "away", "message": TEAM_OTHER_DIVISION}]


def test_new_teams_for_a_fixture_must_be_free_that_night(api, club, division, teams, booked):
    second = fixture_create(
        division=division, round_number=1, home=teams[2], away=teams[3], date=booked.date
    )
    url = _url(club, f"fixtures/{second.pk}/")
    response = api.patch(url, {"home": teams[0].pk}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "date"
    second.refresh_from_db()
    assert second.home_id == teams[2].pk
    assert api.patch(url, {"home": teams[4].pk}, format="json").status_code == 200


def test_a_venue_with_zero_tables_or_a_taken_name_is_refused(api, club, hall):
    response = api.post(_url(club, "venues/"), {"name": "Shed", "tables": 0}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [{"field": "tables", "message": TABLES_RANGE}]
    response = api.post(_url(club, "venues/"), {"name": "The Hall", "tables": 3}, format="json")
    assert response.json()["errors"] == [{"field": "name", "message": VENUE_NAME_TAKEN}]
    patch = api.patch(_url(club, f"venues/{hall.pk}/"), {"tables": 0}, format="json")
    assert patch.status_code == 400
    hall.refresh_from_db()
    assert hall.tables == 2
    assert not Venue.objects.filter(name="Shed").exists()
