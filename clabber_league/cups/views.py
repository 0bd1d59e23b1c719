"""Cup pages (phone first): the club's cups, creating one, a cup's seeding (explained) and
actions, each tie's page (start the game, a walkover, a night and table) and the public
bracket. Views translate between the request and ``services``; the API calls the same
services. Reading follows the club's visibility; writing needs a club admin."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.core.commitments import seed_hash
from clabber_league.core.errors import ServiceError
from clabber_league.core.i18n import translated

from . import selectors
from .forms import CupForm, PlaceRoundForm, SeedForm, TiePlaceForm, WalkoverForm
from .models import Cup, Stage, Tie
from .services import build, placing, progress, setup

CUPS_PER_PAGE = 30
CUP_ACTIONS = ("draw", "seed", "build", "place")
TIE_ACTIONS = ("start", "walkover", "place")


def _cup_or_404(request: HttpRequest, pk: int) -> Cup:
    try:
        return selectors.cup_get(club=request.club_access.club, pk=pk)
    except Cup.DoesNotExist as exc:
        raise Http404("No such cup.") from exc


def _tie_or_404(request: HttpRequest, cup_pk: int, pk: int) -> Tie:
    try:
        return selectors.tie_get(club=request.club_access.club, cup_id=cup_pk, pk=pk)
    except Tie.DoesNotExist as exc:
        raise Http404("No such tie.") from exc


def _flash_errors(request: HttpRequest, exc: ServiceError) -> None:
    for error in exc.errors:
        messages.error(request, translated(error["message"]))


def _base(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    access = request.club_access
    return {"club": access.club, "access": access, **extra}


# --- the list and creating ------------------------------------------------------------------


@club_view("read")
def cup_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.cup_list(club=request.club_access.club), CUPS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "cups/list.html", _base(request, page=page))


@club_view("manage")
def cup_new(request: HttpRequest) -> HttpResponse:
    club = request.club_access.club
    form = CupForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        from_divisions = data["mode"] == "divisions"
        try:
            cup = setup.cup_create(
                club=club,
                name=data["name"],
                rules=data["ruleset"] or None,
                entrant_kind=Cup.Kind.TEAMS if from_divisions else data["entrant_kind"],
                format=data["format"],
                best_of=data["best_of"],
                third_place=data["third_place"],
                plate=data["plate"],
                final_reset=data["final_reset"],
                seeding=Cup.Seeding.STANDINGS
                if from_divisions
                else (data["seeding"] or Cup.Seeding.LIST),
                divisions=list(club.divisions.filter(pk__in=data["divisions"]))
                if from_divisions
                else [],
                top=data["top"] if from_divisions else None,
                per=data["per"],
                tie_rule=data["tie_rule"],
                teams=[] if from_divisions else _in_order(club.teams, data["teams"]),
                players=[] if from_divisions else _in_order(club.players, data["players"]),
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, _("{name} created.").format(name=cup.name))
            return redirect("cups:detail", club.slug, cup.pk)
    return render(request, "cups/new.html", _base(request, form=form))


def _in_order(queryset: Any, ids: list[str]) -> list[Any]:
    rows = queryset.in_bulk([int(i) for i in ids])
    return [rows[int(i)] for i in ids if int(i) in rows]


# --- a cup ----------------------------------------------------------------------------------


def _sections(cup: Cup) -> list[tuple[str, str]]:
    """The rounds that can still be placed on league nights: those with a tie still to be
    played (none once the cup is finished)."""
    if cup.status == Cup.Status.FINISHED:
        return []
    open_rounds = set(
        cup.ties.exclude(status__in=Tie.DONE).values_list("bracket", "round").distinct()
    )
    if not open_rounds:
        return []
    plan = setup.cup_bracket(cup)
    return [
        (f"{b}:{r}", plan.round_title(b, r, gettext))
        for b, r in plan.sections()
        if (b, r) in open_rounds
    ]


def _sources_shown(ties: Any) -> list[Tie]:
    """The ties, each side not known yet named in the reader's language ("Winner of
    M1-2"): ``home_shown``, ``away_shown``."""
    ties = list(ties)
    for tie in ties:
        tie.home_shown = selectors.source_shown(tie.home_from)
        tie.away_shown = selectors.source_shown(tie.away_from)
    return ties


