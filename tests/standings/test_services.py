"""The standings aggregates, kept in step with deals, corrections and confirmations."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import (
    PlayerGameStat,
    RatingChange,
    StandingContribution,
    TeamStanding,
)
from clabber_league.standings.services.rebuild import standings_differences

from .conftest import A_WINS, B_WINS, made, play, start

pytestmark = pytest.mark.django_db


def standing(team) -> dict:
    row = TeamStanding.objects.filter(team=team).first()
    return row.counters() if row else {}


def test_a_finished_game_counts_at_once_and_is_provisional_until_confirmed(
    division, teams, scorer, admin
):
    aces, bells = teams[:2]
    game = play(division, aces, bells, A_WINS, user=scorer)
    assert game.status == "finished"
    assert standing(aces) == {
        **dict.fromkeys(TeamStanding.COUNTERS, 0),
        "matches_played": 1,
        "matches_won": 1,
        "games_played": 1,
        "games_won": 1,
        "games_unconfirmed": 1,
        "points_for": 608,
        "points_against": 40,
        "deals": 4,
    }
    assert standing(bells)["matches_lost"] == 1
    games.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))
    assert standing(aces)["games_unconfirmed"] == 0
    assert standing(aces)["points_for"] == 608
    assert standings_differences() == []


def test_a_game_at_the_table_counts_for_nothing(division, teams, scorer):
    aces, bells = teams[:2]
    play(division, aces, bells, A_WINS[:3], user=scorer)  # A 456: not finished
    assert not TeamStanding.objects.exists()
    assert not StandingContribution.objects.exists()
    assert not PlayerGameStat.objects.exists()


def test_sets_are_inflicted_by_the_defenders_and_suffered_by_the_makers(division, teams, scorer):
    aces, bells = teams[:2]
    set_deal = made("A", 60, last="B")  # A named trump with 60 against 102: set, XX
    play(division, aces, bells, [set_deal, *B_WINS[:3]], user=scorer)
    assert (standing(aces)["sets_suffered"], standing(aces)["sets_inflicted"]) == (1, 0)
    assert (standing(bells)["sets_suffered"], standing(bells)["sets_inflicted"]) == (0, 1)
    assert (standing(bells)["points_for"], standing(bells)["points_against"]) == (558, 30)


def test_a_correction_that_reopens_a_finished_game_takes_it_out_again(division, teams, scorer):
    aces, bells = teams[:2]
    game = play(division, aces, bells, A_WINS, user=scorer)
    assert standing(aces)["games_won"] == 1
    games.deal_delete(deal=game.deals.get(number=4), user=scorer)  # back to 456: in progress
    assert standing(aces) == dict.fromkeys(TeamStanding.COUNTERS, 0)
    assert not StandingContribution.objects.exists()
    assert not PlayerGameStat.objects.filter(game=game).exists()
    games.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    assert standing(aces)["games_won"] == 1
    assert standings_differences() == []


def test_a_correction_that_changes_the_winner_moves_the_result(division, teams, scorer):
    aces, bells = teams[:2]
    game = play(division, aces, bells, [*A_WINS[:3], made("B", 10, last="B")], user=scorer)
    # 456 + 10 = 466 for A after four deals: still open; a fifth finishes it for A.
    games.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    assert standing(aces)["games_won"] == 1
    first = game.deals.get(number=1)
    games.deal_correct(deal=first, data=made("A", 60, last="B"), user=scorer)  # now set
    game.refresh_from_db()
    assert game.status == "in_progress"  # 0 + 152*3 = 456: below the target again
    assert standing(aces) == dict.fromkeys(TeamStanding.COUNTERS, 0)
    assert standings_differences() == []


def test_a_fixture_result_counts_once_all_its_games_count(division, teams, scorer):
    aces, bells = teams[:2]
    division.season.points_win, division.season.points_tie = 3, 1
    division.season.save()
    fixture = Fixture.objects.create(
        club=division.club,
        division=division,
        round_number=1,
        home=aces,
        away=bells,
        games_planned=2,
    )
    play(division, aces, bells, A_WINS, user=scorer, fixture=fixture, number=1)
    assert standing(aces)["games_won"] == 1
    assert standing(aces)["matches_played"] == 0  # one of two games: the match is not over
    play(division, aces, bells, B_WINS, user=scorer, fixture=fixture, number=2)
    a, b = standing(aces), standing(bells)
    assert (a["matches_played"], a["matches_tied"], a["games_won"], a["games_lost"]) == (1, 1, 1, 1)
    assert (b["matches_tied"], b["points_for"], b["points_against"]) == (1, 648, 648)
    contribution = StandingContribution.objects.get(team=aces)
    assert (contribution.match_key, contribution.opponent, contribution.round_number) == (
        f"f{fixture.pk}",
        bells,
        1,
    )
    assert standings_differences() == []


def test_confirming_a_game_rates_its_players_once(division, teams, scorer, admin):
    aces, bells = teams[:2]
    game = play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    changes = {c.player_id: c for c in RatingChange.objects.filter(game=game)}
    assert len(changes) == 4
    winners = {m.player_id for m in aces.members.all()}
    for player_id, change in changes.items():
        assert (change.mu > change.mu_before) == (player_id in winners)
        assert change.sigma < change.sigma_before
    games.game_rescore(game_id=game.pk)  # the hook runs again: no second rating
    assert RatingChange.objects.filter(game=game).count() == 4


def test_standings_check_lists_differences_exits_non_zero_and_fixes(division, teams, scorer):
    aces, bells = teams[:2]
    play(division, aces, bells, A_WINS, user=scorer)
    call_command("standings_check")  # agrees: returns quietly
    TeamStanding.objects.filter(team=aces).update(points_for=1, sets_inflicted=5)
    with pytest.raises(CommandError, match="2 differences"):
        call_command("standings_check")
    call_command("standings_check", "--fix")
    assert standing(aces)["points_for"] == 608
    assert standings_differences() == []


def test_recording_at_the_table_costs_the_standings_no_query(
    division, teams, scorer, django_assert_num_queries
):
    from clabber_league.standings.services.write_through import standings_game_changed

    game = start(division, *teams[:2], user=scorer)
    games.deal_record(game_id=game.pk, data=made(), user=scorer)
    game = type(game).objects.get(pk=game.pk)
    with django_assert_num_queries(0):
        standings_game_changed(game=game, status_before=game.status)


def test_a_rebuild_replays_the_ratings_in_the_order_games_were_confirmed(
    division, teams, scorer, admin
):
    from clabber_league.standings.models import PlayerRating

    aces, bells, dads, _ = teams
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    play(division, aces, dads, B_WINS, user=scorer, confirm_by=admin)
    before = {r.player_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}
    history = list(RatingChange.objects.order_by("at", "id").values_list("player_id", "mu"))
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    games = sorted(division.games.values_list("pk", flat=True))
    assert sorted(standings_differences()) == [f"game {g}: confirmed but not rated" for g in games]
    call_command("standings_check", "--fix")
    after = {r.player_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}
    assert after.keys() == before.keys()
    for player_id, (mu, sigma, played) in before.items():
        assert after[player_id][0] == pytest.approx(mu)
        assert after[player_id][1] == pytest.approx(sigma)
        assert after[player_id][2] == played
    replayed = list(RatingChange.objects.order_by("at", "id").values_list("player_id", "mu"))
    assert [p for p, _ in replayed] == [p for p, _ in history]


def _fixture(division, home, away, *, planned=2, round_number=1):
    return Fixture.objects.create(
        club=division.club,
        division=division,
        round_number=round_number,
        home=home,
        away=away,
        games_planned=planned,
    )


def test_a_forfeit_counts_in_the_table_as_a_match_won_with_every_planned_game(
    division, teams, scorer
):
    from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
    from clabber_league.standings.selectors import standings_table

    aces, bells, dads, mules = teams
    division.season.points_win, division.season.points_tie, division.season.points_loss = 3, 1, 0
    division.season.save()
    fixture = _fixture(division, aces, bells, planned=2)
    fixture_forfeit(fixture=fixture, winner=bells, note="Walkover")
    a, b = standing(aces), standing(bells)
    assert (b["matches_played"], b["matches_won"], b["games_played"], b["games_won"]) == (
        1,
        1,
        2,
        2,
    )
    assert (a["matches_played"], a["matches_lost"], a["games_played"], a["games_lost"]) == (
        1,
        1,
        2,
        2,
    )
    for row in (a, b):
        assert row["points_for"] == row["points_against"] == row["deals"] == 0
        assert row["sets_inflicted"] == row["sets_suffered"] == row["games_unconfirmed"] == 0
    contribution = StandingContribution.objects.get(team=bells)
    assert (contribution.match_key, contribution.opponent, contribution.round_number) == (
        f"f{fixture.pk}",
        aces,
        1,
    )
    play(division, dads, mules, A_WINS, user=scorer)  # a game beside it: 3 points to Dads
    table = {line.name: line for line in standings_table(division=division).lines}
    assert (table["Bells"].match_points, table["Aces"].match_points) == (3, 0)
    assert (table["Dads"].match_points, table["Mules"].match_points) == (3, 0)
    assert table["Bells"].game_difference == 2 and table["Aces"].game_difference == -2
    assert standings_differences() == []


def test_a_forfeit_is_in_the_full_recomputation_and_the_rebuild(division, teams, scorer):
    from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
    from clabber_league.standings.services.rebuild import standings_rebuild

    aces, bells = teams[:2]
    fixture_forfeit(fixture=_fixture(division, aces, bells, planned=3), winner=aces)
    played = _fixture(division, aces, bells, planned=1, round_number=2)
    play(division, aces, bells, B_WINS, user=scorer, fixture=played)
    before = standing(aces), standing(bells)
    assert standings_differences() == []
    TeamStanding.objects.all().delete()
    StandingContribution.objects.all().delete()
    assert len(standings_differences()) > 0
    standings_rebuild()
    assert (standing(aces), standing(bells)) == before
    assert (before[0]["games_won"], before[0]["games_lost"], before[0]["matches_won"]) == (3, 1, 1)
    assert (before[1]["games_won"], before[1]["games_lost"], before[1]["matches_won"]) == (1, 3, 1)
    assert standings_differences() == []


def test_a_forfeit_undone_outside_the_services_is_found_and_fixed(division, teams):
    from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
    from clabber_league.standings.services.write_through import standings_fixture_changed

    aces, bells = teams[:2]
    fixture = fixture_forfeit(fixture=_fixture(division, aces, bells), winner=aces)
    Fixture.objects.filter(pk=fixture.pk).update(status="scheduled", forfeit_winner=None)
    assert any("matches_won stored 1, recomputed 0" in d for d in standings_differences())
    standings_fixture_changed(fixture=fixture)  # what a service that undoes one calls
    assert standing(aces)["matches_played"] == 0 and standing(bells)["games_lost"] == 0
    assert not StandingContribution.objects.exists()
    assert standings_differences() == []


def test_a_division_is_read_with_its_season_and_chosen_tiebreakers_only_in_its_club(
    division, django_assert_num_queries
):
    from clabber_league.leagues.models import Division
    from clabber_league.standings import selectors
    from clabber_league.standings.models import DEFAULT_TIEBREAKERS, TiebreakerRules
    from tests.factories import DivisionFactory

    with django_assert_num_queries(1):
        read = selectors.division_get(club=division.club, pk=division.pk)
        assert read.season.name == division.season.name
        assert selectors.division_tiebreakers(read) == list(DEFAULT_TIEBREAKERS)
    chosen = ["points_difference", "head_to_head"]
    TiebreakerRules.objects.create(club=division.club, division=division, tiebreakers=chosen)
    with django_assert_num_queries(1):
        read = selectors.division_get(club=division.club, pk=division.pk)
        assert selectors.division_tiebreakers(read) == chosen
    theirs = DivisionFactory()
    for pk in (theirs.pk, 2**63, 0):
        with pytest.raises(Division.DoesNotExist):
            selectors.division_get(club=division.club, pk=pk)
