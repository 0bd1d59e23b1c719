"""Benchmark of the rules engine: validated deals scored per second, and a season replayed.

Run as ``python bench/rules.py`` (standard library only).  It generates legal
deals for every built-in rule set and the house-rule examples
(:mod:`clabber_league.rules.simulate`: cards dealt and played), then measures on one core:

1. ``score_deal``: each deal checked (feasible card points, melds, bell ...)
   and scored from its JSON, as the API and the CLI do;
2. ``score_game``: a season of 100,000 deals played as whole games, each
   replayed from its JSON;
3. klaverjas (both rule sets, KLAVERJAS.md): deals played card by card, entered with roem
   as totals or per-trick claims, validated (the exact roem check included) and scored,
   per rule set: cold (the exact test's cached answers dropped first) and warm;
4. the dearest house-rule pack met (``klaberjass-3`` with many different card values
   and no common divisor, checked pile by pile and then searched for exactly): point
   vectors near real deals checked per second from cold answers, the slowest single
   check, the most states one search expanded, and tracemalloc's peak over them all.

Generation and the one-off building of the feasibility tables are not timed
(they are cached per rule set, as in a running server); the first run of each
measurement is a warm-up.

``python bench/rules.py --against /work/main`` compares two checkouts of the engine
(the other one the baseline, this one the new) on the same ``score_deal`` work:
rounds of one subprocess each, interleaved, with the machine's load and the CPU the
other processes used during each run, then the medians and their ratio.  With
``--klaverjas-only`` it compares the two checkouts' cold klaverjas rates the same way
(the same deals, generated once, each run a fresh process).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from itertools import pairwise
from pathlib import Path
from typing import Any

from _machine import OtherLoad, cpu_times

# --root: the checkout whose engine is measured (the comparison runs one per checkout).
sys.path.insert(
    0,
    sys.argv[sys.argv.index("--root") + 1]
    if "--root" in sys.argv
    else str(Path(__file__).resolve().parents[1]),
)

from clabber_league.rules import (
    BUILTIN_RULESETS,
    HOUSE_RULE_EXAMPLES,
    RuleSet,
    feasibility,
    get_ruleset,
    klaverjas,
    parse_deal,
    score,
    score_deal,
    score_game,
)
from clabber_league.rules.game import GameState
from clabber_league.rules.simulate import simulate_deal

HERE = Path(__file__).resolve().parents[1]
TARGET_DEALS_PER_SECOND = 20_000
DEAL_SAMPLE = 50_000
SEASON_DEALS = 100_000
SEED = 20_240_501


def _rulesets() -> list[tuple[RuleSet, Any]]:
    """(rule set, its JSON spelling): the built-ins by slug, house rules as data."""
    found: list[tuple[RuleSet, Any]] = [(r, slug) for slug, r in BUILTIN_RULESETS.items()]
    found += [(get_ruleset(data), dict(data)) for data in HOUSE_RULE_EXAMPLES.values()]
    return found


def _deals(count: int, rng: random.Random) -> list[dict[str, Any]]:
    rulesets = _rulesets()
    deals = []
    for i in range(count):
        ruleset, spec = rulesets[i % len(rulesets)]
        deal = simulate_deal(ruleset, rng, tricks_share=0.5)
        deal["ruleset"] = spec
        deals.append(deal)
    return deals


def _season(total: int, rng: random.Random) -> list[dict[str, Any]]:
    """Whole games (each ends at its target) until ``total`` deals are played."""
    rulesets = _rulesets()
    games = []
    played = 0
    while played < total:
        ruleset, spec = rulesets[len(games) % len(rulesets)]
        state = GameState(ruleset)
        deals = []
        while not state.finished and played < total:
            deal = simulate_deal(ruleset, rng, tricks_share=0.5)
            state.add(score(ruleset, parse_deal(deal, ruleset), state.pot))
            deals.append(deal)
            played += 1
        games.append({"ruleset": spec, "deals": deals})
    return games


# The dearest pack a search for the slowest exact check met (tests/rules/
# test_exact_points_of_dearest_packs.py keeps it): no common divisor, eight plain values
# and eight trump values, the split of the two left-out cards tried per out set.
WORST_RELAXED = {
    "name": "worst-relaxed",
    "base": "klaberjass-3",
    "options": {
        "plain_points": {"A": 97, "10": 73, "K": 58, "Q": 41, "J": 22, "9": 10, "8": 6, "7": 2},
        "trump_points": {"J": 99, "9": 93, "A": 88, "10": 81, "K": 73, "Q": 14, "8": 8, "7": 2},
    },
}
WORST_QUERIES = 3_000


def _worst_relaxed() -> dict[str, float]:
    """Checks of points near real deals (many of them impossible) on the dearest pack."""
    ruleset = get_ruleset(WORST_RELAXED)
    table = ruleset.feasibility(False)
    if not isinstance(table, feasibility.RelaxedTable):
        raise SystemExit("the worst relaxed pack is no longer checked pile by pile")
    shape = table.shape
    rng = random.Random(SEED)
    queries = []
    for _ in range(WORST_QUERIES):
        cards = list(shape.values)
        rng.shuffle(cards)
        cuts = sorted(
            t * shape.trick_size for t in rng.sample(range(shape.tricks + 1), shape.sides - 1)
        )
        points = [sum(cards[a:b]) for a, b in pairwise([0, *cuts, shape.played])]
        shift = rng.choice((0, 1, 2, 3, 5, 7, 11))
        points[rng.randrange(shape.sides)] += shift
        points[rng.randrange(shape.sides)] -= rng.choice((0, shift))
        tricks = None if rng.random() < 0.6 else rng.choice(table.vectors)
        queries.append((points, tricks, rng.choice([None, *range(shape.sides)])))
    # The deals and seasons measured before stay in memory: frozen, so that a collection of
    # them does not land on one check and pass for the slowest search.
    gc.collect()
    gc.freeze()
    feasibility.forget_tables()
    table = ruleset.feasibility(False)
    for query in queries:  # the pack's one-pile tables, built once per pack, not timed
        table.pile_by_pile(*query)
    table.table.search(*queries[0])
    feasibility.forget_answers()
    slowest = 0.0
    searched = 0
    start = time.process_time()
    for query in queries:
        t0 = time.process_time()
        table.possible(*query)
        slowest = max(slowest, time.process_time() - t0)
    cpu = time.process_time() - start
    most = 0
    for query in queries:
        if table.pile_by_pile(*query):
            steps = [0]
            table.table.search(*query, steps=steps)
            most = max(most, steps[0])
            searched += 1
    feasibility.forget_tables()
    table = ruleset.feasibility(False)
    tracemalloc.start()
    for query in queries:
        table.possible(*query)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    gc.unfreeze()
    return {
        "queries": len(queries),
        "searched": searched,
        "per_second": len(queries) / cpu,
        "slowest_ms": slowest * 1000,
        "most_states": most,
        "peak_mb": peak / 2**20,
    }


KLAVERJAS_DEALS = 20_000


KLAVERJAS_SLUGS = ("klaverjas-rotterdams", "klaverjas-amsterdams")


def _klaverjas_deals() -> dict[str, list[dict[str, Any]]]:
    """Per klaverjas rule set, ``KLAVERJAS_DEALS`` deals played card by card."""
    found = {}
    for slug in KLAVERJAS_SLUGS:
        rng = random.Random(SEED)
        found[slug] = [
            {"ruleset": slug, **simulate_deal(slug, rng)} for _ in range(KLAVERJAS_DEALS)
        ]
    return found


def _klaverjas_cold(deals: list[dict[str, Any]]) -> float:
    """Deals per CPU second, each deal seen for the first time: the pack's tables built by
    one deal first (not timed), then the exact test's cached answers dropped."""
    score_deal(deals[0])
    klaverjas.forget_answers()
    start = time.process_time()
    for deal in deals:
        score_deal(deal)
    return len(deals) / (time.process_time() - start)


