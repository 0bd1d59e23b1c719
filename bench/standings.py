"""Standings of a big division: the aggregate selector against a hand-written SQL GROUP BY.

A generated division of 50 teams plays a full double round robin (98 rounds, 2,450
fixtures of 3 games: 7,350 games, about 43,000 deals). Every game's deals are simulated
and scored by the rules engine (``simulate_game`` + ``score_game``) and bulk-inserted
as Game / GameSide / GameSeat / Deal rows; ``standings_rebuild`` then builds the
aggregates from them, as ``manage.py standings_check --fix`` would.

Then, in the same run, on the same data, three reads of the division's table, interleaved
(each repeat times all three, in rotating order, so the machine's other load falls on all):

- the selector: ``standings.selectors.standings_table`` (the table in order, with the
  league's tiebreakers, head-to-head fetched only for teams level on match points), from
  the aggregate rows (``standings_teamstanding``);
- hand-written SQL over the same aggregate rows: one query that gives the same table in
  the same order (match points, head-to-head between the teams level on them, then the
  default tiebreakers; the bench checks the order team by team). This is the floor the
  selector is held to (target: within 2x);
- a full recomputation: one hand-written query that GROUPs every deal and game of the
  division by team. It shows what the aggregates save.

The medians are printed with the ratios, and the CPU other processes took during the run
(``_machine.OtherLoad``). Runs on PostgreSQL, in a database of its own that it
creates and migrates (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/clabber_league_bench_standings``).

    .venv/bin/python bench/standings.py [--teams 50] [--games-per-fixture 3] [--repeat 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import _django

_started = time.perf_counter()
_django.setup("clabber_league_bench_standings")
_setup_seconds = time.perf_counter() - _started

from _league import club_with_season, played_division  # noqa: E402
from _machine import OtherLoad  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from clabber_league.games.models import Deal, Game  # noqa: E402
from clabber_league.leagues.models import Division  # noqa: E402
from clabber_league.standings import selectors  # noqa: E402
from clabber_league.standings.models import DEFAULT_TIEBREAKERS  # noqa: E402
from clabber_league.standings.services.rebuild import (  # noqa: E402
    standings_differences,
    standings_rebuild,
)
from clabber_league.standings.services.write_through import standings_game_changed  # noqa: E402

RECOMPUTE_SQL = """
WITH g AS (
    SELECT id, fixture_id, winner, score_a, score_b, status
    FROM games_game
    WHERE division_id = %(division)s AND status IN ('finished', 'confirmed')
),
d AS (
    SELECT dl.game_id,
           COUNT(*) AS deals,
           SUM(CASE WHEN dl.outcome = 'set' AND dl.maker = 'A' THEN 1 ELSE 0 END) AS set_a,
           SUM(CASE WHEN dl.outcome = 'set' AND dl.maker = 'B' THEN 1 ELSE 0 END) AS set_b
    FROM games_deal dl JOIN g ON g.id = dl.game_id
    GROUP BY dl.game_id
),
per_game AS (
    SELECT gs.team_id, g.fixture_id,
           CASE WHEN g.winner = gs.side THEN 1 ELSE 0 END AS won,
           CASE WHEN g.winner = 'tie' THEN 1 ELSE 0 END AS tied,
           CASE WHEN g.winner NOT IN ('tie', gs.side) THEN 1 ELSE 0 END AS lost,
           CASE WHEN g.status = 'finished' THEN 1 ELSE 0 END AS unconfirmed,
           CASE WHEN gs.side = 'A' THEN g.score_a ELSE g.score_b END AS points_for,
           CASE WHEN gs.side = 'A' THEN g.score_b ELSE g.score_a END AS points_against,
           CASE WHEN gs.side = 'A' THEN d.set_b ELSE d.set_a END AS sets_inflicted,
           CASE WHEN gs.side = 'A' THEN d.set_a ELSE d.set_b END AS sets_suffered,
           d.deals
    FROM g JOIN games_gameside gs ON gs.game_id = g.id JOIN d ON d.game_id = g.id
),
per_fixture AS (
    SELECT team_id, fixture_id, SUM(won) AS won FROM per_game GROUP BY team_id, fixture_id
),
matches AS (
    SELECT a.team_id,
           SUM(CASE WHEN a.won > b.won THEN 1 ELSE 0 END) AS m_won,
           SUM(CASE WHEN a.won = b.won THEN 1 ELSE 0 END) AS m_tied,
           SUM(CASE WHEN a.won < b.won THEN 1 ELSE 0 END) AS m_lost
    FROM per_fixture a
    JOIN per_fixture b ON a.fixture_id = b.fixture_id AND a.team_id <> b.team_id
    GROUP BY a.team_id
),
totals AS (
    SELECT team_id, COUNT(*) AS games, SUM(won) AS won, SUM(tied) AS tied, SUM(lost) AS lost,
           SUM(unconfirmed) AS unconfirmed, SUM(points_for) AS points_for,
           SUM(points_against) AS points_against, SUM(sets_inflicted) AS sets_inflicted,
           SUM(sets_suffered) AS sets_suffered, SUM(deals) AS deals
    FROM per_game GROUP BY team_id
)
SELECT t.id, t.name, m.m_won + m.m_tied + m.m_lost, m.m_won, m.m_tied, m.m_lost,
       s.games, s.won, s.tied, s.lost, s.unconfirmed, s.points_for, s.points_against,
       s.sets_inflicted, s.sets_suffered, s.deals,
       m.m_won * %(win)s + m.m_tied * %(tie)s + m.m_lost * %(loss)s AS match_points
