"""The dated API-Version header: the current version by default, echoed on every answer,
an unknown one refused, the older one served its errors as application/json."""

import pytest
from rest_framework.test import APIClient

from clabber_league.core.versions import CURRENT, VERSIONS

pytestmark = pytest.mark.django_db


def test_no_header_is_the_current_version_and_it_is_echoed(club):
    club.is_public = True
    club.save()
    response = APIClient().get(f"/api/clubs/{club.slug}/teams/")
    assert response.status_code == 200
    assert response["API-Version"] == CURRENT


def test_a_known_version_is_echoed(club):
    club.is_public = True
    club.save()
    for version in VERSIONS:
        response = APIClient().get(f"/api/clubs/{club.slug}/teams/", HTTP_API_VERSION=version)
        assert response.status_code == 200
        assert response["API-Version"] == version


def test_an_unknown_version_is_a_400_problem_naming_the_header(club):
    response = APIClient().get(f"/api/clubs/{club.slug}/teams/", HTTP_API_VERSION="1999-01-01")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "unknown_api_version"
    assert body["errors"][0]["field"] == "API-Version"
    assert "1999-01-01" in body["errors"][0]["message"]
    assert CURRENT in body["errors"][0]["message"]
    assert response["API-Version"] == CURRENT


def test_a_client_of_the_older_error_body_still_reads_errors(club):
    response = APIClient().get("/api/no-such-thing/")
    body = response.json()
    message = "There is no such API URL: /api/no-such-thing/"
    assert body["errors"] == [{"field": "", "message": message}]
    assert body["request_id"] == response["X-Request-ID"]


def test_the_schema_carries_the_version():
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = response.json()
    assert schema["info"]["version"] == CURRENT
    operation = schema["paths"]["/api/clubs/{club_slug}/teams/"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    # One type of versions for every operation (a generated client's ``APIVersion``).
    assert parameters["API-Version"]["schema"] == {"$ref": "#/components/schemas/APIVersion"}
    assert schema["components"]["schemas"]["APIVersion"]["enum"] == list(VERSIONS)
    assert operation["responses"]["200"]["headers"]["API-Version"]["required"] is True
