"""Backups of a big club: export_club and import_club, their time and their peak memory.

For each size (``--teams``, a list: the trend is the point), a club with one division of
that many teams plays a double round robin of ``--games-per-fixture`` games a fixture,
every game's deals simulated and scored by the rules engine and bulk-inserted, the
standings built from them (``standings_rebuild``). Then, each in a process of its own so
its peak memory is its own:

- **export**: ``club_export`` of the club to a file (what ``manage.py export_club -o``
  does);
- **import**: ``club_import`` of that file as a copy beside the original (``--slug``):
  new ids for every row, so the standings are recomputed, one division at a time;
- **restore**: the club deleted first (not timed), then ``club_import`` of the same file,
  as after losing the database: every row keeps its id, the standings rows load as they
  are.

Each line gives rows, seconds, rows per second, the process's peak RSS (``ru_maxrss``)
and its growth over the process after Django's setup, and, with ``--tracemalloc``, the
peak of Python's allocations (slower: a second run of each phase). Constant memory means
the peak does not grow with the rows. The machine's CPU use during each phase is printed
beside it (all CPUs, and the phase's own process; PostgreSQL's work counts as "other").

Runs on PostgreSQL, in a database of its own (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/clabber_league_bench_backup``), made anew per size.

    .venv/bin/python bench/backup.py [--teams 24,50] [--games-per-fixture 3] [--tracemalloc]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import _django
from _machine import cpu_times

DB_NAME = "clabber_league_bench_backup"
HERE = Path(__file__).resolve()


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024  # kB
    return 0.0


def rss_reset_peak() -> float:
    """Forget the peak RSS so far (Linux: ``clear_refs`` 5), so the phase's own peak is
    measured, not Django's start-up; returns the RSS now."""
    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")
    return _status_mb("VmRSS") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_peak_mb() -> float:
    return _status_mb("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- the club ------------------------------------------------------------------------


def build(teams_count: int, games_per_fixture: int, seed: int) -> int:
    """A club of ``teams_count`` teams with a whole season played; returns its club id.
    Every player has a login and a membership, so the accounts are in the backup too."""
    from _league import partnerships, play, schedule
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from clabber_league.clubs.models import Club, Membership, Player
    from clabber_league.leagues.models import Division, Season
    from clabber_league.standings.services.rebuild import standings_rebuild

    rng = random.Random(seed)
    with transaction.atomic():
        club = Club.objects.create(name="Bench Club", slug="bench")
        season = Season.objects.create(
            club=club, name="Season", slug="season", start_date=datetime.date(2026, 1, 5)
        )
        division = Division.objects.create(club=club, season=season, name="Premier", slug="p")
        users = get_user_model().objects.bulk_create(
            get_user_model()(username=f"bench-{i}", email=f"p{i}@example.org")
            for i in range(teams_count * 2)
        )
        Membership.objects.bulk_create(Membership(club=club, user=u) for u in users)
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Player {i:04d}", user=users[i]) for i in range(teams_count * 2)
        )
        teams = partnerships(club, division, players, "Team")
        fixtures = schedule(
            club,
            division,
            teams,
            start=season.start_date,
            games_planned=games_per_fixture,
            status="played",
        )
        # a few hundred games at a time: the bench's own memory stays small
        play(fixtures, teams, players, games_per_fixture=games_per_fixture, rng=rng)
        standings_rebuild(division=division)
    return club.pk


# --- one phase, in a process of its own ------------------------------------------------


