"""API-wide behaviour: one error body for every status, never a stack trace; who am I.

Every error the API answers, whatever its status, is an RFC 9457 problem
(``Content-Type: application/problem+json``)::

    {"type": "/api/docs/errors/#invalid", "title": "Invalid input", "status": 400,
     "detail": "...", "instance": "/api/clubs/x/games/7/deals/", "code": "invalid",
     "errors": [{"field": "sides.B", "message": "..."}], "request_id": "9f0c..."}

``code`` is stable and machine-readable (:data:`PROBLEMS`, each documented in
``docs/api-errors.md``, which ``type`` points at); ``errors`` (``field`` is ``""`` when the
error is about the request as a whole) is the calculator's list, kept as an extension
member so that a client written for the older ``{"errors": [...]}`` body reads it
unchanged; ``request_id`` is the response's ``X-Request-ID`` (``core.requestlog``). A
client handles a rejected deal, a missing token, a conflict and a busy database the same
way.

| status | when |
|---|---|
| 400 | the body is invalid or is not well-formed JSON; errors name the fields |
| 401 | no or a bad token where one is needed (``WWW-Authenticate: Token``) |
| 403 | your role in the club does not allow this |
| 404 | no such thing in this club, no such club (to you), no such ``/api/`` URL |
| 405 | the method is not allowed on this URL |
| 409 | a conflict with the stored state (still in use, already exists or done, a race lost) |
| 413 | the body is larger than the service accepts |
| 415 | the body is not ``application/json`` |
| 422 | an ``Idempotency-Key`` reused with another request |
| 429 | too many requests (``Retry-After``, ``RateLimit``) |
| 500 | a failure on our side; nothing was saved |
| 503 | the database is not reachable; retry after ``Retry-After`` seconds |

Two requests that deadlock (or lose a serialization or lock-wait race) inside the database
are a conflict, not an outage: the one the database stopped answers 409 "try again" with
``Retry-After: 1`` (nothing of it was saved), never 503 (:func:`is_transient_conflict`).

Views raise; this handler is the one place that turns an exception into that body. A
service's refusal (``core.errors.ServiceError``, whose kind gives the status: invalid 400,
conflict 409, not found 404, forbidden 403) and the rules engine's (``RulesError``, 400)
are mapped here, so no API view catches them.
"""

import logging
import re
from pathlib import Path
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError, IntegrityError, InterfaceError, OperationalError
from django.db.models import ProtectedError, RestrictedError
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from clabber_league.rules import RulesError

from .errors import ServiceError
from .logs import current_request_id

logger = logging.getLogger(__name__)

SERVICE_UNAVAILABLE = gettext_noop(
    "The database is not reachable right now; please try again shortly."
)
INTERNAL_ERROR = gettext_noop("Something went wrong on our side; the request was not saved.")
TOO_BIG = "The request is larger than this service accepts."
STILL_IN_USE = "This cannot be deleted: {used_by} still refer to it. Remove or change those first."
MALFORMED_JSON = "The request body is not well-formed JSON: {reason}"
NO_SUCH_URL = "There is no such API URL: {path}"
DUPLICATE = "This already exists (it was saved a moment ago by another request)."
TRY_AGAIN = gettext_noop(
    "Another request was changing the same records at that moment, so nothing of this one "
    "was saved: please try again."
)
#: SQLSTATEs of a request the database stopped for another's sake (deadlock detected,
#: serialization failure, lock not available): sent again, it goes through.
TRANSIENT_SQLSTATES = frozenset({"40P01", "40001", "55P03"})


