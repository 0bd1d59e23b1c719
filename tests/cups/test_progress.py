"""Playing ties: games outside the league, confirmed before anyone goes through; best of N;
a level game needs a decider; a tie's games count in no league table."""

from __future__ import annotations

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services import progress, setup
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.standings.models import TeamStanding

pytestmark = pytest.mark.django_db

SHORT = {"name": "Short", "base": "clabber", "options": {"target": 150}}


def _play(tie: Tie, winner: str, *, admin, access) -> Game:
    """Start the tie's next game, record one deal that wins it for ``winner`` (side A or
    B), confirm it as the club admin."""
    game = progress.tie_game_start(tie=tie)
    points = 142 if winner == "A" else 0
    games.deal_record(
        game_id=game.pk,
        data={
            "maker": winner,
            "trump": "hearts",
            "points": {"A": points, "B": 152 - points},
            "last_trick": winner,
        },
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    tie.refresh_from_db()
    assert tie.status == Tie.Status.PLAYING and tie.winner is None  # not confirmed yet
    games.game_confirm(game=game, user=admin, access=access)
    tie.refresh_from_db()
    return game


@pytest.fixture
def access(club, admin):
    from clabber_league.clubs.access import club_access

    return club_access(slug=club.slug, user=admin)


def test_the_winner_goes_through_when_the_game_is_confirmed(club, league, admin, access):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4], rules=SHORT))
    semi = cup.ties.get(key="M1-1")
    game = _play(semi, "B", admin=admin, access=access)
    assert semi.status == Tie.Status.DECIDED and semi.winner == semi.away
    assert game.division_id is None
    assert {s.team_id for s in game.sides.all()} == {semi.home.team_id, semi.away.team_id}
    final = cup.ties.get(key="M2-1")
    assert semi.away in (final.home, final.away)
    assert not TeamStanding.objects.filter(team__in=teams[:4], games_won__gt=0).exists()


def test_best_of_three_needs_two_wins(club, league, admin, access):
    _, teams = league
    cup = setup.cup_draw(
        cup=setup.cup_create(club=club, name="K", teams=teams[:2], rules=SHORT, best_of=3)
    )
    final = cup.ties.get()
    _play(final, "A", admin=admin, access=access)
    assert final.status == Tie.Status.READY
    _play(final, "B", admin=admin, access=access)
    assert final.status == Tie.Status.READY
    _play(final, "A", admin=admin, access=access)
    assert final.status == Tie.Status.DECIDED
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED and cup.champion == final.home


def test_the_next_game_waits_for_the_last_to_be_confirmed(club, league):
    _, teams = league
    cup = setup.cup_draw(
        cup=setup.cup_create(club=club, name="K", teams=teams[:2], rules=SHORT, best_of=3)
    )
    final = cup.ties.get()
    progress.tie_game_start(tie=final)
    with pytest.raises(ServiceError) as err:
        progress.tie_game_start(tie=final)
    assert err.value.status == 409
    assert err.value.errors[0]["message"] == progress.TIE_GAME_IN_PROGRESS.format(number=1)
    assert Game.objects.count() == 1


def test_a_level_game_keeps_the_tie_open_and_says_a_decider_is_needed(club, league, admin, access):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:2], rules=SHORT))
    final = cup.ties.get()
    game = progress.tie_game_start(tie=final)
    # Both sides reach 150 together and level: a tied game (tie_at_target: tie).
    for data in (
        {"maker": "A", "trump": "hearts", "points": {"A": 76, "B": 76}, "last_trick": "A"},
        {"maker": "B", "trump": "hearts", "points": {"A": 76, "B": 76}, "last_trick": "B"},
    ):
        games.deal_record(game_id=game.pk, data=data)
    game.refresh_from_db()
    assert (game.status, game.winner, game.scores) == ("finished", "tie", {"A": 162, "B": 162})
    games.game_confirm(game=game, user=admin, access=access)
    final.refresh_from_db()
    assert final.status == Tie.Status.READY and final.winner is None
    assert final.note == progress.TIED_GAME.format(number=1)
    progress.tie_game_start(tie=final)  # the deciding game


def test_a_decided_tie_is_not_played_again(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:2]))
    final = cup.ties.get()
    progress.tie_walkover(tie=final, absent="home")
    with pytest.raises(ServiceError) as err:
        progress.tie_game_start(tie=final)
    assert err.value.errors[0]["message"] == progress.TIE_DONE
    with pytest.raises(ServiceError):
        progress.tie_walkover(tie=final, absent="away")


def test_a_tie_waiting_for_its_sides_cannot_start(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    final = cup.ties.get(key="M2-1")
    with pytest.raises(ServiceError) as err:
        progress.tie_game_start(tie=final)
    assert err.value.status == 409
    assert "waits for its sides" in err.value.errors[0]["message"]