def _klaverjas_rates() -> list[tuple[str, str, float, float]]:
    """Per klaverjas rule set: deals per CPU second cold (no cached exact answers) and
    warm, and the share of deals whose roem went through the exact test."""
    rows = []
    for slug, deals in _klaverjas_deals().items():
        with_roem = sum(1 for d in deals if any((d.get("roem") or {}).values()))

        def score_all(deals: list[dict[str, Any]] = deals) -> None:
            for deal in deals:
                score_deal(deal)

        cold = _klaverjas_cold(deals)
        _, warm = _rates(len(deals), score_all)
        rows.append(
            (slug, f"{len(deals):,} deals, {with_roem / len(deals):.0%} with roem", cold, warm)
        )
    return rows


def _klaverjas_run(root: str, deals_file: str) -> tuple[dict[str, float], float]:
    """Cold deals per CPU second per rule set of one subprocess on ``root``'s engine, and
    the cores the other processes used meanwhile."""
    tick = os.sysconf("SC_CLK_TCK")
    busy0, _ = cpu_times()
    own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, __file__, "--root", root, "--klaverjas-rate-only", deals_file],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall = time.monotonic() - start
    own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy1, _ = cpu_times()
    own = (own1.ru_utime + own1.ru_stime) - (own0.ru_utime + own0.ru_stime)
    return json.loads(out), max(0.0, (busy1 - busy0) / tick - own) / wall