@club_view("read")
def cup_detail(request: HttpRequest, pk: int) -> HttpResponse:
    cup = _cup_or_404(request, pk)
    club = request.club_access.club
    seed_form = SeedForm(initial={"seeding": cup.seeding})
    place_form = PlaceRoundForm(club=club, sections=_sections(cup))
    league = selectors.league_stage(cup=cup)
    context = _base(
        request,
        cup=cup,
        # While its knockout is being built the page asks for itself again every 2 s.
        building=league is not None and league.build in Stage.ACTIVE and not league.build_stalled,
        entrants=selectors.entrant_list(cup=cup),
        league=league,
        # One value for the sentence that names them (a translation keeps it whole).
        league_divisions=", ".join(d.name for d in league.divisions.all()) if league else "",
        notes=selectors.seeding_notes(cup=cup),
        ties=_sources_shown(
            selectors.tie_list(cup=cup).exclude(status__in=[Tie.Status.BYE, Tie.Status.VOID])[:200]
        ),
        seed_form=seed_form,
        place_form=place_form,
        has_results=setup.cup_has_results(cup),
        seed_hash=seed_hash(setup.cup_seed_of(cup)) if setup.cup_seed_of(cup) else "",
    )
    return render(request, "cups/cup.html", context)


@require_POST
@club_view("manage")
def cup_action(request: HttpRequest, pk: int, what: str) -> HttpResponse:
    cup = _cup_or_404(request, pk)
    club = request.club_access.club
    try:
        if what not in CUP_ACTIONS:
            raise Http404("No such action.")
        if what == "draw":
            setup.cup_draw(cup=cup)
            messages.success(request, gettext("The bracket is drawn."))
        elif what == "seed":
            form = SeedForm(request.POST)
            if form.is_valid():
                setup.cup_seed(cup=cup, seeding=form.cleaned_data["seeding"])
                messages.success(request, gettext("Seeded again: draw the bracket when ready."))
        elif what == "build":
            build.stage_build(cup=cup, user=request.user)
            messages.success(request, gettext("The knockout is being built from the standings."))
        elif what == "place":
            form = PlaceRoundForm(request.POST, club=club, sections=_sections(cup))
            if form.is_valid():
                bracket, _, rnd = form.cleaned_data["section"].partition(":")
                division = club.divisions.get(pk=form.cleaned_data["division"])
                ties = placing.round_place(
                    cup=cup,
                    bracket=bracket,
                    round=int(rnd),
                    division=division,
                    start=form.cleaned_data["start"],
                )
                messages.success(
                    request,
                    ngettext(
                        "{count} tie placed on league nights.",
                        "{count} ties placed on league nights.",
                        len(ties),
                    ).format(count=len(ties)),
                )
            else:
                messages.error(request, gettext("Choose a round and a division with a schedule."))
    except ServiceError as exc:
        _flash_errors(request, exc)
    return redirect("cups:detail", club.slug, cup.pk)


@club_view("read")
def cup_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    cup = _cup_or_404(request, pk)
    context = _base(request, cup=cup, bracket=selectors.cup_bracket_view(cup=cup))
    if request.headers.get("HX-Request"):
        return render(request, "cups/_bracket.html", context)
    return render(request, "cups/bracket.html", context)


# --- a tie ----------------------------------------------------------------------------------


@club_view("read")
def tie_detail(request: HttpRequest, cup_pk: int, pk: int) -> HttpResponse:
    tie = _tie_or_404(request, cup_pk, pk)
    club = request.club_access.club
    context = _base(
        request,
        cup=tie.cup,
        tie=tie,
        state=selectors.tie_state(tie=tie),
        walkover_form=WalkoverForm(
            sides=[(side, f"{entrant.name} ({side})") for side, entrant in tie.present()]
        ),
        place_form=TiePlaceForm(
            club=club,
            initial={"date": tie.date, "venue": tie.venue_id, "table": tie.table},
        ),
    )
    return render(request, "cups/tie.html", context)


@require_POST
@club_view("manage")
def tie_action(request: HttpRequest, cup_pk: int, pk: int, what: str) -> HttpResponse:
    tie = _tie_or_404(request, cup_pk, pk)
    club = request.club_access.club
    back = reverse("cups:tie", args=[club.slug, cup_pk, pk])
    if what not in TIE_ACTIONS:
        raise Http404("No such action.")
    try:
        if what == "start":
            game = progress.tie_game_start(tie=tie, user=request.user)
            return redirect("games:deal-new", club.slug, game.pk)  # straight to deal entry
        if what == "walkover":
            form = WalkoverForm(request.POST)
            if form.is_valid():
                progress.tie_walkover(tie=tie, user=request.user, **form.cleaned_data)
                messages.success(request, gettext("Walkover recorded."))
        elif what == "place":
            form = TiePlaceForm(request.POST, club=club)
            if form.is_valid():
                venue = club.venues.filter(pk=form.cleaned_data["venue"] or 0).first()
                placing.tie_place(
                    tie=tie,
                    date=form.cleaned_data["date"],
                    venue=venue,
                    table=form.cleaned_data["table"],
                )
                messages.success(request, gettext("The tie's night and table are set."))
            else:
                messages.error(request, gettext("Give the night as a date."))
    except ServiceError as exc:
        _flash_errors(request, exc)
    return redirect(back)
