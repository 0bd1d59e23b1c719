"""The OpenAPI schema as a client generator reads it: valid, and saying per operation what
the API answers (tags, errors, idempotency, public reads, enum names, servers, licence)."""

import json

import pytest
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db

AREAS = {"clubs", "leagues", "scheduling", "games", "standings", "rules"}
METHODS = {"get", "put", "post", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_the_schema_is_valid_openapi(schema):
    validate(schema)


def test_servers_licence_and_tags(schema):
    assert schema["servers"][0]["url"] == "/"
    assert schema["info"]["license"]["name"] == "MIT"
    declared = {t["name"] for t in schema["tags"]}
    assert declared >= AREAS  # a newer app declares its own tag beside these
    for path, method, operation in _operations(schema):
        assert operation["tags"] and set(operation["tags"]) <= declared, (path, method)
    tags = {p: op["tags"][0] for p, m, op in _operations(schema) if m == "post"}
    assert tags["/api/clubs/{club_slug}/games/{game_id}/deals/"] == "games"
    assert tags["/api/clubs/{club_slug}/schedule-runs/"] == "scheduling"
    assert tags["/api/rules/score/"] == "rules"


def test_every_operation_documents_its_errors_with_the_one_body(schema):
    ref = {"$ref": "#/components/schemas/Problem"}
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        assert {"500", "503"} <= responses.keys(), (path, method)
        if method != "get":
            assert {"400", "413", "415"} <= responses.keys(), (path, method)
        if "{" in path:
            assert "404" in responses, (path, method)
        if path != "/api/rules/score/" and path != "/api/rules/game/":
            assert {"401", "403"} <= responses.keys(), (path, method)
        for code, response in responses.items():
            if code >= "400":
                assert response["content"] == {"application/problem+json": {"schema": ref}}, (
                    path,
                    code,
                )
    assert "429" in schema["paths"]["/api/rules/score/"]["post"]["responses"]


def test_every_write_to_club_data_documents_409(schema):
    conflicts = {
        ("post", "/api/clubs/{club_slug}/schedule-runs/"),
        ("post", "/api/clubs/{club_slug}/seasons/"),
        ("patch", "/api/clubs/{club_slug}/divisions/{id}/"),
        ("post", "/api/clubs/{club_slug}/teams/"),
        ("post", "/api/clubs/{club_slug}/games/"),
        ("post", "/api/clubs/{club_slug}/games/{id}/confirm/"),
        ("post", "/api/clubs/{club_slug}/games/{game_id}/deals/"),
        ("post", "/api/clubs/{club_slug}/disputes/{id}/resolve/"),
        ("post", "/api/clubs/{club_slug}/games/{game_id}/handover/dispute/"),
    }
    writes = {
        (method, path)
        for path, method, _ in _operations(schema)
        if method != "get" and path.startswith("/api/clubs/{club_slug}/")
    }
    assert conflicts <= writes
    for method, path in writes:
        responses = schema["paths"][path][method]["responses"]
        assert "409" in responses, (method, path)


def test_the_idempotent_posts_document_the_key_and_422(schema):
    idempotent = {
        (path, method)
        for path, method, operation in _operations(schema)
        if any(p["name"] == "Idempotency-Key" for p in operation.get("parameters", []))
    }
    assert idempotent == {
        ("/api/clubs/{club_slug}/games/", "post"),
        ("/api/clubs/{club_slug}/games/{game_id}/deals/", "post"),
        ("/api/clubs/{club_slug}/games/{game_id}/deals/{id}/", "put"),  # a correction
        ("/api/clubs/{club_slug}/games/{game_id}/deals/set-aside/", "post"),
        ("/api/clubs/{club_slug}/games/{id}/paper-sheet/", "post"),
        ("/api/clubs/{club_slug}/schedule-runs/", "post"),
        ("/api/clubs/{club_slug}/events/", "post"),
        ("/api/clubs/{club_slug}/events/{event_id}/entries/", "post"),
        ("/api/clubs/{club_slug}/events/{event_id}/rounds/", "post"),
        ("/api/clubs/{club_slug}/webhooks/", "post"),  # a retry makes no second secret
    }
    for path, method in idempotent:
        assert "422" in schema["paths"][path][method]["responses"]


def test_path_parameters_follow_one_convention(schema):
    """``{club_slug}`` (``{federation_slug}``) a string; ``{id}`` the object itself and
    ``{<thing>_id}`` a parent (or the object reached by another's id), positive integers;
    nothing else."""
    import re

    for path, method, operation in _operations(schema):
        declared = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "path"}
        assert set(declared) == set(re.findall(r"{(\w+)}", path)), (method, path)
        for name, parameter in declared.items():
            slug = name in ("club_slug", "federation_slug")
            assert slug or name == "id" or name.endswith("_id"), (path, name)
            assert parameter["required"] is True, (path, name)
            if slug:
                assert parameter["schema"]["type"] == "string", path
            else:
                assert parameter["schema"]["type"] == "integer", (path, name)
                assert parameter["schema"]["minimum"] == 1, (path, name)
    assert "/api/clubs/{club_slug}/" in schema["paths"]  # a club, by the same name
    assert "/api/clubs/{club_slug}/ratings/{player_id}/" in schema["paths"]


def test_public_reads_need_no_authentication_and_writes_do(schema):
    games = schema["paths"]["/api/clubs/{club_slug}/games/"]
    assert {} in games["get"]["security"]
    assert {} not in games["post"]["security"]
    assert {"tokenAuth": []} in games["post"]["security"]


def test_request_bodies_are_json_only(schema):
    for path, _method, operation in _operations(schema):
        if "requestBody" in operation:
            assert list(operation["requestBody"]["content"]) == ["application/json"], path


