"""How fast deals are recorded through the API, against a trivial authenticated endpoint.

Both go through the whole stack in one process (middleware, token authentication, DRF,
the database) on PostgreSQL. Recording a deal locks the game, re-scores the game's deals
with the rules engine and writes the deal, the game and the audit row; the trivial
endpoint (``GET /api/whoami/``) only authenticates. Their ratio is what recording costs
over the framework's floor.

    .venv/bin/python bench/record.py [--deals 2000]
"""

from __future__ import annotations

import argparse
import random
import time

import _django

_django.setup("clabber_league_bench_record")

from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.games import services  # noqa: E402
from clabber_league.leagues.models import Division, Season, Team, TeamMember  # noqa: E402
from clabber_league.rules import get_ruleset  # noqa: E402
from clabber_league.rules.simulate import simulate_game  # noqa: E402


def league():
    from django.contrib.auth import get_user_model

    club = Club.objects.create(name="Bench Club", slug="bench")
    user = get_user_model().objects.create_user("bench", password="x")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    season = Season.objects.create(club=club, name="S", slug="s", start_date="2026-09-01")
    division = Division.objects.create(club=club, season=season, name="D", slug="d")
    teams = []
    for t in range(2):
        team = Team.objects.create(club=club, division=division, name=f"T{t}")
        for p in range(2):
            player = Player.objects.create(club=club, name=f"P{t}{p}")
            TeamMember.objects.create(team=team, player=player, position=p)
        teams.append(team)
    return club, user, division, teams


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()

    club, user, division, (a, b) = league()
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    ruleset = get_ruleset("clabber")
    rng = random.Random(7)
    seats = [
        a.members.all()[0].player,
        b.members.all()[0].player,
        a.members.all()[1].player,
        b.members.all()[1].player,
    ]

    games = []
    total = 0
    while total < args.deals:
        deals = simulate_game(ruleset, rng)
        game = services.game_start(
            club=club, division=division, sides={"A": a, "B": b}, seats=seats
        )
        games.append((game, deals))
        total += len(deals)

    for _ in range(50):  # warm up both paths
        client.get("/api/whoami/")

    start = time.perf_counter()
    recorded = 0
    for game, deals in games:
        url = f"/api/clubs/{club.slug}/games/{game.pk}/deals/"
        for i, deal in enumerate(deals):
            response = client.post(url, deal, format="json", HTTP_IDEMPOTENCY_KEY=f"{game.pk}-{i}")
            assert response.status_code == 201, response.content
            recorded += 1
    record_seconds = time.perf_counter() - start

    start = time.perf_counter()
    for _ in range(recorded):
        response = client.get("/api/whoami/")
        assert response.status_code == 200
    trivial_seconds = time.perf_counter() - start

    record_rate = recorded / record_seconds
    trivial_rate = recorded / trivial_seconds
    from django.db import connection

    print(f"database: {connection.vendor}; {recorded} deals in {len(games)} games")
    print(f"{'endpoint':<42}{'requests/s':>12}{'ms/request':>12}")
    print(
        f"{'POST .../games/<id>/deals/ (record)':<42}{record_rate:>12.0f}"
        f"{1000 / record_rate:>12.2f}"
    )
    print(
        f"{'GET /api/whoami/ (trivial, authenticated)':<42}{trivial_rate:>12.0f}"
        f"{1000 / trivial_rate:>12.2f}"
    )
    print(f"ratio trivial/record: {trivial_rate / record_rate:.2f}x")


if __name__ == "__main__":
    main()
