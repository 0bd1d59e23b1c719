"""Every page a scorer, secretary or visitor uses, at 50 and at 500 teams: time, queries, size.

Two public clubs in one database of their own: a small one (``--small`` teams) and a big one
(``--big`` teams, 500 by default, in divisions of ``--per-division``, 20 of 25 teams), each
with a whole season played (a double round robin, one confirmed game a fixture, every deal
simulated and scored by the rules engine, bulk-inserted by ``_league.played_division``,
the aggregates, leaderboards and ratings built by ``standings_rebuild``), and a game at the
table in each.

Then, interleaved in one run (each repeat times every page of both clubs, in rotating
order, so the machine's other load falls on all alike), a logged-in scorer's GET through
Django's test client (the whole stack: middleware, sessions, templates) of: start a game
(step 1 and a division's step 2), deal entry, a score sheet, the division's schedule, its
standings, the leaderboards, the positions chart, a player's page and a team's page (its
schedule and its standings page).

It prints, per page and club, the median time, the median CPU time of one request (this
process's thread and its PostgreSQL backend, from ``/proc/<pid>/schedstat``: what the
request costs the machine, which other processes' load does not inflate as it does the
time), the queries of one request and the HTML size, and whether the big club meets issue
18's targets: under 150 ms (of CPU when the run is disturbed, else of time) and 200 KB, and
the same number of queries as the small club (constant queries). The CPU other processes
took during the run is printed too (``_machine.OtherLoad``): on a shared machine compare
the two clubs' lines, not the absolute times.

``--language nl`` (any of the site's languages) times every page twice in each repeat,
interleaved: in English and in that language (a second scorer whose own language it is), and
prints each page's ratio, against issue 33's target: no page more than 10% slower than in
English (the ratio of the medians of CPU when the run is disturbed, else of time).

``--reuse`` keeps the database of the previous run (same options) instead of building the
clubs again, which takes minutes.

    .venv/bin/python bench/pages.py [--big 500] [--small 50] [--per-division 25] [--repeat 5]
                                    [--reuse] [--language nl]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import _django

REUSE = "--reuse" in sys.argv
# BENCH_DATABASE_URL may name another database (two runs at once): watch the one in use.
DB_NAME = urlsplit(_django.setup("clabber_league_bench_pages", keep=REUSE)).path.lstrip("/")

from _league import club_with_season, played_division  # noqa: E402
from _machine import OtherLoad  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from clabber_league.clubs.models import Membership, Role  # noqa: E402
from clabber_league.games import services as games  # noqa: E402
from clabber_league.games.models import Game  # noqa: E402
from clabber_league.leagues.models import Division, Team  # noqa: E402
from clabber_league.standings.services.rebuild import standings_rebuild  # noqa: E402

TARGET_MS = 150.0
TARGET_KB = 200.0


def cpu_ms(pid: int) -> float:
    """CPU time the process or thread ``pid`` has run, in ms (0 where /proc lacks it)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


def build(slug: str, teams: int, per_division: int, rng: random.Random, scorer) -> None:
    """A club of ``teams`` teams, its season played, and a game at the table."""
    club, season = club_with_season(slug)
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    divisions = []
    left = teams
    while left > 0:
        size = min(per_division, left)
        divisions.append(
            played_division(
                club,
                season,
                name=f"Division {len(divisions) + 1}",
                teams_count=size,
                games_per_fixture=1,
                rng=rng,
            )
        )
        left -= size
    for division in divisions:
        standings_rebuild(division=division)
    division = divisions[-1]
    home, away = Team.objects.filter(division=division).order_by("pk")[:2]
    seats = [
        home.members.order_by("position")[0].player,
        away.members.order_by("position")[0].player,
        home.members.order_by("position")[1].player,
        away.members.order_by("position")[1].player,
    ]
    games.game_start(
        club=club,
        division=division,
        sides={"A": home, "B": away},
        seats=seats,
        user=scorer,
    )


