"""A season already under way (issue 30): a team's carried-over points count in its
division's table (page, API), in the head-to-head split of teams level on points, and in
its form; the stored standings still match a recomputation from the games."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clabber_league.leagues import services as leagues
from clabber_league.standings import selectors
from clabber_league.standings.services.rebuild import standings_differences
from clabber_league.standings.services.tiebreakers import tiebreakers_set

from .conftest import A_WINS, play

pytestmark = pytest.mark.django_db


def order(division) -> list[tuple[str, int]]:
    return [
        (line.name, line.match_points)
        for line in selectors.standings_table(division=division).lines
    ]


def test_carried_points_are_added_to_the_table_and_change_its_order(division, teams, scorer):
    aces, bells, _dads, mules = teams
    play(division, aces, bells, A_WINS, user=scorer)  # Aces 2, Bells 0
    leagues.team_update(team=mules, carried_points=5)
    leagues.team_update(team=aces, carried_points=-1)
    assert order(division)[:2] == [("Mules", 5), ("Aces", 1)]
    assert standings_differences() == []  # the stored rows are the games' own


def test_head_to_head_splits_teams_level_once_carried_points_count(division, teams, scorer, club):
    aces, bells = teams[:2]
    tiebreakers_set(club=club, division=division, tiebreakers=["head_to_head"])
    play(division, bells, aces, A_WINS, user=scorer)  # Bells beat Aces: 2 to 0
    leagues.team_update(team=aces, carried_points=2)  # level at 2: Bells won their match
    names = [name for name, _ in order(division)]
    assert names.index("Bells") < names.index("Aces")
    table = selectors.standings_table(division=division)
    bells_line = next(line for line in table.lines if line.name == "Bells")
    assert bells_line.placed_by == "head_to_head"


def test_the_api_and_the_page_show_the_carried_points(client, division, teams, admin):
    aces = teams[0]
    client.force_login(admin)
    url = reverse("scheduling:team-edit", args=[division.club.slug, aces.pk])
    response = client.post(
        url,
        {
            "name": "Aces",
            "players": "\n".join(p.name for p in aces.players.all()),
            "carried_points": "7",
        },
    )
    assert response.status_code == 302
    aces.refresh_from_db()
    assert aces.carried_points == 7
    body = client.get(f"/api/clubs/{division.club.slug}/standings/{division.pk}/").json()
    row = next(r for r in body["rows"] if r["team"] == "Aces")
    assert (row["carried_points"], row["match_points"]) == (7, 7)
    page = client.get(reverse("standings:division", args=[division.club.slug, division.pk]))
    assert "Aces +7" in page.content.decode()


def test_carried_points_out_of_range_are_refused(division, teams):
    with pytest.raises(leagues.LeagueError) as caught:
        leagues.team_update(team=teams[0], carried_points=10**6)
    assert caught.value.errors == [
        {"field": "carried_points", "message": leagues.CARRIED_POINTS_RANGE}
    ]
