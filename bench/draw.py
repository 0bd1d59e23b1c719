"""Benchmark of the club night's draw (``events.draw``): time per round and repeats.

    .venv/bin/python bench/draw.py [--players 64] [--rounds 8] [--nights 30] [--members 120]

Pure Python, no database. Two cases, each draw timed on its own (``perf_counter``):

* **A night**: 64 players over 8 rounds, no earlier history. Target: every round under
  0.5 s and no partnership repeated within the night.
* **A season**: 30 such nights, each with 64 of 120 members attending at random (a fixed
  seed), every round drawn from the night's rounds so far and the season's earlier nights.
  Reported: partnerships repeated within a night (target 0) and over the season, beside a
  lower bound and beside the same season drawn at random (no search), for scale.

**The lower bound** on the season's repeated partnerships (a partnership that happened
``c`` times counts ``c - 1``). Each player ``p`` sits in ``s_p`` partnerships over the
season (one per round at a table of four) but can have at most ``m_p`` different partners:
the members who attended at least one night with ``p``. So ``p`` has at least
``max(0, s_p - m_p)`` repeated partnerships; every repeated partnership has two players,
so the season has at least ``sum_p max(0, s_p - m_p) / 2`` of them (rounded up). It is a
pigeonhole bound per player, not necessarily reachable.

The opponents' figures are reported the same way, without a bound. The machine is shared:
the load other processes put on it during the run is printed (``bench/_machine.py``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from _machine import OtherLoad  # noqa: E402

from clabber_league.events.draw import History, draw_round  # noqa: E402

TARGET_SECONDS = 0.5


def partnerships(draw) -> list[frozenset[int]]:
    return [frozenset(side) for t in draw.tables for side in t.sides if len(side) == 2]


def opponents(draw) -> list[frozenset[int]]:
    found = []
    for t in draw.tables:
        sides = t.sides
        for i, a in enumerate(sides):
            for b in sides[i + 1 :]:
                found.extend(frozenset((x, y)) for x in a for y in b)
    return found


def repeats(counts: Counter) -> int:
    return sum(c - 1 for c in counts.values() if c > 1)


def play_night(players, rounds, seed, season: list, times: list, effort: float):
    """Draw one night; returns its rounds. ``season`` holds the earlier nights' rounds."""
    history = History.from_rounds(night=(), season=season)
    draws = []
    for number in range(1, rounds + 1):
        started, cpu = time.perf_counter(), time.process_time()
        draw = draw_round(players, round_number=number, seed=seed, history=history, effort=effort)
        times.append((time.perf_counter() - started, time.process_time() - cpu))
        history.add(draw)
        draws.append(draw)
    return draws


def describe_times(times: list[tuple[float, float]]) -> str:
    """Wall-clock figures (the target is on these) and the CPU time of the same draws."""

    def figures(values: list[float]) -> tuple[float, float, float]:
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return statistics.median(values) * 1000, p95 * 1000, ordered[-1] * 1000

    wall = figures([w for w, _ in times])
    cpu = figures([c for _, c in times])
    verdict = "OK" if wall[2] < TARGET_SECONDS * 1000 else "OVER"
    return (
        f"{len(times)} draws: median {wall[0]:.0f} ms, p95 {wall[1]:.0f} ms, "
        f"max {wall[2]:.0f} ms (target < {TARGET_SECONDS * 1000:.0f} ms: {verdict}); "
        f"CPU time median {cpu[0]:.0f} ms, p95 {cpu[1]:.0f} ms, max {cpu[2]:.0f} ms"
    )


def season(args, effort: float, times: list):
    """Draw a season; returns (within-night partner repeats, partner counts, opponent
    counts, partnerships per player, co-attendees per player)."""
    rng = random.Random(args.seed)
    members = list(range(1, args.members + 1))
    past: list = []
    partner_counts: Counter = Counter()
    opponent_counts: Counter = Counter()
    night_repeats = 0
    slots: Counter = Counter()
    met: dict[int, set[int]] = {m: set() for m in members}
    for night in range(1, args.nights + 1):
        present = sorted(rng.sample(members, args.players))
        for p in present:
            met[p].update(present)
        draws = play_night(present, args.rounds, f"{args.seed}-{night}", past, times, effort)
        night_pairs: Counter = Counter()
        for draw in draws:
            for pair in partnerships(draw):
                night_pairs[pair] += 1
                slots.update(pair)
            opponent_counts.update(opponents(draw))
        night_repeats += repeats(night_pairs)
        partner_counts.update(night_pairs)
        past.extend(draws)
    co_attendees = {p: len(others - {p}) for p, others in met.items()}
    return night_repeats, partner_counts, opponent_counts, slots, co_attendees


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--nights", type=int, default=30)
    parser.add_argument("--members", type=int, default=120)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--effort", type=float, default=1.0, help="the search's budget scale")
    parser.add_argument("--no-baseline", action="store_true", help="skip the random season")
    args = parser.parse_args()

    with OtherLoad() as load:
        night_times: list = []
        draws = play_night(
            list(range(1, args.players + 1)), args.rounds, args.seed, [], night_times, args.effort
        )
        night_pairs = Counter(p for d in draws for p in partnerships(d))
        night_opps = Counter(p for d in draws for p in opponents(d))

        season_times: list = []
        within, partners, opps, slots, co = season(args, args.effort, season_times)
        baseline = None
        if not args.no_baseline:
            baseline = season(args, 0.0, [])

    bound = -(-sum(max(0, slots[p] - co[p]) for p in slots) // 2)
    print(f"A night: {args.players} players, {args.rounds} rounds")
    print(f"  time per draw: {describe_times(night_times)}")
    print(
        f"  partnerships repeated within the night: {repeats(night_pairs)} (target 0); "
        f"opponents met again: {repeats(night_opps)}"
    )
    print(
        f"A season: {args.nights} nights of {args.players} of {args.members} members "
        f"attending at random, {args.rounds} rounds each"
    )
    print(f"  time per draw: {describe_times(season_times)}")
    print(f"  partnerships repeated within a night, all nights: {within} (target 0)")
    total = sum(partners.values())
    print(
        f"  partnerships repeated over the season: {repeats(partners)} of {total} "
        f"({len(partners)} different pairs); lower bound {bound}"
    )
    print(f"  opponents met again over the season: {repeats(opps)} of {sum(opps.values())}")
    if baseline is not None:
        b_within, b_partners, b_opps, _, _ = baseline
        print(
            f"  drawn at random instead (no search): {b_within} repeated within nights, "
            f"{repeats(b_partners)} partnerships and {repeats(b_opps)} opponents repeated "
            f"over the season"
        )
    print(load.summary())


if __name__ == "__main__":
    main()