FROM leagues_team t
LEFT JOIN totals s ON s.team_id = t.id
LEFT JOIN matches m ON m.team_id = t.id
WHERE t.division_id = %(division)s
ORDER BY match_points DESC, s.points_for - s.points_against DESC, t.name
"""


# The best hand-written query over the aggregate rows for the same answer as the selector
# with the default tiebreakers: match points, head-to-head between the teams level on match
# points, game difference, points difference, sets inflicted, then the name.
AGGREGATE_SQL = """
WITH s AS (
    SELECT t.id, t.name, s.matches_played, s.matches_won, s.matches_tied, s.matches_lost,
           s.games_played, s.games_won, s.games_tied, s.games_lost, s.games_unconfirmed,
           s.points_for, s.points_against, s.sets_inflicted, s.sets_suffered, s.deals,
           COALESCE(s.matches_won * %(win)s + s.matches_tied * %(tie)s
                    + s.matches_lost * %(loss)s, 0) AS match_points
    FROM leagues_team t
    LEFT JOIN standings_teamstanding s ON s.team_id = t.id
    WHERE t.club_id = %(club)s AND t.division_id = %(division)s
),
h AS (
    SELECT c.team_id,
           SUM(c.matches_won * %(win)s + c.matches_tied * %(tie)s
               + c.matches_lost * %(loss)s) AS head_to_head
    FROM standings_standingcontribution c
    JOIN s a ON a.id = c.team_id
    JOIN s b ON b.id = c.opponent_id AND a.match_points = b.match_points
    WHERE c.club_id = %(club)s AND c.division_id = %(division)s
    GROUP BY c.team_id
)
SELECT s.*, COALESCE(h.head_to_head, 0) AS head_to_head
FROM s LEFT JOIN h ON h.team_id = s.id
ORDER BY s.match_points DESC, COALESCE(h.head_to_head, 0) DESC,
         s.games_won - s.games_lost DESC, s.points_for - s.points_against DESC,
         s.sets_inflicted DESC, lower(s.name), s.id