#: Every problem ``code``: its status and title. ``docs/api-errors.md`` documents each one
#: under a heading of its own (a test holds the two together); ``type`` links there.
PROBLEMS: dict[str, tuple[int, str]] = {
    "invalid": (400, "Invalid input"),
    "malformed_json": (400, "Malformed JSON"),
    "rules": (400, "Against the rules"),
    "unknown_api_version": (400, "Unknown API version"),
    "not_authenticated": (401, "Authentication needed"),
    "authentication_failed": (401, "Bad credentials"),
    "forbidden": (403, "Not allowed for your role"),
    "insufficient_scope": (403, "Not allowed for this token's scope"),
    "not_found": (404, "Not found"),
    "no_such_url": (404, "No such API URL"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_acceptable": (406, "Not acceptable"),
    "conflict": (409, "Conflict"),
    "duplicate": (409, "Already exists"),
    "still_in_use": (409, "Still in use"),
    "try_again": (409, "Try again"),
    "too_large": (413, "Request too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "idempotency_key_reused": (422, "Idempotency-Key reused"),
    "throttled": (429, "Too many requests"),
    "internal_error": (500, "Internal error"),
    "unavailable": (503, "Service unavailable"),
}
#: The code of a status when nothing more precise is known.
STATUS_CODE = {status: code for code, (status, _) in reversed(PROBLEMS.items())}
#: DRF's exception codes that are ours under another name.
DRF_CODES = {
    "permission_denied": "forbidden",
    "parse_error": "malformed_json",
    "unprocessable": "idempotency_key_reused",
    "unsupported_media_type": "unsupported_media_type",
}
PROBLEM_TYPE = "/api/docs/errors/#{code}"
PROBLEM_CONTENT_TYPE = "application/problem+json"


def problem_code(status_code: int, code: str | None = None) -> str:
    """``code`` if it is a documented one of this status, else the status's own."""
    if code in PROBLEMS and PROBLEMS[code][0] == status_code:
        return code
    return STATUS_CODE.get(status_code, "internal_error" if status_code >= 500 else "invalid")


def problem(
    status_code: int,
    errors: list[dict[str, str]],
    *,
    code: str | None = None,
    instance: str = "",
) -> dict[str, Any]:
    """The RFC 9457 body of an error (see the module); ``errors`` kept as they are."""
    code = problem_code(status_code, code)
    first = errors[0]["message"] if errors else PROBLEMS[code][1]
    more = len(errors) - 1
    detail = first if more <= 0 else f"{first} (and {more} more: see errors)"
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE.format(code=code),
        "title": PROBLEMS[code][1],
        "status": status_code,
        "detail": detail,
        "instance": instance,
        "code": code,
        "errors": errors,
    }
    request_id = current_request_id()
    if request_id:
        body["request_id"] = request_id
    return body


def problem_response(
    request: HttpRequest, status_code: int, errors: list[dict[str, str]], code: str | None = None
) -> JsonResponse:
    """A problem as a plain Django response (outside DRF: the 404 of an unknown URL, a 500,
    hostile text refused before any view)."""
    body = problem(status_code, errors, code=code, instance=request.path)
    return JsonResponse(body, status=status_code, content_type=PROBLEM_CONTENT_TYPE)


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField(
        allow_blank=True,
        help_text='The field at fault as a path ("points.B", "rows[2].sheet.A", '
        '"Idempotency-Key"); "" for the request as a whole.',
    )
    message = serializers.CharField(help_text="What is wrong, in plain words.")


@extend_schema_serializer(component_name="Problem")
class ErrorsSerializer(serializers.Serializer):
    """The one error body of the API, for every status: an RFC 9457 problem
    (``application/problem+json``) with the errors per field kept as ``errors``."""

    type = serializers.CharField(
        help_text="A URL (relative to this site) of the page documenting this problem's code."
    )
    title = serializers.CharField(help_text="The code's title, the same every time.")
    status = serializers.IntegerField(help_text="The HTTP status.")
    detail = serializers.CharField(help_text="What went wrong this time, in plain words.")
    instance = serializers.CharField(
        allow_blank=True, help_text="The path of the request that failed."
    )
    code = serializers.ChoiceField(
        choices=list(PROBLEMS), help_text="Stable and machine-readable: branch on this."
    )
    errors = ErrorItemSerializer(
        many=True, help_text="Each mistake, with the field at fault (the older error body's list)."
    )
    request_id = serializers.CharField(
        required=False,
        help_text="This request's id (also its X-Request-ID header): quote it when asking "
        "about a failure, it finds the request in the service's logs.",
    )


class Conflict(exceptions.APIException):
    """409: the request conflicts with what is stored (a duplicate, a thing still in use).

    Raise it from a view or a serializer's ``validate_<field>`` with the field at fault."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "This conflicts with what is stored."
    default_code = "conflict"

    def __init__(self, message: str | None = None, field: str = "") -> None:
        super().__init__(errors_body(field, str(message or self.default_detail)))


class Unprocessable(exceptions.APIException):
    """422: well-formed, but it cannot be processed (an Idempotency-Key reused)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "This request cannot be processed."
    default_code = "unprocessable"


def errors_body(field_name: str, message: str) -> dict[str, list[dict[str, str]]]:
    return {"errors": [{"field": field_name, "message": message}]}


def exception_handler(exc: Exception, context: dict) -> Response:
    response = _exception_response(exc, context)
    data = response.data if isinstance(response.data, dict) else {}
    errors = data.get("errors") or [{"field": "", "message": INTERNAL_ERROR}]
    request = context.get("request")
    response.data = problem(
        response.status_code,
        errors,
        code=_code_of(exc, response.status_code),
        instance=request.path if request is not None else "",
    )
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def _code_of(exc: Exception, status_code: int) -> str:
    """The problem code of an exception (see :data:`PROBLEMS`)."""
    if isinstance(exc, ServiceError):
        return exc.code or problem_code(status_code)
    if isinstance(exc, RulesError):
        return "rules"
    if isinstance(exc, exceptions.APIException):
        default = str(getattr(exc, "default_code", "") or "")
        return DRF_CODES.get(default, default)
    if isinstance(exc, (ProtectedError, RestrictedError)):
        return "still_in_use"
    if isinstance(exc, IntegrityError) and status_code == 409:
        return "duplicate"
    if is_transient_conflict(exc):
        return "try_again"
    if isinstance(exc, RequestDataTooBig):
        return "too_large"
    return problem_code(status_code)


def _exception_response(exc: Exception, context: dict) -> Response:
    _answer_in_json(context.get("request"))
    if isinstance(exc, (ServiceError, RulesError)):
        set_rollback()  # nothing of a refused request is written
        code = exc.status if isinstance(exc, ServiceError) else status.HTTP_400_BAD_REQUEST
        retry_after = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
        return Response({"errors": [dict(e) for e in exc.errors]}, status=code, headers=headers)
    if isinstance(exc, exceptions.ParseError):
        exc = exceptions.ParseError(MALFORMED_JSON.format(reason=_parse_reason(exc)))
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = {"errors": _drf_errors(exc, response.data)}
        return response
    if isinstance(exc, RequestDataTooBig):
        return Response(errors_body("", TOO_BIG), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):
        return Response(
            errors_body("", str(exc) or "Bad request."), status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, (ProtectedError, RestrictedError)):
        used_by = sorted({str(obj._meta.verbose_name_plural) for obj in exc.protected_objects})
        message = STILL_IN_USE.format(used_by=", ".join(used_by) or "other records")
        return Response(errors_body("", message), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IntegrityError) and _is_unique_violation(exc):
        # Two requests racing for one name or one slot: the loser's is a conflict.
        return Response(errors_body("", DUPLICATE), status=status.HTTP_409_CONFLICT)
    if is_transient_conflict(exc):
        logger.warning("database conflict, the client is told to try again: %s", exc)
        return Response(
            errors_body("", TRY_AGAIN),
            status=status.HTTP_409_CONFLICT,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("database unavailable: %s", exc)
        return Response(
            errors_body("", SERVICE_UNAVAILABLE),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "5"},
        )
    if isinstance(exc, DatabaseError):
        logger.exception("database error")
    else:
        logger.exception("unhandled API error")
    return Response(errors_body("", INTERNAL_ERROR), status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def is_transient_conflict(exc: BaseException | None) -> bool:
    """A database error that a request got for another request's sake (a deadlock, a
    serialization failure, a lock it could not get): the driver's SQLSTATE (psycopg's
    ``sqlstate``, psycopg2's ``pgcode``) on the error or on what it was raised from."""
    seen = 0
    while exc is not None and seen < 5:
        code = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)
        if code in TRANSIENT_SQLSTATES:
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _is_unique_violation(exc: IntegrityError) -> bool:
    """A unique constraint (PostgreSQL's SQLSTATE 23505, SQLite's message), not a missing
    or dangling value, which is a bug (500)."""
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) == "23505":
        return True
    return "UNIQUE constraint failed" in str(exc)


