"""Every answer the API tests get is checked against the OpenAPI schema.

The schema is built once per session; each response of the Django test client (and so of
DRF's ``APIClient``) to an ``/api/`` URL is validated: its status must be one the operation
lists, its JSON body must match that status's schema and content type, and its documented
required headers must be there. A test that needs the raw client marks itself
``@pytest.mark.no_schema_check``.
"""

import json
import re
from functools import cache
from typing import Any

import pytest
from django.test import Client
from openapi_schema_validator import OAS30ReadValidator

#: Not operations of the API: the schema and its docs pages.
NOT_OPERATIONS = ("/api/schema", "/api/docs")
JSON_TYPES = ("application/json", "application/problem+json")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "no_schema_check: do not validate this test's API answers against the schema"
    )


@cache
def api_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


@cache
def _routes() -> list[tuple[re.Pattern[str], str]]:
    routes = []
    for path in api_schema()["paths"]:
        pattern = re.sub(
            r"\{[^}]+\}", "[^/]+", re.escape(path).replace(r"\{", "{").replace(r"\}", "}")
        )
        routes.append((re.compile(f"^{pattern}$"), path))
    # The most literal path first: ``/games/export/`` before ``/games/{id}/``.
    routes.sort(key=lambda route: route[1].count("{"))
    return routes


@cache
def _validator(path: str, method: str, status: str, content_type: str) -> OAS30ReadValidator:
    schema = api_schema()
    operation = schema["paths"][path][method]
    body = operation["responses"][status]["content"][content_type]["schema"]
    root = {"allOf": [body], "components": schema["components"]}
    return OAS30ReadValidator(root)


def check_response(method: str, url: str, response: Any) -> None:
    path = url.split("?", 1)[0]
    if not path.startswith("/api/") or path.startswith(NOT_OPERATIONS):
        return
    template = next((t for pattern, t in _routes() if pattern.match(path)), None)
    if template is None:
        return  # no such API URL: the 404 body is checked by its own tests
    operation = api_schema()["paths"][template].get(method.lower())
    if operation is None:
        return  # a method the URL does not have: 405
    status = str(response.status_code)
    responses = operation["responses"]
    assert status in responses, f"{method} {template}: status {status} is not in the schema"
    documented = responses[status]
    for name, header in documented.get("headers", {}).items():
        if header.get("required"):
            assert response.has_header(name), f"{method} {template} {status}: no {name} header"
    content = documented.get("content")
    if not content or status in ("204", "304"):
        return
    content_type = response.get("Content-Type", "").split(";", 1)[0].strip()
    assert content_type in content, (
        f"{method} {template} {status}: {content_type} is not one of {sorted(content)}"
    )
    if content_type not in JSON_TYPES or getattr(response, "streaming", False):
        return
    body = json.loads(response.content)
    errors = sorted(
        _validator(template, method.lower(), status, content_type).iter_errors(body),
        key=lambda e: list(e.absolute_path),
    )
    assert not errors, f"{method} {template} {status} does not match its schema: " + "; ".join(
        f"{'/'.join(map(str, e.absolute_path)) or '(body)'}: {e.message[:300]}" for e in errors[:5]
    )


@pytest.fixture(autouse=True)
def responses_match_the_schema(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """Validate every API answer of the test against the schema (see the module)."""
    if request.node.get_closest_marker("no_schema_check"):
        yield
        return
    plain = Client.request

    def checked(self: Client, **kwargs: Any) -> Any:
        response = plain(self, **kwargs)
        path = kwargs.get("PATH_INFO", "")
        check_response(kwargs.get("REQUEST_METHOD", "GET"), path, response)
        return response

    monkeypatch.setattr(Client, "request", checked)
    yield