def test_enums_have_readable_names(schema):
    role = schema["components"]["schemas"]["RoleEnum"]
    assert dict(zip(role["enum"], role["x-enum-varnames"], strict=True))["scorer"] == "SCORER"
    for name, component in schema["components"]["schemas"].items():
        if "enum" in component and None not in component["enum"]:
            assert len(component["x-enum-varnames"]) == len(component["enum"]), name


def test_lists_page_with_a_bounded_page_size(schema):
    deals = schema["paths"]["/api/clubs/{club_slug}/games/{game_id}/deals/"]["get"]
    names = {p["name"] for p in deals["parameters"]}
    assert {"page", "page_size"} <= names


def test_every_write_with_a_body_has_an_example(schema):
    for path, method, operation in _operations(schema):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            assert body.get("examples"), (method, path)


def test_the_calculator_is_typed(schema):
    score = schema["paths"]["/api/rules/score/"]["post"]
    body = score["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/ScoreDealRequest"}
    answer = score["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/DealResult"}
    outcome = schema["components"]["schemas"]["DealResult"]["properties"]["outcome"]
    assert outcome == {"$ref": "#/components/schemas/OutcomeEnum"}


def test_csv_downloads_are_operations_of_their_own(schema):
    club = "/api/clubs/{club_slug}/"
    base = club + "standings/{id}/"
    downloads = {
        base + "standings.csv/",
        base + "deals.csv/",
        club + "leaderboards/players.csv/",
        club + "leaderboards/partnerships.csv/",
        club + "ratings.csv/",
        club + "ratings/{player_id}/history.csv/",
    }
    for path, method, operation in _operations(schema):
        ok = operation["responses"].get("200", {}).get("content", {})
        if path in downloads:
            assert list(ok) == ["text/csv"], path
        else:  # no JSON operation offers CSV beside it, nor a ?format= to ask for it
            assert "text/csv" not in ok, (method, path)
            formats = [p for p in operation.get("parameters", []) if p["name"] == "format"]
            assert all("csv" not in p["schema"].get("enum", []) for p in formats), path
    assert downloads <= schema["paths"].keys()


def test_the_paper_sheet_import_answers_its_deals_without_list_filters(schema):
    operation = schema["paths"]["/api/clubs/{club_slug}/games/{id}/paper-sheet/"]["post"]
    assert all(p["in"] == "path" or p["in"] == "header" for p in operation["parameters"])
    created = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert created == {"type": "array", "items": {"$ref": "#/components/schemas/Deal"}}


def test_answers_are_typed_as_what_they_send(schema):
    components = schema["components"]["schemas"]
    link = schema["paths"]["/api/clubs/{club_slug}/teams/{team_id}/calendar-link/"]["get"]
    assert link["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CalendarLink"
    }
    after = components["RevisionAfter"]["oneOf"]
    assert {"$ref": "#/components/schemas/ConfirmedRecord"} in after
    per_side = {"$ref": "#/components/schemas/PerSide"}
    for name, field in [
        ("DealRow", "score"),
        ("DealRow", "running_totals"),
        ("Deal", "running_totals"),
        ("Table", "scores"),
    ]:
        assert components[name]["properties"][field]["allOf"] == [per_side], (name, field)
    assert components["Standings"]["properties"]["points"] == {
        "$ref": "#/components/schemas/MatchPoints"
    }
    assert components["SideEnum"]["enum"] == ["A", "B", "C"]
    assert components["TrumpEnum"]["enum"] == ["clubs", "diamonds", "hearts", "spades", "none"]
    assert components["TableSeat"]["properties"]["side"]["allOf"] == [
        {"$ref": "#/components/schemas/SideEnum"}
    ]
    assert "Errors" not in components
    for name, schema in components.items():  # generators trip on a class named like its field
        only = list(schema.get("properties", {}))
        base = name.removeprefix("Patched").removesuffix("Request").lower()
        assert only != [base], name
    assert components["Problem"]["required"] == [
        "code",
        "detail",
        "errors",
        "instance",
        "status",
        "title",
        "type",
    ]


def test_response_headers_are_documented(schema):
    deals = schema["paths"]["/api/clubs/{club_slug}/games/{game_id}/deals/"]["post"]
    assert deals["responses"]["201"]["headers"]["X-Request-ID"]["required"] is True
    assert "WWW-Authenticate" in deals["responses"]["401"]["headers"]
    assert "Retry-After" in deals["responses"]["503"]["headers"]
    score = schema["paths"]["/api/rules/score/"]["post"]["responses"]
    assert {"RateLimit", "RateLimit-Policy"} <= score["200"]["headers"].keys()
    assert {"RateLimit", "Retry-After"} <= score["429"]["headers"].keys()
    sheet = schema["paths"]["/api/clubs/{club_slug}/games/{id}/paper-sheet/"]["post"]
    assert "Location" in sheet["responses"]["201"]["headers"]


def test_an_answer_unlike_its_schema_fails_the_check():
    from django.http import JsonResponse

    from tests.api.conftest import check_response

    wrong = JsonResponse({"count": 1, "results": []})
    wrong["X-Request-ID"] = "abc"
    wrong["API-Version"] = "2026-12-05"
    with pytest.raises(AssertionError, match="does not match its schema"):
        check_response("GET", "/api/clubs/c/teams/1/calendar-link/", wrong)
    undocumented = JsonResponse({"url": None, "personal": False}, status=418)
    with pytest.raises(AssertionError, match="not in the schema"):
        check_response("GET", "/api/clubs/c/teams/1/calendar-link/", undocumented)
