"""Headers every API response gets: ``Location`` on 201 and 202, ``RateLimit`` where
throttled (see ``core.throttling``).

``Location``, so a client can follow what it created:

A view that knows better sets the header itself. Otherwise, for a router's view named
``<basename>-<action>`` whose response is an object with an ``id``, the header is the
URL of ``<basename>-detail`` for that id (a created season, a queued schedule run, a game);
new endpoints get it without a line of code.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, reverse

from .throttling import ATTRIBUTE, rate_limit_headers


class ApiHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code in (201, 202) and not response.has_header("Location"):
            location = _detail_url(request, getattr(response, "data", None))
            if location:
                response["Location"] = location
        state = getattr(request, ATTRIBUTE, None)
        if state is not None:
            for name, value in rate_limit_headers(state).items():
                response[name] = value
        return response


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