def compare_klaverjas(baseline: str, rounds: int) -> int:
    """Cold klaverjas deals per CPU second, the baseline checkout and this one in
    interleaved subprocesses on the same deals, ``rounds`` times."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(_klaverjas_deals(), handle)
    deals_file = handle.name
    runs: dict[str, dict[str, list[float]]] = {
        w: {s: [] for s in KLAVERJAS_SLUGS} for w in ("before", "after")
    }
    print(
        f"klaverjas cold, {KLAVERJAS_DEALS:,} deals per rule set per run; "
        f"before = {baseline}, after = {HERE}"
    )
    print(
        f"{'round':<6} {'which':<7} {'rotterdams/CPU s':>17} {'amsterdams/CPU s':>17} "
        f"{'loadavg 1m':>11} {'other cores':>12}"
    )
    for i in range(rounds):
        order = [("before", baseline), ("after", str(HERE))]
        if i % 2:
            order.reverse()
        for which, root in order:
            rates, others = _klaverjas_run(root, deals_file)
            for slug in KLAVERJAS_SLUGS:
                runs[which][slug].append(rates[slug])
            print(
                f"{i + 1:<6} {which:<7} {rates[KLAVERJAS_SLUGS[0]]:>17,.0f} "
                f"{rates[KLAVERJAS_SLUGS[1]]:>17,.0f} {os.getloadavg()[0]:>11.2f} "
                f"{others:>12.2f}",
                flush=True,
            )
    Path(deals_file).unlink()
    met = True
    for slug in KLAVERJAS_SLUGS:
        before = statistics.median(runs["before"][slug])
        after = statistics.median(runs["after"][slug])
        met = met and after >= TARGET_DEALS_PER_SECOND
        print(
            f"{slug}: median cold before {before:,.0f}, after {after:,.0f} deals per CPU "
            f"second, after/before {after / before:.3f}"
        )
    verdict = "meets" if met else "MISSES"
    print(f"after {verdict} the target of {TARGET_DEALS_PER_SECOND:,} cold deals per CPU second.")
    return 0 if met else 1


def _rates(work: int, run: Any, repeat: int = 3) -> tuple[float, float]:
    """Work per second of the best run: by the wall clock, and by this process's CPU time
    (what one core does, whatever else the machine is running)."""
    run()  # warm-up: caches and tables
    wall = cpu = float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return work / wall, work / cpu


def _rate(work: int, run: Any, repeat: int = 3) -> float:
    return _rates(work, run, repeat)[0]


def _deal_rates(deals_file: str) -> tuple[float, float]:
    deals = json.loads(Path(deals_file).read_text())

    def score_all() -> None:
        for deal in deals:
            score_deal(deal)

    return _rates(len(deals), score_all)


def _measured_run(root: str, deals_file: str) -> tuple[float, float, float]:
    """deals/s (wall, CPU) of one subprocess on ``root``'s engine, and the cores the other
    processes used meanwhile."""
    tick = os.sysconf("SC_CLK_TCK")
    busy0, _ = cpu_times()
    own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(
        [sys.executable, __file__, "--root", root, "--rate-only", deals_file],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    wall = time.monotonic() - start
    own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy1, _ = cpu_times()
    own = (own1.ru_utime + own1.ru_stime) - (own0.ru_utime + own0.ru_stime)
    others = max(0.0, (busy1 - busy0) / tick - own) / wall
    rates = json.loads(out)
    return rates["wall"], rates["cpu"], others


def compare(baseline: str, rounds: int, sample: int) -> int:
    """Interleaved rounds: the baseline checkout, then this one, ``rounds`` times."""
    runs: dict[str, list[float]] = {"before": [], "after": []}
    cpu_runs: dict[str, list[float]] = {"before": [], "after": []}
    # The same deals for both: generated once here, read from a file by each run.
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(_deals(sample, random.Random(SEED)), handle)
    deals_file = handle.name
    print(f"score_deal, {sample:,} deals per run; before = {baseline}, after = {HERE}")
    print(
        f"{'round':<6} {'which':<7} {'deals/s':>10} {'per CPU s':>10} {'loadavg 1m':>11} "
        f"{'other cores':>12}"
    )
    for i in range(rounds):
        order = [("before", baseline), ("after", str(HERE))]
        if i % 2:
            order.reverse()  # neither side always runs first
        for which, root in order:
            rate, cpu_rate, others = _measured_run(root, deals_file)
            runs[which].append(rate)
            cpu_runs[which].append(cpu_rate)
            load = os.getloadavg()[0]
            print(
                f"{i + 1:<6} {which:<7} {rate:>10,.0f} {cpu_rate:>10,.0f} {load:>11.2f} "
                f"{others:>12.2f}",
                flush=True,
            )
    Path(deals_file).unlink()
    before = statistics.median(runs["before"])
    after = statistics.median(runs["after"])
    print(
        f"\nmedian before {before:,.0f} deals/s, after {after:,.0f} deals/s, "
        f"after/before {after / before:.3f}"
    )
    before_cpu = statistics.median(cpu_runs["before"])
    after_cpu = statistics.median(cpu_runs["after"])
    print(
        f"per CPU second: median before {before_cpu:,.0f}, after {after_cpu:,.0f}, "
        f"after/before {after_cpu / before_cpu:.3f}"
    )
    verdict = "meets" if after_cpu >= TARGET_DEALS_PER_SECOND else "MISSES"
    print(f"after {verdict} the target of {TARGET_DEALS_PER_SECOND:,} deals per CPU second.")
    return 0 if after_cpu >= TARGET_DEALS_PER_SECOND else 1


def _print_klaverjas(rows: list[tuple[str, str, float, float]]) -> None:
    print(
        f"\n{'klaverjas (exact roem check)':<24} {'work':<32} {'cold/CPU s':>11} {'warm/CPU s':>11}"
    )
    for slug, work, cold, warm in rows:
        print(f"{slug:<24} {work:<32} {cold:>11,.0f} {warm:>11,.0f}")
    verdict = "meets" if all(r[2] >= TARGET_DEALS_PER_SECOND for r in rows) else "MISSES"
    print(
        f"klaverjas cold {verdict} the target of {TARGET_DEALS_PER_SECOND:,} deals/s on one core."
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--against", metavar="CHECKOUT", help="compare with another checkout's engine, interleaved"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=DEAL_SAMPLE // 2)
    parser.add_argument(
        "--klaverjas-only", action="store_true", help="measure only the two klaverjas rule sets"
    )
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--rate-only", metavar="DEALS_FILE", help=argparse.SUPPRESS)
    parser.add_argument("--klaverjas-rate-only", metavar="DEALS_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.klaverjas_rate_only:
        by_slug = json.loads(Path(args.klaverjas_rate_only).read_text())
        print(json.dumps({slug: _klaverjas_cold(deals) for slug, deals in by_slug.items()}))
        return 0
    if args.rate_only:
        wall, cpu = _deal_rates(args.rate_only)
        print(json.dumps({"wall": wall, "cpu": cpu}))
        return 0
    if args.against and args.klaverjas_only:
        return compare_klaverjas(str(Path(args.against).resolve()), args.rounds)
    if args.against:
        return compare(str(Path(args.against).resolve()), args.rounds, args.sample)

    if args.klaverjas_only:
        with OtherLoad() as load:
            rows = _klaverjas_rates()
        _print_klaverjas(rows)
        print(load.summary())
        return 0 if all(r[2] >= TARGET_DEALS_PER_SECOND for r in rows) else 1

    rng = random.Random(SEED)
    deals = _deals(DEAL_SAMPLE, rng)
    season = _season(SEASON_DEALS, rng)

    def score_all() -> None:
        for deal in deals:
            score_deal(deal)

    def replay() -> None:
        for game in season:
            score_game(game)

    with OtherLoad() as load:
        deal_rate = _rate(len(deals), score_all)
        season_rate = _rate(SEASON_DEALS, replay, repeat=1)
        worst = _worst_relaxed()
        klaverjas_rows = _klaverjas_rates()
    rows = [
        ("score_deal (validated + scored)", f"{len(deals):,} deals", deal_rate),
        (
            "score_game (season replay)",
            f"{SEASON_DEALS:,} deals / {len(season):,} games",
            season_rate,
        ),
    ]
    print(f"{'measurement':<34} {'work':<28} {'deals/s':>10}")
    print("-" * 74)
    for name, work, rate in rows:
        print(f"{name:<34} {work:<28} {rate:>10,.0f}")
    print(
        f"\nworst relaxed pack ({WORST_RELAXED['base']}, no common divisor): "
        f"{worst['queries']:,} point checks, {worst['searched']:,} searched exactly, "
        f"{worst['per_second']:,.0f} checks/s, slowest {worst['slowest_ms']:.1f} ms, "
        f"most states {worst['most_states']:,} (cap {feasibility.SEARCH_STATES_MAX:,}), "
        f"peak {worst['peak_mb']:.1f} MB"
    )
    _print_klaverjas(klaverjas_rows)
    print(load.summary())
    verdict = "meets" if deal_rate >= TARGET_DEALS_PER_SECOND else "MISSES"
    print(f"\nscore_deal {verdict} the target of {TARGET_DEALS_PER_SECOND:,} deals/s on one core.")
    return 0 if deal_rate >= TARGET_DEALS_PER_SECOND else 1


if __name__ == "__main__":
    sys.exit(main())
