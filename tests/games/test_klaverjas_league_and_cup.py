"""Leagues and cups play klaverjas like any rule set (issue 36): a league fixture's game of
16 deals decides the fixture and counts in the standings; a cup tie's game decides the tie."""

import datetime as dt
import random

import pytest

from clabber_league.clubs.access import club_access
from clabber_league.cups.models import Tie
from clabber_league.cups.services import progress, setup
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.rules import get_ruleset
from clabber_league.rules.simulate import simulate_deal
from clabber_league.scheduling.models import Fixture
from tests.factories import DivisionFactory, TeamFactory

pytestmark = pytest.mark.django_db


def play_16(game: Game, seed: int, slug: str = "klaverjas-rotterdams") -> None:
    """16 klaverjas deals really dealt and played out, recorded as a table would (the
    dealer passing clockwise from seat 0: Amsterdams checks who must play)."""
    ruleset = get_ruleset(slug)
    rng = random.Random(seed)
    for number in range(16):
        dealer = (game.first_dealer + number) % 4
        services.deal_record(game_id=game.pk, data=simulate_deal(ruleset, rng, dealer=dealer))
    game.refresh_from_db()


def seats_of(home, away):
    ours = [m.player for m in home.members.order_by("position")]
    theirs = [m.player for m in away.members.order_by("position")]
    return [ours[0], theirs[0], ours[1], theirs[1]]


def test_a_league_fixture_in_klaverjas_is_decided_by_its_16_deals():
    division = DivisionFactory(ruleset="klaverjas-rotterdams")
    home, away = TeamFactory(division=division), TeamFactory(division=division)
    fixture = Fixture.objects.create(
        club=division.club,
        division=division,
        round_number=1,
        home=home,
        away=away,
        date=dt.date(2026, 12, 8),
        games_planned=1,
    )
    game = services.game_start(
        club=division.club,
        division=division,
        sides={"A": home, "B": away},
        seats=seats_of(home, away),
        fixture=fixture,
    )
    play_16(game, seed=7)
    assert game.deal_count == 16
    assert game.status == Game.Status.FINISHED
    scores = game.scores
    assert game.winner == (
        "A" if scores["A"] > scores["B"] else "B" if scores["B"] > scores["A"] else "tie"
    )
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    # A seventeenth deal is refused: the game is over.
    with pytest.raises(services.GameError):
        services.deal_record(
            game_id=game.pk,
            data={
                "maker": "A",
                "trump": "hearts",
                "points": {"A": 100, "B": 52},
                "last_trick": "A",
            },
        )


def test_a_cup_tie_in_klaverjas_goes_to_the_higher_total(club, admin):
    division = DivisionFactory(season__club=club, club=club, ruleset="klaverjas-amsterdams")
    teams = [TeamFactory(division=division, name=n) for n in ("Aces", "Boeren")]
    cup = setup.cup_draw(
        cup=setup.cup_create(club=club, name="Beker", rules="klaverjas-amsterdams", teams=teams)
    )
    tie = cup.ties.get(status=Tie.Status.READY)
    game = progress.tie_game_start(tie=tie)
    seed = 3
    play_16(game, seed, "klaverjas-amsterdams")
    while game.winner == "tie":  # a tied game does not decide a knockout: play it again
        services.game_abandon(game=game, user=admin)
        seed += 1
        game = progress.tie_game_start(tie=tie)
        play_16(game, seed, "klaverjas-amsterdams")
    assert game.status == Game.Status.FINISHED
    services.game_confirm(game=game, user=admin, access=club_access(slug=club.slug, user=admin))
    tie.refresh_from_db()
    assert tie.status == Tie.Status.DECIDED
    assert tie.winner.name == game.sides.get(side=game.winner).team.name
