"""The New game page of a big division: what a scorer's phone gets, against the old page.

Issue 18 measured the old "Start a game" page, which listed every unplayed fixture of the
club as one ``<select>``: 1.3 s at 100 teams, 39 s and 20 MB at 500. The page now asks
for the division first and lists its fixtures a round (or a team's name) at a time, 25 to
a page; the seats step reads the two teams' players only.

A generated division of ``--teams`` teams plays a round robin (``--cycles``; 500 teams, one
cycle: 499 rounds, 124,750 fixtures, none played yet), bulk-inserted. Then, interleaved
in one run (each repeat times every line, in rotating order, so the machine's other load
falls on all), a logged-in scorer's GET through Django's test client of:

- ``old select``: the old page's fixture field, defined here as it was (every unplayed
  fixture of the club, ``Round r: Home v Away (date)``, rendered as ``<option>`` rows);
- ``step 2``: ``/games/new/?division=<id>`` (this round's fixtures, a page of them);
- ``step 2, a team``: the same, searching a team's name;
- ``step 3``: ``/games/new/?division=<id>&fixture=<id>`` (who sits where).

It prints the median time and the size of each answer, and the CPU other processes took
during the run (``_machine.OtherLoad``). PostgreSQL, in a database of its own
(``BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/clabber_league_bench_game_start``).

    .venv/bin/python bench/game_start.py [--teams 500] [--cycles 1] [--repeat 5]
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time

import _django

_started = time.perf_counter()
_django.setup("clabber_league_bench_game_start")
_setup_seconds = time.perf_counter() - _started

from _league import partnerships, schedule  # noqa: E402
from _machine import OtherLoad  # noqa: E402
from django import forms  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402

from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.leagues.models import Division, Season  # noqa: E402
from clabber_league.scheduling.models import Fixture  # noqa: E402


def generate(teams_count: int, cycles: int) -> tuple[Club, Division, Fixture]:
    from django.contrib.auth import get_user_model

    club = Club.objects.create(name="Bench Club", slug="bench-start")
    scorer = get_user_model().objects.create_user("bench-scorer", password="bench-scorer-pw")
    Membership.objects.create(club=club, user=scorer, role=Role.SCORER)
    today = datetime.date.today()
    season = Season.objects.create(club=club, name="Bench", slug="bench", start_date=today)
    division = Division.objects.create(club=club, season=season, name="Premier", slug="premier")
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Player {i:04d}") for i in range(teams_count * 2)
    )
    teams = partnerships(club, division, players, "Team")
    schedule(club, division, teams, start=today, cycles=cycles)
    first = Fixture.objects.filter(division=division, round_number=1).order_by("id").first()
    return club, division, first


class OldFixtureField(forms.ModelChoiceField):
    """The old page's fixture picker, as it was before issue 12."""

    def label_from_instance(self, obj: Fixture) -> str:
        when = f"{obj.date:%a %-d %b %Y}" if obj.date else "date to be arranged"
        return f"Round {obj.round_number}: {obj.home.name} v {obj.away.name} ({when})"


def old_select(club: Club) -> str:
    fixtures = (
        Fixture.objects.filter(club=club)
        .exclude(status__in=Fixture.DONE)
        .select_related("home", "away")
        .order_by("round_number", "date", "id")
    )
    field = OldFixtureField(queryset=fixtures, required=False)
    return forms.Select(choices=field.choices).render("fixture", None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=500)
    parser.add_argument("--cycles", type=int, choices=(1, 2), default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print(f"note: running on {connection.vendor}, not PostgreSQL")
    print(f"created and migrated {connection.settings_dict['NAME']} in {_setup_seconds:.1f} s")
    start = time.perf_counter()
    with transaction.atomic():
        club, division, fixture = generate(args.teams, args.cycles)
    count = Fixture.objects.filter(division=division).count()
    print(
        f"generated {args.teams} teams, {count:,} fixtures in {time.perf_counter() - start:.1f} s"
    )

    client = Client()
    client.force_login(Membership.objects.get(club=club).user)
    base = f"/clubs/{club.slug}/games/new/?division={division.pk}"

    def get(url: str):
        def run() -> int:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return len(response.content)

        return run

    lines = {
        "old select": lambda: len(old_select(club)),
        "step 2": get(base),
        "step 2, a team": get(base + "&q=Team 123"),
        "step 3": get(f"{base}&fixture={fixture.pk}"),
    }
    runs: dict[str, list[float]] = {name: [] for name in lines}
    sizes = {name: fn() for name, fn in lines.items()}  # warm
    names = list(lines)
    with OtherLoad(databases=[connection.settings_dict["NAME"]]) as load:
        for r in range(args.repeat):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                begin = time.perf_counter()
                sizes[name] = lines[name]()
                runs[name].append(time.perf_counter() - begin)
    for name in names:
        median = statistics.median(runs[name])
        print(f"{name:16} {median * 1000:10.1f} ms  {sizes[name] / 1024:10.1f} KiB")
    print(load.summary())


if __name__ == "__main__":
    main()
