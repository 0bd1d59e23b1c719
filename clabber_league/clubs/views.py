"""The club's own page: its seasons and divisions, games in progress, recent results, and
for a member who plays, their next fixture and the games waiting for their confirmation."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clabber_league.games.selectors import game_list
from clabber_league.members.selectors import games_to_confirm, my_next_fixture

from .decorators import club_view


@club_view("read")
def club_home(request: HttpRequest) -> HttpResponse:
    club = request.club
    games = game_list(club=club).order_by("-created_at")
    return render(
        request,
        "clubs/home.html",
        {
            "club": club,
            "access": request.club_access,
            "divisions": club.divisions.select_related("season").order_by(
                "-season__start_date", "name"
            ),
            "in_progress": games.filter(status="in_progress")[:20],
            "recent": games.exclude(status="in_progress")[:20],
            "next_fixture": my_next_fixture(club=club, user=request.user),
            "to_confirm": games_to_confirm(access=request.club_access, user=request.user),
        },
    )
