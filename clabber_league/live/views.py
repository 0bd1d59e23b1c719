"""The live pages, their JSON, their Server-Sent Events and the stream overlay.

Under ``/clubs/<club>/live/``: the index (what is on tonight; a club admin sets who may
follow), and for each board (``night/<event>``, ``league/<division>/<date>``,
``cup/<cup>``) the page, ``board.json`` (polling, with an ETag), ``stream/`` (SSE) and
``overlay/`` (a streaming program's browser source).

Who may follow: whoever may read the club (a private club's pages are its members'; a
visitor gets its 404), and only members when the club chose so (``LiveSetting``): a
visitor is then sent to log in (a page) or refused with 403 (the JSON and the stream).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_safe

from clabber_league.clubs.access import club_access
from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.locale import club_today
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.errors import ServiceError
from clabber_league.core.store import close_thread_connection, in_transaction

from . import broker as brokers
from . import selectors, services, streams
from .models import LiveSetting

#: How often a page without the stream asks for the board (ETag: mostly a 304).
POLL_MILLISECONDS = 1500
#: A comment line on an idle stream this often, so proxies keep it open.
HEARTBEAT_SECONDS = 15.0
#: A stream ends after this long; the browser reconnects with Last-Event-ID at once.
STREAM_SECONDS = 30 * 60
#: What EventSource waits before reconnecting (the ``retry:`` field).
RETRY_MILLISECONDS = 1000

REFUSED = gettext_noop("This club's live pages are for its members: log in to follow them.")


def _members_only_refusal(request: HttpRequest) -> str:
    access = request.club_access  # type: ignore[attr-defined]
    if sees_names(access) or selectors.audience(access.club) != LiveSetting.Audience.MEMBERS:
        return ""
    return REFUSED


def live_view(*, page: bool) -> Callable:
    """``club_view("read")`` plus the club's live audience: a members-only club's visitor
    logs in first (``page``) or is refused (JSON)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @club_view("read")
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if _members_only_refusal(request):
                if page and not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied(_(REFUSED))
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def _to_member(request: HttpRequest) -> bool:
    return sees_names(request.club_access)  # type: ignore[attr-defined]


def _board(request: HttpRequest, kind: str, ref: str) -> selectors.Board:
    return selectors.board(request.club, kind, ref, to_member=_to_member(request))  # type: ignore[attr-defined]


def _urls(request: HttpRequest, kind: str, ref: str) -> dict[str, str]:
    args = {"club_slug": request.club.slug, "kind": kind, "ref": ref}  # type: ignore[attr-defined]
    return {
        "page_url": reverse("live:page", kwargs=args),
        "json_url": reverse("live:board-json", kwargs=args),
        "stream_url": reverse("live:stream", kwargs=args),
        "overlay_url": reverse("live:overlay", kwargs=args),
    }


@club_view("read", write="manage")
def live_index(request: HttpRequest) -> HttpResponse:
    """What the club has on tonight, each with its live page; a club admin's choice of
    who may follow them."""
    club = request.club  # type: ignore[attr-defined]
    audience = selectors.audience(club)
    errors: list[dict[str, str]] = []
    if request.method == "POST":
        try:
            services.audience_set(club=club, audience=request.POST.get("audience", ""))
        except ServiceError as error:
            errors = error.errors
        else:
            messages.success(request, _("Saved: who may follow the live pages."))
            return redirect("live:index", club.slug)
    if _members_only_refusal(request) and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    context = {
        "club": club,
        "access": request.club_access,  # type: ignore[attr-defined]
        "tonight": selectors.tonight(club, club_today(club)),
        "audience": audience,
        "audiences": LiveSetting.Audience.choices,
        "errors": errors,
    }
    return render(request, "live/index.html", context)


@require_safe
@live_view(page=True)
def live_page(request: HttpRequest, kind: str, ref: str) -> HttpResponse:
    """A board for a phone or a big screen; ``?fragment=1``: its tables alone (what the
    page fetches when a table appears or finishes)."""
    board = _board(request, kind, ref)
    context = {
        "club": request.club,  # type: ignore[attr-defined]
        "board": board,
        "poll_ms": POLL_MILLISECONDS,
        **_urls(request, kind, ref),
    }
    if request.GET.get("fragment"):
        return render(request, "live/_board.html", context)
    return render(request, "live/page.html", context)


