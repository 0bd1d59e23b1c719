"""Starting a game: the division first, its fixtures a round at a time, who actually sits
where (substitutes too) and who deals first; the page and the API through one service.
"""

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from clabber_league.games import selectors, services
from clabber_league.games.models import Game, GameSeat
from clabber_league.scheduling.models import Fixture
from tests.factories import ClubFactory, DivisionFactory, PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


def _roster(team):
    return [m.player for m in team.members.order_by("position")]


def _seats(a, b):
    (a1, a2), (b1, b2) = _roster(a)[:2], _roster(b)[:2]
    return [a1, b1, a2, b2]


def _new_url(club, query: str = "") -> str:
    return reverse("games:new", kwargs={"club_slug": club.slug}) + query


# --- the service -------------------------------------------------------------------------


def test_a_club_player_off_the_teams_sits_in_as_a_substitute(club, division, teams):
    a, b = teams
    sub = PlayerFactory(club=club, name="Sam Sub")
    seats = _seats(a, b)
    seats[3] = sub
    game = services.game_start(club=club, division=division, sides={"A": a, "B": b}, seats=seats)
    assert [(s.seat, s.side, s.player, s.substitute) for s in game.seats.order_by("seat")] == [
        (0, "A", seats[0], False),
        (1, "B", seats[1], False),
        (2, "A", seats[2], False),
        (3, "B", sub, True),
    ]


def test_a_player_of_the_other_side_cannot_sit_for_this_one(club, division, teams):
    a, b = teams
    seats = _seats(a, b)
    intruder = _roster(a)[1]
    seats[2] = PlayerFactory(club=club)
    seats[3] = intruder  # side B's seat, taken by a Mules player
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, division=division, sides={"A": a, "B": b}, seats=seats)
    assert caught.value.errors == [
        {
            "field": "seats[3]",
            "message": services.SEAT_OTHER_SIDE.format(
                player=intruder.name, team="Mules", side_team="Dads"
            ),
        }
    ]
    assert not Game.objects.exists() and not GameSeat.objects.exists()


def test_a_player_of_another_club_cannot_sit_even_as_a_substitute(club, division, teams):
    a, b = teams
    seats = _seats(a, b)
    seats[1] = PlayerFactory(club=ClubFactory())
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, division=division, sides={"A": a, "B": b}, seats=seats)
    assert caught.value.errors == [{"field": "seats[1]", "message": services.PLAYER_OTHER_CLUB}]


def test_the_first_dealer_is_given_as_the_player_in_the_seat(club, division, teams):
    a, b = teams
    seats = _seats(a, b)
    game = services.game_start(
        club=club,
        division=division,
        sides={"A": a, "B": b},
        seats=seats,
        first_dealer_player=seats[2],
    )
    assert game.first_dealer == 2
    assert services.next_dealer_seat(game=game) == 2


def test_a_first_dealer_not_at_the_table_or_naming_another_seat_is_refused(club, division, teams):
    a, b = teams
    seats = _seats(a, b)
    start = {"club": club, "division": division, "sides": {"A": a, "B": b}, "seats": seats}
    with pytest.raises(services.GameError) as caught:
        services.game_start(**start, first_dealer_player=PlayerFactory(club=club))
    assert caught.value.errors == [
        {"field": "first_dealer_player", "message": services.FIRST_DEALER_NOT_SEATED}
    ]
    with pytest.raises(services.GameError) as caught:
        services.game_start(**start, first_dealer=1, first_dealer_player=seats[2])
    assert caught.value.errors == [
        {
            "field": "first_dealer_player",
            "message": services.FIRST_DEALER_DISAGREE.format(seat=1, player_seat=2),
        }
    ]
    assert not Game.objects.exists()


# --- the API: the old body works as before; substitutes and the dealer by player ----------


