"""What recording a deal costs over the cheapest honest write, measured interleaved.

Two endpoints, both through the whole stack in one process (middleware, token
authentication, DRF, JSON parsing, PostgreSQL):

- **record**: ``POST /api/clubs/<club>/games/<id>/deals/``, the real thing: it checks the
  club access, locks the game, scores the deal with the rules engine, writes the deal, the
  game, the history row and (on a finishing deal) the standings.
- **floor**: ``POST /api/bench-floor/<id>/``, defined here in the bench and nowhere in the
  app: token authentication, ``SELECT ... FOR UPDATE`` on the game, one ``INSERT`` of a
  deal row, one ``UPDATE`` of the game, ``COMMIT``. It is what any deal write must at least
  do, written by hand.

Requests alternate (record, floor, record, floor, ...) so the disk and the machine's other
load fall on both alike; the ratio record/floor is the figure, not the absolute times.

Part 1 plays whole simulated games (deals from ``rules.simulate``) and reports mid-game
and game-finishing deals separately, and the average over whole games.
Part 2 prepares games that already hold 1, 30 and 60 deals (passed-out deals, which do
not move the score) and times one more ordinary deal in each: the cost of a deal should
not depend on how many the game already has.

Last, the CPU each kind of request took, in this process (Python) and in its PostgreSQL
backend (``/proc/<pid>/stat``, PostgreSQL on this machine): another process's load slows
both sides' clocks, but adds far less to their CPU, so on a busy machine this ratio is the
steadier one.

Targets (issue 18): record/floor at most 1.5x mid-game and 2x over whole games; the cost
at 60 deals within 10% of the cost at 1.

    .venv/bin/python bench/record.py [--games 60] [--position-games 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

import _django

DB_NAME = "clabber_league_bench_record"
_django.setup(DB_NAME)

from _machine import OtherLoad  # noqa: E402
from django.db import connection, reset_queries, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import clear_url_caches, path  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402
from rest_framework.views import APIView  # noqa: E402

from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.config import urls as root_urls  # noqa: E402
from clabber_league.games import services  # noqa: E402
from clabber_league.leagues.models import Division, Season, Team, TeamMember  # noqa: E402
from clabber_league.rules import get_ruleset  # noqa: E402
from clabber_league.rules.simulate import simulate_game  # noqa: E402

POSITIONS = (1, 30, 60)


# --- the floor: the cheapest honest deal write, written by hand, in the bench only ----------


class FloorWrite(APIView):
    """Token auth (the project's default authentication classes), lock, insert, update."""

    permission_classes = []  # authentication still runs first; the SQL below is all

    def post(self, request, game_id: int):
        if not request.user.is_authenticated:
            return Response({"errors": [{"field": "", "message": "sign in"}]}, status=401)
        body = request.data
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT deal_count FROM games_game WHERE id = %s FOR UPDATE", [game_id])
            (count,) = cursor.fetchone()
            cursor.execute(
                "INSERT INTO games_deal (game_id, number, dealer, data, outcome, maker, score_a,"
                " score_b, running_a, running_b, result, entered_at_table, created_at, updated_at)"
                " VALUES (%s, %s, %s, %s, 'made', '', 0, 0, 0, 0, '{}', '', now(), now())",
                [game_id, count + 1, count % 4, _json(body)],
            )
            cursor.execute(
                "UPDATE games_game SET deal_count = deal_count + 1 WHERE id = %s", [game_id]
            )
        return Response({"number": count + 1}, status=201)


def _json(value) -> str:
    import json

    return json.dumps(value)


def install_floor() -> None:
    root_urls.urlpatterns.insert(0, path("api/bench-floor/<int:game_id>/", FloorWrite.as_view()))
    clear_url_caches()


# --- the league ------------------------------------------------------------------------------


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
    seats = [
        teams[0].members.all()[0].player,
        teams[1].members.all()[0].player,
        teams[0].members.all()[1].player,
        teams[1].members.all()[1].player,
    ]
    return club, user, division, teams, seats


def new_game(club, division, teams, seats):
    return services.game_start(
        club=club, division=division, sides={"A": teams[0], "B": teams[1]}, seats=seats
    )


# --- timing ----------------------------------------------------------------------------------


def backend_cpu(pid: int | None) -> float:
    """CPU seconds the PostgreSQL backend ``pid`` has used (0 where /proc cannot tell)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Pair:
    """Alternating record and floor requests, each timed on its own, with the CPU each took
    in this process (Python) and in its PostgreSQL backend: another process's load slows
    both sides' clocks, but adds far less to their CPU."""

    def __init__(self, client: APIClient, club: Club) -> None:
        self.client = client
        self.club = club
        self.key = 0
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT NULL"
            )
            (self.backend,) = cursor.fetchone()
        self.cpu_reset()

    def cpu_reset(self) -> None:
        #: per request kind: Python CPU seconds, backend CPU seconds, requests
        self.cpu = {side: [0.0, 0.0, 0] for side in ("record", "finishing", "floor")}

    def _post(self, side: str, url: str, deal: dict, **headers: str):
        cpu, backend = time.process_time(), backend_cpu(self.backend)
        start = time.perf_counter()
        response = self.client.post(url, deal, format="json", **headers)
        elapsed = time.perf_counter() - start
        kept = self.cpu[side]
        kept[0] += time.process_time() - cpu
        kept[1] += backend_cpu(self.backend) - backend
        kept[2] += 1
        assert response.status_code == 201, response.content
        return elapsed

    def cpu_per_request(self, side: str) -> tuple[float, float]:
        python, backend, count = self.cpu[side]
        return python / count, backend / count

    def record(self, game_id: int, deal: dict, *, finishing: bool = False) -> float:
        self.key += 1
        url = f"/api/clubs/{self.club.slug}/games/{game_id}/deals/"
        side = "finishing" if finishing else "record"
        return self._post(side, url, deal, HTTP_IDEMPOTENCY_KEY=f"bench-{self.key}")

    def floor(self, game_id: int, deal: dict) -> float:
        return self._post("floor", f"/api/bench-floor/{game_id}/", deal)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def statements(pair: Pair, game_id: int, deal: dict, floor_game: int) -> tuple[int, int]:
    """Statements of one record and one floor request (BEGIN/COMMIT included)."""
    with CaptureQueriesContext(connection) as real:
        pair.record(game_id, deal)
    with CaptureQueriesContext(connection) as floor:
        pair.floor(floor_game, deal)
    return len(real.captured_queries), len(floor.captured_queries)


