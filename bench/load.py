"""Load test: 50 scorers recording deals and reading standings, against gunicorn and PostgreSQL.

Everything is on this machine's loopback and the run is bounded (``--users`` virtual users
for ``--duration`` seconds); it stops by itself. In order:

1. a PostgreSQL database of its own (``BENCH_DATABASE_URL``, default
   ``postgres://postgres@127.0.0.1:5432/clabber_league_bench_load``) is dropped, created and
   migrated; a public club, one season, one division (``--divisions`` spreads the tables
   over more) with two teams of two players per virtual user (a table each, so no two
   tables share a team), and one scorer with an API token per virtual user;
2. the deals of whole games are simulated beforehand (``rules.simulate.simulate_game``), so
   the load generator spends no CPU on the rules;
3. ``collectstatic`` for the production settings (their manifest storage must know every
   file a page names), kept in the temporary folder between runs; then gunicorn
   (``clabber_league.config.wsgi:application``, production settings, a throwaway secret
   key, no HTTPS redirect, ``REDIS_URL`` unset: recording deals and reading standings
   queue no Celery task, so no broker is involved and the shared Redis is left alone) on a
   free port of 127.0.0.1 with docker/Dockerfile's options (gthread, keep-alive 5 s,
   max-requests 1000, the application preloaded), ``--workers`` x ``--threads`` (4 x 4
   for two cores), waited for on ``/healthz`` and warmed up with every request type at a
   table of its own;
4. locust (as a library, in a child process: gevent patches the process it runs in) with
   one user per scorer. A user behaves like the scorer of a table: it starts a game
   (``POST /api/clubs/<club>/games/``), posts the game's deals one by one
   (``POST .../games/<id>/deals/`` with an ``Idempotency-Key``), starts the next game
   when one is finished, and every ``--read-every`` actions reads its division's
   standings instead, by turns the API (``GET /api/clubs/<club>/standings/<division>/``,
   with its token) and the page a phone at the next table shows
   (``GET /clubs/<club>/standings/divisions/<division>/``, anonymously: the club is public).
   Between two actions it waits ``--think-min`` to ``--think-max`` seconds (0.5 to 2 by
   default). A real table records a deal every minute or two; at 0.5-2 s each virtual
   user is some 50 tables at once, so 50 users offer about 40 requests a second, the deal
   rate of a few thousand tables: a stress margin over any league night, and enough whole
   games (about six deals each) in 60 s that finishing games, which update the standings
   aggregates, are part of the mix;
5. gunicorn is stopped and two tables printed: requests, failures, p50 / p95 / p99 / max
   (exact, from every response time) and requests per second per request type and
   overall, as the client saw them and as time inside gunicorn (its access log); how many
   requests each worker served; how busy the CPUs were before and during the load, and
   the CPU that other processes took, sampled all through the run (``_machine.OtherLoad``:
   the run is marked DISTURBED above 10%; ``--wait-idle`` waits for a quiet moment first);
   and whether the target (p95 under 100 ms at the client, no failure) was met. The exit
   status is 0 when it was, 1 when not.

Every game a user starts is for a fixture of its own (home side A, one game planned), so
that the fixture's lock, its result and the match's standings rows are under load too;
a user who has played all its fixtures goes on with games outside the schedule.

``--saturation 50,100,150,200,300`` finds the saturation point instead: the same server is
loaded with each number of users in turn (``--duration`` seconds each) up to the first
whose p95 crosses 100 ms or that fails a request; a table of every step follows (the
target: at least 150 users). The exit status is 0 when the point is at 150 users or more.

    .venv/bin/python bench/load.py [--users 50] [--duration 60] [--workers 4] [--threads 4]
                                   [--divisions 1] [--wait-idle SECONDS] [--json PATH]
                                   [--saturation 50,100,150,200,300]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = "clabber_league_bench_load"
TARGET_P95_MS = 100.0

START = "POST games/ (start a game)"
RECORD = "POST games/<id>/deals/ (record a deal)"
READ_API = "GET api standings/<division>/"
READ_PAGE = "GET page standings/divisions/<division>/"
NAMES = [START, RECORD, READ_API, READ_PAGE]
# gunicorn's access log, one line a request: method, path, status, microseconds in gunicorn,
# the worker's process id.
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s %(p)s"


def request_name(method: str, path: str) -> str | None:
    if method == "POST" and path.endswith("/deals/"):
        return RECORD
    if method == "POST" and path.endswith("/games/"):
        return START
    if method == "GET" and path.startswith("/api/") and "/standings/" in path:
        return READ_API
    if method == "GET" and "/standings/divisions/" in path:
        return READ_PAGE
    return None


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50, help="virtual users (tables)")
    parser.add_argument("--spawn-rate", type=float, default=10, help="users started per second")
    parser.add_argument("--duration", type=float, default=60, help="seconds of load")
    parser.add_argument("--think-min", type=float, default=0.5, help="seconds between actions")
    parser.add_argument("--think-max", type=float, default=2.0, help="seconds between actions")
    parser.add_argument(
        "--read-every", type=int, default=4, help="every Nth action reads the standings"
    )
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="gthread threads per worker")
    parser.add_argument(
        "--divisions", type=int, default=1, help="spread the tables over this many divisions"
    )
    parser.add_argument("--games", type=int, default=20, help="games simulated per user")
    parser.add_argument(
        "--json", metavar="PATH", help="also write every sample (type, ms, ok, s from start) here"
    )
    parser.add_argument(
        "--wait-idle",
        type=float,
        default=0,
        metavar="SECONDS",
        help="on a shared machine: wait up to this long for the CPUs to be idle before the load",
    )
    parser.add_argument(
        "--saturation",
        metavar="USERS",
        help=(
            "find the saturation point instead: comma-separated user counts (e.g. "
            "50,100,150,200,300), each loaded for --duration seconds on the same server, "
            "up to the first whose p95 crosses 100 ms or that fails a request"
        ),
    )
    parser.add_argument(
        "--redis-outage",
        action="store_true",
        help=(
            "give gunicorn a Redis of the bench's own (REDIS_URL, on a free port), stop it a "
            "third of the way through the load and start it again at two thirds; report the "
            "failures by request type before, during and after the outage"
        ),
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--locust-child", nargs=2, metavar=("PLAN", "RESULTS"), help=argparse.SUPPRESS
    )
    return parser.parse_args()


# --- the league and the plan (orchestrator, Django on the test settings) ----------------------


def build_plan(args: argparse.Namespace) -> dict:
    import datetime
    import random

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from clabber_league.clubs.models import Club, Membership, Player, Role
    from clabber_league.leagues.models import Division, Season, Team, TeamMember
    from clabber_league.rules import get_ruleset
    from clabber_league.rules.simulate import simulate_game
    from clabber_league.scheduling.models import Fixture

    club = Club.objects.create(name="Load Club", slug="load", is_public=True)
    season = Season.objects.create(
        club=club, name="S", slug="s", start_date=datetime.date(2026, 9, 1)
    )
    divisions = [
        Division.objects.create(club=club, season=season, name=f"D{d}", slug=f"d{d}")
        for d in range(args.divisions)
    ]
    ruleset = get_ruleset(divisions[0].rules_spec())
    rng = random.Random(args.seed)
    users = []
    for u in range(args.users + 1):  # the last table is for warming the server up
        user = get_user_model().objects.create_user(f"scorer{u}", password=None)
        Membership.objects.create(club=club, user=user, role=Role.SCORER)
        token = Token.objects.create(user=user)
        division = divisions[u % len(divisions)]
        teams, players = [], []
        for t in range(2):
            team = Team.objects.create(club=club, division=division, name=f"Table {u} {'AB'[t]}")
            for p in range(2):
                player = Player.objects.create(club=club, name=f"Player {u}{'AB'[t]}{p}")
                TeamMember.objects.create(team=team, player=player, position=p)
                players.append(player.pk)
            teams.append(team.pk)
        # One fixture a game, home side A: the games count for the league, so the
        # fixture's result, the match and its lock are under load too.
        fixtures = Fixture.objects.bulk_create(
            Fixture(
                club=club,
                division=division,
                round_number=r + 1,
                home_id=teams[0],
                away_id=teams[1],
                date=season.start_date,
                games_planned=1,
            )
            for r in range(args.games)
        )
        users.append(
            {
                "division": division.pk,
                "token": token.key,
                "fixtures": [f.pk for f in fixtures],
                "sides": {"A": teams[0], "B": teams[1]},
                # Seats clockwise: 0 and 2 are side A, 1 and 3 side B.
                "seats": [players[0], players[2], players[1], players[3]],
                "games": [simulate_game(ruleset, rng) for _ in range(args.games)],
            }
        )
    return {
        "club": club.slug,
        "divisions": [d.pk for d in divisions],
        "users": users[:-1],
        "warm_up": users[-1],
    }


def collect_static(url: str) -> Path:
    """``collectstatic`` for the production settings (their manifest storage must know every
    file the pages name), into a folder kept between runs and redone only when a source
    file changed: whitenoise compresses every file on every run, with brotli too where it is
    installed (locust brings it), which takes the best part of a minute."""
    import hashlib
    import shutil
    import subprocess
    import tempfile

    from django.contrib.staticfiles import finders

    digest = hashlib.sha256()
    entries = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            stat = os.stat(storage.path(path))
            entries.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for entry in sorted(entries):
        digest.update(entry.encode() + b"\n")
    key = digest.hexdigest()
    root = Path(tempfile.gettempdir()) / "clabber-league-bench-load-static"
    stamp = root / ".sources"
    if stamp.exists() and stamp.read_text() == key and (root / "staticfiles.json").exists():
        return root
    print("collectstatic (production storage; kept for the next run) ...")
    fresh = root.with_name(f"{root.name}.{os.getpid()}")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=server_env(url, fresh),
        check=True,
    )
    (fresh / ".sources").write_text(key)
    shutil.rmtree(root, ignore_errors=True)
    fresh.rename(root)
    return root


def free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(url: str, static_root: Path) -> dict[str, str]:
    import secrets

    env = dict(os.environ)
    env.pop("REDIS_URL", None)
    env.update(
        DJANGO_SETTINGS_MODULE="clabber_league.config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="false",
        DJANGO_STATIC_ROOT=str(static_root),
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=url,
    )
    return env


def wait_healthy(base: str, server, timeout: float = 120.0) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer {base}/healthz within {timeout:.0f} s")


def warm_up(base: str, plan: dict, workers: int) -> None:
    """Every request type a few times per worker, at a table of its own, before measuring: a
    server that has been up a while has its URLconf, views, serializers and templates
    loaded, and a cold worker's first requests (a few hundred ms) would only measure that."""
    import urllib.request

    user = plan["warm_up"]
    club, division = plan["club"], user["division"]
    auth = {"Authorization": f"Token {user['token']}", "Content-Type": "application/json"}

    def call(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + url, data=data, headers=headers or {})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read()) if body is not None else {}

    for round_ in range(4 * workers):
        call(f"/api/clubs/{club}/standings/{division}/", headers=auth)
        call(f"/clubs/{club}/standings/divisions/{division}/")
        body = {"division": division, "sides": user["sides"], "seats": user["seats"]}
        game = call(f"/api/clubs/{club}/games/", body, auth)["id"]
        deal = user["games"][round_ % len(user["games"])][0]
        call(f"/api/clubs/{club}/games/{game}/deals/", deal, auth)