def phase(name: str, path: str, trace: bool) -> None:
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or (
        _django.DEFAULT_URL.format(name=DB_NAME)
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clabber_league.config.settings.test")
    sys.path.insert(0, str(_django.ROOT))
    import django

    django.setup()
    from clabber_league.backup import services as backup_services
    from clabber_league.backup.services import club_export, club_import
    from clabber_league.clubs.models import Club

    club = Club.objects.get(slug="bench")  # warm: the connection is open, models loaded
    rebuild = backup_services._rebuild_derived
    split: dict[str, float] = {}

    def timed_rebuild(restored) -> None:  # the import's last step, measured on its own
        split["load_s"] = time.perf_counter() - start
        split["load_rss_mb"] = rss_peak_mb()
        if trace:
            split["load_traced_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.reset_peak()
        rebuild(restored)
        split["rebuild_s"] = time.perf_counter() - start - split["load_s"]
        if trace:
            split["rebuild_traced_mb"] = tracemalloc.get_traced_memory()[1] / 2**20

    backup_services._rebuild_derived = timed_rebuild
    if name == "restore":  # the database lost the club: every row comes back with its id
        paths = backup_services._club_paths()
        for model in reversed(backup_services._ordered(paths)):
            model._default_manager.filter(**{paths[model]: club.pk}).delete()
    baseline = rss_reset_peak()
    if trace:
        tracemalloc.start()
    cpu_from, own_from, start = cpu_times(), os.times(), time.perf_counter()
    if name == "export":
        with open(path, "w", encoding="utf-8") as out:
            rows = club_export(club=club, out=out)
    else:
        slug = None if name == "restore" else f"copy-{os.getpid()}"
        with open(path, encoding="utf-8") as src:
            rows = club_import(lines=src, slug=slug).rows
    seconds = time.perf_counter() - start
    own_to, cpu_to = os.times(), cpu_times()
    busy = (cpu_to[0] - cpu_from[0]) / max(1, cpu_to[1] - cpu_from[1])
    own = (own_to.user + own_to.system - own_from.user - own_from.system) / (
        seconds * (os.cpu_count() or 1)
    )
    result = {
        "rows": rows,
        "seconds": seconds,
        "rss_peak_mb": rss_peak_mb(),
        "rss_growth_mb": rss_peak_mb() - baseline,
        **split,
        "cpu_all": busy,
        "cpu_own": own,
    }
    if trace:
        result["traced_peak_mb"] = max(
            tracemalloc.get_traced_memory()[1] / 2**20,
            split.get("load_traced_mb", 0.0),
        )
    print(json.dumps(result))


def run_phase(name: str, path: str, trace: bool) -> dict:
    command = [sys.executable, str(HERE), "--phase", name, "--file", path]
    if trace:
        command.append("--tracemalloc")
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", default="24,50", help="sizes, comma-separated")
    parser.add_argument("--games-per-fixture", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tracemalloc", action="store_true", help="also Python's peak")
    parser.add_argument("--phase", choices=["export", "import", "restore"], help=argparse.SUPPRESS)
    parser.add_argument(
        "--file", help="keep the (last size's) backup file here, e.g. to import it elsewhere"
    )
    args = parser.parse_args()
    if args.phase:
        phase(args.phase, args.file, args.tracemalloc)
        return

    print(f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.2f}")
    header = (
        f"{'teams':>5} {'phase':<7} {'rows':>8} {'s':>7} {'rows/s':>8} {'peak RSS MB':>11} "
        f"{'growth MB':>9} {'traced MB':>9} {'CPU all':>7} {'own':>5} {'load':>5}"
    )
    lines = [header]
    for teams in [int(t) for t in args.teams.split(",")]:
        _django.setup(DB_NAME)
        start = time.perf_counter()
        build(teams, args.games_per_fixture, args.seed)
        print(f"built a club of {teams} teams in {time.perf_counter() - start:.0f} s")
        with tempfile.TemporaryDirectory() as tmp:
            path = args.file or str(Path(tmp) / "club.jsonl")
            for name in ("export", "import", "restore"):
                figures = run_phase(name, path, trace=False)
                traced, traced_fig = "-", {}
                if args.tracemalloc:
                    traced_fig = run_phase(name, path, trace=True)
                    traced = f"{traced_fig['traced_peak_mb']:.1f}"
                if name == "export":
                    size = Path(path).stat().st_size / 2**20
                    print(f"  the file: {size:.1f} MB")
                lines.append(
                    f"{teams:>5} {name:<7} {figures['rows']:>8} {figures['seconds']:>7.1f} "
                    f"{figures['rows'] / figures['seconds']:>8.0f} "
                    f"{figures['rss_peak_mb']:>11.0f} {figures['rss_growth_mb']:>9.0f} "
                    f"{traced:>9} {figures['cpu_all']:>7.0%} {figures['cpu_own']:>5.0%} "
                    f"{os.getloadavg()[0]:>5.2f}"
                )
                print(lines[-1])
                if "load_s" in figures:
                    traced_split = ""
                    if traced_fig:
                        traced_split = (
                            f", traced {traced_fig['load_traced_mb']:.1f} MB loading and "
                            f"{traced_fig['rebuild_traced_mb']:.1f} MB rebuilding"
                        )
                    print(
                        f"        of which loading the rows {figures['load_s']:.1f} s "
                        f"(peak RSS {figures['load_rss_mb']:.0f} MB), rebuilding the "
                        f"standings {figures['rebuild_s']:.1f} s{traced_split}"
                    )
        from django.db import connections

        connections.close_all()
    print()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
