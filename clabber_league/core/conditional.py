"""``ETag`` and ``If-None-Match`` (304 Not Modified) for what a client polls: standings,
leaderboards, a game and its sheet of deals.

A view's method marked ``@conditional(version)`` answers with an ``ETag``; a request whose
``If-None-Match`` names it is answered 304 with no body, before the body is built. The tag
is a digest of what ``version(view, request)`` returns (None: no tag, the view answers as
it would), which must be cheap and change whenever the answer would: a game's row and its
newest change, the standings table's key (a digest of every row it is computed from), a
leaderboard's page. The request's query (page, filters) and its API version are part of
every tag, so two answers that differ never share one.

Answers carry ``Cache-Control: private, no-cache``: a client (or a browser) may keep them
but asks again each time, with ``If-None-Match``; a shared cache keeps nothing (a member
and the public see different names).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from . import versions

HEADER = "ETag"
CACHE_CONTROL = "private, no-cache"
IF_NONE_MATCH_PARAMETER = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the answer you have (or several, comma-separated): while it is "
    "still the answer, the response is 304 Not Modified, with no body.",
)
NOT_MODIFIED_DESCRIPTION = (
    "Not modified: the answer is still the one whose ETag you sent in If-None-Match."
)


def etag(request: Request, version: Any) -> str:
    """The quoted tag of ``version`` for this request (its query and API version too)."""
    query = sorted(request.query_params.lists())
    text = repr((version, query, versions.version_of(request)))
    return '"' + hashlib.blake2b(text.encode(), digest_size=16).hexdigest() + '"'


def matches(request: Request, tag: str) -> bool:
    """``If-None-Match`` names ``tag`` (compared weakly, as RFC 9110 asks) or is ``*``."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    sent = {part.strip().removeprefix("W/") for part in header.split(",")}
    return "*" in sent or tag in sent


def conditional(version: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a view's GET an ``ETag`` from ``version(view, request, *args, **kwargs)``, and
    answer 304 to an ``If-None-Match`` that names it."""

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Any:
            current = version(view, request, *args, **kwargs)
            if current is None:  # nothing to tag (no such object: the view answers 404)
                return method(view, request, *args, **kwargs)
            tag = etag(request, current)
            if matches(request, tag):
                response = Response(status=status.HTTP_304_NOT_MODIFIED)
            else:
                response = method(view, request, *args, **kwargs)
                if response.status_code != status.HTTP_200_OK:
                    return response
            response[HEADER] = tag
            response["Cache-Control"] = CACHE_CONTROL
            return response

        wrapper.conditional = True  # type: ignore[attr-defined]
        return wrapper

    return wrap


def is_conditional(view: Any, http_method: str) -> bool:
    name = (getattr(view, "action_map", None) or {}).get(http_method.lower()) or http_method.lower()
    return bool(getattr(getattr(view, name, None), "conditional", False))