def _answer_in_json(request: Request | None) -> None:
    """An error is JSON even where the success would be CSV or the browsable page."""
    if request is not None and not isinstance(
        getattr(request, "accepted_renderer", None), JSONRenderer
    ):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def _parse_reason(exc: exceptions.ParseError) -> str:
    detail = str(exc.detail)
    return detail.split(" - ", 1)[-1] if " - " in detail else detail


def _drf_errors(exc: Exception, data: Any) -> list[dict[str, str]]:
    if isinstance(data, dict) and isinstance(data.get("errors"), list):
        return data["errors"]  # already ours (a serializer that raised the API's body)
    if isinstance(exc, exceptions.ValidationError):
        return error_list(data)
    if isinstance(data, dict) and set(data) == {"detail"}:
        return [{"field": "", "message": str(data["detail"])}]
    return error_list(data)


@csrf_exempt
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any ``/api/`` URL that matches no route: the API's 404 body, not the HTML page.

    A path that is a route but for its trailing slash is redirected there with 308, which
    keeps the method and the body (every API path ends with a slash)."""
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            query = request.META.get("QUERY_STRING", "")
            return HttpResponsePermanentRedirect(
                request.path + "/" + (f"?{query}" if query else ""), preserve_request=True
            )
    errors = [{"field": "", "message": NO_SUCH_URL.format(path=request.path)}]
    return problem_response(request, 404, errors, code="no_such_url")


def api_server_error(
    request: HttpRequest, unavailable: bool, *, conflict: bool = False
) -> JsonResponse:
    """``handler500`` under ``/api/``: the same body as the exception handler's."""
    if conflict:
        response = problem_response(
            request, 409, [{"field": "", "message": TRY_AGAIN}], "try_again"
        )
        response["Retry-After"] = "1"
        return response
    message = SERVICE_UNAVAILABLE if unavailable else INTERNAL_ERROR
    response = problem_response(
        request, 503 if unavailable else 500, [{"field": "", "message": message}]
    )
    if unavailable:
        response["Retry-After"] = "5"
    return response


