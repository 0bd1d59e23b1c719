"""Site-wide pages: the home page, the health check, and the error pages."""

import logging
import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache

from clabber_league import __version__
from clabber_league.clubs.selectors import clubs_exist, clubs_of_user, public_clubs
from clabber_league.core.api import (
    INTERNAL_ERROR,
    SERVICE_UNAVAILABLE,
    TRY_AGAIN,
    api_server_error,
    is_transient_conflict,
)
from clabber_league.core.health import broker_check, database_check, workers_check
from clabber_league.core.i18n import translated

logger = logging.getLogger(__name__)


HOME_PUBLIC_CLUBS = 30  # the home page lists at most this many public clubs; a search finds more


def home(request: HttpRequest) -> HttpResponse:
    """The way in: the visitor's own clubs, then the public ones (searchable), as links."""
    search = request.GET.get("q", "").strip()[:100]
    mine = list(clubs_of_user(user=request.user).order_by("name"))
    public = public_clubs(search=search).exclude(pk__in=[c.pk for c in mine])
    shown = list(public[: HOME_PUBLIC_CLUBS + 1])
    return render(
        request,
        "site/home.html",
        {
            "my_clubs": mine,
            "public_clubs": shown[:HOME_PUBLIC_CLUBS],
            "more_public": len(shown) > HOME_PUBLIC_CLUBS,
            "search": search,
            # A fresh install (make run DEMO=0): the way to create the first club.
            "first_run": not mine and not shown and not clubs_exist(),
            "signup_open": settings.CLABBER_SIGNUP_OPEN,
        },
    )


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers. Touches nothing else (a load balancer or an
    orchestrator restarts a process that stops answering this)."""
    return JsonResponse({"status": "ok"})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Readiness (``/readyz``, and ``/healthz`` for the checks that already call it): 200
    when the database answers, else 503. The broker and the workers are reported
    (``status`` "degraded" when one is down) but never make it 503: pages and the API work
    without Redis, and a load balancer must not take every web node out during a Redis
    blip. The details (driver, error text, which can name hosts and ports; worker names)
    and the version are for staff only, never for anonymous callers."""
    database = database_check()
    broker = broker_check()
    workers = workers_check(broker=broker)
    ready = database.ok
    staff = request.user.is_authenticated and request.user.is_staff
    if not ready:
        status = "unavailable"
    elif broker.ok and workers.ok:
        status = "ok"
    else:
        status = "degraded"
    body: dict[str, object] = {"status": status}
    for name, check in (("database", database), ("broker", broker), ("workers", workers)):
        body[name] = check.as_dict() if staff else {"ok": check.ok}
    if staff:
        body["version"] = __version__
    return JsonResponse(body, status=200 if ready else 503)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: never a stack trace. A database that is down is a 503 the client can
    retry (JSON under ``/api/``, a friendly page elsewhere); a request the database stopped
    for another's sake (a deadlock) a 409 "try again"; anything else a plain 500.
    Django reconnects by itself on a later request once the database is back."""
    exc = sys.exc_info()[1]
    conflict = is_transient_conflict(exc)  # a deadlock: try again, not "unreachable"
    unavailable = not conflict and isinstance(exc, (OperationalError, InterfaceError))
    status, message = (503, SERVICE_UNAVAILABLE) if unavailable else (500, INTERNAL_ERROR)
    if conflict:
        status, message = 409, TRY_AGAIN
    if request.path.startswith("/api/"):
        return api_server_error(request, unavailable, conflict=conflict)
    template = "503.html" if unavailable or conflict else "500.html"
    # The id the logs and Sentry know this failure by, for the member to quote.
    context = {"message": translated(message), "request_id": getattr(request, "request_id", "")}
    response = HttpResponse(render_to_string(template, context), status=status)
    if unavailable or conflict:
        response["Retry-After"] = "5" if unavailable else "1"
    return response
