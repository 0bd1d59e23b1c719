"""Conflicts with what is stored answer 409, everywhere, with the one error body naming the
field, and write nothing: a name or slug already taken, a run already going, a game or a
dispute already done, a state that forbids the change. Invalid input is still 400 (and
wins when a request is both), and who may do a thing is 403.

(Cases tested beside their app: a second schedule run, a retry of a finished run, a table
or team booked that night, a decided fixture played again, a full game, the last admin,
an invitation revoked twice, a login linked twice: tests/scheduling, tests/games,
tests/clubs, tests/members.)"""

import pytest
from django.db import IntegrityError

from clabber_league.clubs.models import Player
from clabber_league.core.api import DUPLICATE, exception_handler
from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.leagues import services as league_services
from clabber_league.leagues.models import HouseRules, Season, Team, Venue
from clabber_league.members import services as member_services
from clabber_league.members.models import Dispute
from clabber_league.scheduling.api import CONFIG_EXISTS
from clabber_league.scheduling.models import ScheduleConfig
from tests.factories import PlayerFactory, SeasonFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db


def _url(club, path: str) -> str:
    return f"/api/clubs/{club.slug}/{path}"


def _conflict(response, field: str, message: str) -> None:
    assert response.status_code == 409, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert (body["status"], body["code"]) == (409, "conflict")
    assert body["errors"] == [{"field": field, "message": message}]


def _finished(game, client):
    for _ in range(4):  # 152 a deal for A: 608 to 40
        url = _url(game.club, f"games/{game.pk}/deals/")
        assert client.post(url, made("A", 142), format="json").status_code == 201
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# --- names and slugs already taken ------------------------------------------------------


def test_a_season_slug_taken_is_409(club, admin, api_client_for):
    SeasonFactory(club=club, slug="winter")
    body = {"name": "Winter again", "slug": "winter", "start_date": "2027-01-04"}
    response = api_client_for(admin).post(_url(club, "seasons/"), body, format="json")
    _conflict(response, "slug", league_services.SEASON_SLUG_TAKEN)
    assert Season.objects.filter(club=club, name="Winter again").count() == 0


def test_a_division_slug_taken_in_its_season_is_409(club, division, admin, api_client_for):
    body = {"season": division.season_id, "name": "Second", "slug": division.slug}
    response = api_client_for(admin).post(_url(club, "divisions/"), body, format="json")
    _conflict(response, "slug", league_services.DIVISION_SLUG_TAKEN)
    # moving another division onto the slug is the same conflict
    other = league_services.division_create(season=division.season, name="Other")
    response = api_client_for(admin).patch(
        _url(club, f"divisions/{other.pk}/"), {"slug": division.slug}, format="json"
    )
    _conflict(response, "slug", league_services.DIVISION_SLUG_TAKEN)


def test_a_team_name_taken_in_its_division_is_409(club, division, teams, admin, api_client_for):
    players = [PlayerFactory(club=club).pk, PlayerFactory(club=club).pk]
    body = {"division": division.pk, "name": teams[0].name, "players": players}
    response = api_client_for(admin).post(_url(club, "teams/"), body, format="json")
    _conflict(response, "name", league_services.TEAM_NAME_TAKEN)
    assert Team.objects.filter(division=division).count() == 2


def test_a_house_rules_name_taken_is_409(club, admin, api_client_for):
    body = {"name": "Thursday", "base": "clabber", "options": {}}
    assert (
        api_client_for(admin).post(_url(club, "house-rules/"), body, format="json").status_code
        == 201
    )
    response = api_client_for(admin).post(_url(club, "house-rules/"), body, format="json")
    _conflict(response, "name", league_services.HOUSE_RULES_NAME_TAKEN)
    assert HouseRules.objects.filter(club=club).count() == 1


def test_a_venue_name_taken_is_409(club, admin, api_client_for):
    body = {"name": "The Hall", "tables": 4}
    assert api_client_for(admin).post(_url(club, "venues/"), body, format="json").status_code == 201
    response = api_client_for(admin).post(_url(club, "venues/"), body, format="json")
    _conflict(response, "name", league_services.VENUE_NAME_TAKEN)
    assert Venue.objects.filter(club=club).count() == 1


def test_a_second_schedule_config_for_a_division_is_409(club, division, admin, api_client_for):
    body = {"division": division.pk, "weekday": 0, "start_date": "2027-01-04"}
    assert (
        api_client_for(admin).post(_url(club, "schedule-configs/"), body, format="json").status_code
        == 201
    )
    response = api_client_for(admin).post(_url(club, "schedule-configs/"), body, format="json")
    _conflict(response, "division", CONFIG_EXISTS)
    assert ScheduleConfig.objects.filter(division=division).count() == 1


