"""League night: two tables close games of one fixture, and confirmations share players,
at the same moment. The aggregates must still equal a full recomputation.

Threads need PostgreSQL (row locks, several connections); on SQLite these tests are
skipped with that reason. CI runs them on PostgreSQL.
"""

import threading

import pytest
from django.db import connection, connections

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.games.models import Game, GameSeat
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import RatingChange, TeamStanding
from clabber_league.standings.services.rebuild import standings_differences

from .conftest import A_WINS, B_WINS, play

pytestmark = pytest.mark.django_db(transaction=True)


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite serialises writers itself")


def _run_threads(works) -> list[BaseException]:
    barrier = threading.Barrier(len(works))
    errors: list[BaseException] = []

    def runner(work) -> None:
        try:
            barrier.wait(timeout=30)
            work()
        except BaseException as exc:  # collected and asserted on below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner, args=(w,)) for w in works]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return errors


def test_two_tables_closing_one_fixture_at_once_both_count(division, teams, scorer):
    _postgres_only()
    aces, bells = teams[:2]
    fixture = Fixture.objects.create(
        club=division.club, division=division, round_number=1, home=aces, away=bells,
        games_planned=2,
    )  # fmt: skip
    first = play(division, aces, bells, A_WINS[:3], user=scorer, fixture=fixture, number=1)
    second = play(division, aces, bells, B_WINS[:3], user=scorer, fixture=fixture, number=2)

    def closer(game, deal):
        return lambda: games.deal_record(game_id=game.pk, data=deal, user=scorer)

    assert _run_threads([closer(first, A_WINS[0]), closer(second, B_WINS[0])]) == []
    aces_row = TeamStanding.objects.get(team=aces)
    assert (aces_row.games_won, aces_row.games_lost, aces_row.matches_tied) == (1, 1, 1)
    assert standings_differences() == []


def test_confirmations_sharing_players_at_once_rate_each_game_once(division, teams, scorer, admin):
    _postgres_only()
    aces, bells, dads, _ = teams
    one = play(division, aces, bells, A_WINS, user=scorer)
    two = play(division, aces, dads, B_WINS, user=scorer)

    def confirm(game):
        return lambda: games.game_confirm(
            game=Game.objects.get(pk=game.pk),
            user=admin,
            access=access_for(club=game.club, user=admin),
        )

    assert _run_threads([confirm(one), confirm(two)]) == []
    assert RatingChange.objects.filter(game=one).count() == 4
    assert RatingChange.objects.filter(game=two).count() == 4
    ace = aces.members.order_by("position").first().player
    assert ace.rating.games == 2  # neither confirmation overwrote the other's step
    assert standings_differences() == []


def test_a_merge_and_a_deal_at_the_same_moment_both_count(division, teams, scorer, admin):
    """The secretary merges a player while a table closes a game in the same division."""
    _postgres_only()
    from clabber_league.clubs.services import player_merge

    aces, bells, dads, _ = teams
    twin = dads.members.get(position=0).player
    twin.name = "T. Smith"
    twin.save()
    tom = aces.members.get(position=0).player
    play(division, dads, bells, A_WINS, user=scorer, confirm_by=admin)
    table = play(division, aces, bells, A_WINS[:3], user=scorer)

    def merge():
        player_merge(source=twin, target=tom, user=admin)

    def close():
        games.deal_record(game_id=table.pk, data=A_WINS[0], user=scorer)

    assert _run_threads([merge, close]) == []
    # Whichever went first, the numbers agree with a recomputation.
    assert standings_differences() == []
    assert TeamStanding.objects.get(team=aces).games_won == 1
    assert GameSeat.objects.filter(player=tom).count() == 2
