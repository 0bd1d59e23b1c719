"""The secretary's pages of a club night (phone first): the list of nights, a night's
settings, and the night's page, where members are ticked in with one tap, walk-ins added
by name, rounds drawn and finished, and each table's deal entry is one tap away.

Everyone who may read the club sees the pages; only a club admin (``manage``) sees and
sends the forms. Every write goes through ``events.services``, as the API's do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.errors import ServiceError
from clabber_league.core.i18n import translated
from clabber_league.games import table_links

from . import selectors
from .forms import EventForm, PairForm, SeriesForm, WalkInForm
from .models import Entry, Event, Round
from .services import checkin, rounds
from .services import events as event_services

#: Members listed at once for ticking in (a search finds the others).
CHECK_IN_PAGE = 40
EVENTS_PAGE = 20


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {"club": request.club, "access": request.club_access, **extra}


def _event(request: HttpRequest, pk: int) -> Event:
    return selectors.event_get(club=request.club, pk=pk)


def _to_night(request: HttpRequest, event: Event, anchor: str = "") -> HttpResponse:
    url = reverse("events:detail", kwargs={"club_slug": request.club.slug, "pk": event.pk})
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _refused(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, " ".join(translated(e["message"]) for e in exc.errors))


def _act(request: HttpRequest, work: Callable[[], str | None]) -> None:
    """Do one of the night's writes: what it answers (if anything) is said as done, a refusal
    as the service's own messages. Every POST view below is this around its service."""
    try:
        done = work()
    except ServiceError as exc:
        _refused(request, exc)
    else:
        if done:
            messages.success(request, done)


# --- the list of nights, and a new night ------------------------------------------------------


@club_view("read")
def event_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.event_list(club=request.club), EVENTS_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "events/list.html",
        _context(
            request,
            page=page,
            series=list(selectors.series_list(club=request.club)[:50]),
            series_form=SeriesForm(auto_id="series_%s"),
        ),
    )


@require_POST
@club_view("manage")
def series_new(request: HttpRequest) -> HttpResponse:
    form = SeriesForm(request.POST, auto_id="series_%s")
    if form.is_valid():
        try:
            series = event_services.series_create(club=request.club, **form.cleaned_data)
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(
                request,
                _("Series {name} created: choose it for its nights.").format(name=series.name),
            )
            return redirect("events:index", club_slug=request.club.slug)
    page = Paginator(selectors.event_list(club=request.club), EVENTS_PAGE).get_page(1)
    return render(
        request,
        "events/list.html",
        _context(
            request,
            page=page,
            series=list(selectors.series_list(club=request.club)[:50]),
            series_form=form,
        ),
        status=400,
    )


@club_view("manage")
def event_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = EventForm(request.POST, club=request.club)
        if form.is_valid():
            try:
                event = event_services.event_create(
                    club=request.club, user=request.user, **form.values()
                )
            except ServiceError as exc:
                form.add_service_errors(exc.errors)
            else:
                messages.success(
                    request, _("{name} is set up: tick the players in.").format(name=event.name)
                )
                return _to_night(request, event)
        status = 400
    else:
        form = EventForm(club=request.club, initial={"date": _today(), "name": _("Club night")})
        status = 200
    return render(request, "events/form.html", _context(request, form=form), status=status)


def _today() -> Any:
    from django.utils import timezone

    return timezone.localdate()


@club_view("manage")
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    if request.method == "POST":
        form = EventForm(request.POST, club=request.club)
        if form.is_valid():
            try:
                event_services.event_update(event=event, **form.values())
            except ServiceError as exc:
                form.add_service_errors(exc.errors)
            else:
                messages.success(request, gettext("Saved."))
                return _to_night(request, event)
        status = 400
    else:
        form = EventForm(club=request.club, initial=EventForm.initial_for(event))
        status = 200
    return render(
        request, "events/form.html", _context(request, form=form, event=event), status=status
    )


# --- the night's page ----------------------------------------------------------------------


def _check_in_list(request: HttpRequest, event: Event) -> dict[str, Any]:
    """Who is here, and a page of the club's other players to tick in (a search narrows
    them): the page never lists the whole club."""
    entries = list(
        Entry.objects.filter(event=event, checked_in=True)
        .select_related("player")
        .order_by("player__name")
    )
    next_round = checkin.next_round_number(event)
    here = [e for e in entries if e.left_after_round is None or e.left_after_round >= next_round]
    left = [e for e in entries if e not in here]
    query = (request.GET.get("q") or "").strip()[:60]
    others = Player.objects.filter(club=request.club).exclude(pk__in=[e.player_id for e in here])
    if query:
        others = others.filter(Q(name__icontains=query))
    page = Paginator(others.order_by("name", "pk"), CHECK_IN_PAGE).get_page(request.GET.get("page"))
    return {
        "here": here,
        "left": left,
        "paid": sum(1 for e in here if e.paid),
        "others": page,
        "query": query,
        "next_round": next_round,
    }


