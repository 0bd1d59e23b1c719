"""The pure planner: what must hold for every generated schedule, whatever the league.

No database: ``planning`` takes team ids and dates and gives meetings and placements.
Hypothesis draws leagues of 2 to 40 teams, single and double round robins, venues with
few or many tables and nights to skip; every schedule it makes must have every pair meet
exactly the right number of times, byes spread evenly, no team twice in a night and no
table of any venue used twice in a night.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections import Counter, defaultdict
from itertools import combinations, islice, pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.scheduling import planning
from clabber_league.scheduling.planning import Meeting, PlanningError, Result

START = dt.date(2026, 9, 1)  # a Tuesday

leagues = st.fixed_dictionaries(
    {
        "teams": st.integers(min_value=2, max_value=40),
        "cycles": st.sampled_from([1, 2]),
        "venues": st.lists(st.integers(min_value=1, max_value=12), min_size=0, max_size=3),
        "weekday": st.integers(min_value=0, max_value=6),
        "skips": st.lists(st.integers(min_value=0, max_value=400), max_size=8),
        "first_id": st.integers(min_value=1, max_value=1000),
    }
)


def _plan(league: dict) -> tuple[list[int], list[planning.RoundPlan], list, planning.Notes, dict]:
    teams = list(range(league["first_id"], league["first_id"] + league["teams"]))
    rounds = list(planning.round_robin(teams, cycles=league["cycles"]))
    venues = [(100 + i, tables) for i, tables in enumerate(league["venues"])]
    skip = {START + dt.timedelta(days=d) for d in league["skips"]}
    notes = planning.Notes(venue_names={v: f"Venue {v}" for v, _ in venues})
    placements = list(
        planning.timetable(
            iter(rounds),
            nights=planning.league_nights(start=START, weekday=league["weekday"], skip=skip),
            tables=planning.tables_of(venues),
            total_meetings=sum(len(r.meetings) for r in rounds),
            notes=notes,
            max_nights=10_000,
        )
    )
    return teams, rounds, placements, notes, {"venues": dict(venues), "skip": skip}


# --- round robin ---------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(leagues)
def test_every_pair_meets_exactly_the_right_number_of_times(league):
    teams, rounds, placements, _, _ = _plan(league)
    cycles = league["cycles"]
    assert len(rounds) == planning.round_robin_rounds(len(teams), cycles)
    met = Counter(frozenset((m.home, m.away)) for r in rounds for m in r.meetings)
    assert set(met) == {frozenset(p) for p in combinations(teams, 2)}
    assert set(met.values()) == {cycles}
    if cycles == 2:  # home and away: once each way
        directed = Counter((m.home, m.away) for r in rounds for m in r.meetings)
        assert set(directed.values()) == {1}
    placed = Counter(frozenset((p.meeting.home, p.meeting.away)) for p in placements)
    assert placed == met


@settings(max_examples=150, deadline=None)
@given(leagues)
def test_byes_are_spread_evenly(league):
    teams, rounds, _, _, _ = _plan(league)
    byes = Counter({team: 0 for team in teams})
    for r in rounds:
        byes.update(r.byes)
        playing = [t for m in r.meetings for t in (m.home, m.away)]
        assert sorted(playing + list(r.byes)) == sorted(teams)  # everyone plays or sits out
        assert len(r.byes) == len(teams) % 2
    assert max(byes.values()) - min(byes.values()) <= 1
    if len(teams) % 2:
        assert set(byes.values()) == {league["cycles"]}


@settings(max_examples=150, deadline=None)
@given(leagues)
def test_no_team_plays_twice_in_a_night(league):
    _, rounds, placements, _, _context = _plan(league)
    by_night: dict[dt.date, list[int]] = defaultdict(list)
    for p in placements:
        by_night[p.date] += [p.meeting.home, p.meeting.away]
    for night, teams in by_night.items():
        assert len(teams) == len(set(teams)), night
    for r in rounds:  # within a round too, whatever the nights
        teams = [t for m in r.meetings for t in (m.home, m.away)]
        assert len(teams) == len(set(teams))


@settings(max_examples=150, deadline=None)
@given(leagues)
def test_no_venue_is_over_capacity(league):
    _, _, placements, _, context = _plan(league)
    venues = context["venues"]
    tables: dict[tuple[dt.date, int | None], list[int]] = defaultdict(list)
    for p in placements:
        tables[(p.date, p.venue)].append(p.table)
    for (night, venue), used in tables.items():
        assert len(used) == len(set(used)), (night, venue)  # no table twice
        if venues:
            assert venue in venues
            assert all(1 <= t <= venues[venue] for t in used)
            assert len(used) <= venues[venue]
        else:
            assert venue is None


@settings(max_examples=100, deadline=None)
@given(leagues)
def test_nights_are_the_league_night_and_skip_the_listed_dates(league):
    _, _, placements, _, context = _plan(league)
    for p in placements:
        assert p.date.weekday() == league["weekday"]
        assert p.date >= START
        assert p.date not in context["skip"]


@settings(max_examples=100, deadline=None)
@given(leagues)
def test_a_team_plays_its_rounds_in_order_and_every_move_is_noted(league):
    _, _rounds, placements, notes, _ = _plan(league)
    last: dict[int, tuple[int, dt.date]] = {}
    for p in sorted(placements, key=lambda p: (p.meeting.round, p.date)):
        for team in (p.meeting.home, p.meeting.away):
            if team in last:
                assert last[team][1] < p.date  # a later round is never on an earlier night
            last[team] = (p.meeting.round, p.date)
    first_night = {}
    for p in placements:
        first_night[p.meeting.round] = min(first_night.get(p.meeting.round, p.date), p.date)
    moved = sum(1 for p in placements if p.date != first_night[p.meeting.round])
    noted = sum(n["count"] for n in notes.items if n["kind"] == "night_overflow")
    assert noted >= moved  # the round's first night may itself be an overflow night


def test_home_and_away_alternate_with_few_breaks():
    for n in range(2, 41):
        for cycles in (1, 2):
            runs = Counter()
            seq: dict[int, list[str]] = defaultdict(list)
            for r in planning.round_robin(list(range(n)), cycles=cycles):
                for m in r.meetings:
                    seq[m.home].append("H")
                    seq[m.away].append("A")
            for s in seq.values():
                homes = s.count("H")
                assert abs(homes - s.count("A")) <= (1 if cycles == 1 else 0)
                run = best = 1
                for a, b in pairwise(s):
                    run = run + 1 if a == b else 1
                    best = max(best, run)
                runs[best] += 1
            # Berger: never three homes (or aways) in a row within a cycle; a double
            # round robin may have three at the turn of the cycles.
            assert max(runs) <= (2 if cycles == 1 else 3)


def test_a_round_fills_the_first_venue_then_the_next_and_the_page_is_told():
    notes = planning.Notes(venue_names={1: "The Hall", 2: "The Annex"})
    rounds = [planning.RoundPlan(1, tuple(Meeting(1, 2 * i, 2 * i + 1) for i in range(5)))]
    placements = list(
        planning.timetable(
            rounds,
            nights=planning.league_nights(start=START, weekday=1),
            tables=planning.tables_of([(1, 3), (2, 4)]),
            notes=notes,
        )
    )
    assert [(p.venue, p.table) for p in placements] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]
    assert {p.date for p in placements} == {START}
    assert notes.items[0]["text"] == (
        "Round 1, Tue 1 Sep 2026: 2 fixture(s) at The Annex (The Hall's 3 tables are full)."
    )


def test_fixtures_without_a_free_table_move_to_the_next_night_and_the_page_is_told():
    notes = planning.Notes(venue_names={1: "The Hall"})
    rounds = list(planning.round_robin(list(range(1, 9))))  # 4 fixtures a round
    placements = list(
        planning.timetable(
            rounds,
            nights=planning.league_nights(start=START, weekday=1),
            tables=planning.tables_of([(1, 3)]),
            notes=notes,
        )
    )
    first = [p for p in placements if p.meeting.round == 1]
    assert sorted({p.date for p in first}) == [START, START + dt.timedelta(days=7)]
    assert notes.items[0]["kind"] == "night_overflow"
    assert notes.items[0]["text"] == (
        "Round 1: 1 fixture(s) moved to Tue 8 Sep 2026 (all 3 tables were taken)."
    )


def test_too_few_tables_for_the_season_is_refused_before_planning():
    rounds = planning.round_robin(list(range(40)), cycles=2)
    with pytest.raises(PlanningError) as caught:
        list(
            planning.timetable(
                rounds,
                nights=planning.league_nights(start=START, weekday=1),
                tables=planning.tables_of([(1, 1)]),
                total_meetings=planning.round_robin_meetings(40, 2),
            )
        )
    assert caught.value.errors[0]["field"] == "venues"


def test_kept_tables_and_teams_are_not_double_booked():
    taken = planning.Table(1, 1)
    occupied = {START: ({1}, {taken})}
    rounds = [planning.RoundPlan(1, (Meeting(1, 1, 2), Meeting(1, 3, 4)))]
    placements = list(
        planning.timetable(
            rounds,
            nights=planning.league_nights(start=START, weekday=1),
            tables=planning.tables_of([(1, 2)]),
            occupied=occupied,
        )
    )
    by_meeting = {(p.meeting.home, p.meeting.away): (p.date, p.table) for p in placements}
    assert by_meeting[(3, 4)] == (START, 2)  # table 1 is taken that night
    assert by_meeting[(1, 2)] == (START + dt.timedelta(days=7), 1)  # team 1 already plays


def test_league_nights_start_on_the_weekday_and_skip_dates():
    nights = planning.league_nights(
        start=START, weekday=0, skip=[dt.date(2026, 9, 14)], after=dt.date(2026, 9, 6)
    )
    assert list(islice(nights, 3)) == [
        dt.date(2026, 9, 7),
        dt.date(2026, 9, 21),
        dt.date(2026, 9, 28),
    ]


@pytest.mark.parametrize("teams", [[], [7], [1, 1]])
def test_a_schedule_needs_two_different_teams(teams):
    with pytest.raises(PlanningError):
        list(planning.round_robin(teams))


# --- re-planning around played rounds ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=24),
    cycles=st.sampled_from([1, 2]),
    played=st.integers(min_value=0, max_value=60),
)
def test_the_rest_of_the_season_is_the_rest_of_the_plan(teams, cycles, played):
    ids = list(range(1, teams + 1))
    full = list(planning.round_robin(ids, cycles=cycles))
    k = min(played, len(full))
    kept = [(m.home, m.away) for r in full[:k] for m in r.meetings]
    rest = list(
        planning.remaining_round_robin(
            ids, cycles=cycles, played=kept, taken_numbers=range(1, k + 1)
        )
    )
    assert rest == full[k:]


@settings(max_examples=60, deadline=None)
@given(
    teams=st.integers(min_value=3, max_value=20),
    cycles=st.sampled_from([1, 2]),
    played=st.integers(min_value=1, max_value=10),
    added=st.integers(min_value=1, max_value=3),
)
def test_a_team_joining_midseason_still_meets_everyone_the_right_number_of_times(
    teams, cycles, played, added
):
    ids = list(range(1, teams + 1))
    full = list(planning.round_robin(ids, cycles=cycles))
    k = min(played, len(full))
    kept = [(m.home, m.away) for r in full[:k] for m in r.meetings]
    everyone = ids + [100 + i for i in range(added)]
    rest = list(
        planning.remaining_round_robin(
            everyone, cycles=cycles, played=kept, taken_numbers=range(1, k + 1)
        )
    )
    met = Counter(frozenset(p) for p in kept)
    met.update(frozenset((m.home, m.away)) for r in rest for m in r.meetings)
    assert set(met) == {frozenset(p) for p in combinations(everyone, 2)}
    assert set(met.values()) == {cycles}
    for r in rest:
        teams_in_round = [t for m in r.meetings for t in (m.home, m.away)]
        assert len(teams_in_round) == len(set(teams_in_round))
        assert r.number > k


# --- Swiss ---------------------------------------------------------------------------------


def _play(plan: planning.RoundPlan, seed: int) -> list[Result]:
    """Results for a round: the lower id wins when the seed's bit says so, else a tie."""
    out = []
    for i, m in enumerate(plan.meetings):
        bit = (seed >> (i % 16)) & 3
        if bit == 0:
            out.append(Result(m.round, m.home, m.away, 2, 0, 1, 0))
        elif bit == 1:
            out.append(Result(m.round, m.home, m.away, 0, 2, 0, 1))
        else:
            out.append(Result(m.round, m.home, m.away, 1, 1, 0, 0))
    return out