def urls(slug: str) -> dict[str, str]:
    """The pages' URLs in the club ``slug``: its last division's."""
    division = Division.objects.filter(club__slug=slug).order_by("-pk").first()
    home = Team.objects.filter(division=division).order_by("pk")[0]
    live = Game.objects.get(division=division, status="in_progress")
    played = Game.objects.filter(division=division, status="confirmed").order_by("pk").first()
    player = home.members.order_by("position")[0].player
    base = f"/clubs/{slug}"
    return {
        "start a game": f"{base}/games/new/",
        "start a game, a division": f"{base}/games/new/?division={division.pk}",
        "deal entry": f"{base}/games/{live.pk}/deal/",
        "score sheet": f"{base}/games/{played.pk}/",
        "division schedule": f"{base}/schedule/divisions/{division.pk}/",
        "standings": f"{base}/standings/divisions/{division.pk}/",
        "leaderboards": f"{base}/standings/leaderboards/",
        "positions chart": f"{base}/standings/divisions/{division.pk}/positions/",
        "player page": f"{base}/standings/players/{player.pk}/",
        "team schedule": f"{base}/schedule/teams/{home.pk}/",
        "team page": f"{base}/standings/teams/{home.pk}/",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=500)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--per-division", type=int, default=25)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--reuse", action="store_true", help="the previous run's clubs")
    parser.add_argument("--language", help="also time every page in this language")
    args = parser.parse_args()
    if args.language:
        from django.conf import settings

        assert args.language in dict(settings.LANGUAGES), f"not a language: {args.language}"

    started = time.perf_counter()
    sizes = {"small": args.small, "big": args.big}
    if args.reuse:
        scorer = get_user_model().objects.get(username="bench-scorer")
        print("the clubs of the previous run (--reuse)")
    else:
        rng = random.Random(args.seed)
        scorer = get_user_model().objects.create_user("bench-scorer", password="x")
        with transaction.atomic():
            for slug, teams in sizes.items():
                build(slug, teams, args.per_division, rng, scorer)
        print(
            f"built two clubs of {args.small} and {args.big} teams (divisions of "
            f"{args.per_division}, a season each played) in "
            f"{time.perf_counter() - started:.0f} s"
        )
    backend = _django.settled_backend()
    clubs = {f"{teams} teams": urls(slug) for slug, teams in sizes.items()}

    client = Client()
    client.force_login(scorer)
    if args.language:
        compare_languages(scorer, clubs, backend, args.language, args.repeat)
        return
    pages = [(club, page, url) for club, urls in clubs.items() for page, url in urls.items()]
    facts = {}
    for club, page, url in pages:  # warm every page once; count its queries and size
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        facts[(club, page)] = (len(queries.captured_queries), len(response.content) / 1024)
    times: dict[tuple[str, str], list[float]] = {(club, page): [] for club, page, _ in pages}
    cpu: dict[tuple[str, str], list[float]] = {(club, page): [] for club, page, _ in pages}
    thread = threading.get_native_id()
    with OtherLoad(databases=[DB_NAME]) as load:
        for r in range(args.repeat):
            for club, page, url in pages[r % len(pages) :] + pages[: r % len(pages)]:
                cpu_from = cpu_ms(thread) + cpu_ms(backend)
                start = time.perf_counter()
                client.get(url)
                times[(club, page)].append((time.perf_counter() - start) * 1000)
                cpu[(club, page)].append(cpu_ms(thread) + cpu_ms(backend) - cpu_from)

    small, big = clubs
    judged = "CPU" if load.disturbed else "time"
    header = f"{'page':<26}" + "".join(f"{c + ': ms / CPU ms / queries / KB':>42}" for c in clubs)
    print(f"\n{header}{'target':>10}")
    missed = []
    for page in clubs[big]:
        cells = []
        for club in clubs:
            count, kb = facts[(club, page)]
            median = statistics.median(times[(club, page)])
            median_cpu = statistics.median(cpu[(club, page)])
            cells.append(f"{median:>15.1f}{median_cpu:>10.1f}{count:>8}{kb:>9.1f}")
        count, kb = facts[(big, page)]
        ms = statistics.median((cpu if judged == "CPU" else times)[(big, page)])
        ok = ms < TARGET_MS and kb < TARGET_KB and count == facts[(small, page)][0]
        if not ok:
            missed.append(page)
        print(f"{page:<26}{''.join(cells)}{'met' if ok else 'MISSED':>10}")
    print(
        f"\ntargets at {big}: under {TARGET_MS:.0f} ms (of {judged}: the run was "
        f"{'disturbed' if load.disturbed else 'undisturbed'}) and {TARGET_KB:.0f} KB, and the "
        f"same queries as at {small}; missed: {', '.join(missed) or 'none'}"
    )
    print(load.summary())


LANGUAGE_TARGET = 1.10  # issue 33: no page more than 10% slower than in English


def compare_languages(scorer, clubs, backend: int, language: str, repeat: int) -> None:
    """Every page in English and in ``language``, interleaved, with each page's ratio."""

    from clabber_league.members import services as member_services

    twin, _ = get_user_model().objects.get_or_create(username=f"bench-scorer-{language}")
    for membership in Membership.objects.filter(user=scorer):
        Membership.objects.get_or_create(club=membership.club, user=twin, role=membership.role)
    member_services.profile_set_language(user=twin, language=language)
    clients = {"en": Client(), language: Client()}
    clients["en"].force_login(scorer)
    clients[language].force_login(twin)
    runs = [
        (club, page, url, lang)
        for club, urls in clubs.items()
        for page, url in urls.items()
        for lang in clients
    ]
    for _club, _page, url, lang in runs:  # warm; and each page must answer in its language
        response = clients[lang].get(url)
        assert response.status_code == 200, (url, lang, response.status_code)
        assert response.headers["Content-Language"] == lang, (url, lang)
    times: dict[tuple, list[float]] = {(c, p, lang): [] for c, p, _, lang in runs}
    cpu: dict[tuple, list[float]] = {(c, p, lang): [] for c, p, _, lang in runs}
    thread = threading.get_native_id()
    with OtherLoad(databases=[DB_NAME]) as load:
        for r in range(repeat):
            # English first on even repeats, the other language first on odd ones.
            for club, page, url, lang in runs if r % 2 == 0 else runs[::-1]:
                cpu_from = cpu_ms(thread) + cpu_ms(backend)
                start = time.perf_counter()
                clients[lang].get(url)
                times[(club, page, lang)].append((time.perf_counter() - start) * 1000)
                cpu[(club, page, lang)].append(cpu_ms(thread) + cpu_ms(backend) - cpu_from)
    judged = cpu if load.disturbed else times
    basis = "CPU" if load.disturbed else "time"
    print(
        f"\n{'page':<26}{'club':>10}{'en ms':>9}{language + ' ms':>9}{'ratio (' + basis + ')':>15}"
    )
    missed = []
    for club, urls in clubs.items():
        for page in urls:
            en = statistics.median(judged[(club, page, "en")])
            other = statistics.median(judged[(club, page, language)])
            ratio = other / en if en else 1.0
            if ratio > LANGUAGE_TARGET:
                missed.append(f"{page} ({club})")
            print(f"{page:<26}{club:>10}{en:>9.1f}{other:>9.1f}{ratio:>15.2f}")
    print(
        f"\ntarget: no page more than {LANGUAGE_TARGET - 1:.0%} slower in {language} than in "
        f"English (medians of {basis}, {repeat} repeats); missed: {', '.join(missed) or 'none'}"
    )
    print(load.summary())


if __name__ == "__main__":
    main()
