"""A federation of 40 clubs and 1,200 players through a season: one club night's results
file imported through the results exchange, its period closed and the national ranking
recomputed after it, and the ranking's pages.

Built in bulk (no deal is simulated: the ranking reads a confirmed game's final scores
and seats, nothing else): a federation of ``--clubs`` member clubs of ``--players`` players
each, every player linked to a federation number (a third of them private), and a season
of ``--weeks`` weeks (20 by default, down from 30 so that a run stays within a few
minutes on the shared machine): each club's weekly club night (its players at tables of
four, three rounds: a division-less game per table and round) and its league (eight
partnerships, a double round robin). A quarter of the clubs play to 1500 under house
rules, the rest clabber to 1000, so the ranking's share-of-the-points rule has work to
do. The last club plays elsewhere: its players and numbers are here, its games are not,
so its results files count in the ranking (``exchange/ranking_source.py``).

Then, measured:

1. **Importing one club night's results file**: that club's night after the season (28
   players, three rounds of seven tables: 21 games of 16 deals), as the results file
   version 1 in JSON (``exchange.building.results_file``, what the export writes; players
   by federation number), taken in by an officer through
   ``exchange.services.result_file_import`` (schema, checks, the file and its rows
   written): time, CPU, queries, and the Python memory it allocated at its peak
   (``tracemalloc``, on the corrected file below, so that the first import's time is
   clean). Then, for reference, the same file again (idempotent: nothing written) and a
   corrected file (same event, later, one table's score changed: it replaces the first).
   Target: under 1 s.
2. **Its period closed and the ranking recomputed after it**:
   ``exchange.services.period_close`` on the night's month; the recomputation it queues
   runs in-process on commit (no ``REDIS_URL``: Celery's eager mode), replaying from the
   period's start. Then, for reference, the whole season replayed (what a change of the
   placing points costs), with the process's resident memory before and its peak.
3. **The pages**: the ranking (page 1 and a late page), a player's history (a busy
   player, a quiet one, and one of the club that plays elsewhere, ranked from its file),
   the explanation, the federation's home page (its ranking section: the top ten), and the
   API's list: each warmed once (queries and size counted), then ``--repeat`` rounds,
   interleaved in rotating order, medians of time and CPU (this thread and its PostgreSQL
   backend). Targets: under 150 ms and 200 KB, and the same number of queries on every
   page of a kind.

Prints the CPU other processes took meanwhile (``_machine.OtherLoad``) and the load
average: on a disturbed run the CPU figures are the ones to judge. PostgreSQL, in a
database of its own (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/clabber_ranking``). Leave ``REDIS_URL`` unset.

    .venv/bin/python bench/federation.py [--clubs 40] [--players 30] [--weeks 20] [--repeat 10]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import random
import resource
import statistics
import threading
import time
import tracemalloc
from pathlib import Path
from urllib.parse import urlsplit

import _django

os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/clabber_ranking")
DB_NAME = urlsplit(os.environ["BENCH_DATABASE_URL"]).path.lstrip("/")
_django.setup(DB_NAME)

from _machine import OtherLoad  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from clabber_league.clubs.models import Club, Player  # noqa: E402
from clabber_league.exchange import building  # noqa: E402
from clabber_league.exchange.models import ImportedResult, ResultFile  # noqa: E402
from clabber_league.exchange.services import (  # noqa: E402
    period_close,
    period_create,
    result_file_import,
)
from clabber_league.federation.models import (  # noqa: E402
    Federation,
    FederationClub,
    FederationPlayer,
    Officer,
    PlayerLink,
)
from clabber_league.games.models import Game, GameSeat  # noqa: E402
from clabber_league.leagues.models import Division, Season  # noqa: E402
from clabber_league.ranking.models import (  # noqa: E402
    NationalRating,
    RankedEvent,
    RankingSettings,
    RatingStep,
)
from clabber_league.ranking.services import ranking_recompute  # noqa: E402

TARGET_IMPORT_S = 1.0
TARGET_MS = 150.0
TARGET_KB = 200.0
LONG = {"name": "Lange partij", "base": "clabber", "options": {"target": 1500}}
START = dt.date(2026, 9, 1)
TRUMPS = ("clubs", "diamonds", "hearts", "spades")


def cpu_ms(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


def rss_mb() -> float:
    """The process's resident memory now, in MB."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _game(club, rules, day, target, rng, *, division=None):
    a = rng.randint(target // 3, target + 160)
    b = rng.randint(target // 3, target + 160)
    if a == b:
        a += 1
    at = timezone.make_aware(dt.datetime.combine(day, dt.time(22, 30)))
    return Game(
        club=club,
        division=division,
        rules=rules,
        status=Game.Status.CONFIRMED,
        winner="A" if a > b else "B",
        score_a=a,
        score_b=b,
        deal_count=12,
        played_on=day,
        finished_at=at,
        confirmed_at=at,
    )


def build(args, rng: random.Random) -> Federation:
    """The federation, its clubs, players, numbers and a season of confirmed games."""
    federation = Federation.objects.create(name="Bench federation", slug="bench", number_prefix="B")
    clubs = Club.objects.bulk_create(
        [
            Club(name=f"Club {i}", slug=f"bench-club-{i}", is_public=True, is_approved=True)
            for i in range(args.clubs)
        ]
    )
    FederationClub.objects.bulk_create(
        [FederationClub(federation=federation, club=c) for c in clubs]
    )
    players = Player.objects.bulk_create(
        [Player(club=c, name=f"Player {c.pk}-{j}") for c in clubs for j in range(args.players)]
    )
    people = FederationPlayer.objects.bulk_create(
        [
            FederationPlayer(
                federation=federation,
                number=f"B{n + 1}",
                name=p.name,
                home_club=p.club,
                is_public=n % 3 != 0,
            )
            for n, p in enumerate(players)
        ]
    )
    Federation.objects.filter(pk=federation.pk).update(next_number=len(people) + 1)
    PlayerLink.objects.bulk_create(
        [
            PlayerLink(
                federation=federation,
                federation_player=fp,
                player=p,
                status=PlayerLink.Status.APPROVED,
            )
            for fp, p in zip(people, players, strict=True)
        ]
    )
    by_club: dict[int, list[Player]] = {}
    for p in players:
        by_club.setdefault(p.club_id, []).append(p)
    games, seats = [], []
    for i, club in enumerate(clubs[:-1]):  # the last club plays elsewhere: no games here
        rules, target = (LONG, 1500) if i % 4 == 0 else ("clabber", 1000)
        season = Season.objects.create(club=club, name="2026-27", slug="2026-27", start_date=START)
        division = Division.objects.create(
            club=club, season=season, name="League", slug="league", ruleset="clabber"
        )
        roster = by_club[club.pk]
        pairs = [roster[2 * k : 2 * k + 2] for k in range(8)]
        for week in range(args.weeks):
            day = START + dt.timedelta(days=7 * week)
            for _round in range(3):  # the club night: everyone at tables of four
                present = rng.sample(roster, len(roster) - len(roster) % 4)
                for t in range(0, len(present), 4):
                    games.append(_game(club, rules, day, target, rng))
                    seats.append(present[t : t + 4])
            if week < 14:  # the league: a double round robin of eight partnerships
                order = pairs[:1] + pairs[1:][week % 7 :] + pairs[1:][: week % 7]
                for k in range(4):
                    home, away = order[k], order[7 - k]
                    games.append(
                        _game(
                            club, rules, day + dt.timedelta(days=2), target, rng, division=division
                        )
                    )
                    seats.append([home[0], away[0], home[1], away[1]])
    games = Game.objects.bulk_create(games, batch_size=5000)
    GameSeat.objects.bulk_create(
        [
            GameSeat(game=g, seat=s, side="AB"[s % 2], player=p)
            for g, four in zip(games, seats, strict=True)
            for s, p in enumerate(four)
        ],
        batch_size=10000,
    )
    # Written directly: the service would queue a recomputation (eager here) on commit.
    RankingSettings.objects.create(
        federation=federation,
        placing_points={"night": [3, 1], "league": [2], "friendly": [1]},
    )
    user = get_user_model().objects.create_user(username="bench-officer", password="not-used-1")
    Officer.objects.create(federation=federation, user=user)
    return federation


def night_file(
    federation: Federation,
    club: Club,
    rng: random.Random,
    day: dt.date,
    *,
    corrected: bool = False,
) -> str:
    """The night after the season of the club that plays elsewhere, as its scoring program
    sends it: the results file version 1 in JSON, 28 players by federation number, three
    rounds of seven tables of 16 deals. ``corrected``: the same night written an hour later
    with one table's score changed (the file that replaces it)."""
    people = list(
        PlayerLink.objects.filter(federation=federation, player__club=club)
        .select_related("player", "federation_player")
        .order_by("player_id")[:28]
    )
    players = [
        building.PlayerIn(
            id=link.player_id,
            name=link.player.name,
            numbers=[(federation.slug, link.federation_player.number)],
        )
        for link in people
    ]
    ids = [p.id for p in players]
    games, points = [], dict.fromkeys(ids, 0)
    for rnd in range(3):
        rng.shuffle(ids)
        for t in range(7):
            four = ids[4 * t : 4 * t + 4]
            deals, totals = [], {"A": 0, "B": 0}
            for n in range(16):
                maker = rng.choice("AB")
                made = rng.random() < 0.8
                won = rng.randint(82, 162) if made else 162
                other = 162 - won
                scores = {maker: won if made else 0, "AB"[maker == "A"]: other if made else 162}
                totals["A"] += scores["A"]
                totals["B"] += scores["B"]
                deals.append(
                    building.DealIn(
                        number=n + 1,
                        dealer=n % 4,
                        outcome="made" if made else "wet",
                        maker=maker,
                        data={"maker": maker, "trump": rng.choice(TRUMPS), "points": scores},
                        scores=scores,
                    )
                )
            if corrected and rnd == 0 and t == 0:
                totals["A"] += 20
            for seat, pk in enumerate(four):
                points[pk] += totals["AB"[seat % 2]]
            games.append(
                building.GameIn(
                    id=10_000 * (rnd + 1) + t,
                    status="confirmed",
                    winner="A" if totals["A"] > totals["B"] else "B",
                    rules="clabber",
                    seats=[(pk, "AB"[seat % 2]) for seat, pk in enumerate(four)],
                    scores=totals,
                    date=day,
                    round=rnd + 1,
                    table=str(t + 1),
                    deals=deals,
                )
            )
    ordered = sorted(points, key=lambda pk: -points[pk])
    placings, place = [], 0
    for k, pk in enumerate(ordered):
        if not k or points[pk] != points[ordered[k - 1]]:
            place = k + 1
        placings.append(building.PlacingIn(f"p{pk}", place, points[pk]))
    made = dt.datetime.combine(day, dt.time(23, 30 if corrected else 10), tzinfo=dt.UTC)
    payload = building.results_file(
        sender=building.SenderIn(
            club_slug=club.slug,
            club_name=club.name,
            federations=[(federation.slug, federation.name)],
            site="https://elsewhere.example.org",
        ),
        event=building.EventIn(
            kind="night",
            key=f"night-{day.isoformat()}",
            name="Club night",
            date_from=day,
            date_to=day,
            rules="clabber",
            ranking="points",
        ),
        players=players,
        sides=[building.SideIn(key=f"p{p.id}", name=p.name, players=[p.id]) for p in players],
        placings=placings,
        games=games,
        generated_at=made,
        generator="another-scoring-program 2.1",
    )
    return json.dumps(payload)


def timed(thread: int, backend: int, work):
    """``work()`` run once: (its result, seconds, CPU ms of this thread and its backend,
    queries)."""
    c0 = cpu_ms(thread) + cpu_ms(backend)
    with CaptureQueriesContext(connection) as q:
        t0 = time.perf_counter()
        result = work()
        seconds = time.perf_counter() - t0
    return result, seconds, cpu_ms(thread) + cpu_ms(backend) - c0, len(q.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=40)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--weeks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    logging.getLogger("clabber_league.access").setLevel(logging.WARNING)
    for name in ("celery.app.trace", "kombu.connection"):  # the eager task's log lines
        logging.getLogger(name).setLevel(logging.ERROR)

    started = time.perf_counter()
    with transaction.atomic():
        federation = build(args, rng)
    print(
        f"built {args.clubs} clubs, {args.clubs * args.players} players, "
        f"{Game.objects.count():,} confirmed games in {time.perf_counter() - started:.0f} s"
    )
    first = time.perf_counter()
    events = ranking_recompute(federation=federation)
    print(f"first ranking of the season: {events:,} events in {time.perf_counter() - first:.1f} s")
    backend = _django.settled_backend()
    thread = threading.get_native_id()

    officer = get_user_model().objects.get(username="bench-officer")
    elsewhere = Club.objects.get(slug=f"bench-club-{args.clubs - 1}")
    day = START + dt.timedelta(days=7 * args.weeks)
    with OtherLoad(databases=[DB_NAME]) as load:
        text = night_file(federation, elsewhere, random.Random(args.seed), day)
        corrected = night_file(federation, elsewhere, random.Random(args.seed), day, corrected=True)

        def send(content):
            return lambda: result_file_import(federation=federation, content=content, user=officer)

        (night, new), import_s, import_cpu, import_q = timed(thread, backend, send(text))
        assert new and night.status == ResultFile.Status.PROVISIONAL, night.status
        rows = ImportedResult.objects.filter(result_file=night).count()
        (_same, new), again_s, again_cpu, again_q = timed(thread, backend, send(text))
        assert not new
        tracemalloc.start()
        (fixed, new), fix_s, fix_cpu, fix_q = timed(thread, backend, send(corrected))
        import_peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        assert new and fixed.pk != night.pk

        period = period_create(federation=federation, start=day.replace(day=1), end=day)
        rss0 = rss_mb()
        finalised, close_s, close_cpu, close_q = timed(
            thread, backend, lambda: period_close(period=period, user=officer)
        )
        assert finalised == 1, finalised
        key = f"file:{elsewhere.pk}:{fixed.event_key}"
        ranked = RankedEvent.objects.filter(federation=federation, key=key).first()
        assert ranked is not None, "the file's night is not in the ranking"
        rated = RankedEvent.objects.filter(federation=federation, date__gte=period.start).count()
        replayed, full_s, full_cpu, _q = timed(
            thread, backend, lambda: ranking_recompute(federation=federation)
        )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

        ratings = NationalRating.objects.filter(federation=federation).count()
        busy = (
            RatingStep.objects.filter(federation=federation, player__is_public=True)
            .values("player__number")
            .order_by()
            .annotate(n=Count("id"))
            .order_by("-n")[0]
        )
        quiet = (
            RatingStep.objects.filter(federation=federation, player__is_public=True)
            .values("player__number")
            .order_by()
            .annotate(n=Count("id"))
            .order_by("n")[0]
        )
        remote = (  # the full replay wrote the events again
            RatingStep.objects.filter(event__key=key, player__is_public=True)
            .values_list("player__number", flat=True)
            .first()
        )
        last = (ratings + 49) // 50
        base = "/federations/bench/ranking"
        pages = {
            "ranking, page 1": f"{base}/",
            f"ranking, page {last}": f"{base}/?page={last}",
            f"player, {busy['n']} events": f"{base}/players/{busy['player__number']}/",
            f"player, {quiet['n']} events": f"{base}/players/{quiet['player__number']}/",
            "player, from the file": f"{base}/players/{remote}/",
            "explanation": f"{base}/about/",
            "federation home": "/federations/bench/",
            "API, page 1": "/api/federations/bench/ranking/",
            f"API, page {last}": f"/api/federations/bench/ranking/?page={last}",
        }
        client = Client()
        facts = {}
        for name, url in pages.items():
            with CaptureQueriesContext(connection) as q:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            facts[name] = (len(q.captured_queries), len(response.content) / 1024)
        times = {name: [] for name in pages}
        cpu = {name: [] for name in pages}
        items = list(pages.items())
        for r in range(args.repeat):
            for name, url in items[r % len(items) :] + items[: r % len(items)]:
                c0 = cpu_ms(thread) + cpu_ms(backend)
                t0 = time.perf_counter()
                client.get(url)
                times[name].append((time.perf_counter() - t0) * 1000)
                cpu[name].append(cpu_ms(thread) + cpu_ms(backend) - c0)

    print(
        f"\none club night's results file imported ({len(text) / 1024:.0f} KB, 21 tables, "
        f"{rows} players): {import_s * 1000:.0f} ms (CPU {import_cpu:.0f} ms), {import_q} "
        f"queries; target under {TARGET_IMPORT_S * 1000:.0f} ms"
    )
    print(
        f"  the same file again (idempotent): {again_s * 1000:.0f} ms (CPU {again_cpu:.0f} ms), "
        f"{again_q} queries"
    )
    print(
        f"  a corrected file (replaces it): {fix_s * 1000:.0f} ms under tracemalloc "
        f"(CPU {fix_cpu:.0f} ms), {fix_q} queries, Python memory peak {import_peak:.1f} MB"
    )
    print(
        f"its period closed ({period.start} to {period.end}) and the ranking recomputed on "
        f"commit, from the period's start ({rated:,} events): {close_s * 1000:.0f} ms "
        f"(CPU {close_cpu:.0f} ms), {close_q} queries"
    )
    print(
        f"the whole season replayed (for reference): {replayed:,} events, {full_s:.1f} s "
        f"(CPU {full_cpu / 1000:.1f} s); {ratings:,} players rated; process RSS "
        f"{rss0:.0f} MB before the close, peak {peak:.0f} MB"
    )
    print(f"\n{'page':<24}{'ms':>8}{'CPU ms':>9}{'queries':>9}{'KB':>8}")
    missed = []
    judged = "CPU" if load.disturbed else "time"
    for name in pages:
        ms, c = statistics.median(times[name]), statistics.median(cpu[name])
        count, kb = facts[name]
        print(f"{name:<24}{ms:>8.1f}{c:>9.1f}{count:>9}{kb:>8.1f}")
        if (c if judged == "CPU" else ms) > TARGET_MS or kb > TARGET_KB:
            missed.append(name)
    same = {k: facts[k][0] for k in facts}
    kinds = {
        "ranking": [v for k, v in same.items() if k.startswith("ranking")],
        "player": [v for k, v in same.items() if k.startswith("player")],
        "API": [v for k, v in same.items() if k.startswith("API")],
    }
    constant = all(len(set(v)) == 1 for v in kinds.values())
    print(f"\nqueries constant per kind of page: {'yes' if constant else 'NO'} {kinds}")
    import_judged = import_cpu / 1000 if judged == "CPU" else import_s
    print(
        f"targets (judged by {judged}): import under 1 s: "
        f"{'met' if import_judged < TARGET_IMPORT_S else 'MISSED'}; pages under {TARGET_MS:.0f} ms "
        f"and {TARGET_KB:.0f} KB: {'met' if not missed else 'MISSED ' + ', '.join(missed)}"
    )
    print(load.summary())
    print(f"load average: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
