"""The standings API: the table and every deal as JSON and CSV, tiebreakers, leaderboards,
ratings; scoped to the club in the URL."""

import csv
import io
import json

import pytest

from clabber_league.clubs.models import Role
from tests.clients import api_client
from tests.factories import ClubFactory, MembershipFactory

from .conftest import A_WINS, B_WINS, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(division, teams, scorer, admin):
    aces, bells, dads, mules = teams
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    play(division, dads, mules, B_WINS, user=scorer)
    return teams


def _base(division) -> str:
    return f"/api/clubs/{division.club.slug}"


def test_the_table_as_json(division, viewer, played):
    response = api_client(viewer).get(f"{_base(division)}/standings/{division.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body["tiebreakers"] == [
        "head_to_head",
        "game_difference",
        "points_difference",
        "sets_inflicted",
    ]
    assert body["points"] == {"win": 2, "tie": 1, "loss": 0}
    rows = body["rows"]
    assert [(r["position"], r["team"], r["match_points"], r["points_for"]) for r in rows] == [
        (1, "Aces", 2, 608),
        (1, "Mules", 2, 608),
        (3, "Bells", 0, 40),
        (3, "Dads", 0, 40),
    ]
    assert rows[0]["shared"] is True and rows[1]["games_unconfirmed"] == 1


def test_the_table_as_json_is_what_its_documented_serializer_renders(division, viewer, played):
    """The rows are built without DRF's fields: the body stays the schema's, key for key."""
    from clabber_league.standings import exports, selectors
    from clabber_league.standings.api import StandingRowSerializer, StandingsSerializer

    body = api_client(viewer).get(f"{_base(division)}/standings/{division.pk}/").json()
    table = selectors.standings_table(division=division)
    documented = StandingsSerializer(
        {
            "division": division.pk,
            "division_name": division.name,
            "season": division.season.name,
            "points": table.points,
            "tiebreakers": table.tiebreakers,
            "explanation": table.explanation,
            "rows": exports.standings_rows(table),
        }
    ).data
    assert body == json.loads(json.dumps(documented))
    assert all(list(row) == list(StandingRowSerializer().fields) for row in body["rows"])


