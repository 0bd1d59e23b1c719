"""A game outside any league (a club night's table, a cup tie): its own rules, no division,
teams optional; it counts in no league standings, but its players' ratings move. And the two
ways a club night's round ends a game short of the target: a fixed number of deals, and time
called (the deal in progress is the last)."""

import pytest
from django.urls import reverse

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.standings.models import (
    PlayerGameStat,
    PlayerRating,
    RatingChange,
    StandingContribution,
    TeamStanding,
)
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, TeamFactory

from .conftest import made

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(club):
    return [PlayerFactory(club=club, name=f"Player {i}") for i in range(4)]


def _night_game(club, seats, **kw):
    return services.game_start(club=club, seats=seats, rules="clabber", **kw)


def _finish(game):
    """152 a deal for side A until the target ends the game."""
    while game.status == Game.Status.IN_PROGRESS:
        services.deal_record(game_id=game.pk, data=made("A", 142))
        game = Game.objects.get(pk=game.pk)
    return game


def test_a_game_outside_a_league_needs_its_rules(club, four):
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, seats=four)
    assert caught.value.errors == [{"field": "rules", "message": services.RULES_MISSING}]
    assert not Game.objects.exists()


def test_unknown_rules_are_refused_on_the_rules_field(club, four):
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, seats=four, rules="no-such-game")
    assert caught.value.errors == [{"field": "rules", "message": services.RULES_UNKNOWN}]


def test_a_division_game_plays_the_divisions_rules_not_others(club, division, four):
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, division=division, seats=four, rules="clabber")
    assert caught.value.errors[0]["field"] == "rules"


def test_house_rules_data_are_the_games_rules(club, four):
    rules = {"name": "Short", "base": "clabber", "options": {"target": 200}}
    game = services.game_start(club=club, seats=four, rules=rules)
    game = _finish(game)  # 152 a deal: 200 passed in two
    assert game.deal_count == 2 and game.status == Game.Status.FINISHED and game.winner == "A"


def test_it_counts_in_no_standings_but_moves_the_players_ratings(club, four, admin):
    game = _finish(_night_game(club, four))
    assert game.division is None and game.status == Game.Status.FINISHED
    assert not StandingContribution.objects.exists()
    assert not TeamStanding.objects.exists()
    assert not PlayerGameStat.objects.exists()
    assert not RatingChange.objects.exists()  # rated once confirmed, as any game

    access = access_for(club=club, user=admin)
    services.game_confirm(game=game, user=admin, access=access, how="club")
    assert RatingChange.objects.filter(game=game).count() == 4
    winners = {r.player_id: r for r in PlayerRating.objects.all()}
    assert winners[four[0].pk].mu > winners[four[1].pk].mu  # seat 0 (A) beat seat 1 (B)


def test_teams_of_any_division_of_the_club_may_be_its_sides(club, division, four):
    a, b = TeamFactory(division=division), TeamFactory(division=division)
    game = _night_game(club, four, sides={"A": a, "B": b})
    assert {s.side: s.team_id for s in game.sides.all()} == {"A": a.pk, "B": b.pk}


def test_a_team_of_another_club_is_refused(club, four):
    other = TeamFactory(division__club=ClubFactory())
    with pytest.raises(services.GameError) as caught:
        _night_game(club, four, sides={"A": other})
    assert caught.value.errors == [{"field": "sides.A", "message": services.TEAM_OTHER_CLUB}]


def test_a_player_of_another_club_cannot_sit(club, four):
    seats = [*four[:3], PlayerFactory(club=ClubFactory())]
    with pytest.raises(services.GameError) as caught:
        _night_game(club, seats)
    assert {"field": "seats[3]", "message": services.PLAYER_OTHER_CLUB} in caught.value.errors


# --- a fixed number of deals, and time called --------------------------------------------------


def test_a_round_of_n_deals_ends_after_the_nth_deal_and_the_side_ahead_wins(club, four):
    game = _night_game(club, four, deal_limit=2)
    services.deal_record(game_id=game.pk, data=made("A", 100))
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    services.deal_record(game_id=game.pk, data=made("A", 100))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner == "A"
    with pytest.raises(services.GameError) as caught:
        services.deal_record(game_id=game.pk, data=made("A", 100))
    assert caught.value.errors[0]["message"] == services.GAME_FINISHED


def test_deleting_a_deal_of_a_game_ended_by_its_limit_opens_it_again(club, four):
    game = _night_game(club, four, deal_limit=1)
    recorded = services.deal_record(game_id=game.pk, data=made("A", 100))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    services.deal_delete(deal=recorded.deal)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.winner == ""


def test_the_deal_limit_is_bounded(club, four):
    with pytest.raises(services.GameError) as caught:
        _night_game(club, four, deal_limit=0)
    assert caught.value.errors[0]["field"] == "deal_limit"


def test_time_called_finishes_the_game_after_the_deal_in_progress(club, four, admin):
    game = _night_game(club, four)
    services.deal_record(game_id=game.pk, data=made("A", 100))
    services.game_close(game=game, user=admin)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.deal_limit == 2
    services.deal_record(game_id=game.pk, data=made("A", 30))  # A is set: B scores 162 + ...
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner == ("A" if game.score_a > game.score_b else "B")
    assert game.revisions.filter(action="close", user=admin).exists()


def test_time_called_between_deals_ends_the_game_at_once(club, four):
    game = _night_game(club, four)
    services.deal_record(game_id=game.pk, data=made("A", 100))
    services.game_close(game=game, after_deal_in_progress=False)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "A"


def test_time_called_on_a_level_game_is_a_tie(club, four):
    game = _night_game(club, four)
    services.game_close(game=game, after_deal_in_progress=False)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "tie"


def test_time_cannot_be_called_on_a_finished_game(club, four):
    game = _finish(_night_game(club, four))
    with pytest.raises(services.GameError) as caught:
        services.game_close(game=game)
    assert caught.value.errors[0]["message"] == services.GAME_CLOSE_NOT_OPEN
    assert caught.value.status == 409


# --- the game's pages ------------------------------------------------------------------------


def _url(name, game, **kw):
    return reverse(f"games:{name}", kwargs={"club_slug": game.club.slug, "pk": game.pk, **kw})


def test_deal_entry_sheet_and_confirmation_pages_serve_a_game_outside_a_league(client, club, four):
    game = _night_game(club, four)
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    four[0].user = scorer  # the scorer plays on side A: side B's acceptance confirms
    four[0].save()
    client.force_login(scorer)
    assert client.get(_url("deal-new", game)).status_code == 200
    for _ in range(4):
        posted = client.post(
            _url("deal-new", game),
            {
                "round": "1",
                "turned": "hearts",
                "maker_seat": "0",
                "trump": "hearts",
                "points_A": "142",
                "last_trick": "A",
            },
        )
        assert posted.status_code == 302, posted.content.decode()[:2000]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    sheet = client.get(_url("detail", game))
    assert sheet.status_code == 200
    assert "Player 0" in sheet.content.decode()

    other_side = MembershipFactory(club=club, role=Role.SCORER).user
    four[1].user = other_side
    four[1].save()
    client.force_login(other_side)
    assert "Confirm the result" in client.get(_url("detail", game)).content.decode()
    client.post(_url("confirm", game))
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert RatingChange.objects.filter(game=game).count() == 4
