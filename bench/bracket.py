"""Benchmark of a knockout: seeding and drawing a 1,024-entrant double-elimination cup.

    .venv/bin/python bench/bracket.py [--entrants 1024] [--repeat 5] [--planner-only]

Two parts, each in a process of its own so that its peak resident memory (``ru_maxrss``)
is its own:

* **planner**: the pure planner (``cups.bracket``) alone: a random draw of the entrants
  from a shown seed (``random_seeding``), the double-elimination plan with a grand-final
  reset (``plan``: 2,047 matches for 1,024 entrants), and ``advance`` over a bracket
  played out to its champion (what the cup reads each time a tie is decided);
* **service**: the cup as a club secretary makes it, through the cups services on the
  bench database: ``cup_create`` (1,024 teams, random seeding: the entrants written with
  their seeds) and ``cup_draw`` (one tie row per match, the byes let through), each in its
  transaction up to the commit. Building the club and its teams is not timed. Skipped
  when the cups app is not installed.

Each figure is the best of ``--repeat`` runs (the median beside it); the memory is
``tracemalloc``'s peak of Python allocations over one more run, traced on its own so the
tracing does not slow the timed runs, and the process's ``ru_maxrss`` (everything it ever
held, Django included) with its value before the work beside it.

The database is ``BENCH_DATABASE_URL``, else the PostgreSQL database
``clabber_league_bench_bracket`` on this machine (dropped and made again each run).

Targets: seeding and drawing (and, for the service, writing every tie) under 1 s and
200 MiB. The other processes' CPU during the run is printed (``bench/_machine.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _machine import OtherLoad  # noqa: E402

TARGET_SECONDS = 1.0
TARGET_MIB = 200.0
DATABASE = "clabber_league_bench_bracket"
SEED = "b3nch1024"


def maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def measure(work: Callable[[], object], repeat: int, before: Callable[[], None] | None = None):
    """Best and median seconds of ``repeat`` runs, then tracemalloc's peak (MiB) of one."""
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    if before:
        before()
    tracemalloc.start()
    work()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return min(times), statistics.median(times), peak


# --- the parts, each run in a child process ---------------------------------------------------


def part_planner(entrants: int, repeat: int) -> list[dict]:
    from clabber_league.cups.bracket import advance, plan, random_seeding

    rss_before = maxrss_mib()
    ids = list(range(1, entrants + 1))

    def seed_and_draw():
        return random_seeding(ids, SEED), plan(entrants, double=True, reset=True)

    _, bracket = seed_and_draw()
    rng = random.Random(SEED)
    results: dict[str, int] = {}
    while ready := advance(bracket, results).ready():
        for slot in ready:
            results[slot.match.key] = rng.choice([slot.home, slot.away])

    rows = []
    best, median, peak = measure(seed_and_draw, repeat)
    rows.append(
        {
            "case": f"planner: seed and draw {entrants} (double, reset)",
            "detail": f"{len(bracket.matches)} matches",
            "best": best,
            "median": median,
            "peak_mib": peak,
            "target": True,
        }
    )
    best, median, peak = measure(lambda: advance(bracket, results), repeat)
    rows.append(
        {
            "case": "planner: advance over the bracket played out",
            "detail": f"{len(results)} results",
            "best": best,
            "median": median,
            "peak_mib": peak,
            "target": False,
        }
    )
    for row in rows:
        row["rss_mib"], row["rss_before_mib"] = maxrss_mib(), rss_before
    return rows


def part_service(entrants: int, repeat: int) -> list[dict]:
    import _django

    _django.setup(DATABASE)
    from django.db import connection

    from clabber_league.clubs.models import Club, Player
    from clabber_league.leagues.models import Division, Season, Team, TeamMember

    # The app under measure, imported (and its models loaded) before anything is timed.
    cups_models = importlib.import_module("clabber_league.cups.models")
    cups_setup = importlib.import_module("clabber_league.cups.services.setup")
    Cup = cups_models.Cup

    club = Club.objects.create(name="Bench cup club", slug="bench-cup", is_public=True)
    season = Season.objects.create(
        club=club, name="Bench season", slug="bench", start_date="2026-01-05"
    )
    division = Division.objects.create(club=club, season=season, name="All", slug="all")
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Player {i:04d}") for i in range(entrants * 2)
    )
    teams = Team.objects.bulk_create(
        Team(club=club, division=division, name=f"Team {i:04d}") for i in range(entrants)
    )
    TeamMember.objects.bulk_create(
        TeamMember(team=team, player=players[2 * i + p], position=p)
        for i, team in enumerate(teams)
        for p in range(2)
    )
    rss_before = maxrss_mib()

    made: dict[str, Cup] = {}

    def create_and_draw() -> None:  # a new cup each run (a drawn cup's rows are protected)
        cup = cups_setup.cup_create(
            club=club,
            name=f"Bench cup {Cup.objects.filter(club=club).count() + 1}",
            teams=teams,
            format=Cup.Format.DOUBLE,
            final_reset=True,
            seeding=Cup.Seeding.RANDOM,
            seed_text=SEED,
        )
        made["cup"] = cups_setup.cup_draw(cup=cup)

    best, median, peak = measure(create_and_draw, repeat)
    cup = made["cup"]
    rows = [
        {
            "case": f"service: cup_create + cup_draw, {entrants} teams (double, reset)",
            "detail": f"{cup.entrants.count()} entrants, {cup.ties.count()} ties written "
            f"({connection.vendor})",
            "best": best,
            "median": median,
            "peak_mib": peak,
            "target": True,
        }
    ]
    for row in rows:
        row["rss_mib"], row["rss_before_mib"] = maxrss_mib(), rss_before
    return rows


PARTS = {"planner": part_planner, "service": part_service}


# --- the driver -------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--planner-only", action="store_true")
    parser.add_argument("--part", choices=sorted(PARTS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.part:  # a child: one part, its rows as JSON on the last line
        print(json.dumps(PARTS[args.part](args.entrants, args.repeat)))
        return 0

    parts = ["planner"]
    if args.planner_only:
        pass
    elif importlib.util.find_spec("clabber_league.cups.services") is None:
        print("the cups app is not installed: the service part is skipped")
    else:
        parts.append("service")
    rows: list[dict] = []
    with OtherLoad(databases=[DATABASE]) as load:
        for part in parts:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--part",
                    part,
                    "--entrants",
                    str(args.entrants),
                    "--repeat",
                    str(args.repeat),
                ],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            rows += json.loads(out.stdout.strip().splitlines()[-1])
    failed = False
    print(f"bench/bracket.py: {args.entrants} entrants, best of {args.repeat} (median)")
    for row in rows:
        verdict = ""
        if row["target"]:
            ok = row["best"] < TARGET_SECONDS and row["rss_mib"] < TARGET_MIB
            failed |= not ok
            verdict = "  OK" if ok else "  OVER TARGET"
        print(
            f"  {row['case']}: {row['best'] * 1000:.1f} ms ({row['median'] * 1000:.1f} ms); "
            f"{row['detail']}; tracemalloc peak {row['peak_mib']:.1f} MiB; "
            f"ru_maxrss {row['rss_mib']:.0f} MiB (before the work {row['rss_before_mib']:.0f})"
            f"{verdict}"
        )
    print(f"  targets: under {TARGET_SECONDS:.0f} s and {TARGET_MIB:.0f} MiB")
    print("  " + load.summary())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