@settings(max_examples=40, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=16),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_swiss_rounds_never_repeat_a_pairing_and_spread_the_byes(teams, rounds, seed):
    ids = list(range(1, teams + 1))
    total = min(rounds, planning.swiss_most_rounds(teams))
    history: list[Result] = []
    byes = Counter({t: 0 for t in ids})
    for number in range(1, total + 1):
        try:
            plan = planning.swiss_round(ids, history, round_number=number, total_rounds=total)
        except PlanningError as exc:  # a dead end: said plainly, never a repeat
            assert "cannot be paired without two teams meeting again" in str(exc)
            return
        seen = [t for m in plan.meetings for t in (m.home, m.away)] + list(plan.byes)
        assert sorted(seen) == ids
        earlier = {frozenset((r.home, r.away)) for r in history}
        assert not earlier & {frozenset((m.home, m.away)) for m in plan.meetings}
        byes.update(plan.byes)
        assert max(byes.values()) - min(byes.values()) <= 1
        history += _play(plan, seed + number)


def test_swiss_pairs_the_leaders_together():
    ids = list(range(1, 9))
    r1 = planning.swiss_round(ids, [], round_number=1, total_rounds=3)
    history = [Result(1, m.home, m.away, 2, 0, 1, 0) for m in r1.meetings]  # home teams won
    winners = {m.home for m in r1.meetings}
    r2 = planning.swiss_round(ids, history, round_number=2, total_rounds=3)
    for m in r2.meetings:
        assert (m.home in winners) == (m.away in winners)  # winners meet winners