def cpu_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total > 0 else 0.0


class OwnCpu:
    """CPU seconds this run's server side takes during a step: gunicorn ("web": its master
    with the workers it has reaped, e.g. after max-requests, and its live workers) and the
    PostgreSQL backends connected to the benchmark's database ("db").

    Read every ``interval`` seconds all through the step. A worker's CPU goes on counting in
    its master once reaped, so the web side is the difference of two sums; a backend ends
    when its connection does (``CONN_MAX_AGE``), taking its ticks with it, so each backend
    counts from its first reading (0 when it started during the step) to its last."""

    def __init__(self, master: int, url: str, interval: float = 0.5) -> None:
        import threading

        self.master, self.url, self.interval = master, url, interval
        self.db = url.rsplit("/", 1)[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="own-cpu", daemon=True)
        self.web = self.db_seconds = 0.0

    @staticmethod
    def _cpu(fields: list[str], children: bool = False) -> int:
        # after the command: state, ppid, ..., utime (11), stime (12), cutime (13), cstime (14)
        return sum(int(v) for v in fields[11 : 15 if children else 13])

    def _ticks(self, pid: int, children: bool = False) -> int | None:
        from _machine import _stat

        fields = _stat(pid)
        return None if fields is None else self._cpu(fields, children)

    def _web_ticks(self) -> int:
        from _machine import _stat

        total = self._ticks(self.master, children=True) or 0
        for entry in Path("/proc").iterdir():
            fields = _stat(int(entry.name)) if entry.name.isdigit() else None
            if fields is not None and fields[1] == str(self.master):
                total += self._cpu(fields)  # a live worker, from the stat just read
        return total

    def _run(self) -> None:
        import psycopg

        hz = os.sysconf("SC_CLK_TCK")
        with psycopg.connect(self.url, autocommit=True) as conn:

            def backends() -> dict[int, int]:
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s "
                    "AND pid <> pg_backend_pid()",
                    [self.db],
                ).fetchall()
                found = {pid: self._ticks(pid) for (pid,) in rows}
                return {pid: t for pid, t in found.items() if t is not None}

            web_from = self._web_ticks()
            first = backends()
            last = dict(first)
            while True:
                stopped = self._stop.wait(self.interval)
                for pid, t in backends().items():
                    first.setdefault(pid, 0)  # connected during the step
                    last[pid] = t
                self.web = (self._web_ticks() - web_from) / hz
                self.db_seconds = sum(last[pid] - first[pid] for pid in last) / hz
                if stopped:
                    return

    def __enter__(self) -> OwnCpu:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def own_cpu_share(server: dict[str, float], client: float, wall: float) -> float:
    """Share of all CPUs this run's own processes (server side and the locust client, whose
    CPU seconds are ``client``) took over ``wall`` seconds."""
    return (sum(server.values()) + client) / (wall * (os.cpu_count() or 1))


