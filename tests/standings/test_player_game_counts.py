"""One game count for a player everywhere: the leaderboards' "Games" and the player's page
count the same league games, and the page says apart how many more the player played
outside a league (club nights, cups), which move only the rating."""

import re

import pytest
from django.urls import reverse

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.standings import selectors

from .conftest import A_WINS, play

pytestmark = pytest.mark.django_db


def test_the_leaderboard_and_the_players_page_count_the_same_games(
    client, viewer, division, teams, scorer, admin
):
    aces, bells = teams[:2]
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    a0 = aces.members.order_by("position").first().player
    others = [m.player for m in bells.members.order_by("position")]
    for _ in range(3):  # a club night's tables: no league, no teams
        game = games.game_start(
            club=division.club, seats=[a0, others[0], others[1]], rules="clabber-3"
        )
        while game.status == Game.Status.IN_PROGRESS:
            games.deal_record(
                game_id=game.pk,
                data={
                    "maker": "A",
                    "trump": "hearts",
                    "points": {"A": 100, "B": 30, "C": 22},
                    "last_trick": "A",
                },
            )
            game = Game.objects.get(pk=game.pk)
        games.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))

    board = {r["player_id"]: r for r in selectors.player_leaderboard(club=division.club)}
    assert board[a0.pk]["games"] == 2
    client.force_login(viewer)
    page = client.get(reverse("standings:player", args=[division.club.slug, a0.pk]))
    text = re.sub(r"\s+", " ", page.content.decode())
    assert page.context["games"] == {"league": 2, "outside": 3, "all": 5}
    assert (
        "Games: <b>2</b> in the league, and 3 at club nights, cups and friendly games (5 in all)"
        in text
    )
    assert "rated on 5 confirmed games" in text
    seasons = page.context["seasons"]
    assert sum(r["games"] for r in seasons) == board[a0.pk]["games"]
