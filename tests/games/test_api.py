"""The games API: deals recorded idempotently, errors by field, roles and clubs kept apart."""

import pytest

from clabber_league.games.models import Deal
from tests.clients import api_client
from tests.factories import ClubFactory, MembershipFactory, UserFactory

from .conftest import made

pytestmark = pytest.mark.django_db


def _deals_url(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def test_a_scorer_records_a_deal_with_a_token(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals_url(game), {**made(), "maker_seat": 2}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["score"], body["running_totals"]) == (
        1,
        {"A": 110, "B": 52},
        {"A": 110, "B": 52},
    )
    assert body["maker_seat"] == 2


def test_a_rejected_deal_answers_400_with_errors_by_field_and_saves_nothing(game, scorer):
    bad = {"maker": "A", "trump": "hearts", "points": {"A": 100, "B": 51}, "last_trick": "A"}
    response = api_client(scorer, token=True).post(_deals_url(game), bad, format="json")
    assert response.status_code == 400
    fields = [e["field"] for e in response.json()["errors"]]
    assert any(f.startswith("points") for f in fields)
    assert Deal.objects.count() == 0


def test_the_same_idempotency_key_never_records_a_deal_twice(game, scorer):
    client = api_client(scorer, token=True)
    first = client.post(_deals_url(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    retry = client.post(_deals_url(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    # The replay is the first response: same status, same body.
    assert (first.status_code, retry.status_code) == (201, 201)
    assert first.json() == retry.json()
    assert game.deals.count() == 1


def test_recording_a_deal_costs_at_most_8_queries(game, scorer, django_assert_max_num_queries):
    # the token with the club and the caller's membership (one query), BEGIN (a savepoint
    # inside the test's transaction), the game locked (its running state: no earlier deal is
    # read), the deal (its Idempotency-Key on it: the unique index is the check), its audit
    # row, the game's totals (those three one statement on PostgreSQL), COMMIT.
    client = api_client(scorer, token=True)
    client.post(_deals_url(game), made(), format="json")  # warm the token and caches
    with django_assert_max_num_queries(8):
        response = client.post(
            _deals_url(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="second"
        )
    assert response.status_code == 201


def test_preview_scores_without_saving(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals_url(game) + "preview/", made("A", 60, last="B"), format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["outcome"], body["score"], body["next_dealer"]) == ("set", {"A": 0, "B": 102}, 1)
    assert game.deals.count() == 0


def test_a_correction_through_put_and_the_history(game, scorer):
    client = api_client(scorer, token=True)
    deal_id = client.post(_deals_url(game), made(), format="json").json()["id"]
    response = client.put(f"{_deals_url(game)}{deal_id}/", made("A", 60, last="B"), format="json")
    assert response.status_code == 200
    assert response.json()["score"] == {"A": 0, "B": 102}
    history = client.get(f"/api/clubs/{game.club.slug}/games/{game.pk}/history/").json()
    assert [r["action"] for r in history["results"]] == ["update", "create"]


def test_anonymous_users_read_a_public_club_but_cannot_write(game):
    game.club.is_public = True
    game.club.save()
    client = api_client()
    assert client.get(f"/api/clubs/{game.club.slug}/games/").status_code == 200
    assert client.post(_deals_url(game), made(), format="json").status_code in (401, 403)


def test_a_scorer_of_another_club_cannot_reach_this_clubs_game(game):
    other = ClubFactory()
    stranger = MembershipFactory(club=other, user=UserFactory(username="stranger")).user
    client = api_client(stranger, token=True)
    # by this club's URL: the club is not theirs
    assert client.get(_deals_url(game)).status_code == 404
    assert client.post(_deals_url(game), made(), format="json").status_code == 404
    # by their own club's URL with this game's id: no such game there
    url = f"/api/clubs/{other.slug}/games/{game.pk}/deals/"
    assert client.post(url, made(), format="json").status_code == 404
    assert client.get(f"/api/clubs/{other.slug}/games/{game.pk}/").status_code == 404
    assert game.deals.count() == 0


def test_starting_a_game_through_the_api(club, division, teams, scorer):
    a, b = teams
    seats = [
        a.members.all()[0].player_id,
        b.members.all()[0].player_id,
        a.members.all()[1].player_id,
        b.members.all()[1].player_id,
    ]
    response = api_client(scorer, token=True).post(
        f"/api/clubs/{club.slug}/games/",
        {"division": division.pk, "sides": {"A": a.pk, "B": b.pk}, "seats": seats},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["sides"] == {"A": a.pk, "B": b.pk}
    assert [s["side"] for s in response.json()["seats"]] == ["A", "B", "A", "B"]


def test_a_game_started_through_the_api_plays_by_its_divisions_house_rules(
    club, division, teams, scorer
):
    from clabber_league.games.models import Game
    from clabber_league.leagues.models import HouseRules

    house = HouseRules.objects.create(
        club=club, name="Short game", base="clabber", options={"target": 300}
    )
    division.house_rules = house
    division.save()
    a, b = teams
    players = [[m.player_id for m in t.members.order_by("position")] for t in (a, b)]
    response = api_client(scorer, token=True).post(
        f"/api/clubs/{club.slug}/games/",
        {
            "division": division.pk,
            "sides": {"A": a.pk, "B": b.pk},
            "seats": [players[0][0], players[1][0], players[0][1], players[1][1]],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.rules == {"name": "Short game", "base": "clabber", "options": {"target": 300}}
    assert [s.substitute for s in game.seats.order_by("seat")] == [False] * 4


def test_a_division_or_player_of_another_club_is_refused_by_field(club, division, teams, scorer):
    from tests.factories import DivisionFactory, TeamFactory

    theirs = TeamFactory(division=DivisionFactory())
    a, b = teams
    players = [[m.player_id for m in t.members.order_by("position")] for t in (a, b)]
    response = api_client(scorer, token=True).post(
        f"/api/clubs/{club.slug}/games/",
        {
            "division": theirs.division_id,
            "sides": {"A": a.pk, "B": b.pk},
            "seats": [players[0][0], players[1][0], theirs.members.first().player_id, 99999],
        },
        format="json",
    )
    assert response.status_code == 400
    fields = sorted(e["field"] for e in response.json()["errors"])
    assert fields == ["division", "seats"], response.json()


def test_a_team_of_another_club_cannot_be_used_by_id(club, division, teams, scorer):
    from tests.factories import TeamFactory

    foreign = TeamFactory()
    a, _ = teams
    response = api_client(scorer, token=True).post(
        f"/api/clubs/{club.slug}/games/",
        {"division": division.pk, "sides": {"A": a.pk, "B": foreign.pk}, "seats": []},
        format="json",
    )
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["sides.B"]


def test_the_recorded_deals_answer_is_the_deal_as_the_api_reads_it(game, scorer):
    client = api_client(scorer, token=True)
    bodies = (made(), {"passed": True}, made("B", 40, last="B", maker_seat=1))
    for n, body in enumerate(bodies):
        created = client.post(_deals_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert created.status_code == 201, created.content
        read = client.get(f"{_deals_url(game)}{created.json()['id']}/")
        assert created.json() == read.json()
