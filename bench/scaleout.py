"""Scale-out: two web nodes behind HAProxy on PgBouncer, one node killed in the middle.

Everything runs on this machine's loopback and stops by itself (bounded users and
duration). It needs Debian's PgBouncer and HAProxy, which this bench does not install:

    apt-get install pgbouncer haproxy

In order:

1. the database of ``bench/load.py`` (its own, ``clabber_league_bench_scaleout`` here;
   ``BENCH_DATABASE_URL`` names another) is dropped, created and migrated, and load.py's
   club, scorers, teams, fixtures and simulated games are made (``load.build_plan``);
2. PgBouncer in **transaction pooling** on a free port in front of it (``pool_mode =
   transaction``, 20 server connections), run as the ``postgres`` user when started as root;
3. two web nodes: gunicorn as docker/Dockerfile runs it (gthread, preloaded,
   ``clabber_league/config/gunicorn.py``), ``--workers`` x ``--threads`` each, production
   settings with ``DATABASE_PGBOUNCER=true`` (no server-side cursors, no prepared
   statements, no startup options) through PgBouncer, and ``DJANGO_TRUSTED_PROXY_COUNT=1``;
4. HAProxy on a free port: round robin over the two nodes, ``/healthz`` checked every
   second (two misses take a node out), a request id (``X-Request-ID``) made for each
   request, and a request that met a dead node (no connection, or no answer at all) sent
   again to the other one, but only when that is safe: a ``GET``, or a ``POST`` that
   carries an ``Idempotency-Key`` (a deal; the service answers a replay with the first
   answer). A game start has no key and is never sent twice;
5. load.py's load generator (locust, its own child process and request mix: scorers
   starting games, recording deals with an ``Idempotency-Key``, reading standings by
   the API and the page) through HAProxy for ``--duration`` seconds; at half time one
   node (its master and every worker) is killed with SIGKILL;
6. the report: requests and failures by request type (and the failures' messages), the
   deals the client saw accepted (201) against the deals in the database (every accepted
   deal's id must be there: a lost deal is one the client was told is saved and is not),
   and ``manage.py standings_check`` (the stored standings against a recomputation from
   the deals). Targets: 0 deals lost, at most 1% of requests failed, standings equal.
   The exit status is 0 when all three are met.

    .venv/bin/python bench/scaleout.py [--users 40] [--duration 40] [--workers 2]
                                       [--threads 4] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402 - bench/load.py: the plan, the settings, the load generator

DB_NAME = "clabber_league_bench_scaleout"
MAX_FAILED = 0.01
APT = "apt-get install pgbouncer haproxy"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=40, help="virtual users (tables)")
    parser.add_argument("--spawn-rate", type=float, default=10, help="users started per second")
    parser.add_argument("--duration", type=float, default=40, help="seconds of load")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=2.0)
    parser.add_argument("--read-every", type=int, default=4, help="every n-th action a read")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per node")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--games", type=int, default=20, help="games simulated per user")
    parser.add_argument("--divisions", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", help="write the results here too")
    return parser.parse_args()


def pgbouncer_config(work: Path, port: int, url: str) -> Path:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    db = parts.path.lstrip("/")
    user = parts.username or "postgres"
    target = f"host={parts.hostname or '127.0.0.1'} port={parts.port or 5432} dbname={db}"
    ini = work / "pgbouncer.ini"
    ini.write_text(
        f"""[databases]
{db} = {target} user={user}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = any
pool_mode = transaction
default_pool_size = 20
max_client_conn = 400
server_reset_query =
ignore_startup_parameters = extra_float_digits
admin_users = {user}
"""
    )
    ini.chmod(0o644)
    return ini


def haproxy_config(work: Path, port: int, nodes: list[int]) -> Path:
    servers = "\n".join(
        f"    server web{i} 127.0.0.1:{p} check inter 1s fall 2 rise 2"
        for i, p in enumerate(nodes, 1)
    )
    cfg = work / "haproxy.cfg"
    cfg.write_text(
        f"""global
    maxconn 2000
    stats socket {work}/haproxy.sock mode 600

defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout http-keep-alive 5s
    option http-buffer-request
    option forwardfor
    option redispatch
    retries 2
    retry-on conn-failure empty-response response-timeout