@club_view("read")
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    to_member = sees_names(request.club_access)
    current = event.round_set.order_by("-number").first()
    view = None
    if current is not None and current.status in (Round.Status.PLAYING, Round.Status.FINISHED):
        view = selectors.round_view(current, to_member=to_member)
    context = _context(
        request,
        event=event,
        current=current,
        round_view=view,
        ranking=selectors.event_ranking(event, to_member=to_member),
        open_tables=[t for t in (view.tables if view else []) if t.status != "finished"],
        all_drawn=current is not None and current.number >= event.rounds,
        draw_seeds=selectors.draw_seeds(event),
        # Each table's link in one query (the cards' QR codes and the links below).
        table_links=table_links.table_links_live(
            games=[t.game for t in (view.tables if view else []) if t.game]
        ),
    )
    if request.club_access.can_manage and event.status != Event.Status.FINISHED:
        context.update(_check_in_list(request, event), walk_in_form=WalkInForm())
        if event.format == Event.Format.PAIRS:
            context["pairs"] = list(
                event.pairs.select_related("player_1", "player_2").order_by("number")
            )
    return render(request, "events/night.html", context)


@club_view("read")
def round_status(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The progress of a round being drawn by a task (polled by the night's page)."""
    event = _event(request, pk)
    round_ = selectors.round_get(event=event, number=number)
    return render(
        request, "events/_round_status.html", _context(request, event=event, current=round_)
    )


NO_SUCH_PLAYER = gettext_lazy("No such player in this club.")


def _player(request: HttpRequest) -> Player | None:
    """The club's player the form names, or None (the page then says so)."""
    player = Player.objects.filter(club=request.club, pk=_int(request.POST.get("player"))).first()
    if player is None:
        messages.error(request, str(NO_SUCH_PLAYER))
    return player


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_POST
@club_view("manage")
def entry_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    player = _player(request)
    if player is not None:
        _act(request, lambda: _arrived(checkin.entry_check_in(event=event, player=player)))
    return _back_to_check_in(request, event)


def _arrived(entry: Entry) -> str:
    if entry.joins_from_round > 1:
        return _("{name} is in: they play from round {number}.").format(
            name=entry.player.name, number=entry.joins_from_round
        )
    return _("{name} is in.").format(name=entry.player.name)


def _back_to_check_in(request: HttpRequest, event: Event) -> HttpResponse:
    url = reverse("events:detail", kwargs={"club_slug": request.club.slug, "pk": event.pk})
    query = (request.POST.get("q") or "").strip()
    return redirect(url + (f"?{urlencode({'q': query})}" if query else "") + "#check-in")


@require_POST
@club_view("manage")
def entry_walk_in(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    form = WalkInForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        _act(request, lambda: _arrived(checkin.entry_walk_in(event=event, name=name)))
    else:
        messages.error(request, translated(checkin.WALK_IN_NAME))
    return _back_to_check_in(request, event)


@require_POST
@club_view("manage")
def pair_walk_in(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    form = PairForm(request.POST)
    if form.is_valid():

        def walk_in() -> str:
            names = form.cleaned_data
            pair = checkin.pair_walk_in(event=event, name_1=names["name_1"], name_2=names["name_2"])
            return _("Pair {number}: {first} & {second}.").format(
                number=pair.number, first=pair.player_1.name, second=pair.player_2.name
            )

        _act(request, walk_in)
    else:
        messages.error(request, translated(checkin.WALK_IN_NAME))
    return _back_to_check_in(request, event)


@require_POST
@club_view("manage")
def entry_leave(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    player = _player(request)
    if player is not None:

        def leave() -> str:
            entry = checkin.entry_leave(event=event, player=player)
            if entry is None:
                return _("{name} is no longer on the list.").format(name=player.name)
            return _("{name} leaves after round {number}.").format(
                name=player.name, number=entry.left_after_round
            )

        _act(request, leave)
    return _back_to_check_in(request, event)


@require_POST
@club_view("manage")
def entry_paid(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)
    player = _player(request)
    if player is not None:
        paid = request.POST.get("paid") == "1"

        def pay() -> None:  # the ticked box is the answer: nothing more to say
            checkin.entry_paid_set(event=event, player=player, paid=paid)

        _act(request, pay)
    return _back_to_check_in(request, event)


@require_POST
@club_view("manage")
def round_draw(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(request, pk)

    def draw() -> str:
        drawn = rounds.round_draw(event=event, user=request.user, access=request.club_access)
        if drawn.status == Round.Status.DRAWING:
            return _("Round {number} is being drawn.").format(number=drawn.number)
        return _("Round {number} is drawn: to the tables!").format(number=drawn.number)

    _act(request, draw)
    return _to_night(request, event, "round")


@require_POST
@club_view("manage")
def round_finish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk)
    round_ = selectors.round_get(event=event, number=number)

    def finish() -> str:
        rounds.round_finish(round_=round_, user=request.user, access=request.club_access)
        return _("Round {number} is finished.").format(number=number)

    _act(request, finish)
    return _to_night(request, event, "round")


@require_POST
@club_view("manage")
def round_time(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = _event(request, pk)
    round_ = selectors.round_get(event=event, number=number)

    def call_time() -> str:
        rounds.round_call_time(round_=round_, user=request.user)
        return _("Time! Every table finishes the deal in progress.")

    _act(request, call_time)
    return _to_night(request, event, "round")
