"""What one request of the load test costs in CPU, measured without a quiet machine.

``bench/load.py`` measures latency under load, which a shared machine disturbs; this bench
measures the work: the same four requests (start a game for a fixture, record a deal, read
the standings through the API and as the page), served in this process by the production
WSGI application (production settings, the whole middleware stack, ``REDIS_URL`` unset as
in the load test) on a PostgreSQL database of its own. For each type it prints the CPU
seconds the Python side took per request (``time.process_time``, which another process's
load does not add to), the CPU of the PostgreSQL backend that served them (its
``/proc/<pid>/stat``) and the queries per request; then a cProfile of the whole mix, by the
layers of the serving stack, and the functions that take the most time of their own.

The CPU's speed on this shared machine changes from minute to minute (the same code has
taken twice the CPU an hour later), so a fixed piece of pure Python runs after every request
too, outside its timing: one game of Clabber simulated by the rules engine, the same seed
each time. Each request type's CPU is also given in those units (``units``): the figure to
compare between two runs, of two versions of the code, made at different moments.

    .venv/bin/python bench/load_profile.py [--requests 100] [--users 50] [--top 25]
                                           [--no-profile]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

DB_NAME = "clabber_league_bench_load_profile"
STATIC_ROOT = Path("/tmp") / "clabber-league-bench-load-static"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--requests", type=int, default=100, help="requests of the rarest types (x8 in all)"
    )
    parser.add_argument("--users", type=int, default=50, help="tables (scorers) taking turns")
    parser.add_argument("--top", type=int, default=25, help="functions listed by own time")
    parser.add_argument("--no-profile", action="store_true", help="CPU figures only")
    parser.add_argument(
        "--profile-only",
        choices=["start", "deal", "api", "page"],
        help="profile only this type of request (the figures still cover the whole mix)",
    )
    parser.add_argument("--seed", type=int, default=7)
    return parser.parse_args()


def setup_environment() -> None:
    import secrets
    import tempfile

    os.environ.pop("REDIS_URL", None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="clabber_league.config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="false",
        DJANGO_STATIC_ROOT=str(Path(tempfile.gettempdir()) / "clabber-league-bench-load-static"),
        DJANGO_LOG_LEVEL="WARNING",
        # As clabber_league/config/wsgi.py sets it for gunicorn.
        DATABASE_STATEMENT_TIMEOUT_MS="15000",
    )


class Caller:
    """Calls the WSGI application as gunicorn does, minus parsing HTTP."""

    def __init__(self, application) -> None:
        self.application = application

    def __call__(self, method: str, path: str, body: dict | None = None, token: str = "") -> tuple:
        data = json.dumps(body).encode() if body is not None else b""
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_USER_AGENT": "load-profile",
            "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Token {token}"
        status: list[str] = []

        def start_response(line, headers, exc_info=None):
            status.append(line)

        result = self.application(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return int(status[0].split()[0]), content


def backend_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0
    return int(fields[11]) + int(fields[12])


def main() -> None:
    args = parse_args()
    setup_environment()
    import _django
    from _machine import OtherLoad

    url = _django.setup(DB_NAME)
    plan_args = argparse.Namespace(users=args.users, divisions=1, games=40, seed=args.seed)
    print(f"setting up {args.users} scorers ...")
    plan = load.build_plan(plan_args)
    load.collect_static(url)

    from django.core.wsgi import get_wsgi_application
    from django.db import connection, connections

    application = get_wsgi_application()
    call = Caller(application)
    club = plan["club"]
    users = plan["users"]

    queries = [0]

    def count(execute, sql, params, many, context):
        queries[0] += 1
        return execute(sql, params, many, context)

    # One table's state: its game, the deals still to post, its fixtures.
    tables = [
        {"me": me, "game": None, "deals": [], "next": 0, "games": list(me["games"]),
         "fixtures": list(me["fixtures"])}
        for me in users
    ]  # fmt: skip

    def start(table) -> tuple:
        me = table["me"]
        body = {"division": me["division"], "sides": me["sides"], "seats": me["seats"]}
        if table["fixtures"]:
            body["fixture"] = table["fixtures"].pop(0)
        status, content = call("POST", f"/api/clubs/{club}/games/", body, me["token"])
        assert status == 201, (status, content[:300])
        table["game"] = json.loads(content)["id"]
        table["deals"] = table["games"][0]
        table["games"].append(table["games"].pop(0))
        table["next"] = 0
        return status, content

    def record(table) -> tuple:
        if table["game"] is None or table["next"] >= len(table["deals"]):
            start(table)
        me = table["me"]
        deal = table["deals"][table["next"]]
        table["next"] += 1
        path = f"/api/clubs/{club}/games/{table['game']}/deals/"
        status, content = call("POST", path, deal, me["token"])
        assert status == 201, (status, content[:300])
        return status, content

    def read_api(table) -> tuple:
        me = table["me"]
        status, content = call(
            "GET", f"/api/clubs/{club}/standings/{me['division']}/", token=me["token"]
        )
        assert status == 200, (status, content[:300])
        return status, content

    def read_page(table) -> tuple:
        me = table["me"]
        status, content = call("GET", f"/clubs/{club}/standings/divisions/{me['division']}/")
        assert status == 200, (status, content[:300])
        return status, content

    START, RECORD, READ_API, READ_PAGE = names = load.NAMES
    only = (
        dict(zip(("start", "deal", "api", "page"), names, strict=True))[args.profile_only]
        if args.profile_only
        else None
    )
    # Warm up: every request type a few times (URLconf, templates, serializers loaded), at
    # the warm-up table of the plan.
    warm = {"me": plan["warm_up"], "game": None, "deals": [], "next": 0,
            "games": list(plan["warm_up"]["games"]), "fixtures": []}  # fmt: skip
    for _ in range(10):
        for fn in (start, record, read_api, read_page):
            fn(warm)

    def backend() -> int:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0]

    from clabber_league.rules import get_ruleset
    from clabber_league.rules.simulate import simulate_game

    ruleset = get_ruleset("clabber")

    def calibration() -> float:
        """CPU seconds of the fixed piece of pure Python: the CPU's speed of the moment."""
        import random

        rng = random.Random(1)
        start = time.process_time()
        simulate_game(ruleset, rng)
        return time.process_time() - start

    def measure(profile=None) -> dict:
        """The load test's mix: each table in turn takes its next action as a locust user
        does (start a game, its deals one by one, every ``read_every``-th action the
        standings, by turns API and page), each request timed on its own."""
        figures: dict = {}
        cpu = dict.fromkeys(names, 0.0)
        db = dict.fromkeys(names, 0)
        wall = dict.fromkeys(names, 0.0)
        done = dict.fromkeys(names, 0)
        counted = dict.fromkeys(names, 0)
        unit = [0.0, 0]  # calibration CPU seconds, runs
        pid = backend()
        with connection.execute_wrapper(count):
            for i in range(args.requests * 8):
                table = tables[i % len(tables)]
                table["actions"] = table.get("actions", 0) + 1
                if table["actions"] % 4 == 0:
                    table["reads"] = table.get("reads", 0) + 1
                    name, fn = (
                        (READ_API, read_api) if table["reads"] % 2 else (READ_PAGE, read_page)
                    )
                elif table["game"] is None or table["next"] >= len(table["deals"]):
                    name, fn = START, start
                else:
                    name, fn = RECORD, record
                queries[0] = 0
                db_from = backend_ticks(pid)
                profiled = profile is not None and (only is None or name == only)
                if profiled:
                    profile.enable()
                cpu_from, wall_from = time.process_time(), time.perf_counter()
                fn(table)
                cpu[name] += time.process_time() - cpu_from
                wall[name] += time.perf_counter() - wall_from
                if profiled:
                    profile.disable()
                ticks = backend_ticks(pid)
                if ticks >= db_from:
                    db[name] += ticks - db_from
                else:  # the connection was renewed (CONN_MAX_AGE): a new backend
                    pid = backend()
                done[name] += 1
                counted[name] += queries[0]
                if profile is None:
                    unit[0] += calibration()
                    unit[1] += 1
        unit_ms = 1000 * unit[0] / unit[1] if unit[1] else None
        figures["unit_ms"] = unit_ms
        hz = os.sysconf("SC_CLK_TCK")
        return figures | {
            name: {
                "n": done[name],
                "cpu_ms": 1000 * cpu[name] / done[name],
                "db_ms": 1000 * db[name] / hz / done[name],
                "wall_ms": 1000 * wall[name] / done[name],
                "queries": counted[name] / done[name],
                "units": 1000 * cpu[name] / done[name] / unit_ms if unit_ms else None,
            }
            for name in names
            if done[name]
        }

    with OtherLoad(databases=[DB_NAME]) as other:
        figures = measure()
    unit_ms = figures.pop("unit_ms")
    print("\nper request, the load test's mix (production settings, in process):")
    header = (
        f"{'request type':<42}{'requests':>9}{'CPU ms':>9}{'units':>7}{'PG ms':>8}"
        f"{'wall ms':>9}{'queries':>9}"
    )
    print(header)
    print("-" * len(header))
    total = {"n": 0, "cpu": 0.0}
    for name, row in figures.items():
        print(
            f"{name:<42}{row['n']:>9}{row['cpu_ms']:>9.2f}{row['units']:>7.2f}{row['db_ms']:>8.2f}"
            f"{row['wall_ms']:>9.2f}{row['queries']:>9.1f}"
        )
        total["n"] += row["n"]
        total["cpu"] += row["n"] * row["cpu_ms"]
    mean = total["cpu"] / total["n"]
    print(f"{'the mix, mean':<42}{total['n']:>9}{mean:>9.2f}{mean / unit_ms:>7.2f}")
    print(
        f"units: the request's CPU over that of one game of Clabber simulated by the rules "
        f"engine (fixed seed), run after every request: {unit_ms:.3f} ms on average here"
    )
    print(other.summary())
    print(
        "CPU ms: this process (Django, DRF, psycopg's client side), unaffected by other "
        "processes' load but by the CPU's clock; PG ms: the PostgreSQL backend (10 ms ticks)."
    )
    if args.no_profile:
        return
    import cProfile
    import pstats

    # CPU time, not wall time: waiting on PostgreSQL or for a core (a shared machine)
    # counts for nothing.
    profile = cProfile.Profile(time.process_time)
    profiled = measure(profile)
    profiled.pop("unit_ms")
    stats = pstats.Stats(profile)
    total = sum(row[2] for row in stats.stats.values())  # own time of every function
    layers = {
        "psycopg (the driver's client side)": ("psycopg",),
        "Django ORM (building and compiling queries)": ("django/db/",),
        "templates (django/template)": ("django/template/",),
        "DRF (rest_framework)": ("rest_framework/",),
        "middleware and handler (django/middleware, core/handlers, contrib)": (
            "django/middleware/",
            "django/core/handlers/",
            "django/contrib/",
            "csp/",
            "axes/",
            "allauth/",
            "whitenoise/",
        ),
        "clabber_league": ("clabber_league/",),
    }
    own: dict[str, float] = dict.fromkeys([*layers, "other"], 0.0)
    for (filename, _line, _name), row in stats.stats.items():
        for layer, needles in layers.items():
            if any(n in filename for n in needles):
                own[layer] += row[2]
                break
        else:
            own["other"] += row[2]
    n = sum(row["n"] for name, row in profiled.items() if only is None or name == only)
    print(
        f"\ncProfile (CPU time) of {'the mix' if only is None else only} ({n} requests), "
        "own time by layer:"
    )
    for layer, seconds in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {layer:<70}{1000 * seconds / n:>7.2f} ms/request {seconds / total:>5.0%}")
    print(f"\nthe {args.top} functions with the most time of their own:")
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(args.top)
    print("\n".join(out.getvalue().splitlines()[6:]))
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(60)
    print("\nby cumulative time:")
    print("\n".join(out.getvalue().splitlines()[6:]))
    connections.close_all()


if __name__ == "__main__":
    main()
