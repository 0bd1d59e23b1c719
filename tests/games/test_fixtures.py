"""A game and its fixture: the New game page's fixture picker, the API and the service agree.

The rule (README, "Schedules"): a game started for a fixture counts for that fixture, in
the standings and on the schedule; a game started without one is a match of its own.
"""

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.access import access_for
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.selectors import games_by_fixture
from tests.factories import DivisionFactory, TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture(club, division, teams):
    mules, dads = teams
    return Fixture.objects.create(
        club=club,
        division=division,
        round_number=3,
        home=dads,
        away=mules,
        date=dt.date(2026, 10, 5),
        games_planned=2,
    )


def _seats(a, b):
    a_players = [m.player for m in a.members.order_by("position")]
    b_players = [m.player for m in b.members.order_by("position")]
    return [a_players[0], b_players[0], a_players[1], b_players[1]]


def _new_url(club) -> str:
    return reverse("games:new", kwargs={"club_slug": club.slug})


def test_the_service_refuses_a_game_whose_sides_are_not_the_fixtures(club, division, fixture):
    home, away = fixture.home, fixture.away
    with pytest.raises(services.GameError) as caught:
        services.game_start(
            club=club,
            division=division,
            sides={"A": away, "B": home},  # swapped: home is side A
            seats=_seats(away, home),
            fixture=fixture,
        )
    assert caught.value.errors == [
        {
            "field": "sides",
            "message": services.FIXTURE_TEAMS.format(home=home.name, away=away.name),
        }
    ]
    assert not Game.objects.exists()


def test_the_service_refuses_a_fixture_of_another_division_or_with_a_result(
    club, division, fixture
):
    home, away = fixture.home, fixture.away
    other = DivisionFactory(club=club, season=division.season, ruleset="clabber")
    with pytest.raises(services.GameError) as caught:
        services.game_start(
            club=club,
            division=other,
            sides={"A": TeamFactory(division=other), "B": TeamFactory(division=other)},
            seats=[],
            fixture=fixture,
        )
    assert {"field": "fixture", "message": services.FIXTURE_OTHER_DIVISION} in caught.value.errors
    Fixture.objects.filter(pk=fixture.pk).update(status="forfeit", forfeit_winner=home)
    with pytest.raises(services.GameError) as caught:
        services.game_start(
            club=club,
            division=division,
            sides={"A": home, "B": away},
            seats=_seats(home, away),
            fixture=fixture,
        )
    assert caught.value.errors == [{"field": "fixture", "message": services.FIXTURE_HAS_RESULT}]


def _seat_post(seats, first_dealer=0, **subs) -> dict:
    body = {f"seat_{i}": p.pk for i, p in enumerate(seats)}
    body.update({f"sub_{i}": name for i, name in subs.items()})
    body["first_dealer"] = first_dealer
    return body


def test_the_new_game_page_offers_the_divisions_unplayed_fixtures_and_fills_the_sides(
    client, club, division, fixture, scorer
):
    forfeited = Fixture.objects.create(
        club=club,
        division=division,
        round_number=3,
        home=fixture.away,
        away=fixture.home,
        status="forfeit",
        forfeit_winner=fixture.away,
    )
    client.force_login(scorer)
    page = client.get(_new_url(club) + f"?division={division.pk}")
    assert page.context["step"] == "match"
    offered = list(page.context["pick"].page)
    assert offered == [fixture]  # not the forfeited one
    assert forfeited not in offered
    assert "Dads v Mules" in page.content.decode()

    url = _new_url(club) + f"?division={division.pk}&fixture={fixture.pk}"
    page = client.get(url)
    assert page.context["step"] == "seats"
    form = page.context["form"]
    # The home team's players sit in seats 1 and 3 (side A), the away team's in 2 and 4.
    home, away = fixture.home, fixture.away
    assert form["seat_0"].initial == str(_seats(home, away)[0].pk)
    assert form["seat_1"].initial == str(_seats(home, away)[1].pk)
    response = client.post(url, _seat_post(_seats(home, away)))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.fixture_id == fixture.pk
    assert {s.side: s.team_id for s in game.sides.all()} == {
        "A": fixture.home_id,
        "B": fixture.away_id,
    }
    assert games_by_fixture(division=division)[fixture.pk][0].id == game.pk


def test_a_fixture_of_another_division_is_not_offered(client, club, division, fixture, scorer):
    other = DivisionFactory(club=club, season=division.season, ruleset="clabber")
    client.force_login(scorer)
    page = client.get(_new_url(club) + f"?division={other.pk}&fixture={fixture.pk}")
    assert page.context["step"] == "match"
    assert page.context["match_error"] == "No such fixture in this division."
    assert not Game.objects.exists()