frontend site
    bind 127.0.0.1:{port}
    unique-id-format %{{+X}}o%ci%cp%fi%fp%Ts%rt%pid
    http-request set-header X-Request-ID %[unique-id]
    default_backend web

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /healthz hdr Host 127.0.0.1
    # A request may go to the other node again only if it is safe to: a POST without an
    # Idempotency-Key (a game start) is never sent twice.
    http-request disable-l7-retry if METH_POST !{{ req.hdr(Idempotency-Key) -m found }}
{servers}
"""
    )
    return cfg


def wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited with status {proc.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit(f"{what} does not listen on {port}")


def start_node(port: int, env: dict[str, str], args: argparse.Namespace, log: Path):
    command = [
        sys.executable, "-m", "gunicorn", "clabber_league.config.wsgi:application",
        "--config", "python:clabber_league.config.gunicorn",
        "--bind", f"127.0.0.1:{port}",
        "--workers", str(args.workers), "--worker-class", "gthread",
        "--threads", str(args.threads),
        "--timeout", "60", "--graceful-timeout", "30", "--keep-alive", "5",
        "--max-requests", "1000", "--max-requests-jitter", "100", "--preload",
        "--no-control-socket", "--error-logfile", str(log), "--log-level", "warning",
    ]  # fmt: skip
    # A session of its own: killing the node kills its master and workers at once.
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def haproxy_stats(sock_path: Path) -> dict[str, dict[str, str]]:
    """Each server's status, requests, retries and redispatches, from HAProxy's stats socket."""
    import csv
    import socket

    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(str(sock_path))
        sock.sendall(b"show stat\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    rows = csv.DictReader(data.decode().lstrip("# ").splitlines())
    return {
        row["svname"]: {k: row[k] for k in ("status", "stot", "wretr", "wredis", "hrsp_5xx")}
        for row in rows
        if row["pxname"] == "web"
    }


def standings_check() -> tuple[bool, str]:
    import io

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = io.StringIO()
    try:
        call_command("standings_check", stdout=out, stderr=out)
    except CommandError as exc:
        return False, (out.getvalue() + str(exc)).strip()
    return True, out.getvalue().strip() or "the stored standings equal a recomputation"


def orchestrate(args: argparse.Namespace) -> int:
    missing = [tool for tool in ("pgbouncer", "haproxy") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"{' and '.join(missing)} not found: {APT}")
    sys.stdout.reconfigure(line_buffering=True)

    import _django

    url = _django.setup(DB_NAME)
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit(f"The scale-out bench runs on PostgreSQL; BENCH_DATABASE_URL is {url}")
    from django.db import connection

    from clabber_league.games.models import Deal

    print(f"setting up {args.users} scorers, {args.users * 2} teams ...")
    plan = load.build_plan(args)
    connection.close()
    static_root = load.collect_static(url)

    procs: dict[str, subprocess.Popen | None] = {"pgbouncer": None, "web1": None, "web2": None}
    with tempfile.TemporaryDirectory(prefix="clabber-scaleout-") as tmp:
        work = Path(tmp)
        work.chmod(0o755)  # PgBouncer runs as postgres and reads its configuration here
        try:
            bouncer_port = load.free_port()
            ini = pgbouncer_config(work, bouncer_port, url)
            as_postgres = ["-u", "postgres"] if os.geteuid() == 0 else []
            procs["pgbouncer"] = subprocess.Popen(
                ["pgbouncer", *as_postgres, str(ini)],
                stdout=(work / "pgbouncer.log").open("w"),
                stderr=subprocess.STDOUT,
            )
            wait_port(bouncer_port, procs["pgbouncer"], "PgBouncer")
            db = url.rsplit("/", 1)[1]
            user = url.split("://", 1)[1].split("@", 1)[0].split(":", 1)[0] or "postgres"
            bounced = f"postgres://{user}@127.0.0.1:{bouncer_port}/{db}"
            print(f"PgBouncer on 127.0.0.1:{bouncer_port}: transaction pooling, 20 connections")

            env = load.server_env(bounced, static_root)
            env.update(
                DATABASE_PGBOUNCER="true",
                DJANGO_TRUSTED_PROXY_COUNT="1",
                DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
            )
            nodes = [load.free_port(), load.free_port()]
            for name, port in zip(("web1", "web2"), nodes, strict=True):
                procs[name] = start_node(port, env, args, work / f"{name}.log")
            for name, port in zip(("web1", "web2"), nodes, strict=True):
                load.wait_healthy(f"http://127.0.0.1:{port}", procs[name])
            print(
                f"two web nodes on {nodes}: {args.workers} workers x {args.threads} threads "
                "each, production settings, DATABASE_PGBOUNCER=true"
            )

            front = load.free_port()
            cfg = haproxy_config(work, front, nodes)
            check = subprocess.run(["haproxy", "-c", "-f", str(cfg)], capture_output=True)
            if check.returncode != 0:
                raise SystemExit(check.stdout.decode() + check.stderr.decode())
            procs["haproxy"] = subprocess.Popen(
                ["haproxy", "-db", "-f", str(cfg)],
                stdout=(work / "haproxy.log").open("w"),
                stderr=subprocess.STDOUT,
            )
            wait_port(front, procs["haproxy"], "HAProxy")
            base = f"http://127.0.0.1:{front}"
            print(f"HAProxy on {base}: round robin, /healthz every 1 s, safe retries")
            time.sleep(2.5)  # both nodes seen healthy
            load.warm_up(base, plan, 2 * args.workers)
            deals_before = Deal.objects.count()
            connection.close()

            plan.update(
                host=base,
                users_count=args.users,
                spawn_rate=args.spawn_rate,
                duration=args.duration,
                think=[args.think_min, args.think_max],
                read_every=args.read_every,
                fixture_slice=[0, args.games],
            )
            plan_path, results_path = work / "plan.json", work / "results.json"
            plan_path.write_text(json.dumps(plan))
            print(
                f"load: {args.users} users for {args.duration:g} s through HAProxy; "
                f"web1 killed (SIGKILL) at {args.duration / 2:g} s"
            )
            child = subprocess.Popen(
                [sys.executable, load.__file__, "--locust-child", str(plan_path),
                 str(results_path)],
                cwd=ROOT,
            )  # fmt: skip
            time.sleep(args.duration / 2)
            os.killpg(procs["web1"].pid, signal.SIGKILL)
            procs["web1"].wait(timeout=10)
            status = procs["web1"].returncode
            print(f"  {args.duration / 2:g} s: web1 killed (exit status {status})")
            child.wait(timeout=args.duration + 120)
            if child.returncode != 0:
                raise SystemExit(f"the load generator exited with status {child.returncode}")
            results = json.loads(results_path.read_text())
            results["haproxy"] = haproxy_stats(work / "haproxy.sock")
        finally:
            for name in ("haproxy", "web1", "web2"):
                stop(procs.get(name))
            if procs["pgbouncer"] is not None and procs["pgbouncer"].poll() is None:
                procs["pgbouncer"].terminate()
                procs["pgbouncer"].wait(timeout=30)
            logs = {
                name: (work / f"{name}.log").read_text()[-1500:]
                for name in ("web1", "web2", "pgbouncer")
                if (work / f"{name}.log").exists()
            }

    # The database directly, not through the PgBouncer that is gone.
    accepted = [d for d in results.pop("deals_accepted") if d is not None]
    stored = set(Deal.objects.filter(pk__in=accepted).values_list("pk", flat=True))
    deals_in_db = Deal.objects.count() - deals_before
    lost = [d for d in accepted if d not in stored]
    standings_ok, standings_text = standings_check()
    return report(args, results, accepted, deals_in_db, lost, standings_ok, standings_text, logs)


def report(args, results, accepted, deals_in_db, lost, standings_ok, standings_text, logs) -> int:
    samples = results["samples"]
    by_name: dict[str, Counter] = {}
    for name, _ms, ok, at in samples:
        counter = by_name.setdefault(name, Counter())
        counter["requests"] += 1
        counter["failures"] += 0 if ok else 1
        counter["after_kill"] += 1 if at >= args.duration / 2 else 0
    total = sum(c["requests"] for c in by_name.values())
    failed = sum(c["failures"] for c in by_name.values())
    share = failed / total if total else 1.0
    print(f"\n{'request type':<44}{'requests':>10}{'failed':>8}{'after kill':>12}")
    for name in load.NAMES:
        c = by_name.get(name, Counter())
        print(f"{name:<44}{c['requests']:>10}{c['failures']:>8}{c['after_kill']:>12}")
    print(f"{'all':<44}{total:>10}{failed:>8}   ({share:.2%} failed)")
    for message, count in sorted(results["errors"].items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {count} x {message}")
    print(
        f"\ndeals: {len(accepted)} accepted by the service as the client saw it, "
        f"{deals_in_db} new in the database; lost (accepted, not stored): {len(lost)}"
    )
    if deals_in_db > len(accepted):
        print(
            f"  {deals_in_db - len(accepted)} stored whose answer the client never got "
            "(in flight when the load generator stopped at the end, or on the killed node): "
            "not lost"
        )
    print(f"games started {results['games_started']}, finished {results['games_finished']}")
    print("HAProxy, by server: status, sessions, retries, redispatched, 5xx answers")
    for server, stat in results.get("haproxy", {}).items():
        print(
            f"  {server:<8}{stat['status']:<6}{stat['stot']:>7}{stat['wretr']:>6}"
            f"{stat['wredis']:>6}{stat['hrsp_5xx']:>6}"
        )
    print(f"standings_check: {'equal' if standings_ok else 'DIFFERENT'}: {standings_text[:500]}")
    met = not lost and share <= MAX_FAILED and standings_ok
    print(
        f"\ntargets (0 deals lost, at most {MAX_FAILED:.0%} failed, standings equal): "
        f"{'met' if met else 'NOT met'}"
    )
    for name, text in logs.items():
        if text.strip() and not met:
            print(f"--- {name} log (end) ---\n{text}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "requests": total,
                    "failed": failed,
                    "by_type": {k: dict(v) for k, v in by_name.items()},
                    "deals_accepted": len(accepted),
                    "deals_in_db": deals_in_db,
                    "deals_lost": len(lost),
                    "standings_equal": standings_ok,
                    "haproxy": results.get("haproxy", {}),
                }
            )
        )
    return 0 if met else 1


def main() -> None:
    sys.exit(orchestrate(parse_args()))


if __name__ == "__main__":
    main()
