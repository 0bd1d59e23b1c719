"""Live pages under load (issue 35): 500 followers of one club night while 10 tables save
deals.

Everything is on this machine's loopback and the run is bounded (``--blocks`` pairs of
``--block`` seconds); it stops by itself. In order:

1. a PostgreSQL database of its own (``BENCH_DATABASE_URL``, default
   ``postgres://postgres@127.0.0.1:5432/clabber_league_bench_live``) is dropped, created and
   migrated; a public club, a club night of ``--tables`` x 4 players, round 1 drawn (a
   round of 200 deals, so no table finishes during the run);
2. uvicorn (``clabber_league.config.asgi:application``, ``--workers 1``, the test settings,
   no access log) on a free port of 127.0.0.1, the live pages on Redis
   (``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/8``) under a key prefix of this
   run's own, waited for on ``/livez``;
3. a child process holds ``--followers`` Server-Sent-Events clients of the night's stream
   (asyncio sockets, as a browser's EventSource: ``GET .../stream/``), each noting when
   it read each game's news;
4. blocks, interleaved: ``--blocks`` times a block *without* followers and a block *with*
   them (the order alternates), each ``--block`` seconds in which this process saves a
   deal at each table every ``--interval`` seconds (round robin, through
   ``games.services.deal_record``, the service every page and API call uses: the save,
   its commit and the news published after it), timing each save;
5. the figures: the delay from a deal's save (the service returned: committed, published)
   to each follower reading it (median, p95, max; target p95 under 2 s) and how many
   never arrived; the server's CPU (share of one core) and memory (RSS, peak) per kind of
   block; the PostgreSQL connections the server held; the deal's save latency (median and
   p95) without and with followers; the machine's load and the CPU other processes took
   (``_machine.OtherLoad``). Exit status 0 when the target was met, 1 when not.

    .venv/bin/python bench/live.py [--followers 500] [--tables 10] [--interval 2]
                                   [--block 15] [--blocks 2] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _machine import OtherLoad  # noqa: E402

DATABASE = "clabber_league_bench_live"
TARGET_P95 = 2.0
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=500)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds between two deals of a table"
    )
    parser.add_argument("--block", type=float, default=15.0, help="seconds per block")
    parser.add_argument("--blocks", type=int, default=2, help="pairs of blocks (without, with)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    parser.add_argument("--json", help="write the figures here too")
    return parser.parse_args()


# --- the server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def uvicorn_path() -> str:
    """Where uvicorn is: the venv (a dependency), else a copy beside it in .cache/asgi."""
    try:
        import uvicorn  # noqa: F401

        return ""
    except ImportError:
        return str(ROOT / ".cache" / "asgi")


def start_server(port: int, database_url: str, redis_url: str, prefix: str, workers: int):
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "clabber_league.config.settings.test",
        "LIVE_REDIS_URL": redis_url,
        "LIVE_KEY_PREFIX": prefix,
        "REDIS_URL": "",
        "DJANGO_ACCESS_LOG": "0",
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), uvicorn_path()) if p),
    }
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "clabber_league.config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-access-log",
        "--log-level",
        "warning",
        "--timeout-graceful-shutdown",
        "2",
    ]
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2)
            return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("uvicorn stopped before it answered") from None
            time.sleep(0.3)
    server.terminate()
    raise SystemExit("uvicorn did not answer /livez in 60 s")


def process_tree(root: int) -> list[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    tree = {root}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parents.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                changed = True
    return sorted(tree)


def cpu_ticks(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def threads(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("Threads:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def pg_connections(database_url: str) -> int:
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(database_url)
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [parts.path.lstrip("/")]
        ).fetchone()
    return int(row[0]) - 1  # this process's own connection to the bench database


# --- the followers (a child process) ----------------------------------------------------------


async def _follower(
    port: int, path: str, ready: asyncio.Event, seen: list, stop: asyncio.Event, counts: dict
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        "Cache-Control: no-cache\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        counts["refused"] += 1
        _all_in(counts, ready)
        writer.close()
        return
    is_ready = False
    try:
        while not stop.is_set():
            line = await reader.readline()
            if not line:
                if not is_ready:  # closed before it was ready: a "fallback" (Redis slow)
                    counts["closed"] += 1
                    _all_in(counts, ready)
                break
            if line.startswith(b"data: {") and b'"game"' in line:
                now = time.time()
                news = json.loads(line[6:])
                seen.append((news["game"], news["deals"], now))
            elif line.startswith(b"event: ready") and not is_ready:
                is_ready = True
                counts["ready"] += 1
                _all_in(counts, ready)
    finally:
        writer.close()


def _all_in(counts: dict, ready: asyncio.Event) -> None:
    """Every follower has either its stream (``ready``) or its answer (refused, closed)."""
    if counts["ready"] + counts["refused"] + counts["closed"] >= counts["wanted"]:
        ready.set()


async def _follow_all(conn, port: int, path: str, count: int) -> None:
    while True:
        command = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        if command == "quit":
            return
        started = time.monotonic()
        seen: list = []
        stop = asyncio.Event()
        ready = asyncio.Event()
        counts = {"ready": 0, "refused": 0, "closed": 0, "wanted": count}
        tasks = []
        for _ in range(count):
            tasks.append(asyncio.create_task(_follower(port, path, ready, seen, stop, counts)))
            await asyncio.sleep(0.002)  # a crowd arriving, not one packet
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 120)
        conn.send({"connected": counts["ready"], "seconds": time.monotonic() - started})
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # "disconnect"
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        conn.send({"seen": seen, "refused": counts["refused"], "closed": counts["closed"]})


def followers_main(conn, port: int, path: str, count: int) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count * 2 + 100)), hard))
    asyncio.run(_follow_all(conn, port, path, count))


# --- the tables -------------------------------------------------------------------------------


def build_night(tables: int):
    from clabber_league.clubs.models import Club, Player
    from clabber_league.events.services import checkin, rounds
    from clabber_league.events.services import events as event_services

    club = Club.objects.create(name="Bench live", slug="bench-live", is_public=True)
    event = event_services.event_create(
        club=club,
        name="Bench night",
        date=dt.date.today(),
        rules="clabber",
        rounds=1,
        seed="000001",
        round_kind="deals",
        round_deals=200,
    )
    for number in range(tables * 4):
        player = Player.objects.create(club=club, name=f"Player {number + 1}")
        checkin.entry_check_in(event=event, player=player)
    round_ = rounds.round_draw(event=event)
    games = list(round_.tables.order_by("number").values_list("game_id", flat=True))
    return club, event, games


def deal(number: int) -> dict:
    side = "A" if number % 2 else "B"
    other = "B" if side == "A" else "A"
    return {"maker": side, "trump": "hearts", "points": {side: 90, other: 62}, "last_trick": side}


def save_block(games: list[int], counters: dict, seconds: float, interval: float) -> list[dict]:
    """Save a deal at each table every ``interval`` seconds for ``seconds``, round robin."""
    from clabber_league.games import services

    saves = []
    step = interval / len(games)
    started = time.monotonic()
    next_at = started
    index = 0
    while next_at < started + seconds:
        time.sleep(max(0.0, next_at - time.monotonic()))
        game = games[index % len(games)]
        counters[game] += 1
        began = time.perf_counter()
        services.deal_record(game_id=game, data=deal(counters[game]))
        took = time.perf_counter() - began
        saves.append({"game": game, "deals": counters[game], "at": time.time(), "took": took})
        index += 1
        next_at += step
    return saves


# --- the figures ------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    args = parse_args()
    import _django

    database_url = _django.setup(DATABASE)
    from django.conf import settings

    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
    prefix = f"bench:live:{uuid.uuid4().hex[:8]}:"
    settings.LIVE_REDIS_URL = redis_url
    settings.LIVE_KEY_PREFIX = prefix
    club, event, games = build_night(args.tables)
    counters = dict.fromkeys(games, 0)
    port = free_port()
    path = f"/clubs/{club.slug}/live/night/{event.pk}/stream/"
    print(
        f"club night of {len(games)} tables; uvicorn on 127.0.0.1:{port}; {args.followers} "
        f"followers of {path}; a deal per table every {args.interval:g} s; "
        f"{args.blocks} x (without, with) blocks of {args.block:g} s",
        flush=True,
    )

    server = start_server(port, database_url, redis_url, prefix, args.workers)
    parent, child = multiprocessing.Pipe()
    followers = multiprocessing.Process(
        target=followers_main, args=(child, port, path, args.followers), daemon=True
    )
    followers.start()
    phases: dict[str, dict] = {
        kind: {"saves": [], "cpu": 0, "seconds": 0.0, "rss": [], "threads": [], "pg": []}
        for kind in ("without", "with")
    }
    delays: list[float] = []
    expected = received = 0
    connects = []
    refused = closed = 0
    try:
        save_block(games, counters, 2.0, args.interval)  # warm up: the code paths, the pool
        with OtherLoad(databases=[DATABASE]) as load:
            for block in range(args.blocks):
                order = ("without", "with") if block % 2 == 0 else ("with", "without")
                for kind in order:
                    if kind == "with":
                        parent.send("connect")
                        answer = parent.recv()
                        connects.append(answer)
                    tree = process_tree(server.pid)
                    ticks = cpu_ticks(tree)
                    began = time.monotonic()
                    phase = phases[kind]
                    phase["rss"].append(rss_mib(tree))
                    phase["threads"].append(threads(tree))
                    phase["pg"].append(pg_connections(database_url))
                    saves = save_block(games, counters, args.block, args.interval)
                    phase["rss"].append(rss_mib(tree))
                    phase["threads"].append(threads(tree))
                    phase["cpu"] += cpu_ticks(process_tree(server.pid)) - ticks
                    phase["seconds"] += time.monotonic() - began
                    phase["saves"] += saves
                    if kind == "with":
                        time.sleep(3.0)  # the last deals' news on their way
                        parent.send("disconnect")
                        answer = parent.recv()
                        refused += answer["refused"]
                        closed += answer["closed"]
                        arrived = {}
                        for game, deals, at in answer["seen"]:
                            arrived.setdefault((game, deals), []).append(at)
                        for save in saves:
                            times = arrived.get((save["game"], save["deals"]), [])
                            expected += connects[-1]["connected"]
                            received += len(times)
                            delays += [at - save["at"] for at in times]
                        time.sleep(1.0)  # the server lets the streams go
        parent.send("quit")
    finally:
        followers.join(timeout=10)
        if followers.is_alive():
            followers.terminate()
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        import redis

        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)

    result = report(args, phases, delays, expected, received, connects, refused, closed, load)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 0 if result["met"] else 1


def report(args, phases, delays, expected, received, connects, refused, closed, load) -> dict:
    print()
    print(f"machine: {os.cpu_count()} CPUs; load average {os.getloadavg()}")
    print(load.summary())
    connected = [c["connected"] for c in connects]
    print(
        f"followers: {connected} of {args.followers} connected per block, in "
        f"{', '.join(format(c['seconds'], '.1f') for c in connects)} s; refused {refused}, "
        f"closed before ready (fallback) {closed}"
    )
    p50, p95 = statistics.median(delays) if delays else float("nan"), pct(delays, 0.95)
    print(
        f"save -> follower: {len(delays)} news read of {expected} expected "
        f"({received / expected:.1%}); median {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {max(delays, default=float('nan')) * 1000:.0f} ms (target p95 < {TARGET_P95:g} s)"
        if expected
        else "save -> follower: nothing expected"
    )
    rows = {}
    for kind in ("without", "with"):
        phase = phases[kind]
        took = [s["took"] for s in phase["saves"]]
        cpu = phase["cpu"] / TICK / phase["seconds"] if phase["seconds"] else float("nan")
        rows[kind] = {
            "saves": len(took),
            "save_median_ms": statistics.median(took) * 1000 if took else None,
            "save_p95_ms": pct(took, 0.95) * 1000 if took else None,
            "server_cpu_of_one_core": cpu,
            "server_rss_mib_peak": max(phase["rss"], default=0),
            "server_threads_peak": max(phase["threads"], default=0),
            "pg_connections_peak": max(phase["pg"], default=0),
        }
    print()
    print(f"{'':28}{'without followers':>20}{'with followers':>18}")
    lines = [
        ("deals saved", "saves", "{:.0f}"),
        ("save latency median (ms)", "save_median_ms", "{:.1f}"),
        ("save latency p95 (ms)", "save_p95_ms", "{:.1f}"),
        ("server CPU (share of a core)", "server_cpu_of_one_core", "{:.0%}"),
        ("server memory, peak (MiB)", "server_rss_mib_peak", "{:.0f}"),
        ("server threads, peak", "server_threads_peak", "{:.0f}"),
        ("PostgreSQL connections held", "pg_connections_peak", "{:.0f}"),
    ]
    for label, key, fmt in lines:
        print(
            f"{label:28}{fmt.format(rows['without'][key]):>20}{fmt.format(rows['with'][key]):>18}"
        )
    met = bool(expected) and p95 < TARGET_P95 and received >= 0.99 * expected
    print()
    print(
        f"target (p95 under {TARGET_P95:g} s, at least 99% delivered): "
        f"{'MET' if met else 'NOT MET'}"
    )
    return {
        "followers": args.followers,
        "tables": args.tables,
        "interval": args.interval,
        "delays": {"count": len(delays), "expected": expected, "median_s": p50, "p95_s": p95},
        "phases": rows,
        "other_cpu_mean": load.mean,
        "load_average": os.getloadavg(),
        "met": met,
    }


if __name__ == "__main__":
    multiprocessing.set_start_method("spawn", force=True)
    raise SystemExit(main())
