"""What recording a deal costs the database, at every position of a whole game.

A deal is written from the running state kept on the game row, so its cost does not grow
with the deals before it: the token, the club with the caller's membership, the game
locked, the deal, its audit row, the game's totals, and the transaction around them.
The bounds are production's: inside a test the request runs in the test's own transaction,
so a request without an Idempotency-Key shows no BEGIN and COMMIT of its own.
Issue 18's targets: at most 8 statements for a deal in the middle of a game, at most 14
for a deal that finishes it and so also writes the standings, leaderboards and stats: the
game's sides and seats (one query) and deals, its match's contributions, the teams'
standing rows (one upsert) and its player and partnership lines. A game of a fixture also
keeps the fixture's status and reads the fixture's other games (bench/record.py reports
the times).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clabber_league.scheduling.models import Fixture
from clabber_league.standings.services.rebuild import standings_differences
from tests.standings.conftest import start

from .conftest import made

pytestmark = pytest.mark.django_db

ALL_OF_IT = made("A", 142)  # A takes every card point: 162 a deal, the game in four


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _statements(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = call()
    return len(queries.captured_queries), response


def test_a_deal_costs_the_same_statements_first_in_the_middle_and_at_60_deals(game, scorer):
    client = _client(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    passed = {"passed": True}  # moves no score: the game goes on as long as we like
    costs = []
    for _ in range(61):
        count, response = _statements(lambda: client.post(url, passed, format="json"))
        assert response.status_code == 201
        costs.append(count)
    assert max(costs) <= 8
    assert costs[0] == costs[1] == costs[30] == costs[60]


def test_an_idempotency_key_costs_one_statement_more_than_the_deal(game, scorer):
    client = _client(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    client.post(url, made(), format="json")
    plain, _ = _statements(lambda: client.post(url, made(), format="json"))
    keyed, response = _statements(
        lambda: client.post(url, made(), format="json", HTTP_IDEMPOTENCY_KEY="one-more")
    )
    assert response.status_code == 201
    # The request's transaction (BEGIN/COMMIT; here a savepoint pair, as the test runs in
    # a transaction of its own, where the plain request needs none) and the key's row, whose
    # unique index is the check: one statement more than a deal without a key in production.
    assert plain <= 8
    assert keyed <= 9


def test_a_finishing_deal_and_a_correction_stay_within_their_bounds(game, scorer):
    client = _client(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    for _ in range(3):
        assert client.post(url, ALL_OF_IT, format="json").status_code == 201
    first = game.deals.order_by("number").first()
    correction, response = _statements(
        lambda: client.put(f"{url}{first.pk}/", made("A", 140), format="json")
    )
    assert response.status_code == 200
    assert correction <= 11
    finishing, response = _statements(lambda: client.post(url, ALL_OF_IT, format="json"))
    assert response.status_code == 201
    game.refresh_from_db()
    assert game.status == "finished"
    assert finishing <= 14 - 2  # BEGIN and COMMIT: the test's transaction here
    assert standings_differences(division=game.division) == []


def test_finishing_the_first_game_of_a_fixture_stays_within_its_bound(
    club, division, teams, scorer
):
    fixture = Fixture.objects.create(
        club=club, division=division, round_number=1, home=teams[0], away=teams[1], games_planned=2
    )
    start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=2)
    game = start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=1)
    client = _client(scorer)
    url = f"/api/clubs/{club.slug}/games/{game.pk}/deals/"
    for _ in range(3):
        assert client.post(url, ALL_OF_IT, format="json").status_code == 201
    finishing, response = _statements(lambda: client.post(url, ALL_OF_IT, format="json"))
    assert response.status_code == 201
    game.refresh_from_db()
    assert game.status == "finished"
    # The friendly game's 14, the fixture's status kept in step (its lock, its games and
    # their sides: the standings are handed that locked row) and the match's games read.
    assert finishing <= 19 - 2
    assert standings_differences(division=division) == []