def test_a_game_without_a_fixture_still_needs_both_sides(client, club, division, scorer, teams):
    client.force_login(scorer)
    page = client.get(_new_url(club) + f"?division={division.pk}&team_a={teams[0].pk}")
    assert page.context["step"] == "outside"  # side B is missing: still choosing the teams
    assert page.context["teams_form"].errors["team_b"]
    url = _new_url(club) + f"?division={division.pk}&team_a={teams[0].pk}&team_b={teams[1].pk}"
    response = client.post(url, _seat_post(_seats(*teams)))
    assert response.status_code == 302
    assert Game.objects.get().fixture_id is None


def test_the_api_checks_the_fixture_the_same_way(club, division, fixture, scorer):
    client = APIClient()
    client.force_login(scorer)
    home, away = fixture.home, fixture.away
    url = f"/api/clubs/{club.slug}/games/"
    body = {
        "division": division.pk,
        "fixture": fixture.pk,
        "sides": {"A": away.pk, "B": home.pk},
        "seats": [p.pk for p in _seats(away, home)],
    }
    response = client.post(url, body, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "sides", "message": services.FIXTURE_TEAMS.format(home="Dads", away="Mules")}
    ]
    body.update(sides={"A": home.pk, "B": away.pk}, seats=[p.pk for p in _seats(home, away)])
    response = client.post(url, body, format="json")
    assert response.status_code == 201
    assert response.json()["fixture"] == fixture.pk


def _play_and_confirm(club, fixture, scorer, admin, number):
    from .conftest import made

    home, away = fixture.home, fixture.away
    game = services.game_start(
        club=club,
        division=fixture.division,
        sides={"A": home, "B": away},
        seats=_seats(home, away),
        fixture=fixture,
        number=number,
        user=scorer,
    )
    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    return services.game_confirm(
        game=game, user=admin, access=access_for(club=game.club, user=admin)
    )


def test_a_decided_fixture_cannot_be_played_again_on_the_page_or_the_api(
    client, club, division, fixture, scorer, admin
):
    _play_and_confirm(club, fixture, scorer, admin, 1)
    _play_and_confirm(club, fixture, scorer, admin, 2)  # both planned games are in
    message = services.FIXTURE_DECIDED.format(planned=2, played=2)

    fixture.refresh_from_db()
    assert fixture.status == "played"  # in the transaction of the game that decided it
    client.force_login(scorer)
    listed = client.get(_new_url(club) + f"?division={division.pk}")
    assert fixture not in list(listed.context["pick"].page)  # a played fixture is not offered
    page = client.post(
        _new_url(club) + f"?division={division.pk}&fixture={fixture.pk}",
        _seat_post(_seats(fixture.home, fixture.away)),
    )
    assert page.status_code == 200  # the form again, with the service's reason
    assert message in page.context["form"].non_field_errors()

    api = APIClient()
    api.force_login(scorer)
    home, away = fixture.home, fixture.away
    response = api.post(
        f"/api/clubs/{club.slug}/games/",
        {
            "division": division.pk,
            "fixture": fixture.pk,
            "sides": {"A": home.pk, "B": away.pk},
            "seats": [p.pk for p in _seats(home, away)],
            "number": 3,
        },
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["errors"] == [{"field": "fixture", "message": message}]
    assert Game.objects.filter(fixture=fixture).count() == 2


def test_a_fixture_with_a_planned_game_left_takes_its_next_game(club, fixture, scorer, admin):
    _play_and_confirm(club, fixture, scorer, admin, 1)
    second = _play_and_confirm(club, fixture, scorer, admin, 2)
    assert second.fixture_id == fixture.pk


def test_starting_a_game_for_a_fixture_takes_at_most_13_queries(club, division, fixture, scorer):
    # The token with the club and the caller's membership, the division (with its house
    # rules), the fixture, the teams with their players, the seated players, whether the
    # home team is an inter-club team with rules of its own (games.hooks.fixture_rules); in the
    # transaction (a savepoint inside the test's): the fixture locked, then its games in
    # progress and played counted (after the lock, so that a scorer starting it at the same
    # moment is seen), the game, its sides, its seats. Nothing written is read back.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    token, _ = Token.objects.get_or_create(user=scorer)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    home, away = fixture.home, fixture.away
    seats = _seats(home, away)
    body = {
        "division": division.pk,
        "fixture": fixture.pk,
        "sides": {"A": home.pk, "B": away.pk},
        "seats": [p.pk for p in seats],
        "first_dealer_player": seats[1].pk,
    }
    with CaptureQueriesContext(connection) as captured:
        response = api.post(f"/api/clubs/{club.slug}/games/", body, format="json")
    assert response.status_code == 201, response.content
    assert len(captured) <= 13, "\n".join(q["sql"] for q in captured.captured_queries)
    game = Game.objects.get()
    read_back = APIClient()
    read_back.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    # The answer is the game as a read of it gives it.
    assert response.json() == read_back.get(f"/api/clubs/{club.slug}/games/{game.pk}/").json()
    assert response.json()["first_dealer"] == 1
