"""Abandoning a game started by mistake and deleting a deal: one service each for the page
and the API, the same permission rules (a scorer, until the result is confirmed), and both
kept in the game's history. An abandoned game counts nowhere and frees its fixture."""

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.access import access_for
from clabber_league.games import services
from clabber_league.games.models import DealRevision, Game
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import PlayerGameStat
from clabber_league.standings.selectors import standings_table

from .conftest import made

pytestmark = pytest.mark.django_db


def _finish(game, user):
    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made(a=142), user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def _line(division, name):
    return next(line for line in standings_table(division=division).lines if line.name == name)


def test_abandoning_a_finished_game_takes_it_out_of_the_standings_and_stats(game, scorer, division):
    _finish(game, scorer)
    assert _line(division, "Mules").counters["matches_won"] == 1
    assert PlayerGameStat.objects.exists()

    services.game_abandon(game=game, user=scorer)

    game.refresh_from_db()
    assert (game.status, game.winner) == ("abandoned", "")
    assert game.deals.count() == 4  # the deals are kept
    assert _line(division, "Mules").counters["matches_won"] == 0
    assert _line(division, "Dads").counters["matches_lost"] == 0
    assert not PlayerGameStat.objects.exists()
    entry = DealRevision.objects.get(game=game, action=DealRevision.Action.ABANDON)
    assert entry.user == scorer
    assert entry.before["status"] == "finished"
    assert entry.before["score"] == {"A": 608, "B": 40}


def test_an_abandoned_game_takes_no_deal_and_cannot_be_abandoned_twice(game, scorer):
    services.deal_record(game_id=game.pk, data=made(), user=scorer)
    services.game_abandon(game=game, user=scorer)
    deal = game.deals.get()
    for call in (
        lambda: services.deal_record(game_id=game.pk, data=made(), user=scorer),
        lambda: services.deal_correct(deal=deal, data=made(a=90), user=scorer),
        lambda: services.deal_delete(deal=deal, user=scorer),
    ):
        with pytest.raises(services.GameError) as caught:
            call()
        assert caught.value.errors == [{"field": "game", "message": services.GAME_ABANDONED}]
    with pytest.raises(services.GameError) as caught:
        services.game_abandon(game=game, user=scorer)
    assert caught.value.errors[0]["message"] == services.GAME_ALREADY_ABANDONED


def test_a_confirmed_game_cannot_be_abandoned(game, scorer, admin):
    _finish(game, scorer)
    services.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))
    with pytest.raises(services.GameError) as caught:
        services.game_abandon(game=game, user=admin)
    assert caught.value.errors == [{"field": "game", "message": services.GAME_ABANDON_CONFIRMED}]
    game.refresh_from_db()
    assert game.status == "confirmed"


def test_the_fixture_of_an_abandoned_game_is_played_again(club, division, teams, scorer):
    mules, dads = teams
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=mules,
        away=dads,
        date=dt.date(2026, 10, 5),
        games_planned=1,
    )

    def start():
        seats = [m.player for m in mules.members.order_by("position")]
        other = [m.player for m in dads.members.order_by("position")]
        return services.game_start(
            club=club,
            division=division,
            sides={"A": mules, "B": dads},
            seats=[seats[0], other[0], seats[1], other[1]],
            fixture=fixture,
            user=scorer,
        )

    first = start()
    _finish(first, scorer)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED

    services.game_abandon(game=first, user=scorer)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    second = start()  # no longer "already decided"
    assert second.fixture_id == fixture.pk


def _page(game, name, **kwargs):
    return reverse(f"games:{name}", kwargs={"club_slug": game.club.slug, "pk": game.pk, **kwargs})


def test_the_page_asks_before_abandoning_and_a_viewer_may_not(client, game, scorer, viewer):
    client.force_login(viewer)
    assert client.post(_page(game, "abandon")).status_code == 403
    client.force_login(scorer)
    asked = client.get(_page(game, "abandon"))
    assert asked.status_code == 200
    assert b"counts nowhere" in asked.content
    game.refresh_from_db()
    assert game.status == "in_progress"  # asking changes nothing
    done = client.post(_page(game, "abandon"), follow=True)
    assert b"Game abandoned" in done.content
    assert b"Abandoned the game" in done.content  # in the history on the sheet
    game.refresh_from_db()
    assert game.status == "abandoned"


def test_the_api_abandons_with_the_same_service(game, scorer, viewer):
    api = APIClient()
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/abandon/"
    api.force_login(viewer)
    assert api.post(url).status_code == 403
    api.force_login(scorer)
    answer = api.post(url)
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "abandoned"
    again = api.post(url)
    assert again.status_code == 409
    assert again.json()["errors"] == [{"field": "game", "message": services.GAME_ALREADY_ABANDONED}]


def test_deleting_a_deal_from_the_page_asks_first_and_is_kept_in_the_history(
    client, game, scorer, viewer
):
    services.deal_record(game_id=game.pk, data=made(a=60, last="B"), user=scorer)
    services.deal_record(game_id=game.pk, data=made(a=100), user=scorer)
    url = _page(game, "deal-delete", number=1)
    client.force_login(viewer)
    assert client.post(url).status_code == 403
    client.force_login(scorer)
    asked = client.get(url)
    assert asked.status_code == 200
    assert b"Delete deal 1?" in asked.content
    assert b"Mules" in asked.content and b"XX" in asked.content  # the deal, by its sides
    assert game.deals.count() == 2  # asking deletes nothing
    done = client.post(url, follow=True)
    assert b"Deal 1 deleted" in done.content
    assert list(game.deals.values_list("number", flat=True)) == [1]
    entry = DealRevision.objects.get(game=game, action=DealRevision.Action.DELETE)
    assert (entry.deal_number, entry.user, entry.before["score"]) == (1, scorer, {"A": 0, "B": 102})
