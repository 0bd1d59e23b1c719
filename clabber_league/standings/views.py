"""Pages of standings, leaderboards and players, readable by anyone when the club is public.

While games of a division are at the table, its table re-fetches itself every ten
seconds (htmx polling of a partial); the polling stops once no game is in progress.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.models import Player
from clabber_league.clubs.privacy import sees_names
from clabber_league.leagues.models import Division, Season, Team

from . import exports, selectors
from .forms import TiebreakerForm
from .ordering import TIEBREAKER_TITLES
from .services import StandingsError
from .services.tiebreakers import tiebreakers_set

#: Rows of each leaderboard on one page.
LEADERBOARD_PAGE = 50


def _division_or_404(request: HttpRequest, pk: int) -> Division:
    try:
        return selectors.division_get(club=request.club, pk=pk)
    except Division.DoesNotExist as exc:
        raise Http404("No such division in this club.") from exc


def _season_from(request: HttpRequest) -> Season | None:
    slug = request.GET.get("season")
    if not slug:
        return None
    season = Season.objects.filter(club=request.club, slug=slug).first()
    if season is None:
        raise Http404("No such season in this club.")
    return season


@club_view("read")
def standings_index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "standings/index.html",
        {
            "club": request.club,
            "access": request.club_access,
            "divisions": selectors.division_list(club=request.club),
        },
    )


def _table_context(request: HttpRequest, division: Division) -> dict[str, Any]:
    table = selectors.standings_table(division=division)
    now = selectors.division_now(division=division)
    return {
        "polling": bool(now.live) or now.tonight,
        "club": request.club,
        "access": request.club_access,
        "division": division,
        "table": table,
        "live": now.live,
        # Teams that carried match points over (a season already under way): said under it.
        "carried": [line for line in table.lines if line.extra.get("carried")],
    }


@club_view("read")
def division_standings(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division_or_404(request, pk)
    context = _table_context(request, division)
    if request.headers.get("HX-Request") and request.GET.get("partial") == "table":
        return render(request, "standings/_table.html", context)
    return render(request, "standings/division.html", context)


@club_view("read")
def division_positions(request: HttpRequest, pk: int) -> HttpResponse:
    """The position-by-round chart, loaded by the standings page once it is shown."""
    division = _division_or_404(request, pk)
    return render(
        request,
        "standings/_positions.html",
        {"division": division, "chart": selectors.positions_by_round(division=division)},
    )


@club_view("read")
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division_or_404(request, pk)
    return exports.standings_csv(selectors.standings_table(division=division))


@club_view("read")
def deals_csv(request: HttpRequest, pk: int) -> HttpResponse:
    return exports.deals_csv(
        _division_or_404(request, pk), to_member=sees_names(request.club_access)
    )


@club_view("manage")
def division_tiebreakers(request: HttpRequest, pk: int) -> HttpResponse:
    division = _division_or_404(request, pk)
    current = selectors.division_tiebreakers(division)
    form = TiebreakerForm(request.POST or None, initial_order=current)
    if request.method == "POST" and form.is_valid():
        try:
            tiebreakers_set(club=request.club, division=division, tiebreakers=form.ordered())
        except StandingsError as exc:
            for error in exc.errors:
                form.add_error(None, error["message"])
        else:
            messages.success(request, gettext("Tiebreakers saved; the table follows them now."))
            return redirect("standings:division", club_slug=request.club.slug, pk=division.pk)
    return render(
        request,
        "standings/tiebreakers.html",
        {"club": request.club, "division": division, "form": form, "titles": TIEBREAKER_TITLES},
    )


@club_view("read")
def team_page(request: HttpRequest, pk: int) -> HttpResponse:
    team = Team.objects.filter(club=request.club, pk=pk).select_related("division__season").first()
    if team is None:
        raise Http404("No such team in this club.")
    form = selectors.team_form(team=team)
    members = team.members.select_related("player").order_by("position")
    return render(
        request,
        "standings/team.html",
        {
            "club": request.club,
            "access": request.club_access,
            "team": team,
            "division": team.division,
            "members": members,
            **form,
        },
    )


@club_view("read")
def leaderboards(request: HttpRequest) -> HttpResponse:
    season = _season_from(request)
    to_member = sees_names(request.club_access)
    players = selectors.player_leaderboard(club=request.club, season=season, to_member=to_member)
    partnerships = selectors.partnership_leaderboard(
        club=request.club, season=season, to_member=to_member
    )
    # A big club's boards are long: a page of each at a time (the CSV has every row); the
    # boards are ordered whole, but only the rows of the page and the chart are summed.
    players_page = Paginator(players, LEADERBOARD_PAGE).get_page(request.GET.get("players_page"))
    partnerships_page = Paginator(partnerships, LEADERBOARD_PAGE).get_page(
        request.GET.get("partnerships_page")
    )
    return render(
        request,
        "standings/leaderboards.html",
        {
            "club": request.club,
            "season": season,
            "seasons": selectors.seasons_with_stats(club=request.club),
            "players": players_page.object_list,
            "players_page": players_page,
            "partnerships": partnerships_page.object_list,
            "partnerships_page": partnerships_page,
            "chart": selectors.leaderboard_chart(players),
        },
    )


@club_view("read")
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        player = selectors.player_get(club=request.club, pk=pk)
    except Player.DoesNotExist as exc:
        raise Http404("No such player in this club.") from exc
    return render(
        request,
        "standings/player.html",
        {
            "club": request.club,
            "access": request.club_access,
            "player": player,
            "player_name": player.shown_name(to_member=sees_names(request.club_access)),
            **selectors.player_profile(club=request.club, player=player),
        },
    )