def whole_games(pair: Pair, club, division, teams, seats, games: int, rng) -> dict:
    ruleset = get_ruleset("clabber")
    plans = []
    for _ in range(games):
        deals = simulate_game(ruleset, rng)
        real, floor = (new_game(club, division, teams, seats) for _ in range(2))
        plans.append((real, floor, deals))
    for _ in range(30):  # warm both paths: plans cached, connection open
        pair.floor(plans[0][1].pk, {"passed": True})
    pair.cpu_reset()
    mid, finishing, floor, real_all = [], [], [], []
    counts = {}
    for g, (game, floor_game, deals) in enumerate(plans):
        for i, deal in enumerate(deals):
            last = i == len(deals) - 1
            if g == 0 and (i in (0, 1) or last):
                position = "first" if i == 0 else "finishing" if last else "middle"
                counts[position] = statements(pair, game.pk, deal, floor_game.pk)
                continue
            real = pair.record(game.pk, deal, finishing=last)
            floor.append(pair.floor(floor_game.pk, deal))
            real_all.append(real)
            (finishing if last else mid).append(real)
    return {"mid": mid, "finishing": finishing, "floor": floor, "all": real_all, "counts": counts}


def by_position(pair: Pair, club, division, teams, seats, games: int, rng) -> dict:
    ruleset = get_ruleset("clabber")
    plain = []
    while len(plain) < games * len(POSITIONS):  # ordinary made deals that finish no game
        for deal in simulate_game(ruleset, rng)[:-1]:
            if not deal.get("passed") and not deal.get("renege"):
                plain.append(deal)
    prepared = {}
    for position in POSITIONS:
        prepared[position] = []
        for _ in range(games):
            game = new_game(club, division, teams, seats)
            for _ in range(position):
                services.deal_record(game_id=game.pk, data={"passed": True})
            prepared[position].append(game)
    floor_game = new_game(club, division, teams, seats)
    times = {position: [] for position in POSITIONS}
    floor = []
    for n in range(games):  # round robin over the positions, each request beside a floor one
        for position in POSITIONS:
            deal = plain.pop()
            times[position].append(pair.record(prepared[position][n].pk, deal))
            floor.append(pair.floor(floor_game.pk, deal))
    return {"times": times, "floor": floor}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="whole games in part 1")
    parser.add_argument(
        "--position-games", type=int, default=40, help="games per position in part 2"
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    install_floor()
    club, user, division, teams, seats = league()
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    pair = Pair(client, club)
    rng = random.Random(args.seed)
    reset_queries()

    print(f"database: {connection.vendor} ({DB_NAME})")
    with OtherLoad(databases=[DB_NAME]) as load:
        whole = whole_games(pair, club, division, teams, seats, args.games, rng)
        positions = by_position(pair, club, division, teams, seats, args.position_games, rng)

    floor = statistics.median(whole["floor"])
    mid = statistics.median(whole["mid"])
    finishing = statistics.median(whole["finishing"])
    mean_ratio = statistics.fmean(whole["all"]) / statistics.fmean(whole["floor"])
    print(f"\npart 1: {args.games} whole games, {len(whole['all'])} deals timed, interleaved")
    print(f"{'request':<40}{'median ms':>10}{'x floor':>9}{'target':>9}")
    print(f"{'floor write (bench only)':<40}{ms(floor):>10}{1:>9.2f}")
    print(f"{'record, mid-game deal':<40}{ms(mid):>10}{mid / floor:>9.2f}{'<= 1.5':>9}")
    print(f"{'record, game-finishing deal':<40}{ms(finishing):>10}{finishing / floor:>9.2f}")
    print(f"{'record, mean over whole games':<40}{'':>10}{mean_ratio:>9.2f}{'<= 2':>9}")
    counts = whole["counts"]
    print(
        "statements per request (record / floor, BEGIN and COMMIT included): "
        + ", ".join(f"{k} {r} / {f}" for k, (r, f) in counts.items())
        + "  (targets: mid-game <= 8, finishing <= 14)"
    )

    pfloor = statistics.median(positions["floor"])
    first = statistics.median(positions["times"][POSITIONS[0]])
    print(f"\npart 2: {args.position_games} games per position, interleaved round robin")
    print(f"{'deals already in the game':<40}{'median ms':>10}{'x floor':>9}{'x at 1':>9}")
    for position in POSITIONS:
        t = statistics.median(positions["times"][position])
        print(f"{position:<40}{ms(t):>10}{t / pfloor:>9.2f}{t / first:>9.2f}")
    print(f"{'floor write':<40}{ms(pfloor):>10}{1:>9.2f}   (target: x at 1 within 1.10)")
    floor_cpu = pair.cpu_per_request("floor")
    print("\nCPU per request, both parts (this process's Python + its PostgreSQL backend):")
    print(f"{'request':<40}{'Python ms':>10}{'backend':>9}{'x floor':>9}")
    for side, label in (
        ("floor", "floor write"),
        ("record", "record, mid-game"),
        ("finishing", "record, game-finishing"),
    ):
        python, backend = pair.cpu_per_request(side)
        ratio = (python + backend) / sum(floor_cpu)
        print(f"{label:<40}{ms(python):>10}{ms(backend):>9}{ratio:>9.2f}")
    print()
    print(load.summary())


if __name__ == "__main__":
    main()