def test_invalid_input_beside_a_conflict_is_400_naming_both(club, admin, api_client_for):
    SeasonFactory(club=club, slug="winter")
    body = {"name": "W", "slug": "winter", "start_date": "2027-01-04", "end_date": "2026-01-01"}
    response = api_client_for(admin).post(_url(club, "seasons/"), body, format="json")
    assert response.status_code == 400, response.content
    assert {e["field"] for e in response.json()["errors"]} == {"end_date", "slug"}


# --- a state that forbids the change ----------------------------------------------------


def test_the_rule_set_of_a_division_with_games_is_409(club, division, game, admin, api_client_for):
    url = _url(club, f"divisions/{division.pk}/")
    response = api_client_for(admin).patch(url, {"ruleset": "clabber-cummings"}, format="json")
    _conflict(response, "ruleset", league_services.RULES_FIXED)
    division.refresh_from_db()
    assert division.ruleset == "clabber"


def test_confirming_a_game_at_the_table_is_409(club, game, admin, api_client_for):
    response = api_client_for(admin).post(_url(club, f"games/{game.pk}/confirm/"))
    _conflict(response, "game", game_services.GAME_NOT_FINISHED)


def test_confirming_a_confirmed_game_and_adding_to_it_are_409(
    club, game, scorer, admin, api_client_for
):
    _finished(game, api_client_for(scorer))
    confirm = _url(club, f"games/{game.pk}/confirm/")
    assert api_client_for(admin).post(confirm).status_code == 200
    _conflict(api_client_for(admin).post(confirm), "game", game_services.GAME_ALREADY_CONFIRMED)
    deals = _url(club, f"games/{game.pk}/deals/")
    response = api_client_for(scorer).post(deals, made("A", 142), format="json")
    _conflict(response, "game", game_services.GAME_CONFIRMED)
    assert game.deals.count() == 4


def test_a_deal_for_a_finished_game_is_409(club, game, scorer, api_client_for):
    _finished(game, api_client_for(scorer))
    response = api_client_for(scorer).post(
        _url(club, f"games/{game.pk}/deals/"), made("A", 142), format="json"
    )
    _conflict(response, "game", game_services.GAME_FINISHED)
    assert game.deals.count() == 4


def test_a_dispute_twice_and_a_resolved_dispute_resolved_again_are_409(
    club, game, scorer, admin, api_client_for
):
    url = _url(club, f"games/{game.pk}/handover/dispute/")
    early = api_client_for(scorer).post(url, {"reason": "Not done yet"}, format="json")
    _conflict(early, "game", member_services.DISPUTE_NOT_FINISHED)
    _finished(game, api_client_for(scorer))
    first = api_client_for(scorer).post(url, {"reason": "Deal 3 is wrong"}, format="json")
    assert first.status_code == 201, first.content
    again = api_client_for(scorer).post(url, {"reason": "Still wrong"}, format="json")
    _conflict(again, "game", member_services.DISPUTE_OPEN)
    assert Dispute.objects.filter(game=game).count() == 1
    resolve = _url(club, f"disputes/{first.json()['id']}/resolve/")
    assert (
        api_client_for(admin).post(resolve, {"resolution": "Checked"}, format="json").status_code
        == 200
    )
    twice = api_client_for(admin).post(resolve, {"resolution": "Again"}, format="json")
    _conflict(twice, "dispute", member_services.DISPUTE_RESOLVED)


def test_who_may_confirm_is_403_not_a_conflict(club, game, scorer, api_client_for):
    _finished(game, api_client_for(scorer))
    seated = game.seats.order_by("seat").first().player
    seated.user = scorer
    seated.save()
    response = api_client_for(scorer).post(_url(club, f"games/{game.pk}/confirm/"))
    assert response.status_code == 403, response.content
    assert response.json()["errors"][0]["field"] == "game"


# --- a race lost on a unique constraint -------------------------------------------------


def test_a_unique_constraint_hit_by_a_race_is_409_not_500(club):
    with pytest.raises(IntegrityError) as caught:
        Player.objects.bulk_create([Player(club=club, name="Twin"), Player(club=club, name="Twin")])
    response = exception_handler(caught.value, {})
    assert response.status_code == 409
    assert response.data["errors"] == [{"field": "", "message": DUPLICATE}]
    assert (response.data["code"], response.data["type"]) == (
        "duplicate",
        "/api/docs/errors/#duplicate",
    )


def test_another_integrity_error_is_still_a_500(club):
    response = exception_handler(IntegrityError("NOT NULL constraint failed: x.y"), {})
    assert response.status_code == 500
