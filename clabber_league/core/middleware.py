"""Headers every API response gets: ``Location`` on 201 and 202, ``RateLimit`` where
throttled and on every authenticated answer (see ``core.throttling``); ``API-Version``
(``core.versions``: an unknown one is refused before any view); and the problem body
(``core.api.problem``) on an error a view answered itself with ``{"errors": [...]}``
rather than by raising.

``Location``, so a client can follow what it created:

A view that knows better sets the header itself. Otherwise, for a router's view named
``<basename>-<action>`` whose response is an object with an ``id``, the header is the
URL of ``<basename>-detail`` for that id (a created season, a queued schedule run, a game);
new endpoints get it without a line of code.
"""

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse

from . import versions
from .throttling import ATTRIBUTE, peek, rate_limit_headers


class ApiHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        is_api = request.path.startswith("/api/")
        version = versions.requested(request.headers.get(versions.HEADER)) if is_api else None
        if is_api and version is None:
            from .api import problem_response

            request.api_version = versions.CURRENT  # type: ignore[attr-defined]
            message = versions.UNKNOWN_VERSION.format(
                value=request.headers[versions.HEADER][:40], versions=", ".join(versions.VERSIONS)
            )
            response = problem_response(
                request,
                400,
                [{"field": versions.HEADER, "message": message}],
                "unknown_api_version",
            )
            response[versions.HEADER] = versions.CURRENT
            return response
        if is_api:
            request.api_version = version  # type: ignore[attr-defined]
        response = self.get_response(request)
        if is_api:
            response[versions.HEADER] = versions.version_of(request)
        if response.status_code >= 400 and is_api:
            _as_problem(request, response)
        if response.status_code in (201, 202) and not response.has_header("Location"):
            location = _detail_url(request, getattr(response, "data", None))
            if location:
                response["Location"] = location
        state = getattr(request, ATTRIBUTE, None)
        if state is None and is_api:  # refused before the throttles ran: still say it
            state = peek(request)
        if state is not None:
            for name, value in rate_limit_headers(state).items():
                response[name] = value
        return response


def _as_problem(request: HttpRequest, response: HttpResponse) -> None:
    """An error body a view sent itself (``{"errors": [...]}``, no ``type``) made a
    problem, as the exception handler makes every other."""
    from .api import PROBLEM_CONTENT_TYPE, problem

    if getattr(response, "streaming", False):
        return
    if not response.get("Content-Type", "").startswith("application/json"):
        return
    try:
        body = json.loads(response.content)
    except ValueError:
        return
    if not isinstance(body, dict) or "type" in body or not isinstance(body.get("errors"), list):
        return
    problem_body = problem(response.status_code, body["errors"], instance=request.path)
    response.content = json.dumps(problem_body).encode()
    response["Content-Type"] = PROBLEM_CONTENT_TYPE


def _detail_url(request: HttpRequest, data: object) -> str | None:
    match = request.resolver_match
    if match is None or not match.url_name or not isinstance(data, dict) or "id" not in data:
        return None
    kwargs = {k: v for k, v in match.kwargs.items() if k != "pk"}
    parts = match.url_name.split("-")
    for cut in range(len(parts) - 1, 0, -1):  # "schedule-run-retry" -> "schedule-run"
        try:
            return reverse("-".join(parts[:cut]) + "-detail", kwargs={**kwargs, "pk": data["id"]})
        except NoReverseMatch:
            continue
    return None
