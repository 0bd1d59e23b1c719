"""What recording a deal costs the database, at every position of a whole game, for the
request as a phone sends it: with an ``Idempotency-Key``.

A deal is written from the running state kept on the game row, so its cost does not grow
with the deals before it: the token with the club and the caller's membership (one query),
BEGIN, the game locked, the deal (whose own unique key is the retry check: no separate
row), its audit row, the game's totals, COMMIT. Inside a test the request runs in the test's own
transaction, where the keyed request's savepoint and its release stand for production's
BEGIN and COMMIT, so the counts below are production's.
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


def _statements(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = call()
    return len(queries.captured_queries), response


class Phone:
    """Posts as a phone does: every request with a key of its own."""

    def __init__(self, user) -> None:
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        self.sent = 0

    def send(self, method: str, url: str, body: dict, *, key: bool = True):
        self.sent += 1
        headers = {"HTTP_IDEMPOTENCY_KEY": f"phone-{self.sent}"} if key else {}
        return getattr(self.client, method)(url, body, format="json", **headers)


def test_a_deal_costs_the_same_statements_first_in_the_middle_and_at_60_deals(game, scorer):
    phone = Phone(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    passed = {"passed": True}  # moves no score: the game goes on as long as we like
    costs = []
    for _ in range(61):
        count, response = _statements(lambda: phone.send("post", url, passed))
        assert response.status_code == 201
        costs.append(count)
    assert max(costs) <= 8
    if connection.vendor == "postgresql":
        # The deal, its audit row and the game's totals are one statement there, the token
        # comes with the club and membership: one round trip fewer than bench/record.py's
        # floor (token, lock, insert, update in a BEGIN).
        assert max(costs) <= 5
    assert costs[0] == costs[1] == costs[30] == costs[60]


def test_an_idempotency_key_costs_no_statement_of_its_own(game, scorer):
    phone = Phone(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    phone.send("post", url, made())
    plain, _ = _statements(lambda: phone.send("post", url, made(), key=False))
    keyed, response = _statements(lambda: phone.send("post", url, made()))
    assert response.status_code == 201
    # The keyed request's only extra statements here are its savepoint and release: the
    # BEGIN and COMMIT every request has in production (the test's transaction spares the
    # plain one them). The deal's own unique key is the check, no row of its own.
    assert keyed == plain + 2
    assert keyed <= 8


def test_a_retry_costs_no_more_than_the_deal(game, scorer):
    phone = Phone(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    first = phone.send("post", url, made())
    retry, response = _statements(
        lambda: phone.client.post(url, made(), format="json", HTTP_IDEMPOTENCY_KEY="phone-1")
    )
    assert (response.status_code, response.json()) == (201, first.json())
    assert retry <= 8
    assert game.deals.count() == 1


def test_a_finishing_deal_and_a_correction_stay_within_their_bounds(game, scorer):
    phone = Phone(scorer)
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    for _ in range(3):
        assert phone.send("post", url, ALL_OF_IT).status_code == 201
    first = game.deals.order_by("number").first()
    correction, response = _statements(
        lambda: phone.send("put", f"{url}{first.pk}/", made("A", 140))
    )
    assert response.status_code == 200
    # A correction re-reads the game's deals (every later one is re-scored) and keeps its
    # key in a row of its own (games.replay: its answer must survive later corrections).
    assert correction <= 14
    finishing, response = _statements(lambda: phone.send("post", url, ALL_OF_IT))
    assert response.status_code == 201
    game.refresh_from_db()
    assert game.status == "finished"
    assert finishing <= 14
    assert standings_differences(division=game.division) == []


def test_finishing_the_first_game_of_a_fixture_stays_within_its_bound(
    club, division, teams, scorer
):
    fixture = Fixture.objects.create(
        club=club, division=division, round_number=1, home=teams[0], away=teams[1], games_planned=2
    )
    start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=2)
    game = start(division, teams[0], teams[1], user=scorer, fixture=fixture, number=1)
    phone = Phone(scorer)
    url = f"/api/clubs/{club.slug}/games/{game.pk}/deals/"
    for _ in range(3):
        assert phone.send("post", url, ALL_OF_IT).status_code == 201
    finishing, response = _statements(lambda: phone.send("post", url, ALL_OF_IT))
    assert response.status_code == 201
    game.refresh_from_db()
    assert game.status == "finished"
    # The friendly game's 14, the fixture's status kept in step (its lock, its games and
    # their sides: the standings are handed that locked row) and the match's games read.
    assert finishing <= 19
    assert standings_differences(division=division) == []