#: The page that documents every problem code (each problem's ``type`` links to it).
ERRORS_DOC = Path(__file__).resolve().parents[2] / "docs" / "api-errors.md"


def api_errors_doc(request: HttpRequest) -> HttpResponse:
    """``/api/docs/errors/``: ``docs/api-errors.md``, the page every problem's ``type``
    points at (``#<code>`` is the code's section). A browser (``Accept: text/html``) gets
    it as a page of the site; any other client the Markdown itself."""
    from django.shortcuts import render

    text = ERRORS_DOC.read_text(encoding="utf-8")
    if "text/html" not in request.headers.get("Accept", ""):
        return HttpResponse(text, content_type="text/markdown; charset=utf-8")
    return render(request, "core/api_errors.html", {"body": markdown_html(text)})


def markdown_html(text: str) -> str:
    """CommonMark with tables as HTML (raw HTML in the text escaped); every heading gets
    its text as its ``id``, so ``#<code>`` finds the code's section."""
    from django.utils.safestring import mark_safe
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_open(renderer: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        slug = re.sub(r"[^0-9a-z_-]+", "-", tokens[idx + 1].content.lower()).strip("-")
        tokens[idx].attrSet("id", slug)
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("heading_open", heading_open)
    return mark_safe(md.render(text))  # markdown-it escapes the HTML in the text


class WhoAmIView(APIView):
    """The logged-in person (session or token): a cheap check that a client's token works."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="whoami",
        responses=inline_serializer("WhoAmI", fields={"username": serializers.CharField()}),
    )
    def get(self, request: Request) -> Response:
        return Response({"username": request.user.get_username()})


def error_list(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested validation errors as the calculator's ``[{"field", "message"}]`` list."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out.extend(error_list(value, f"{prefix}.{name}" if prefix and name else prefix or name))
        return out
    if isinstance(detail, list):
        if all(not isinstance(v, (dict, list)) for v in detail):
            return [{"field": prefix, "message": str(v)} for v in detail]
        out = []
        for index, value in enumerate(detail):
            if value:
                out.extend(error_list(value, f"{prefix}[{index}]"))
        return out
    return [{"field": prefix, "message": str(detail)}]
