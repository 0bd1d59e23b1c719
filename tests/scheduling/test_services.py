"""Generating, re-generating, moving and forfeiting fixtures through the services."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.leagues.services import VENUE_OTHER_CLUB
from clabber_league.scheduling import planning, selectors, store
from clabber_league.scheduling.models import Fixture, LeagueNight, ScheduleRun
from clabber_league.scheduling.services import ScheduleError
from clabber_league.scheduling.services.fixture_changes import (
    FIXTURE_DONE,
    FIXTURE_HAS_GAMES,
    FORFEIT_WINNER,
    TABLE_RANGE,
    TEAM_BUSY,
    fixture_forfeit,
    fixture_move,
)
from clabber_league.scheduling.services.generation import (
    BROKER_DOWN,
    NO_CONFIG,
    RUN_ACTIVE,
    RUN_FAILED,
    WORKER_LOST,
    schedule_generate,
    schedule_run_execute,
    schedule_run_retry,
)
from clabber_league.scheduling.services.jobs import (
    fixtures_flag_overdue,
    fixtures_remind,
    nights_publish,
)
from tests.factories import TeamFactory, UserFactory

from .conftest import SEASON_START, configure, make_teams

pytestmark = pytest.mark.django_db
FIRST_MONDAY = dt.date(2026, 9, 7)


def pairs(fixtures) -> Counter:
    return Counter(frozenset((f.home_id, f.away_id)) for f in fixtures)


def _nights_ok(fixtures) -> None:
    by_night: dict = {}
    for f in fixtures:
        by_night.setdefault(f.date, []).extend([f.home_id, f.away_id])
    for night, teams in by_night.items():
        assert len(teams) == len(set(teams)), night


# --- generating ------------------------------------------------------------------------


def test_a_single_round_robin_of_six_teams_on_monday_nights(
    division, teams, hall, annex, secretary, generate
):
    configure(division, venues=[hall, annex])
    run = generate(division, secretary)
    assert (run.state, run.progress, run.fixtures_created) == (ScheduleRun.State.DONE, 100, 15)
    assert run.message.startswith("15 fixtures planned, Mon 7 Sep 2026 to Mon 5 Oct 2026.")
    fixtures = list(Fixture.objects.filter(division=division))
    assert pairs(fixtures) == Counter(
        {frozenset(p): 1 for p in combinations([t.pk for t in teams], 2)}
    )
    assert sorted({f.date for f in fixtures}) == [
        FIRST_MONDAY + dt.timedelta(weeks=w) for w in range(5)
    ]
    _nights_ok(fixtures)
    # three fixtures a night: the Hall's two tables, then the Annex's first
    first = sorted((f.venue.name, f.table) for f in fixtures if f.round_number == 1)
    assert first == [("The Annex", 1), ("The Hall", 1), ("The Hall", 2)]
    assert {n["kind"] for n in run.notes} == {"venue_overflow"}
    assert all(f.games_planned == division.games_per_fixture for f in fixtures)


def test_a_double_round_robin_plays_each_pair_home_and_away(division, teams, generate):
    configure(division, cycles=2)
    run = generate(division)
    fixtures = list(Fixture.objects.filter(division=division))
    assert run.fixtures_created == len(fixtures) == 30
    directed = Counter((f.home_id, f.away_id) for f in fixtures)
    assert set(directed.values()) == {1} and len(directed) == 30
    assert max(f.round_number for f in fixtures) == 10
    assert all(f.venue is None for f in fixtures)  # no venues: tables are unlimited


def test_an_odd_number_of_teams_gives_each_a_bye_once(division, generate):
    make_teams(division, 7)
    configure(division)
    generate(division)
    fixtures = list(Fixture.objects.filter(division=division))
    byes = selectors.byes_by_round(division=division, fixtures=fixtures)
    assert len(byes) == 7
    assert Counter(t.pk for teams in byes.values() for t in teams) == Counter(
        {t.pk: 1 for t in division.teams.all()}
    )


def test_skipped_nights_are_skipped(division, teams, generate):
    configure(division, skip_dates=[(dt.date(2026, 9, 14), "Fair week")])
    generate(division)
    dates = sorted(set(Fixture.objects.filter(division=division).values_list("date", flat=True)))
    assert dt.date(2026, 9, 14) not in dates
    assert dates[:2] == [FIRST_MONDAY, dt.date(2026, 9, 21)]


def test_not_enough_tables_moves_fixtures_to_the_next_night_and_says_so(
    division, teams, hall, generate
):
    configure(division, venues=[hall])  # 2 tables, 3 fixtures a round
    run = generate(division)
    fixtures = list(Fixture.objects.filter(division=division))
    _nights_ok(fixtures)
    per_night = Counter(f.date for f in fixtures)
    assert max(per_night.values()) <= 2
    moved = [n for n in run.notes if n["kind"] == "night_overflow"]
    assert moved and moved[0]["text"].startswith("Round 1: 1 fixture(s) moved to Mon 14 Sep 2026")


def test_a_schedule_past_the_seasons_end_is_generated_with_a_warning(division, teams, generate):
    division.season.end_date = dt.date(2026, 9, 20)
    division.season.save()
    configure(division)
    run = generate(division)
    assert run.state == ScheduleRun.State.DONE
    assert any(n["kind"] == "past_end" for n in run.notes)


def test_generating_without_a_config_is_refused(division, teams):
    with pytest.raises(ScheduleError) as caught:
        schedule_generate(division=division)
    assert caught.value.errors[0]["message"] == NO_CONFIG


def test_one_team_is_not_a_league(division, generate):
    make_teams(division, 1)
    configure(division)
    run = generate(division)
    assert run.state == ScheduleRun.State.FAILED
    assert run.message == planning.NEED_TWO_TEAMS.format(count=1)
    assert not Fixture.objects.exists()


def test_a_second_run_waits_for_the_first(division, teams, generate):
    configure(division)
    schedule_generate(division=division)
    with pytest.raises(ScheduleError) as caught:
        schedule_generate(division=division)
    assert caught.value.errors[0]["message"] == RUN_ACTIVE


def test_a_stalled_run_is_failed_and_a_new_one_queued(division, teams):
    configure(division)
    stuck = schedule_generate(division=division)
    ScheduleRun.objects.filter(pk=stuck.pk).update(
        state="running", heartbeat_at=timezone.now() - dt.timedelta(hours=1)
    )
    stuck.refresh_from_db()
    fresh = schedule_run_retry(run=stuck)
    stuck.refresh_from_db()
    assert (stuck.state, stuck.message) == ("failed", WORKER_LOST)
    assert fresh.state == "queued" and fresh.pk != stuck.pk


def test_a_failure_partway_through_inserting_leaves_no_fixture(
    division, teams, generate, monkeypatch
):
    configure(division)
    first = generate(division)
    before = sorted(Fixture.objects.values_list("id", "round_number", "home_id", "away_id"))
    assert first.state == "done" and len(before) == 15

    real_write = store.write_fixtures

    def write_then_fail(placements, **kwargs):
        def some_then_boom():
            for i, p in enumerate(placements):
                if i == 7:
                    raise RuntimeError("disk full")
                yield p

        return real_write(some_then_boom(), **kwargs)

    monkeypatch.setattr(store, "write_fixtures", write_then_fail)
    run = generate(division)
    assert run.state == ScheduleRun.State.FAILED
    assert run.message == RUN_FAILED.format(detail="RuntimeError: disk full")
    after = sorted(Fixture.objects.values_list("id", "round_number", "home_id", "away_id"))
    assert after == before  # the old schedule, untouched: nothing new, nothing deleted


# --- re-generating around results -------------------------------------------------------


def _start_game(fixture, winner_side: str | None = None) -> Game:
    home, away = fixture.home, fixture.away
    seats = []
    for pair in zip(
        [m.player for m in home.members.order_by("position")],
        [m.player for m in away.members.order_by("position")],
        strict=True,
    ):
        seats.extend(pair)
    game = game_services.game_start(
        club=fixture.club,
        division=fixture.division,
        sides={"A": home, "B": away},
        seats=seats,
        fixture=fixture,
        played_on=fixture.date,
    )
    if winner_side:
        Game.objects.filter(pk=game.pk).update(status="finished", winner=winner_side)
    return game


def test_generating_again_keeps_rounds_with_results_and_replans_the_rest(division, teams, generate):
    configure(division)
    generate(division)
    round1 = list(Fixture.objects.filter(division=division, round_number=1))
    round2 = list(Fixture.objects.filter(division=division, round_number=2))
    fixture_forfeit(fixture=round1[0], winner=round1[0].home)
    _start_game(round2[0])  # a game at the table: the round is being played
    later = set(Fixture.objects.filter(round_number__gt=2).values_list("id", flat=True))

    run = generate(division)
    assert run.state == "done"
    assert run.fixtures_kept == 6 and run.fixtures_created == 9
    kept = set(Fixture.objects.filter(round_number__lte=2).values_list("id", flat=True))
    assert kept == {f.pk for f in round1 + round2}
    assert not later & set(Fixture.objects.values_list("id", flat=True))  # replaced
    fixtures = list(Fixture.objects.filter(division=division))
    assert set(pairs(fixtures).values()) == {1} and len(pairs(fixtures)) == 15
    assert Fixture.objects.get(pk=round1[0].pk).status == Fixture.Status.FORFEIT
    _nights_ok(fixtures)


def test_a_game_started_for_its_fixture_holds_it_and_one_without_is_a_match_of_its_own(
    division, teams, generate
):
    """The rule the standings share: a game counts for the fixture it was started for; a
    game between the same teams started without one is never guessed into it."""
    configure(division)
    generate(division)
    fixture = Fixture.objects.filter(division=division, round_number=3).first()
    game = _start_game(fixture)
    assert fixture.pk in selectors.kept_fixture_ids(division=division)
    Game.objects.filter(pk=game.pk).update(fixture=None)  # a friendly between the same teams
    assert fixture.pk not in selectors.kept_fixture_ids(division=division)
    assert selectors.games_by_fixture(division=division) == {}
    fixture_forfeit(fixture=fixture, winner=fixture.home)  # no game of its own


def test_a_team_joining_after_round_one_still_meets_everyone_once(division, teams, generate):
    configure(division)
    generate(division)
    first = Fixture.objects.filter(division=division, round_number=1).first()
    fixture_forfeit(fixture=first, winner=first.away)
    newcomer = TeamFactory(division=division, name="Newcomers")
    generate(division)
    fixtures = list(Fixture.objects.filter(division=division))
    everyone = [t.pk for t in teams] + [newcomer.pk]
    assert pairs(fixtures) == Counter({frozenset(p): 1 for p in combinations(everyone, 2)})
    _nights_ok(fixtures)


# --- Swiss ------------------------------------------------------------------------------


def test_a_swiss_pairs_one_round_at_a_time_from_the_standings(division, teams, generate):
    configure(division, format="swiss", swiss_rounds=3)
    generate(division)
    r1 = list(Fixture.objects.filter(division=division, round_number=1))
    assert len(r1) == 3
    for f in r1:  # the home teams win round 1
        fixture_forfeit(fixture=f, winner=f.home)
    generate(division)
    r2 = list(Fixture.objects.filter(division=division, round_number=2))
    winners = {f.home_id for f in r1}
    assert len(r2) == 3
    # three winners, three losers: two winners meet, one floats down to a loser
    mixed = [f for f in r2 if (f.home_id in winners) != (f.away_id in winners)]
    assert len(mixed) == 1
    assert not set(pairs(r1)) & set(pairs(r2))
    assert r2[0].date == r1[0].date + dt.timedelta(weeks=1)
    for f in r2:
        fixture_forfeit(fixture=f, winner=f.away)
    generate(division)
    r3 = list(Fixture.objects.filter(division=division, round_number=3))
    assert len(set(pairs(r1 + r2 + r3))) == 9  # nobody met twice
    assert generate(division).state == "done"  # round 3 unplayed: paired again
    for f in Fixture.objects.filter(division=division, round_number=3):
        fixture_forfeit(fixture=f, winner=f.home)
    run = generate(division)
    assert run.state == "failed"
    assert run.message == planning.SWISS_ALL_PAIRED.format(rounds=3)


def test_a_swiss_round_not_yet_played_is_paired_again(division, teams, generate):
    configure(division, format="swiss", swiss_rounds=3)
    generate(division)
    first = set(Fixture.objects.values_list("home_id", "away_id"))
    generate(division)
    assert set(Fixture.objects.values_list("home_id", "away_id")) == first
    assert Fixture.objects.filter(round_number=2).count() == 0


# --- moving and forfeiting --------------------------------------------------------------


@pytest.fixture
def scheduled(division, teams, hall, annex, generate):
    configure(division, venues=[hall, annex])
    generate(division)
    return list(Fixture.objects.filter(division=division).order_by("round_number", "id"))


def test_postponing_keeps_the_first_date_and_clears_the_night(scheduled):
    fixture = scheduled[0]
    moved = fixture_move(fixture=fixture, date=None, note="Snow")
    assert (moved.status, moved.date, moved.original_date, moved.note) == (
        Fixture.Status.POSTPONED,
        None,
        FIRST_MONDAY,
        "Snow",
    )
    again = fixture_move(fixture=moved, date=dt.date(2026, 12, 28), venue=fixture.venue, table=1)
    assert (again.status, again.date, again.original_date) == (
        Fixture.Status.SCHEDULED,
        dt.date(2026, 12, 28),
        FIRST_MONDAY,
    )


def test_a_fixture_cannot_move_onto_a_night_its_team_already_plays(scheduled):
    fixture = scheduled[0]
    other = next(
        f for f in scheduled if f.round_number == 2 and fixture.home_id in (f.home_id, f.away_id)
    )
    with pytest.raises(ScheduleError) as caught:
        fixture_move(fixture=fixture, date=other.date)
    assert caught.value.errors[0]["field"] == "date"
    assert caught.value.errors[0]["message"] in {
        TEAM_BUSY.format(team=team.name, home=f.home, away=f.away)
        for f in scheduled
        if f.date == other.date
        for team in (fixture.home, fixture.away)
        if team.pk in (f.home_id, f.away_id)
    }


def test_a_table_taken_that_night_is_refused(scheduled, hall):
    fixture = scheduled[0]
    same_night = next(f for f in scheduled if f.date == fixture.date and f.pk != fixture.pk)
    with pytest.raises(ScheduleError) as caught:
        fixture_move(
            fixture=fixture, date=fixture.date, venue=same_night.venue, table=same_night.table
        )
    assert caught.value.errors[0]["field"] == "table"
    with pytest.raises(ScheduleError) as caught:
        fixture_move(fixture=fixture, date=fixture.date, venue=hall, table=3)
    assert caught.value.errors[0]["message"] == TABLE_RANGE.format(venue="The Hall", tables=2)


def test_a_forfeit_gives_the_winner_the_seasons_points_for_a_win(scheduled, division):
    fixture = scheduled[0]
    fixture_forfeit(fixture=fixture, winner=fixture.away, note="Walkover")
    fixture.refresh_from_db()
    outcome = selectors.fixture_outcomes(division=division, fixtures=[fixture])[fixture.pk]
    season = division.season
    assert (outcome.home_points, outcome.away_points) == (season.points_loss, season.points_win)
    assert (outcome.home_won, outcome.away_won) == (0, fixture.games_planned)
    with pytest.raises(ScheduleError) as caught:
        fixture_move(fixture=fixture, date=None)
    assert caught.value.errors[0]["message"] == FIXTURE_DONE


def test_a_forfeit_names_one_of_the_two_teams(scheduled):
    fixture = scheduled[0]
    stranger = next(f.home for f in scheduled if fixture.home_id != f.home_id != fixture.away_id)
    with pytest.raises(ScheduleError) as caught:
        fixture_forfeit(fixture=fixture, winner=stranger)
    assert caught.value.errors[0]["message"] == FORFEIT_WINNER


def test_a_fixture_with_games_cannot_be_forfeited(scheduled):
    _start_game(scheduled[0])
    with pytest.raises(ScheduleError) as caught:
        fixture_forfeit(fixture=scheduled[0], winner=scheduled[0].home)
    assert caught.value.errors[0]["message"] == FIXTURE_HAS_GAMES


def test_a_played_fixture_counts_games_won_for_its_result(scheduled, division):
    fixture = scheduled[0]
    _start_game(fixture, winner_side="B")
    outcome = selectors.fixture_outcomes(division=division, fixtures=[fixture])[fixture.pk]
    assert (outcome.home_won, outcome.away_won, outcome.away_points) == (0, 1, 3)


# --- setup ------------------------------------------------------------------------------


def test_a_config_cannot_use_another_clubs_venue(division, club_factory):
    from clabber_league.leagues.models import Venue

    elsewhere = Venue.objects.create(club=club_factory(), name="Elsewhere", tables=3)
    with pytest.raises(ScheduleError) as caught:
        configure(division, venues=[elsewhere])
    assert caught.value.errors[0]["message"] == VENUE_OTHER_CLUB


# --- periodic work ---------------------------------------------------------------------


def test_tonights_list_is_published_once(scheduled, club):
    assert nights_publish(on=FIRST_MONDAY) == 1
    night = LeagueNight.objects.get(club=club, date=FIRST_MONDAY)
    first_published = night.published_at
    assert night.fixture_count == 3
    assert nights_publish(on=FIRST_MONDAY) == 1
    night.refresh_from_db()
    assert night.published_at == first_published
    assert LeagueNight.objects.count() == 1
    assert nights_publish(on=FIRST_MONDAY + dt.timedelta(days=1)) == 0


def test_players_with_an_email_are_reminded_once(scheduled):
    fixture = scheduled[0]
    member = fixture.home.members.order_by("position").first()
    member.player.user = UserFactory(username="ada", email="ada@example.org")
    member.player.save()
    sent = fixtures_remind(on=FIRST_MONDAY, base_url="https://league.example.org")
    assert sent == 1
    assert mail.outbox[0].to == ["ada@example.org"]
    assert f"{fixture.home} v {fixture.away}" in mail.outbox[0].subject
    assert "deals first" in mail.outbox[0].body
    assert fixtures_remind(on=FIRST_MONDAY) == 0  # once only
    assert Fixture.objects.filter(date=FIRST_MONDAY, reminded_at__isnull=True).count() == 0


def test_fixtures_past_their_night_without_a_result_are_flagged(scheduled):
    played, forfeited, missing = scheduled[0], scheduled[1], scheduled[2]
    _start_game(played, winner_side="A")
    fixture_forfeit(fixture=forfeited, winner=forfeited.home)
    flagged = fixtures_flag_overdue(today=FIRST_MONDAY + dt.timedelta(days=1))
    assert flagged == 1
    missing.refresh_from_db()
    played.refresh_from_db()
    assert missing.flagged_at is not None
    assert played.status == Fixture.Status.PLAYED and played.flagged_at is None
    assert fixtures_flag_overdue(today=FIRST_MONDAY + dt.timedelta(days=1)) == 0


def test_the_periodic_tasks_are_created_once(capsys):
    from django_celery_beat.models import PeriodicTask

    call_command("setup_periodic_tasks")
    call_command("setup_periodic_tasks")
    tasks = PeriodicTask.objects.filter(name__startswith="scheduling:")
    assert sorted(t.task for t in tasks) == [
        "scheduling.flag_overdue",
        "scheduling.publish_nights",
        "scheduling.send_reminders",
    ]
    assert "already there" in capsys.readouterr().out


def test_the_periodic_tasks_call_their_services(scheduled, settings):
    from clabber_league.scheduling import tasks

    assert tasks.flag_overdue.apply().get() >= 0
    assert tasks.publish_nights.apply().get() >= 0
    assert tasks.send_reminders.apply(kwargs={"days_ahead": 1}).get() >= 0


def test_a_broker_that_does_not_answer_fails_the_run_and_it_can_be_retried(
    division, teams, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from clabber_league.scheduling import tasks

    configure(division)

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.generate_schedule, "apply_async", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        run = schedule_generate(division=division)
    run.refresh_from_db()
    assert (run.state, run.message) == (ScheduleRun.State.FAILED, BROKER_DOWN)
    assert run.finished_at is not None
    assert not Fixture.objects.exists()
    monkeypatch.undo()  # the broker is back
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        again = schedule_run_retry(run=run)
    assert len(callbacks) == 1
    done = schedule_run_execute(run_id=again.pk, today=SEASON_START)
    assert done.state == ScheduleRun.State.DONE and done.fixtures_created == 15


def test_two_divisions_at_one_venue_never_overbook_its_tables(
    division, teams, hall, generate, season
):
    from tests.factories import DivisionFactory

    tuesday = DivisionFactory(season=season, name="Second Monday division")
    make_teams(tuesday, 4)
    configure(division, venues=[hall])  # 3 fixtures a round at 2 tables
    configure(tuesday, venues=[hall])  # 2 more a round, the same nights
    generate(division)
    run = generate(tuesday)
    assert run.state == "done"
    used = Counter(Fixture.objects.filter(venue=hall).values_list("date", "table"))
    assert set(used.values()) == {1}  # no table of the Hall twice on any night
    assert any(n["kind"] == "night_overflow" for n in run.notes)
    _nights_ok(Fixture.objects.filter(division=tuesday))