def test_the_table_and_every_deal_as_csv(division, viewer, played):
    client = api_client(viewer)
    response = client.get(f"{_base(division)}/standings/{division.pk}/standings.csv/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [r["team"] for r in rows] == ["Aces", "Mules", "Bells", "Dads"]
    deals = client.get(f"{_base(division)}/standings/{division.pk}/deals.csv/")
    lines = list(csv.DictReader(io.StringIO(b"".join(deals.streaming_content).decode())))
    assert len(lines) == 8
    assert {line["game status"] for line in lines} == {"confirmed", "finished"}


def test_every_deal_as_json_is_paginated(division, viewer, played):
    response = api_client(viewer).get(f"{_base(division)}/standings/{division.pk}/deals/")
    body = response.json()
    assert body["count"] == 8
    assert body["results"][0]["score"] == {"A": 152, "B": 10}
    assert body["results"][0]["game_status"] == "confirmed"


def test_club_admins_set_the_tiebreakers_and_others_cannot(division, admin, viewer, played):
    url = f"{_base(division)}/standings/{division.pk}/tiebreakers/"
    body = {"tiebreakers": ["points_for", "head_to_head"]}
    assert api_client(viewer).put(url, body, format="json").status_code == 403
    response = api_client(admin).put(url, body, format="json")
    assert response.status_code == 200 and response.json() == body
    assert api_client(viewer).get(url).json() == body
    bad = api_client(admin).put(url, {"tiebreakers": ["coin_toss"]}, format="json")
    assert bad.status_code == 400
    twice = api_client(admin).put(url, {"tiebreakers": ["points_for", "points_for"]}, format="json")
    assert twice.status_code == 400
    assert twice.json()["errors"][0]["message"] == "Each tiebreaker can be chosen once."


def test_leaderboards_and_ratings(division, viewer, played):
    client = api_client(viewer)
    players = client.get(f"{_base(division)}/leaderboards/players/").json()["results"]
    assert len(players) == 8 and players[0]["win_pct"] == 100.0
    season = client.get(
        f"{_base(division)}/leaderboards/partnerships/", {"season": division.season.slug}
    ).json()
    assert season["count"] == 4 and len(season["results"]) == 4
    assert (
        client.get(f"{_base(division)}/leaderboards/players/", {"season": "nope"}).status_code
        == 404
    )
    ratings = client.get(f"{_base(division)}/ratings/").json()["results"]
    assert len(ratings) == 4  # only the confirmed game is rated
    history = client.get(f"{_base(division)}/ratings/{ratings[0]['player']}/history/").json()
    history = history["results"]
    assert len(history) == 1 and history[0]["rating"] > history[0]["rating_before"]


def _csv_rows(response) -> list[dict[str, str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    body = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(body)))


def test_leaderboards_and_ratings_as_csv_operations_of_their_own(division, viewer, played):
    client = api_client(viewer)
    base = _base(division)
    season = {"season": division.season.slug}
    players = client.get(f"{base}/leaderboards/players/", season).json()["results"]
    rows = _csv_rows(client.get(f"{base}/leaderboards/players.csv/", season))
    assert [r["name"] for r in rows] == [p["name"] for p in players]
    assert rows[0]["win_pct"] == "100.0" and rows[0]["player_id"] == str(players[0]["player_id"])
    pairs = _csv_rows(client.get(f"{base}/leaderboards/partnerships.csv/"))
    assert len(pairs) == 4 and pairs[0]["key"]
    ratings = client.get(f"{base}/ratings/").json()["results"]
    rows = _csv_rows(client.get(f"{base}/ratings.csv/"))
    assert [int(r["player"]) for r in rows] == [r["player"] for r in ratings]
    assert float(rows[0]["rating"]) == pytest.approx(ratings[0]["rating"])
    history = _csv_rows(client.get(f"{base}/ratings/{ratings[0]['player']}/history.csv/"))
    assert len(history) == 1 and float(history[0]["rating"]) > float(history[0]["rating_before"])


def test_the_older_format_csv_answers_the_same_csv(division, viewer, played):
    client = api_client(viewer)
    base = _base(division)
    for json_path, csv_path in (
        ("leaderboards/players/", "leaderboards/players.csv/"),
        ("leaderboards/partnerships/", "leaderboards/partnerships.csv/"),
        ("ratings/", "ratings.csv/"),
    ):
        old = _csv_rows(client.get(f"{base}/{json_path}", {"format": "csv"}))
        assert old == _csv_rows(client.get(f"{base}/{csv_path}")), json_path


def test_a_csv_operations_error_is_the_json_error_body(division, viewer, played):
    client = api_client(viewer)
    missing = client.get(f"{_base(division)}/leaderboards/players.csv/", {"season": "nope"})
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/problem+json"
    assert missing.json()["errors"][0]["message"]
    nobody = client.get(f"{_base(division)}/ratings/999999/history.csv/")
    assert nobody.status_code == 404 and nobody.json()["errors"]


def test_an_empty_leaderboard_csv_still_has_its_header(division, viewer):
    response = api_client(viewer).get(f"{_base(division)}/leaderboards/players.csv/")
    assert response.status_code == 200
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("place,name,")


def test_a_division_is_not_found_under_another_club(division, played):
    """(This club's URLs for a stranger: tests/security/test_permissions.py.)"""
    stranger = MembershipFactory(club=ClubFactory(), role=Role.ADMIN).user
    own = f"/api/clubs/{stranger.memberships.get().club.slug}/standings/{division.pk}/"
    assert api_client(stranger).get(own).status_code == 404


def test_a_public_club_answers_anonymous_readers(division, played):
    division.club.is_public = True
    division.club.save()
    assert api_client().get(f"{_base(division)}/standings/{division.pk}/").status_code == 200
    url = f"{_base(division)}/standings/{division.pk}/tiebreakers/"
    assert api_client().put(url, {"tiebreakers": []}, format="json").status_code in (401, 403)
