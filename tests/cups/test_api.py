"""The cups API: club-scoped, the one error body, 409 for conflicts with what is stored."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services import setup
from tests.factories import ClubFactory, DivisionFactory, TeamFactory

from .builders import round_robin

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(admin):
    client = APIClient()
    client.force_authenticate(admin)
    return client


def _url(club, tail=""):
    return f"/api/clubs/{club.slug}/cups/{tail}"


def test_an_admin_creates_seeds_and_draws_a_cup(api, club, league):
    _, teams = league
    body = {"name": "Knockout", "teams": [t.pk for t in teams[:5]], "seeding": "list"}
    made = api.post(_url(club), body, format="json")
    assert made.status_code == 201, made.json()
    cup = made.json()
    assert [e["name"] for e in cup["entrants"]] == [t.name for t in teams[:5]]
    drawn = api.post(_url(club, f"{cup['id']}/draw/"), format="json")
    assert drawn.status_code == 200
    assert drawn.json()["status"] == "drawn"
    bracket = api.get(_url(club, f"{cup['id']}/bracket/")).json()
    assert [s["title"] for s in bracket["sections"]] == ["Quarter-finals", "Semi-finals", "Final"]


def test_a_team_of_another_club_is_not_found_by_id(api, club, league):
    _, teams = league
    stranger = TeamFactory(division=DivisionFactory(season__club=ClubFactory()))
    body = {"name": "Knockout", "teams": [teams[0].pk, stranger.pk]}
    answer = api.post(_url(club), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "teams[1]"
    assert not Cup.objects.exists()


def test_redrawing_a_bracket_with_results_is_409(api, club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    tie = cup.ties.get(key="M1-1")
    walkover = api.post(
        f"/api/clubs/{club.slug}/cups/{cup.pk}/ties/{tie.pk}/walkover/",
        {"absent": "away"},
        format="json",
    )
    assert walkover.status_code == 200
    assert walkover.json()["status"] == Tie.Status.WALKOVER
    again = api.post(_url(club, f"{cup.pk}/draw/"), format="json")
    assert again.status_code == 409
    assert again.json()["errors"][0]["message"] == setup.HAS_RESULTS


def test_building_from_an_unfinished_division_is_409_with_the_reason(api, club, league):
    division, teams = league
    round_robin(division, teams[:4])
    made = api.post(
        _url(club), {"name": "Play-offs", "divisions": [division.pk], "top": 4}, format="json"
    )
    assert made.status_code == 201
    assert made.json()["status"] == "waiting"
    answer = api.post(_url(club, f"{made.json()['id']}/build/"), format="json")
    assert answer.status_code == 409
    assert "is not finished" in answer.json()["errors"][0]["message"]


def test_a_viewer_reads_but_does_not_draw(club, league, viewer):
    _, teams = league
    cup = setup.cup_create(club=club, name="K", teams=teams[:4])
    client = APIClient()
    client.force_authenticate(viewer)
    assert client.get(_url(club, f"{cup.pk}/")).status_code == 200
    assert client.post(_url(club, f"{cup.pk}/draw/"), format="json").status_code == 403


def test_another_clubs_cup_is_404(api, league):
    other = ClubFactory()
    division = DivisionFactory(season__club=other)
    teams = [TeamFactory(division=division) for _ in range(2)]
    cup = setup.cup_create(club=other, name="Theirs", teams=teams)
    mine = api.get(_url(ClubFactory(), f"{cup.pk}/"))
    assert mine.status_code in (403, 404)


def test_a_cup_of_tables_of_three_shows_three_players_a_tie(api, club):
    from tests.factories import PlayerFactory

    players = [PlayerFactory(club=club, name=f"P{i}") for i in range(1, 5)]
    body = {
        "name": "Threes",
        "players": [p.pk for p in players],
        "rules": "klaberjass-3",
        "entrant_kind": "players",
        "seeding": "list",
    }
    made = api.post(_url(club), body, format="json")
    assert made.status_code == 201, made.json()
    cup_id = made.json()["id"]
    assert api.post(_url(club, f"{cup_id}/draw/"), format="json").status_code == 200
    bracket = api.get(_url(club, f"{cup_id}/bracket/")).json()
    assert [s["title"] for s in bracket["sections"]] == ["Semi-finals", "Final"]
    final = bracket["sections"][1]["ties"][0]
    assert [final[side]["name"] for side in ("home", "away", "third")] == [
        "P1",
        "P2",
        "Winner of M1-3",
    ]
    ties = api.get(_url(club, f"{cup_id}/ties/")).json()
    ties = ties["results"] if isinstance(ties, dict) else ties
    short = next(t for t in ties if t["status"] == "ready")
    assert short["third"] is None and short["third_from"] == "Bye"
    assert short["score"] == {"home": 0, "away": 0, "third": 0}
    walkover = _url(club, f"{cup_id}/ties/{short['id']}/walkover/")
    answer = api.post(walkover, {"absent": "third"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "absent"
    answer = api.post(walkover, {"absent": "away"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "walkover"
    final = api.get(_url(club, f"{cup_id}/bracket/")).json()["sections"][1]["ties"][0]
    assert final["third"]["name"] == "P3" and final["status"] == "ready"


def test_a_double_elimination_of_tables_of_three_is_refused(api, club):
    from tests.factories import PlayerFactory

    players = [PlayerFactory(club=club) for _ in range(6)]
    body = {
        "name": "Threes",
        "players": [p.pk for p in players],
        "rules": "clabber-3",
        "entrant_kind": "players",
        "format": "double",
    }
    answer = api.post(_url(club), body, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "format"
    assert not Cup.objects.exists()
