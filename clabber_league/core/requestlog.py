"""Every request gets an id, and one access-log line with its duration and the real client.

``RequestIdMiddleware`` sits first in ``MIDDLEWARE``, so it times everything else:

- the id is the proxy's ``X-Request-ID`` when that looks like an id (nginx's
  ``$request_id``, HAProxy's ``unique-id``: 1 to 64 letters, digits, ``.``, ``_``, ``-``),
  so one id follows a request from the proxy's log to ours; otherwise a new one (32 hex
  digits). Anything else in the header is ignored: it would be a way to write into our logs;
- it is on every log line written meanwhile (``core.logs``), in the response's
  ``X-Request-ID`` header, in the API's error body (``"request_id"`` beside ``"errors"``, see
  ``core.api``), on the 500 page, and on the Sentry event of a failure (a tag);
- when the response is out, one line goes to the ``clabber_league.access`` logger: method,
  path, status, duration in milliseconds, the client's address as the login lockouts and
  throttles see it (``core.proxy.client_ip``: ``X-Forwarded-For`` read through
  ``DJANGO_TRUSTED_PROXY_COUNT`` proxies, never a spoofable left-most entry), the user's
  id, and the request id. ``DJANGO_ACCESS_LOG=false`` turns the line off.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Callable

import sentry_sdk
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject, empty

from .logs import request_id_var
from .proxy import client_ip

access_logger = logging.getLogger("clabber_league.access")

HEADER = "X-Request-ID"
_ACCEPTED = re.compile(r"[A-Za-z0-9._-]{1,64}")


def new_request_id() -> str:
    return uuid.uuid4().hex


def incoming_request_id(request: HttpRequest) -> str:
    """The proxy's id if it is a plain token, else a new one."""
    given = request.headers.get(HEADER, "")
    return given if _ACCEPTED.fullmatch(given) else new_request_id()


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        request_id = incoming_request_id(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        token = request_id_var.set(request_id)
        sentry_sdk.set_tag("request_id", request_id)
        try:
            response = self.get_response(request)
            response[HEADER] = request_id
            _add_to_error_body(request, response, request_id)
            if getattr(settings, "ACCESS_LOG", True):
                _log_access(request, response, time.perf_counter() - started)
            return response
        finally:
            request_id_var.reset(token)


def _add_to_error_body(request: HttpRequest, response: HttpResponse, request_id: str) -> None:
    """An API error body that a view or a middleware built itself (not through the exception
    handler, which adds the id already) gets ``request_id`` too. Error bodies are small."""
    if (
        response.status_code < 400
        or not request.path.startswith("/api/")
        or getattr(response, "streaming", False)
        or not response.get("Content-Type", "").startswith("application/json")
    ):
        return
    try:
        body = json.loads(response.content)
    except ValueError:
        return
    if isinstance(body, dict) and "errors" in body and "request_id" not in body:
        body["request_id"] = request_id
        response.content = json.dumps(body).encode()
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))


def _log_access(request: HttpRequest, response: HttpResponse, seconds: float) -> None:
    duration_ms = round(seconds * 1000, 1)
    user = getattr(request, "user", None)
    if isinstance(user, SimpleLazyObject) and user._wrapped is empty:
        user = None  # never looked at: the line costs no session query
    user_id = user.pk if user is not None and user.is_authenticated else None
    path = request.path
    level = logging.WARNING if response.status_code >= 500 else logging.INFO
    access_logger.log(
        level,
        "%s %s %s %.0fms",
        request.method,
        path,
        response.status_code,
        duration_ms,
        extra={
            "method": request.method,
            "path": path,
            "status": response.status_code,
            "duration_ms": duration_ms,
            "client_ip": client_ip(request),
            "user_id": user_id,
        },
    )


def connect_task_ids() -> None:
    """In a Celery worker, a task's log lines carry the task's id as their request id."""
    from celery.signals import task_postrun, task_prerun

    def started(task_id: str | None = None, **kwargs: object) -> None:
        request_id_var.set(task_id)
        sentry_sdk.set_tag("request_id", task_id)

    def finished(**kwargs: object) -> None:
        request_id_var.set(None)

    task_prerun.connect(started, weak=False, dispatch_uid="clabber_task_request_id")
    task_postrun.connect(finished, weak=False, dispatch_uid="clabber_task_request_id_end")
