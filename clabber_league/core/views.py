"""Site-wide pages: the home page and the health check."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from clabber_league import __version__
from clabber_league.clubs.selectors import clubs_for_user

from .health import broker_check, database_check


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"clubs": clubs_for_user(user=request.user)})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database = database_check()
    broker = broker_check()
    ok = database.ok and broker.ok
    body = {
        "status": "ok" if ok else "unavailable",
        "version": __version__,
        "database": database.as_dict(),
        "broker": broker.as_dict(),
    }
    return JsonResponse(body, status=200 if ok else 503)
