"""League setup services: the rules every season, division and team write obeys."""

import datetime as dt

import pytest

from clabber_league.leagues import services
from clabber_league.leagues.models import HouseRules
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db

START = dt.date(2027, 1, 4)


def _refused(call, **kwargs) -> list[dict[str, str]]:
    with pytest.raises(services.LeagueError) as caught:
        call(**kwargs)
    return caught.value.errors


def test_season_setup_creates_a_season_a_division_and_a_team_of_named_players(club):
    season = services.season_create(club=club, name="Winter 2027", start_date=START, points_win=3)
    assert season.slug == "winter-2027"
    division = services.division_create(season=season, name="Tuesday", games_per_fixture=3)
    team = services.team_register(division=division, name="Mules", player_names=["Ada", "Bud"])
    assert [m.player.name for m in team.members.order_by("position")] == ["Ada", "Bud"]
    errors = _refused(services.team_register, division=division, name="Solo", player_names=["Cy"])
    assert errors == [
        {
            "field": "players",
            "message": services.TEAM_SIZE.format(ruleset="clabber", size=2, given=1),
        }
    ]


def test_a_new_player_name_joins_the_club_an_old_one_is_reused(division):
    PlayerFactory(club=division.club, name="Ada")
    team = services.team_register(division=division, name="A team", player_names=["Ada", "Eve"])
    assert {m.player.name for m in team.members.all()} == {"Ada", "Eve"}
    assert division.club.players.filter(name="Ada").count() == 1


def test_points_must_rank_a_win_over_a_tie_over_a_loss(club):
    errors = _refused(
        services.season_create, club=club, name="Odd", start_date=START, points_win=0, points_loss=1
    )
    assert errors == [{"field": "points_win", "message": services.POINTS_ORDER}]


def test_a_season_ends_after_it_starts_and_every_mistake_is_named_at_once(club):
    errors = _refused(
        services.season_create,
        club=club,
        name="",
        start_date=START,
        end_date=START - dt.timedelta(days=1),
        points_win=1,
        points_tie=2,
    )
    assert {e["field"] for e in errors} == {"name", "end_date", "points_win"}


def test_a_season_update_keeps_what_is_not_given_and_checks_the_result(club):
    season = services.season_create(club=club, name="Autumn", start_date=START)
    services.season_update(season=season, points_win=3)
    season.refresh_from_db()
    assert (season.points_win, season.points_tie, season.name) == (3, 1, "Autumn")
    errors = _refused(services.season_update, season=season, points_loss=4)
    assert errors[0]["message"] == services.POINTS_ORDER
    season.refresh_from_db()
    assert season.points_loss == 0  # nothing written


def test_a_slug_is_unique_in_its_club_and_made_unique_when_not_given(club):
    first = services.season_create(club=club, name="Spring", start_date=START)
    second = services.season_create(club=club, name="Spring", start_date=START)
    assert (first.slug, second.slug) == ("spring", "spring-2")
    errors = _refused(
        services.season_create, club=club, name="Other", start_date=START, slug="spring"
    )
    assert errors == [{"field": "slug", "message": services.SEASON_SLUG_TAKEN}]
    assert services.season_create(club=ClubFactory(), name="Spring", start_date=START).slug == (
        "spring"
    )


def test_a_division_plays_1_to_9_games_a_fixture_of_a_known_rule_set(club):
    season = services.season_create(club=club, name="Autumn", start_date=START)
    errors = _refused(
        services.division_create, season=season, name="D", ruleset="poker", games_per_fixture=0
    )
    assert errors == [
        {"field": "ruleset", "message": services.UNKNOWN_RULESET},
        {"field": "games_per_fixture", "message": services.GAMES_PER_FIXTURE},
    ]
    division = services.division_create(season=season, name="D")
    errors = _refused(services.division_update, division=division, games_per_fixture=10)
    assert errors == [{"field": "games_per_fixture", "message": services.GAMES_PER_FIXTURE}]


def test_a_division_cannot_use_another_clubs_house_rules(club):
    season = services.season_create(club=club, name="Autumn", start_date=START)
    theirs = HouseRules.objects.create(club=ClubFactory(), name="Theirs", base="clabber")
    errors = _refused(services.division_create, season=season, name="D", house_rules=theirs)
    assert errors == [{"field": "house_rules", "message": services.HOUSE_RULES_OTHER_CLUB}]


def test_a_divisions_rule_set_is_fixed_once_games_are_played(game):
    division = game.division
    errors = _refused(services.division_update, division=division, ruleset="klaberjass")
    assert errors == [{"field": "ruleset", "message": services.RULES_FIXED}]
    services.division_update(division=division, name="Renamed")  # the rest can change
    division.refresh_from_db()
    assert division.name == "Renamed" and division.ruleset == "clabber"


def test_house_rules_are_checked_by_the_rules_engine(club):
    rules = services.house_rules_save(club=club, name="Ours", base="clabber", options={})
    assert rules.pk and rules.base == "clabber"
    errors = _refused(services.house_rules_save, club=club, name="Ours", base="nonsense")
    assert {e["field"] for e in errors} == {"name", "base"}
    errors = _refused(
        services.house_rules_save, club=club, name="List", base="clabber", options=[1]
    )
    assert errors == [{"field": "options", "message": services.OPTIONS_OBJECT}]


def test_a_team_update_checks_the_players_like_a_registration(division, teams):
    mules, dads = teams
    other_club_player = PlayerFactory()
    errors = _refused(
        services.team_update,
        team=mules,
        name=dads.name,
        players=[mules.members.first().player, other_club_player],
    )
    assert {e["message"] for e in errors} == {
        services.TEAM_NAME_TAKEN,
        services.PLAYER_OTHER_CLUB,
    }
    players = [m.player for m in dads.members.order_by("position")]
    services.team_update(team=mules, name="Mules II", players=players[::-1])
    assert [m.player for m in mules.members.order_by("position")] == players[::-1]