def stop(server) -> None:
    import signal
    import subprocess

    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def orchestrate(args: argparse.Namespace) -> int:
    import resource
    import subprocess
    import tempfile

    import _django
    from _machine import OtherLoad, cpu_times

    sys.stdout.reconfigure(line_buffering=True)

    url = _django.setup(DB_NAME)
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit(f"The load test runs on PostgreSQL; BENCH_DATABASE_URL is {url}")
    from django.db import connection

    if args.saturation:  # tables for the largest step, divisions of 50 tables as at 50 users
        steps = saturation_steps(args.saturation)
        args.users = max(args.users, steps[-1])
        args.divisions = max(args.divisions, -(-args.users // 50))
        args.games = max(args.games, 6 * len(steps))  # fixtures of their own for every step
    print(
        f"setting up {args.users} scorers, {args.users * 2} teams in {args.divisions} "
        "division(s) ..."
    )
    plan = build_plan(args)
    connection.close()

    with tempfile.TemporaryDirectory(prefix="clabber-load-") as tmp:
        work = Path(tmp)
        env = server_env(url, collect_static(url))
        redis = RedisOfItsOwn() if args.redis_outage else None
        if redis is not None:
            env["REDIS_URL"] = redis.url
            print(f"Redis of the bench's own on {redis.url}: the cache, the broker")
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        plan.update(
            host=base,
            users_count=args.users,
            spawn_rate=args.spawn_rate,
            duration=args.duration,
            think=[args.think_min, args.think_max],
            read_every=args.read_every,
        )
        plan_path, results_path = work / "plan.json", work / "results.json"
        plan_path.write_text(json.dumps(plan))
        log, access = work / "gunicorn.log", work / "access.log"
        gunicorn = [
            sys.executable, "-m", "gunicorn", "clabber_league.config.wsgi:application",
            "--bind", f"127.0.0.1:{port}",
            "--workers", str(args.workers),
            "--worker-class", "gthread",
            "--threads", str(args.threads),
            # As docker/Dockerfile runs it, but logs go to files of this run.
            "--timeout", "60",
            "--graceful-timeout", "30",
            "--keep-alive", "5",
            "--max-requests", "1000",
            "--max-requests-jitter", "100",
            "--preload",
            "--worker-tmp-dir", "/dev/shm" if Path("/dev/shm").is_dir() else tmp,
            "--no-control-socket",
            "--access-logfile", str(access),
            "--access-logformat", ACCESS_FORMAT,
            "--error-logfile", str(log),
            "--log-level", "warning",
        ]  # fmt: skip
        print(
            f"gunicorn on {base}: {args.workers} workers x {args.threads} threads (gthread), "
            "keep-alive 5 s, max-requests 1000 (+jitter 100), preloaded; production settings, "
            f"REDIS_URL {redis.url if redis else 'unset'}"
        )
        server = subprocess.Popen(gunicorn, cwd=ROOT, env=env)

        steps_run = [0]

        def run_step(users_count: int) -> dict:
            """One load of ``users_count`` users on the running server, with the CPU that
            this run's processes and every other process took all through it. Each step
            plays fixtures of its own (a fixture played in an earlier step is decided)."""
            share = args.games // len(saturation_steps(args.saturation)) if args.saturation else 0
            plan["users_count"] = users_count
            plan["fixture_slice"] = (
                [steps_run[0] * share, (steps_run[0] + 1) * share] if share else [0, args.games]
            )
            steps_run[0] += 1
            plan_path.write_text(json.dumps(plan))
            offset = access.stat().st_size if access.exists() else 0
            print(
                f"load: {users_count} users (+{args.spawn_rate:g}/s) for {args.duration:g} s, "
                f"think {args.think_min:g}-{args.think_max:g} s, standings every "
                f"{args.read_every} actions"
            )
            load_from, own_cpu = cpu_times(), OwnCpu(server.pid, url)
            client_from, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
            # The database's backends are this run's own (BENCH_DATABASE_URL may name another).
            outage = redis.outage_during(args.duration) if redis is not None else None
            with OtherLoad(databases=[url.rsplit("/", 1)[1]]) as other, own_cpu:
                subprocess.run(
                    [sys.executable, __file__, "--locust-child", str(plan_path), str(results_path)],
                    cwd=ROOT,
                    check=True,
                    timeout=args.duration + 120,
                )
            if outage is not None:
                outage.join()
            client = resource.getrusage(resource.RUSAGE_CHILDREN)
            client_cpu = (
                client.ru_utime + client.ru_stime - client_from.ru_utime - client_from.ru_stime
            )
            results = json.loads(results_path.read_text())
            server_ms, per_worker = server_times(access, offset)
            spent = {"web": own_cpu.web, "db": own_cpu.db_seconds}
            results.update(
                server=server_ms,
                per_worker=per_worker,
                cpu_before=cpu_before,
                cpu_during=cpu_share(load_from, cpu_times()),
                cpu_own=own_cpu_share(spent, client_cpu, time.monotonic() - wall),
                cpu_web=spent["web"],
                cpu_db=spent["db"],
                cpu_client=client_cpu,
                other=other.summary(),
                other_mean=other.mean,
                disturbed=other.disturbed,
            )
            if redis is not None:
                results["outage"] = redis.down_between
            return results

        try:
            wait_healthy(base, server)
            warm_up(base, plan, args.workers)
            waited = time.monotonic()
            while True:
                idle_from = cpu_times()
                time.sleep(2)
                cpu_before = cpu_share(idle_from, cpu_times())
                if cpu_before <= 0.15 or time.monotonic() - waited > args.wait_idle:
                    break
            print(f"CPU busy before the load (other processes): {cpu_before:.0%}")
            if cpu_before > 0.15:
                print("  warning: the machine is not idle; the figures below include that")
            if args.saturation:
                return saturation(args, run_step)
            results = run_step(args.users)
        finally:
            stop(server)
            if redis is not None:
                redis.stop()
            errors = log.read_text() if log.exists() else ""
    if args.json:
        Path(args.json).write_text(json.dumps(results))
    if "outage" in results:
        outage_report(results)
    if errors.strip():
        print("gunicorn's error log (last lines):")
        print("\n".join(errors.strip().splitlines()[-20:]))
    return report(results)


class RedisOfItsOwn:
    """A ``redis-server`` on a free port of 127.0.0.1, nothing saved to disk, that the run
    stops and starts again (``--redis-outage``)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None
        self.down_between: list[float] = []  # time.monotonic() of the stop and the start
        self.start()

    def start(self) -> None:
        import shutil
        import socket
        import subprocess

        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("--redis-outage needs redis-server (Debian: apt-get install redis)")
        command = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--loglevel", "warning"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def outage_during(self, duration: float):
        """A thread that stops Redis a third of the way through a load of ``duration``
        seconds (after the locust child's start-up, about 3 s) and starts it again at two
        thirds; the moments are in ``down_between``."""
        import threading

        def run() -> None:
            time.sleep(3 + duration / 3)
            self.stop()
            self.down_between = [time.monotonic()]
            print(f"  Redis stopped (port {self.port})")
            time.sleep(duration / 3)
            self.start()
            self.down_between.append(time.monotonic())
            print("  Redis started again")

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread


def outage_report(results: dict) -> None:
    """Requests and failures per request type before, during and after the Redis outage."""
    stopped, started = results["outage"]
    t0 = results["t0"]
    phases = ("before", "during", "after")
    counts = {name: {phase: [0, 0] for phase in phases} for name in NAMES}
    for name, _ms, ok, at in results["samples"]:
        moment = t0 + at
        phase = "before" if moment < stopped else "during" if moment < started else "after"
        row = counts.setdefault(name, {p: [0, 0] for p in phases})[phase]
        row[0] += 1
        row[1] += 0 if ok else 1
    print(
        f"\nRedis outage: stopped {stopped - t0:.1f} s into the load, started again at "
        f"{started - t0:.1f} s. Requests / failures by request type:"
    )
    print(f"{'request':<42}" + "".join(f"{phase:>16}" for phase in phases))
    for name, by_phase in counts.items():
        cells = "".join(f"{f'{n} / {bad}':>16}" for n, bad in by_phase.values())
        print(f"{name:<42}{cells}")


def saturation_steps(text: str) -> list[int]:
    steps = sorted({int(part) for part in text.split(",") if part.strip()})
    if not steps or steps[0] < 1:
        raise SystemExit("--saturation takes user counts such as 50,100,150,200")
    return steps


def saturation(args: argparse.Namespace, run_step) -> int:
    """Load the server with more and more users, up to the first count whose p95 at the
    client crosses the target or that fails a request: the saturation point."""
    rows = []
    crossed = None
    for users in saturation_steps(args.saturation):
        results = run_step(users)
        everything = sorted(ms for _, ms, _, _ in results["samples"])
        failed = sum(1 for _, _, ok, _ in results["samples"] if not ok)
        p95 = percentile(everything, 95)
        rows.append((users, len(everything) / results["elapsed"], p95, failed, results))
        print(
            f"  {users} users: {len(everything) / results['elapsed']:.1f} req/s, "
            f"p95 {p95:.1f} ms, {failed} failures; {results['other']}"
        )
        if p95 >= TARGET_P95_MS or failed:
            crossed = users
            break
    print(
        f"\n{'users':>6}{'req/s':>9}{'p95 ms':>9}{'fails':>7}{'other CPU':>11}"
        f"{'web ms/req':>12}{'db ms/req':>11}{'locust ms/req':>15}  run"
    )
    for users, rate, p95, failed, results in rows:
        other = results["other_mean"]
        served = max(1, len(results["samples"]))
        client = 1000 * results["cpu_client"] / served
        web, db = (1000 * results[key] / served for key in ("cpu_web", "cpu_db"))
        print(
            f"{users:>6}{rate:>9.1f}{p95:>9.1f}{failed:>7}"
            f"{'?' if other is None else f'{other:.0%}':>11}"
            f"{web:>12.2f}{db:>11.2f}{client:>15.2f}  "
            f"{'DISTURBED' if results['disturbed'] else 'undisturbed'}"
        )
    passed = [users for users, _, p95, failed, _ in rows if p95 < TARGET_P95_MS and not failed]
    if crossed is None:
        print(f"saturation point: above {rows[-1][0]} users (p95 stayed under 100 ms)")
    else:
        print(
            f"saturation point: p95 crosses {TARGET_P95_MS:.0f} ms (or requests fail) between "
            f"{passed[-1] if passed else 0} and {crossed} users"
        )
    if any(results["disturbed"] for *_, results in rows):
        print("the machine was disturbed (other processes above 10% CPU): the point is low")
    return 0 if (crossed is None or (passed and passed[-1] >= 150)) else 1


# --- the report -----------------------------------------------------------------------------


def server_times(access: Path, offset: int) -> tuple[dict[str, list[float]], list[int]]:
    """Milliseconds each request spent in gunicorn (the access log's %(D)s), by type, and how
    many requests each worker process served, most first."""
    times: dict[str, list[float]] = {name: [] for name in NAMES}
    workers: dict[str, int] = {}
    if not access.exists():
        return times, []
    with access.open("rb") as lines:
        lines.seek(offset)
        for line in lines:
            parts = line.decode(errors="replace").split()
            if len(parts) != 5 or not parts[3].isdigit():
                continue
            name = request_name(parts[0], parts[1])
            if name is not None:
                times[name].append(int(parts[3]) / 1000)
                workers[parts[4]] = workers.get(parts[4], 0) + 1
    return times, sorted(workers.values(), reverse=True)


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def table(rows: list[tuple[str, list[float], int | None]], elapsed: float) -> None:
    header = (
        f"{'request type':<42}{'requests':>9}{'fails':>7}{'p50 ms':>8}{'p95 ms':>8}"
        f"{'p99 ms':>8}{'max ms':>8}{'req/s':>8}"
    )
    print(header)
    print("-" * len(header))
    for name, times, failed in rows:
        ordered = sorted(times)
        print(
            f"{name:<42}{len(ordered):>9}{'' if failed is None else failed:>7}"
            f"{percentile(ordered, 50):>8.1f}{percentile(ordered, 95):>8.1f}"
            f"{percentile(ordered, 99):>8.1f}{(ordered[-1] if ordered else float('nan')):>8.1f}"
            f"{len(ordered) / elapsed:>8.1f}"
        )


def report(results: dict) -> int:
    elapsed = results["elapsed"]
    samples: dict[str, list[float]] = {name: [] for name in NAMES}
    failures: dict[str, int] = dict.fromkeys(NAMES, 0)
    for name, ms, ok, _at in results["samples"]:
        samples.setdefault(name, []).append(ms)
        failures[name] = failures.get(name, 0) + (0 if ok else 1)
    everything = [ms for times in samples.values() for ms in times]
    failed = sum(failures.values())
    print("\nresponse times at the client (locust), every request of the run:")
    table(
        [*((n, samples[n], failures[n]) for n in samples), ("overall", everything, failed)],
        elapsed,
    )
    server = results["server"]
    inside = [ms for times in server.values() for ms in times]
    print("\ntime spent inside gunicorn (its access log), the same requests:")
    table([*((n, server[n], None) for n in NAMES), ("overall", inside, None)], elapsed)
    print(
        "requests served by each gunicorn worker process (a worker started again after "
        f"max-requests counts anew): {', '.join(map(str, results['per_worker']))}"
    )
    print(
        f"\n{results['users']} users, {elapsed:.1f} s, {results['games_started']} games started, "
        f"{results['games_finished']} finished"
    )
    during, own = results["cpu_during"], results["cpu_own"]
    print(
        f"CPU busy ({os.cpu_count()} CPUs): {results['cpu_before']:.0%} just before the load "
        f"(other processes); {during:.0%} during it, of which this run's gunicorn, PostgreSQL "
        f"backends and locust {own:.0%}, other processes about {max(0.0, during - own):.0%}"
    )
    if "cpu_client" in results:
        # The load generator shares the machine's CPUs with the server it measures.
        client_cpu, served = results["cpu_client"], max(1, len(everything))
        print(
            f"the load generator (locust, FastHttpUser): {client_cpu:.1f} CPU s, "
            f"{1000 * client_cpu / served:.2f} ms a request, "
            f"{client_cpu / (elapsed * (os.cpu_count() or 1)):.0%} of the CPUs"
        )
        print(
            f"the server's CPU a request: gunicorn {1000 * results['cpu_web'] / served:.2f} ms, "
            f"its PostgreSQL backends {1000 * results['cpu_db'] / served:.2f} ms"
        )
    print(results["other"])
    for message, count in sorted(results["errors"].items(), key=lambda e: -e[1])[:10]:
        print(f"  error x{count}: {message}")
    p95 = percentile(sorted(everything), 95)
    met = bool(everything) and p95 < TARGET_P95_MS and failed == 0
    print(
        f"target p95 < {TARGET_P95_MS:.0f} ms and no failures: "
        f"{'MET' if met else 'MISSED'} (p95 {p95:.1f} ms, {failed} failures)"
        f"{'; the run was DISTURBED by other processes' if results['disturbed'] else ''}"
    )
    return 0 if met else 1


# --- the load generator (child process: locust and gevent, no Django) --------------------------


def run_locust(plan_path: str, results_path: str) -> None:
    import itertools
    from collections import Counter

    import gevent
    from locust import FastHttpUser, between, task
    from locust.env import Environment

    plan = json.loads(Path(plan_path).read_text())
    club = plan["club"]
    slots = itertools.count()
    samples: list[tuple[str, float, bool, float]] = []
    errors: Counter[str] = Counter()
    counts = Counter()
    accepted: list[int | None] = []  # the ids of the deals answered 201

    def fail(response) -> None:
        detail = response.error if response.status_code == 0 else (response.text or "")[:200]
        response.failure(f"{response.status_code} {detail}")

    class Scorer(FastHttpUser):
        wait_time = between(*plan["think"])

        def on_start(self) -> None:
            slot = next(slots)
            me = plan["users"][slot % len(plan["users"])]
            self.headers = {"Authorization": f"Token {me['token']}"}
            self.me = me
            self.division = me["division"]
            self.games = itertools.cycle(me["games"])
            first, last = plan["fixture_slice"]
            self.fixtures = list(me["fixtures"][first:last])  # each played once; then friendlies
            self.game_id: int | None = None
            self.deals: list[dict] = []
            self.next_deal = 0
            self.actions = 0
            self.reads = 0
            self.key_prefix = f"{slot}-{time.time_ns()}"

        @task
        def act(self) -> None:
            self.actions += 1
            if self.actions % plan["read_every"] == 0:
                self.read_standings()
            elif self.game_id is None or self.next_deal >= len(self.deals):
                self.start_game()
            else:
                self.record_deal()

        def start_game(self) -> None:
            body = {"division": self.division, "sides": self.me["sides"], "seats": self.me["seats"]}
            if self.fixtures:
                body["fixture"] = self.fixtures.pop(0)
            with self.client.post(
                f"/api/clubs/{club}/games/",
                json=body,
                headers=self.headers,
                name=START,
                catch_response=True,
            ) as response:
                if response.status_code != 201:
                    fail(response)
                    self.game_id = None
                    return
                self.game_id = response.json()["id"]
                self.deals = next(self.games)
                self.next_deal = 0
                counts["games_started"] += 1

        def record_deal(self) -> None:
            deal = self.deals[self.next_deal]
            headers = {
                **self.headers,
                "Idempotency-Key": f"{self.key_prefix}-{self.game_id}-{self.next_deal}",
            }
            with self.client.post(
                f"/api/clubs/{club}/games/{self.game_id}/deals/",
                json=deal,
                headers=headers,
                name=RECORD,
                catch_response=True,
            ) as response:
                self.next_deal += 1
                if response.status_code != 201:
                    fail(response)
                    self.game_id = None  # start afresh rather than post into a broken game
                    return
                accepted.append(response.json().get("id"))  # bench/scaleout.py checks them
                if self.next_deal == len(self.deals):
                    counts["games_finished"] += 1

        def read_standings(self) -> None:
            self.reads += 1
            if self.reads % 2:
                url = f"/api/clubs/{club}/standings/{self.division}/"
                name, headers = READ_API, self.headers
            else:
                url = f"/clubs/{club}/standings/divisions/{self.division}/"
                name, headers = READ_PAGE, {}
            with self.client.get(url, headers=headers, name=name, catch_response=True) as response:
                if response.status_code != 200:
                    fail(response)

    def on_request(request_type, name, response_time, exception=None, **kwargs) -> None:
        at = round(time.monotonic() - started, 3)
        samples.append((name, float(response_time), exception is None, at))
        if exception is not None:
            errors[f"{name}: {exception}"[:300]] += 1

    env = Environment(user_classes=[Scorer], host=plan["host"])
    env.events.request.add_listener(on_request)
    runner = env.create_local_runner()
    started = time.monotonic()
    runner.start(plan["users_count"], spawn_rate=plan["spawn_rate"])
    gevent.spawn_later(plan["duration"], runner.quit)
    runner.greenlet.join()
    elapsed = time.monotonic() - started
    Path(results_path).write_text(
        json.dumps(
            {
                "elapsed": elapsed,
                "t0": started,  # time.monotonic(), the same clock as the orchestrator's
                "users": plan["users_count"],
                "samples": samples,
                "errors": dict(errors),
                "games_started": counts["games_started"],
                "games_finished": counts["games_finished"],
                "deals_accepted": accepted,
            }
        )
    )


def main() -> None:
    args = parse_args()
    if args.locust_child:
        run_locust(*args.locust_child)
        return
    sys.exit(orchestrate(args))


if __name__ == "__main__":
    main()
