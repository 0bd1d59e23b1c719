"""Benchmark of schedule generation: a 40-team and a 1,000-team double round robin.

    .venv/bin/python bench/schedule.py [--big 1000] [--small 40]

Each case runs the Celery task's work (``schedule_run_execute``) in a process of
its own, so that its peak memory (``resource.getrusage``'s maxrss) is its own: reading
the teams and venues, planning the rounds (Berger tables) and nights, and inserting every
fixture in one transaction (``COPY`` on PostgreSQL, ``bulk_create`` elsewhere) up to the
commit. Building the league (clubs, teams, venues) is not timed.

The database is ``BENCH_DATABASE_URL``, else ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/clabber_league_bench``; a missing PostgreSQL database
is created, and it is migrated. The bench's own club is deleted before and after, so any
other data in that database is left alone.

Targets: 40 teams in under 1 s; 1,000 teams (999,000 fixtures) in under 60 s and 1 GiB.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/clabber_league_bench"
CLUB_SLUG = "bench-schedule"
TARGETS = {"small": (1.0, None), "big": (60.0, 1024.0)}  # seconds, MiB


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_URL


def setup_django(url: str, migrate: bool) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "clabber_league.config.settings.test"
    os.environ.pop("REDIS_URL", None)  # the bench runs the task's work itself
    sys.path.insert(0, str(ROOT))
    if migrate and url.startswith(("postgres://", "postgresql://")):
        _create_database(url)
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)


def _create_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return
        conn.execute(f'CREATE DATABASE "{name}"')


def clean() -> None:
    """Delete the bench's club; its fixtures first, in one statement (there may be a
    million of them, and no game points at them)."""
    from django.db import connection, transaction

    from clabber_league.clubs.models import Club
    from clabber_league.scheduling.models import Fixture

    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None:
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Fixture._meta.db_table} WHERE club_id = %s", [club.pk])
        club.delete()


def league(teams: int):
    """A club with one division of ``teams`` teams, its config and venues enough for a round
    a night (a small league fills a 12-table hall and overflows into an 8-table annex)."""
    from clabber_league.clubs.models import Club
    from clabber_league.leagues.models import Division, Season, Team, Venue
    from clabber_league.scheduling.models import ScheduleRun
    from clabber_league.scheduling.services.generation import schedule_config_save

    club = Club.objects.create(name="Bench club", slug=CLUB_SLUG)
    season = Season.objects.create(
        club=club, name="Bench", slug="bench", start_date=dt.date(2027, 1, 4)
    )
    division = Division.objects.create(club=club, season=season, name="D", slug="d")
    Team.objects.bulk_create(
        Team(club=club, division=division, name=f"Team {i:04d}") for i in range(teams)
    )
    per_round = teams // 2
    if per_round <= 20:
        venues = [
            Venue.objects.create(club=club, name="Hall", tables=12),
            Venue.objects.create(club=club, name="Annex", tables=8),
        ]
    else:
        venues = [Venue.objects.create(club=club, name="Arena", tables=min(per_round, 500))]
        if per_round > 500:
            venues.append(Venue.objects.create(club=club, name="Annex", tables=per_round - 500))
    schedule_config_save(
        division=division,
        cycles=2,
        weekday=0,
        start_date=season.start_date,
        venues=venues,
        skip_dates=[dt.date(2027, 12, 27)],
    )
    return ScheduleRun.objects.create(club=club, division=division)


def run_case(kind: str, teams: int) -> dict[str, object]:
    """In a process of its own: build the league, time the generation, report."""
    setup_django(database_url(), migrate=False)
    from django.db import connection

    from clabber_league.scheduling.models import Fixture
    from clabber_league.scheduling.services.generation import schedule_run_execute

    clean()
    run = league(teams)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    run = schedule_run_execute(run_id=run.pk, today=dt.date(2027, 1, 1))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    count = Fixture.objects.filter(division_id=run.division_id).count()
    expected = teams * (teams - 1)
    result = {
        "kind": kind,
        "teams": teams,
        "fixtures": count,
        "expected": expected,
        "state": run.state,
        "message": run.message,
        "seconds": seconds,
        "peak_mib": peak,
        "before_mib": rss_before,
        "vendor": connection.vendor,
    }
    clean()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=40, help="teams of the small league")
    parser.add_argument("--big", type=int, default=1000, help="teams of the big league")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--teams", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case == "migrate":
        setup_django(database_url(), migrate=True)
        return 0
    if args.case:
        print(json.dumps(run_case(args.case, args.teams)))
        return 0

    # This process stays small (no Django): each child's peak memory is then its own.
    url = database_url()
    subprocess.run([sys.executable, __file__, "--case", "migrate"], check=True)
    parts = urlsplit(url)
    where = f"{parts.scheme}://{parts.hostname or ''}{parts.path}"
    print(f"Schedule generation on {where}")
    results = []
    for kind, teams in (("small", args.small), ("big", args.big)):
        out = subprocess.run(
            [sys.executable, __file__, "--case", kind, "--teams", str(teams)],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            print(out.stdout, out.stderr, file=sys.stderr)
            return out.returncode
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))

    header = (
        f"{'league':<34} {'fixtures':>10} {'seconds':>8} {'fixtures/s':>11} "
        f"{'peak RSS':>10} {'target':>16} {'':>4}"
    )
    print(header)
    print("-" * len(header))
    ok = True
    for r in results:
        max_s, max_mib = TARGETS[str(r["kind"])]
        passed = (
            r["state"] == "done"
            and r["fixtures"] == r["expected"]
            and r["seconds"] < max_s
            and (max_mib is None or r["peak_mib"] < max_mib)
        )
        ok &= passed
        target = f"< {max_s:g} s" + (f", {max_mib / 1024:g} GiB" if max_mib else "")
        print(
            f"{r['teams']:>5,} teams, double round robin   {r['fixtures']:>10,} "
            f"{r['seconds']:>8.2f} {r['fixtures'] / r['seconds']:>11,.0f} "
            f"{r['peak_mib']:>7,.0f} MiB {target:>16} {'ok' if passed else 'MISS':>4}"
        )
        if r["state"] != "done":
            print(f"   run {r['state']}: {r['message']}")
    print(
        f"(peak RSS is the whole process's: Django and the league it built took "
        f"{results[-1]['before_mib']:,.0f} MiB before the run; database: {results[-1]['vendor']})"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