def test_the_matching_pairs_everyone_when_a_pairing_without_repeats_exists():
    # 4 teams after 2 rounds: only one pairing without a repeat is left.
    history = [
        Result(1, 1, 2, 2, 0, 1, 0),
        Result(1, 3, 4, 2, 0, 1, 0),
        Result(2, 1, 3, 2, 0, 1, 0),
        Result(2, 2, 4, 2, 0, 1, 0),
    ]
    standings = planning.swiss_standings([1, 2, 3, 4], history)
    plan = planning.matching_round(standings, 3)
    assert plan is not None
    assert {frozenset((m.home, m.away)) for m in plan.meetings} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }


def test_a_swiss_dead_end_is_refused_with_a_reason():
    # 4 teams, every pairing played: round 4 cannot exist (and 3 rounds is the most).
    with pytest.raises(PlanningError) as caught:
        planning.swiss_round([1, 2, 3, 4], [], round_number=1, total_rounds=4)
    assert caught.value.errors[0]["message"] == planning.SWISS_ROUNDS_RANGE.format(teams=4, most=3)
    assert (
        planning.matching_round(
            planning.swiss_standings(
                [1, 2, 3, 4],
                [Result(1, a, b) for a, b in combinations([1, 2, 3, 4], 2)],
            ),
            4,
        )
        is None
    )


def test_the_planner_is_pure():
    """No Django, no ORM: importing it pulls in neither."""
    probe = (
        "import json, sys; import clabber_league.scheduling.planning; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
        check=True,
    )
    tops = {name.split(".")[0] for name in json.loads(out.stdout)}
    assert not tops & {"django", "rest_framework", "celery", "psycopg"}


def test_rounds_that_overflow_alike_are_noted_once():
    notes = planning.Notes(venue_names={1: "The Hall", 2: "The Annex"})
    list(
        planning.timetable(
            planning.round_robin(list(range(1, 9))),  # 4 fixtures a round, 7 rounds
            nights=planning.league_nights(start=START, weekday=1),
            tables=planning.tables_of([(1, 3), (2, 4)]),
            notes=notes,
        )
    )
    assert len(notes.items) == 7
    assert [n["text"] for n in notes.compacted()] == [
        "Rounds 1 to 7: 1 fixture(s) a night at The Annex (The Hall's 3 tables are full)."
    ]