@require_safe
@live_view(page=True)
def live_overlay(request: HttpRequest, kind: str, ref: str) -> HttpResponse:
    """A streaming program's browser source: a transparent page in large type with one
    table's score (``?table=3``) or the top five (``?show=top``, the default)."""
    board = _board(request, kind, ref)
    try:
        number = int(request.GET.get("table", ""))
    except ValueError:
        number = 0
    context = {
        "club": request.club,  # type: ignore[attr-defined]
        "board": board,
        "number": number,
        "table": board.table(number) if number else None,
        "poll_ms": POLL_MILLISECONDS,
        **_urls(request, kind, ref),
    }
    if request.GET.get("fragment"):
        return render(request, "live/_overlay.html", context)
    return render(request, "live/overlay.html", context)


@require_safe
@live_view(page=False)
def live_board_json(request: HttpRequest, kind: str, ref: str) -> HttpResponse:
    """The board as JSON for polling: ``If-None-Match`` with the last ETag answers 304."""
    board = _board(request, kind, ref)
    etag = board.etag()
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(board.as_json(), content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _streams(request: HttpRequest) -> bool:
    """Whether this request gets the stream itself (ASGI with the live pages' Redis); else
    it answers 204 and the page polls."""
    return isinstance(request, ASGIRequest) and bool(getattr(settings, "LIVE_REDIS_URL", ""))


def _stream_allowed(request: HttpRequest, club_slug: str, kind: str, ref: str) -> str:
    """The stream's name once the caller may follow it (404, 403 otherwise); when the
    stream is served, this thread's database connection is closed before it starts."""
    try:
        access = club_access(slug=club_slug, user=request.user)
        request.club_access = access  # type: ignore[attr-defined]
        request.club = access.club  # type: ignore[attr-defined]
        if _members_only_refusal(request):
            raise PermissionDenied(REFUSED)
        return selectors.stream_of(access.club, kind, ref)
    finally:
        # The stream may last half an hour: it must not hold a database connection. Only
        # then, and never inside a transaction: under WSGI (and in a test's request) this
        # thread's connection is the caller's, and its transaction would be lost.
        if _streams(request) and not in_transaction():
            close_thread_connection()


def _event(event_id: str, data: str, name: str = "") -> str:
    head = f"event: {name}\n" if name else ""
    return f"{head}id: {event_id}\ndata: {data}\n\n" if event_id else f"{head}data: {data}\n\n"


async def _events(stream: str, last_id: str) -> AsyncIterator[str]:
    """The stream's body: missed events from the log, then each new one as it comes."""
    yield f"retry: {RETRY_MILLISECONDS}\n: {stream}\n\n"
    try:
        broker = brokers.broker()
        queue = await broker.follow(stream)  # before the log is read: nothing falls between
    except brokers.Unavailable:
        yield _event("", '{"reason":"unavailable"}', "fallback")
        return
    try:
        seen: set[str] = set()
        if last_id:
            try:
                missed = await broker.since(stream, last_id)
            except Exception:  # the log is out of reach: start again from the board
                missed = [brokers.RESET]
            for event_id, data in missed:
                if (event_id, data) == brokers.RESET:
                    yield _event("", "{}", "reset")
                    break
                seen.add(event_id)
                yield _event(event_id, data)
        yield _event("", "{}", "ready")
        ends = time.monotonic() + STREAM_SECONDS
        while time.monotonic() < ends:
            try:
                item = await asyncio.wait_for(queue.get(), HEARTBEAT_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if item == brokers.DOWN:
                yield _event("", '{"reason":"down"}', "fallback")
                return
            if item == brokers.RESET:
                yield _event("", "{}", "reset")
                continue
            event_id, data = item
            if event_id in seen:
                continue
            yield _event(event_id, data)
    finally:
        broker.leave(stream, queue)


@require_safe
async def live_stream(request: HttpRequest, club_slug: str, kind: str, ref: str) -> HttpResponse:
    """Server-Sent Events of one board: each saved deal's news (``publish.game_news``),
    ``Last-Event-ID`` resuming from the stream's log in Redis. Served under ASGI (uvicorn);
    under WSGI (``runserver``, the test server) it answers 204, which tells EventSource to
    stop, and the page polls ``board.json``. When Redis is unreachable it sends one
    ``fallback`` event and ends: the page polls, and tries the stream again later."""
    stream = await sync_to_async(_stream_allowed)(request, club_slug, kind, ref)
    if not _streams(request):
        return HttpResponse(status=204)
    last_id = request.headers.get("Last-Event-ID", "") or request.GET.get("last", "")
    if not streams.EVENT_ID.match(last_id):
        last_id = ""
    response = StreamingHttpResponse(_events(stream, last_id), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