"""


def generate(teams_count: int, games_per_fixture: int, seed: int) -> Division:
    club, season = club_with_season()
    return played_division(
        club,
        season,
        name="Premier",
        teams_count=teams_count,
        games_per_fixture=games_per_fixture,
        rng=random.Random(seed),
    )


def timed(fn, repeat: int) -> tuple[float, object]:
    result = fn()  # warm: plans cached, connection open
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), result


def interleaved(fns: dict, repeat: int) -> tuple[dict[str, float], dict[str, object]]:
    """Median seconds of each function, all timed in every repeat, in rotating order."""
    results = {name: fn() for name, fn in fns.items()}  # warm: plans cached, connection open
    runs: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for r in range(repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.perf_counter()
            results[name] = fns[name]()
            runs[name].append(time.perf_counter() - start)
    return {name: statistics.median(times) for name, times in runs.items()}, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=50)
    parser.add_argument("--games-per-fixture", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print(f"note: running on {connection.vendor}, not PostgreSQL")
    print(f"created and migrated {connection.settings_dict['NAME']} in {_setup_seconds:.1f} s")

    start = time.perf_counter()
    with transaction.atomic():
        division = generate(args.teams, args.games_per_fixture, args.seed)
    generated = time.perf_counter() - start
    games = Game.objects.filter(division=division).count()
    deals = Deal.objects.filter(game__division=division).count()
    print(
        f"generated {args.teams} teams, {games} games, {deals} deals "
        f"(simulated and scored by the rules engine) in {generated:.1f} s"
    )

    start = time.perf_counter()
    standings_rebuild(division=division)
    print(
        f"built the aggregates from every deal (standings_rebuild) in "
        f"{time.perf_counter() - start:.1f} s"
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    start = time.perf_counter()
    differences = standings_differences(division=division)
    print(
        f"standings_check: {len(differences)} differences, in {time.perf_counter() - start:.1f} s"
    )

    division = selectors.division_get(club=division.club, pk=division.pk)
    season = division.season
    params = {
        "club": division.club_id,
        "division": division.pk,
        "win": season.points_win,
        "tie": season.points_tie,
        "loss": season.points_loss,
    }

    def sql(query: str):
        def run() -> list[tuple]:
            with connection.cursor() as cursor:
                cursor.execute(query, params)
                return cursor.fetchall()

        return run

    def selector():  # the division is loaded, as the page and the API have it already
        return selectors.standings_table(division=division)

    with OtherLoad(databases=[connection.settings_dict["NAME"]]) as load:
        medians, results = interleaved(
            {
                "selector": selector,
                "aggregate": sql(AGGREGATE_SQL),
                "recompute": sql(RECOMPUTE_SQL),
            },
            args.repeat,
        )
    table, aggregate, recompute = (
        results["selector"], results["aggregate"], results["recompute"],
    )  # fmt: skip
    assert len(aggregate) == len(recompute) == len(table.lines) == args.teams
    by_team = {line.team_id: line for line in table.lines}
    for row in recompute:  # the three answers agree on every team's numbers
        line = by_team[row[0]]
        assert (line.match_points, line.points_for, line.sets_inflicted, line.deals) == (
            row[16], row[11], row[13], row[15],
        ), row  # fmt: skip
    for row in aggregate:
        line = by_team[row[0]]
        assert (line.match_points, line.points_for, line.sets_inflicted, line.deals) == (
            row[16], row[11], row[13], row[15],
        ), row  # fmt: skip
    if table.tiebreakers == list(DEFAULT_TIEBREAKERS):  # the same order, team by team
        assert [row[0] for row in aggregate] == [line.team_id for line in table.lines]
    floor = medians["aggregate"]
    level = sum(1 for line in table.lines if line.placed_by)
    print(f"\n{'read of the table (median of ' + str(args.repeat) + ')':<52}{'ms':>9}{'x SQL':>8}")
    for name, title in (
        ("aggregate", "hand-written SQL, same rows and order (floor)"),
        ("selector", f"standings selector ({level} teams placed by a tiebreaker)"),
        ("recompute", "full recomputation from every deal (SQL)"),
    ):
        print(f"{title:<52}{medians[name] * 1000:9.2f}{medians[name] / floor:8.2f}")
    ratio = medians["selector"] / floor
    print(f"ratio selector / SQL over the same rows: {ratio:.2f}  (target: at most 2)")
    print(load.summary())

    game = Game.objects.filter(division=division).order_by("?").first()
    hook_time, _ = timed(lambda: standings_game_changed(game=game), 20)
    print(
        f"standings_game_changed on one confirmed game of a 3-game fixture: "
        f"{hook_time * 1000:.2f} ms (median of 20)"
    )
    if ratio > 2:
        print("the selector is more than twice as slow as the hand-written SQL")


if __name__ == "__main__":
    main()
