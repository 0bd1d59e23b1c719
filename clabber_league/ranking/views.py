"""The ranking's pages: a federation's ranking (paged), a player's history, the page that
explains the ranking, and a scorer's way into an inter-club fixture's game."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clabber_league.core.errors import ServiceError
from clabber_league.federation.access import federation_access
from clabber_league.games.table_links import table_link_path
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture

from . import championship, interclub, selectors
from .compute import DEFAULT
from .forms import ChampionshipFinalForm, InterclubHomeForm, RankingSettingsForm, points_text
from .models import InterclubTeam
from .services import ranking_settings_update


def ranking(request: HttpRequest, federation_slug: str) -> HttpResponse:
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    page, lines = selectors.ranking_page(reader, request.GET.get("page", 1))
    return render(
        request,
        "ranking/ranking.html",
        {"reader": reader, "federation": reader.federation, "page": page, "lines": lines},
    )


def player(request: HttpRequest, federation_slug: str, number: str) -> HttpResponse:
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    person, rating, steps = selectors.player_history(
        reader, number=number, page=request.GET.get("page", 1)
    )
    return render(
        request,
        "ranking/player.html",
        {
            "federation": reader.federation,
            "person": person,
            "rating": rating,
            "steps": steps,
        },
    )


def about(request: HttpRequest, federation_slug: str) -> HttpResponse:
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    settings = selectors.ranking_settings_of(reader.federation)
    points = sorted((settings.placing_points or {}).items())
    return render(
        request,
        "ranking/about.html",
        {
            "federation": reader.federation,
            "settings": settings,
            "points": points,
            "hides": settings.private_players == settings.Private.HIDE,
            "mu": DEFAULT.mu,
            "sigma": DEFAULT.sigma,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def ranking_settings_page(request: HttpRequest, federation_slug: str) -> HttpResponse:
    """The federation admin's choices: how private players show, the placing points."""
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    if not reader.admin:
        return render(
            request, "ranking/settings.html", {"federation": reader.federation}, status=403
        )
    current = selectors.ranking_settings_of(reader.federation)
    form = RankingSettingsForm(
        request.POST or None,
        initial={
            "private_players": current.private_players,
            "placing_points": points_text(current.placing_points or {}),
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            ranking_settings_update(
                federation=reader.federation,
                private_players=form.cleaned_data["private_players"],
                placing_points=form.cleaned_data["placing_points"],
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, _("Saved: the ranking is recomputed in a moment."))
            return redirect("ranking:settings", federation_slug=reader.federation.slug)
    return render(
        request,
        "ranking/settings.html",
        {"federation": reader.federation, "form": form, "allowed": True},
    )


@login_required
@require_http_methods(["GET", "POST"])
def fixture_enter(request: HttpRequest, federation_slug: str, fixture_id: int) -> HttpResponse:
    """GET: the inter-club fixture and a button; POST: the fixture's table link, for a
    scorer of either home club (403 for anyone else)."""
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    fixture = get_object_or_404(
        Fixture.objects.select_related("home", "away", "club", "venue"),
        pk=fixture_id,
        club__organised_by__federation=reader.federation,
    )
    clubs = interclub.fixture_home_clubs(fixture)
    home = InterclubTeam.objects.filter(team_id=fixture.home_id).select_related("house_rules")
    home = home.first()
    may = interclub.interclub_fixture_may_enter(fixture=fixture, user=request.user)
    if request.method == "POST" and may:
        link = interclub.interclub_fixture_enter(fixture=fixture, user=request.user)
        return redirect(table_link_path(link))
    return render(
        request,
        "ranking/fixture_enter.html",
        {
            "federation": reader.federation,
            "fixture": fixture,
            "clubs": clubs,
            "may": may,
            "rules": interclub.rules_title(home.rules_spec()) if home else "",
        },
        status=200 if may else 403,
    )


# --- championships -----------------------------------------------------------------------


def _space_divisions(federation: Any) -> list[tuple[int, str]]:
    rows = Division.objects.filter(club__organised_by__federation=federation).select_related(
        "season"
    )
    return [(d.pk, f"{d.season.name} · {d.name}") for d in rows.order_by("-season__start_date")]


@login_required
@require_http_methods(["GET", "POST"])
def championship_new(request: HttpRequest, federation_slug: str) -> HttpResponse:
    """A federation admin's final: qualifiers in seeding order (cups, club nights, series
    of member clubs), each with how many of its top players go through."""
    access = federation_access(slug=federation_slug, user=request.user)
    federation = access.federation
    if not access.is_admin:
        return render(
            request, "ranking/championship_new.html", {"federation": federation}, status=403
        )
    form = ChampionshipFinalForm(
        request.POST or None,
        candidates=selectors.qualifier_candidates(federation),
        divisions=_space_divisions(federation),
    )
    if request.method == "POST" and form.is_valid():
        rows, qualifiers, missing = [], [], False
        for row, kind, pk, places in form.qualifiers():
            source = selectors.qualifier_source(federation, kind, pk)
            if source is None:
                form.add_error(f"qualifier_{row}", _("Choose a qualifier of a member club."))
                missing = True
                continue
            rows.append(row)
            qualifiers.append(championship.QualifierIn(source, places))
        division = None
        if form.cleaned_data["division"]:
            division = Division.objects.filter(
                pk=form.cleaned_data["division"], club__organised_by__federation=federation
            ).first()
        if not missing:
            try:
                final = championship.championship_final_create(
                    federation=federation,
                    name=form.cleaned_data["name"],
                    qualifiers=qualifiers,
                    division=division,
                    rules=form.cleaned_data["ruleset"] or None,
                    format=form.cleaned_data["format"],
                    user=request.user,
                )
            except ServiceError as exc:
                form.add_service_errors(exc.errors, rows)
            else:
                messages.success(request, _("The final is seeded."))
                return redirect(
                    "ranking:championship", federation_slug=federation.slug, pk=final.pk
                )
    return render(
        request,
        "ranking/championship_new.html",
        {"federation": federation, "form": form, "allowed": True},
    )


def championship_detail(request: HttpRequest, federation_slug: str, pk: int) -> HttpResponse:
    """A final and where each of its entrants qualified from."""
    access = federation_access(slug=federation_slug, user=request.user)
    final, origins = selectors.championship_final(access.federation, pk)
    return render(
        request,
        "ranking/championship.html",
        {"federation": access.federation, "final": final, "origins": origins},
    )


@login_required
@require_http_methods(["GET", "POST"])
def team_home(request: HttpRequest, federation_slug: str, team_id: int) -> HttpResponse:
    """An admin of the organiser space chooses where an inter-club team plays its home
    fixtures and by which rules (``interclub.interclub_team_home_set``, as the API)."""
    reader = selectors.federation_reader(slug=federation_slug, user=request.user)
    row = get_object_or_404(
        InterclubTeam.objects.select_related("team__division__season", "team__club", "home_club"),
        team_id=team_id,
        federation=reader.federation,
    )
    allowed = interclub.space_admin(row=row, user=request.user)
    form = InterclubHomeForm(request.POST or None, row=row)
    if request.method == "POST" and allowed and form.is_valid():
        try:
            interclub.interclub_team_home_set(
                team=row.team,
                venue=form.cleaned_data["venue"],
                house_rules=form.cleaned_data["house_rules"],
                ruleset=form.cleaned_data["ruleset"],
                user=request.user,
            )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            messages.success(request, _("Saved: its home fixtures not yet started follow."))
            return redirect(
                "ranking:team-home", federation_slug=reader.federation.slug, team_id=team_id
            )
    return render(
        request,
        "ranking/team_home.html",
        {"federation": reader.federation, "row": row, "form": form, "allowed": allowed},
        status=200 if allowed else 403,
    )
