"""Faults found on the schedule pages (issue 12), each with its regression test: a move onto
a night the division does not play, the move's note on the pages, the forfeit form's kind,
an empty team list."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services import ScheduleError, fixture_changes

from .conftest import configure

pytestmark = pytest.mark.django_db

CHRISTMAS = dt.date(2026, 12, 21)  # a Monday, no play: the hall has its party


def _url(name: str, club, *args) -> str:
    return reverse(f"scheduling:{name}", args=[club.slug, *args])


@pytest.fixture
def fixture(division, teams, hall, generate):
    configure(division, venues=[hall], skip_dates=[(CHRISTMAS, "Christmas party")])
    assert generate(division).state == "done"
    first = Fixture.objects.filter(division=division).order_by("date", "table", "id").first()
    assert first.date != CHRISTMAS
    return first


def test_the_service_refuses_a_no_play_night_unless_told_to_play_then(division, fixture):
    with pytest.raises(ScheduleError) as caught:
        fixture_changes.fixture_move(fixture=fixture, date=CHRISTMAS, note="Hall free after all")
    assert caught.value.errors == [
        {
            "field": "date",
            "message": fixture_changes.NO_PLAY_NIGHT.format(
                date="Mon 21 Dec 2026", division="Monday Night", reason=" (Christmas party)"
            ),
        }
    ]
    fixture.refresh_from_db()
    assert fixture.date != CHRISTMAS and fixture.original_date is None  # nothing written
    moved = fixture_changes.fixture_move(
        fixture=fixture, date=CHRISTMAS, note="Hall free after all", on_no_play_night=True
    )
    assert moved.date == CHRISTMAS


def test_the_move_page_warns_and_the_schedule_shows_the_right_badge_and_the_note(
    client, club, division, fixture, secretary
):
    client.force_login(secretary)
    url = _url("fixture-move", club, fixture.pk)
    response = client.post(url, {"date": CHRISTMAS.isoformat(), "note": "Hall free after all"})
    assert response.status_code == 200
    assert "no-play night" in " ".join(response.context["form"].errors["date"])
    response = client.post(
        url,
        {"date": CHRISTMAS.isoformat(), "note": "Hall free after all", "on_no_play_night": "on"},
    )
    assert response.status_code == 302
    original = fixture.date
    page = client.get(_url("division", club, division.pk)).content.decode()  # round 1
    row = page[page.index(f'id="fixture-{fixture.pk}"') :].split("</tr>", 1)[0]
    assert f"Moved from {original:%-d %b}" in row
    assert "On a no-play night" in row
    assert "Moved to a later night" not in row  # that badge is for a full night's overflow
    assert "Hall free after all" in row  # the note, not only in the .ics
    team = client.get(_url("team", club, fixture.home_id)).content.decode()
    assert "Hall free after all" in team and "On a no-play night" in team
    # The move page keeps the note when the fixture is moved again.
    assert client.get(url).context["form"]["note"].value() == "Hall free after all"


def test_the_api_says_so_too_and_takes_the_same_answer(club, division, fixture, secretary):
    api = APIClient()
    api.force_authenticate(secretary)
    url = f"/api/clubs/{club.slug}/fixtures/{fixture.pk}/postpone/"
    response = api.post(url, {"date": CHRISTMAS.isoformat()}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["date"]
    response = api.post(
        url, {"date": CHRISTMAS.isoformat(), "on_no_play_night": True}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["date"] == CHRISTMAS.isoformat()


def test_the_forfeit_form_chooses_no_kind_for_the_secretary(client, club, fixture, secretary):
    client.force_login(secretary)
    url = _url("fixture-forfeit", club, fixture.pk)
    page = client.get(url)
    assert page.context["form"]["kind"].value() is None
    assert " checked" not in page.content.decode().split('name="kind"', 1)[1].split(">", 1)[0]
    response = client.post(url, {"winner": fixture.away_id})
    assert response.status_code == 200
    assert response.context["form"].errors["kind"]
    fixture.refresh_from_db()
    assert fixture.status != "forfeit"


def test_a_division_without_teams_says_so_without_numbering_it(client, club, division, secretary):
    client.force_login(secretary)
    html = client.get(_url("setup", club, division.pk)).content.decode()
    assert "No teams yet." in html
    assert '<ol class="team-list">' not in html