def test_the_api_takes_the_old_body_unchanged(club, division, teams, scorer, api_client_for):
    a, b = teams
    body = {"division": division.pk, "sides": {"A": a.pk, "B": b.pk}}
    body["seats"] = [p.pk for p in _seats(a, b)]
    response = api_client_for(scorer).post(f"/api/clubs/{club.slug}/games/", body, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["first_dealer"] == 0
    assert [s["substitute"] for s in game["seats"]] == [False] * 4


def test_the_api_records_a_substitute_and_the_first_dealer_by_player(
    club, division, teams, scorer, api_client_for
):
    a, b = teams
    seats = _seats(a, b)
    sub = PlayerFactory(club=club, name="Sam Sub")
    body = {
        "division": division.pk,
        "sides": {"A": a.pk, "B": b.pk},
        "seats": [seats[0].pk, seats[1].pk, seats[2].pk, sub.pk],
        "first_dealer_player": sub.pk,
    }
    response = api_client_for(scorer).post(f"/api/clubs/{club.slug}/games/", body, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["first_dealer"] == 3
    assert game["seats"][3] == {
        "seat": 3,
        "side": "B",
        "player": sub.pk,
        "name": "Sam Sub",
        "substitute": True,
    }


def test_the_api_refuses_a_first_dealer_of_another_club_by_field(
    club, division, teams, scorer, api_client_for
):
    a, b = teams
    body = {
        "division": division.pk,
        "sides": {"A": a.pk, "B": b.pk},
        "seats": [p.pk for p in _seats(a, b)],
        "first_dealer_player": PlayerFactory(club=ClubFactory()).pk,
    }
    response = api_client_for(scorer).post(f"/api/clubs/{club.slug}/games/", body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["first_dealer_player"]
    assert not Game.objects.exists()


def test_the_schema_documents_the_new_fields_with_examples(client):
    schema = json.loads(
        client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content
    )
    request = schema["components"]["schemas"]["GameCreateRequest"]["properties"]
    assert "first_dealer_player" in request and "first_dealer" in request
    assert "substitute" in schema["components"]["schemas"]["GameSeat"]["properties"]
    operation = schema["paths"]["/api/clubs/{club_slug}/games/"]["post"]
    examples = operation["requestBody"]["content"]["application/json"]["examples"]
    bodies = [e["value"] for e in examples.values()]
    assert any("first_dealer_player" in b for b in bodies)
    assert any("first_dealer" in b and "first_dealer_player" not in b for b in bodies)


# --- the page: division, then a round of fixtures, then the seats --------------------------


def test_the_page_asks_for_the_division_first_when_the_club_has_several(client, club, scorer):
    first = DivisionFactory(club=club, ruleset="clabber", name="Monday")
    second = DivisionFactory(club=club, season=first.season, ruleset="clabber", name="Friday")
    client.force_login(scorer)
    page = client.get(_new_url(club))
    assert page.context["step"] == "division"
    html = page.content.decode()
    assert f"?division={first.pk}" in html and f"?division={second.pk}" in html


def test_a_club_with_one_division_goes_straight_to_its_fixtures(client, club, division, scorer):
    client.force_login(scorer)
    page = client.get(_new_url(club))
    assert (page.context["step"], page.context["division"]) == ("match", division)


@pytest.fixture
def league(club, division):
    """Eight teams, four fixtures a round, three rounds from today on, one round past."""
    teams = [TeamFactory(division=division, name=f"Team {n}") for n in range(8)]
    today = timezone.localdate()
    for number, date in (
        (1, today - dt.timedelta(days=7)),
        (2, today),
        (3, today + dt.timedelta(days=7)),
    ):
        for table in range(4):
            Fixture.objects.create(
                club=club,
                division=division,
                round_number=number,
                home=teams[2 * table],
                away=teams[2 * table + 1],
                date=date,
                table=table + 1,
            )
    return teams


def test_the_page_shows_the_round_of_the_next_fixture_and_links_the_rounds_about_it(
    client, club, division, scorer, league
):
    client.force_login(scorer)
    page = client.get(_new_url(club, f"?division={division.pk}"))
    pick = page.context["pick"]
    assert pick.round_number == 2  # today's round, not the overdue one
    assert {f.round_number for f in pick.page} == {2} and len(pick.page) == 4
    assert (pick.previous_round, pick.next_round) == (1, 3)
    page = client.get(_new_url(club, f"?division={division.pk}&round=1"))
    assert {f.round_number for f in page.context["pick"].page} == {1}


def test_the_page_finds_a_teams_fixtures_by_name(client, club, division, scorer, league):
    client.force_login(scorer)
    page = client.get(_new_url(club, f"?division={division.pk}&q=team 3"))
    found = list(page.context["pick"].page)
    assert len(found) == 3 and all(league[3] in (f.home, f.away) for f in found)


def test_two_teams_outside_the_schedule_are_chosen_on_a_page_of_their_own(
    client, club, division, scorer, league
):
    client.force_login(scorer)
    fixtures = client.get(_new_url(club, f"?division={division.pk}")).content.decode()
    assert "Team 7</option>" not in fixtures  # no choice of every team on the fixtures' page
    page = client.get(_new_url(club, f"?division={division.pk}&outside=1"))
    assert page.context["step"] == "outside"
    assert "Team 7</option>" in page.content.decode()
    same = client.get(
        _new_url(club, f"?division={division.pk}&team_a={league[0].pk}&team_b={league[0].pk}")
    )
    assert same.context["teams_form"].non_field_errors() == ["A team cannot play itself."]


def test_a_round_larger_than_a_page_is_paged(club, division):
    teams = [TeamFactory(division=division, members=0) for _ in range(2 * 30)]
    Fixture.objects.bulk_create(
        Fixture(
            club=club, division=division, round_number=1, home=teams[2 * i], away=teams[2 * i + 1]
        )
        for i in range(30)
    )
    pick = selectors.fixtures_to_start(division=division)
    assert len(pick.page) == selectors.START_FIXTURES_PER_PAGE
    assert pick.page.paginator.count == 30
    rest = selectors.fixtures_to_start(division=division, page=2)
    assert len(rest.page) == 30 - selectors.START_FIXTURES_PER_PAGE


def _seat_post(seats, first_dealer=0, subs=None) -> dict:
    """The seats form's body: a player per seat (None: empty), ``subs`` by seat number."""
    body = {f"seat_{i}": (p.pk if p else "") for i, p in enumerate(seats)}
    body.update({f"sub_{i}": name for i, name in (subs or {}).items()})
    body["first_dealer"] = first_dealer
    return body


def test_the_scorer_seats_a_substitute_by_name_and_chooses_the_first_dealer(
    client, club, division, teams, scorer
):
    a, b = teams
    PlayerFactory(club=club, name="Sam Sub")
    seats = _seats(a, b)
    url = _new_url(club, f"?division={division.pk}&team_a={a.pk}&team_b={b.pk}")
    client.force_login(scorer)
    page = client.get(url)
    dealer = [str(label) for _, label in page.context["form"].fields["first_dealer"].choices]
    assert dealer == [f"Seat {i + 1}: {p.name}" for i, p in enumerate(seats)]  # by name

    # Seats 1 and 3 swapped, seat 4 a substitute typed in lower case; seat 3 deals first.
    body = _seat_post([seats[2], seats[1], seats[0], None], first_dealer=2, subs={3: "sam sub"})
    response = client.post(url, body)
    assert response.status_code == 302, response.context["form"].errors
    game = Game.objects.get()
    assert [(s.player.name, s.substitute) for s in game.seats.order_by("seat")] == [
        (seats[2].name, False),
        (seats[1].name, False),
        (seats[0].name, False),
        ("Sam Sub", True),
    ]
    assert game.first_dealer == 2


def test_an_unknown_substitute_or_an_empty_seat_is_named_beside_its_seat(
    client, club, division, teams, scorer
):
    a, b = teams
    seats = _seats(a, b)
    url = _new_url(club, f"?division={division.pk}&team_a={a.pk}&team_b={b.pk}")
    client.force_login(scorer)
    response = client.post(
        url, _seat_post([seats[0], None, seats[2], seats[3]], subs={3: "Nobody"})
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["seat_1"] == ["Choose who sits here, or give a substitute's name."]
    assert errors["sub_3"] == ["No player of the club is called \u201cNobody\u201d."]
    assert not Game.objects.exists()


def test_the_services_refusal_shows_beside_the_seat(client, club, division, teams, scorer):
    a, b = teams
    seats = _seats(a, b)
    intruder = _roster(a)[0]
    PlayerFactory(club=club, name="Ann Other")
    url = _new_url(club, f"?division={division.pk}&team_a={a.pk}&team_b={b.pk}")
    client.force_login(scorer)
    response = client.post(
        url,
        _seat_post([None, seats[1], seats[2], None], subs={0: "Ann Other", 3: intruder.name}),
    )
    assert response.status_code == 200
    assert response.context["form"].errors["sub_3"] == [
        services.SEAT_OTHER_SIDE.format(player=intruder.name, team="Mules", side_team="Dads")
    ]
    assert not Game.objects.exists()
