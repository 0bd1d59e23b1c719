"""The results file over the API: a club's admins read their exports; a club pushes its
own file to its federation with an admin-scoped token; officers read the imports and close
periods; an officer of another federation sees none of it."""

from __future__ import annotations

import json

import pytest

from clabber_league.clubs import tokens
from clabber_league.exchange import building
from clabber_league.exchange.models import ResultFile
from clabber_league.federation.models import Federation, Officer
from tests.clients import api_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _token_client(user, scope: str):
    _token, key = tokens.token_create(user=user, name="results", scope=scope)
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def exported(club, fixture, secretary):
    response = api_client(secretary).get(f"/api/clubs/{club.slug}/exchange/fixtures/{fixture.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_clubs_admin_lists_and_downloads_its_results_files(club, fixture, secretary):
    client = api_client(secretary)
    listed = client.get(f"/api/clubs/{club.slug}/exchange/").json()
    fixtures = [row for row in listed["results"] if row["kind"] == "fixture"]
    assert [row["id"] for row in fixtures] == [fixture.pk]
    payload = client.get(fixtures[0]["url"]).json()
    assert payload["format"] == "clabber-results" and payload["event"]["kind"] == "fixture"
    xml = client.get(fixtures[0]["xml_url"])
    assert xml["Content-Type"] == "text/xml; charset=utf-8"
    assert building.from_xml(xml.content)["placings"] == payload["placings"]


def test_a_scorer_cannot_read_the_exports_and_an_unknown_one_is_404(
    club, fixture, scorer, secretary
):
    assert api_client(scorer).get(f"/api/clubs/{club.slug}/exchange/").status_code == 403
    missing = api_client(secretary).get(f"/api/clubs/{club.slug}/exchange/nights/999999/")
    assert missing.status_code == 404


def test_a_club_pushes_its_own_file_with_an_admin_token(federation, secretary, exported):
    url = f"/api/federations/{federation.slug}/results/"
    reader = _token_client(secretary, "read").post(url, exported, format="json")
    assert reader.status_code == 403 and not ResultFile.objects.exists()
    client = _token_client(secretary, "admin")
    first = client.post(url, exported, format="json")
    assert first.status_code == 201, first.content
    assert first["Location"].endswith(f"/results/{first.json()['id']}/")
    assert first.json()["status"] == "provisional" and first.json()["via"] == "api"
    again = client.post(url, exported, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]


def test_a_bad_file_is_one_error_body_with_an_entry_per_problem(federation, officer, exported):
    exported["placings"][0]["score"] = 0
    exported["placings"][1]["score"] = 5
    exported["event"]["kind"] = "tournament"
    response = api_client(officer).post(
        f"/api/federations/{federation.slug}/results/", exported, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert [e["field"] for e in body["errors"]] == ["event.kind"]  # the schema first
    exported["event"]["kind"] = "fixture"
    response = api_client(officer).post(
        f"/api/federations/{federation.slug}/results/", exported, format="json"
    )
    assert [e["field"] for e in response.json()["errors"]] == ["placings[1].score"]
    assert not ResultFile.objects.exists()


def test_officers_read_the_imports_and_close_a_period(federation, officer, exported):
    client = api_client(officer)
    created = client.post(f"/api/federations/{federation.slug}/results/", exported, format="json")
    pk = created.json()["id"]
    detail = client.get(f"/api/federations/{federation.slug}/results/{pk}/").json()
    assert sorted(r["place"] for r in detail["results"]) == [1, 1, 2, 2]
    assert {r["number"] for r in detail["results"]} == {"NKU-1", "NKU-2", "NKU-3", ""}
    period = client.post(
        f"/api/federations/{federation.slug}/periods/",
        {"start": "2026-09-01", "end": "2026-09-30"},
        format="json",
    )
    assert period.status_code == 201, period.content
    closed = client.post(f"/api/federations/{federation.slug}/periods/{period.json()['id']}/close/")
    assert closed.status_code == 200 and closed.json()["closed_at"]
    listed = client.get(f"/api/federations/{federation.slug}/results/").json()
    assert [f["status"] for f in listed["results"]] == ["final"]


def test_an_officer_of_another_federation_sees_nothing(federation, officer, exported):
    api_client(officer).post(
        f"/api/federations/{federation.slug}/results/", exported, format="json"
    )
    other = Federation.objects.create(name="Other Union", slug="kbn")
    stranger = UserFactory(username="kbn-officer")
    Officer.objects.create(federation=other, user=stranger)
    client = api_client(stranger)
    pk = ResultFile.objects.get().pk
    assert client.get(f"/api/federations/{federation.slug}/results/").status_code == 404
    assert client.get(f"/api/federations/{federation.slug}/results/{pk}/").status_code == 404
    assert client.get(f"/api/federations/kbn/results/{pk}/").status_code == 404
    assert client.get(f"/api/federations/{federation.slug}/periods/").status_code == 404
    pushed = client.post(f"/api/federations/{federation.slug}/results/", exported, format="json")
    assert pushed.status_code == 403  # not its officer, nor an admin of the file's club
    assert json.loads(client.get("/api/federations/kbn/results/").content)["count"] == 0


def test_an_officers_read_token_sends_nothing(federation, officer, exported):
    url = f"/api/federations/{federation.slug}/results/"
    assert _token_client(officer, "read").post(url, exported, format="json").status_code == 403
    assert _token_client(officer, "admin").post(url, exported, format="json").status_code == 201


def test_an_id_past_any_database_integer_is_404(federation, officer):
    client = api_client(officer)
    for url in (
        f"/api/federations/{federation.slug}/results/99999999999999999999/",
        f"/api/federations/{federation.slug}/results/abc/",
    ):
        assert client.get(url).status_code == 404
    close = f"/api/federations/{federation.slug}/periods/99999999999999999999/close/"
    assert client.post(close).status_code == 404
