"""The ranking follows the clubs' confirmed games: a confirmed game queues the
recomputation through the games' hook, each player gets one history row per event with
before and after, results of players without a number or of clubs outside the
federation do not count, and a corrected game's new result replaces the old."""

import datetime as dt

import pytest
from django.utils import timezone

from clabber_league.clubs.access import access_for
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.ranking.compute import EventResult, SideResult
from clabber_league.ranking.models import NationalRating, RankedEvent, RatingStep
from clabber_league.ranking.services import (
    PLACING_POINTS_SHAPE,
    RankingError,
    ranking_recompute,
    ranking_settings_update,
)
from clabber_league.ranking.sources import SOURCES, results_source_register
from tests.factories import DivisionFactory, TeamFactory

from .conftest import A_WINS, B_WINS, linked_team, number_for, play

pytestmark = pytest.mark.django_db


def _ratings(federation):
    return {
        r.player.number: r
        for r in NationalRating.objects.filter(federation=federation).select_related("player")
    }


def test_a_confirmed_game_moves_the_ranking_through_the_hook(
    federation, clubs, django_capture_on_commit_callbacks, monkeypatch
):
    from clabber_league.ranking import tasks

    # The task runs here as the worker would run it (eager or not: the same with Redis).
    monkeypatch.setattr(tasks.recompute, "delay", tasks.recompute.run)
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    with django_capture_on_commit_callbacks(execute=True):
        game = play(north["division"], aces, bells, A_WINS, user=north["scorer"])
    assert not NationalRating.objects.exists()  # finished, not confirmed: nothing yet
    with django_capture_on_commit_callbacks(execute=True):
        games.game_confirm(
            game=game, user=north["admin"], access=access_for(club=game.club, user=north["admin"])
        )
    ratings = _ratings(federation)
    winners = [
        link.federation_player.number
        for m in aces.members.all()
        for link in m.player.federation_links.all()
    ]
    losers = [
        link.federation_player.number
        for m in bells.members.all()
        for link in m.player.federation_links.all()
    ]
    assert len(ratings) == 4
    assert all(ratings[n].mu > 25 for n in winners)
    assert all(ratings[n].mu < 25 for n in losers)
    event = RankedEvent.objects.get()
    assert (event.category, event.sides) == ("league", 2)
    assert RatingStep.objects.filter(event=event).count() == 4


def test_each_player_has_one_history_row_per_event_with_before_and_after(federation, clubs):
    north, south = clubs
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    dads = linked_team(federation, south["division"], "Dads")
    mules = linked_team(federation, south["division"], "Mules")
    play(north["division"], aces, bells, A_WINS, user=north["scorer"], confirm_by=north["admin"])
    play(north["division"], aces, bells, B_WINS, user=north["scorer"], confirm_by=north["admin"])
    play(south["division"], dads, mules, A_WINS, user=south["scorer"], confirm_by=south["admin"])
    assert ranking_recompute(federation=federation) == 3
    ace = aces.members.order_by("position").first().player.federation_links.get().federation_player
    steps = list(RatingStep.objects.filter(player=ace).order_by("id"))
    assert len(steps) == 2
    assert (steps[0].mu_before, steps[0].sigma_before) == (25.0, pytest.approx(25 / 3))
    assert steps[1].mu_before == steps[0].mu and steps[1].sigma_before == steps[0].sigma
    assert steps[0].mu > steps[0].mu_before and steps[1].mu < steps[1].mu_before
    rating = NationalRating.objects.get(player=ace)
    assert (rating.mu, rating.events) == (steps[1].mu, 2)
    # recomputed again: the same rows, not twice as many
    ranking_recompute(federation=federation)
    assert RatingStep.objects.filter(player=ace).count() == 2


def test_players_without_a_number_and_clubs_outside_the_federation_do_not_count(federation, clubs):
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    strangers = TeamFactory(division=north["division"], name="Strangers")  # no numbers
    play(
        north["division"], aces, strangers, A_WINS, user=north["scorer"], confirm_by=north["admin"]
    )
    elsewhere = DivisionFactory(ruleset="clabber")  # a club of no federation
    x = TeamFactory(division=elsewhere, name="X")
    y = TeamFactory(division=elsewhere, name="Y")
    number_for(federation, x.members.first().player)
    play(elsewhere, x, y, A_WINS, user=None)  # linked, but its club is no member
    ranking_recompute(federation=federation)
    assert len(_ratings(federation)) == 2  # the Aces only: their opponents were newcomers
    assert all(r.mu > 25 for r in _ratings(federation).values())
    assert RankedEvent.objects.count() == 1


def test_a_confirmed_games_changed_result_replaces_the_old_one(federation, clubs):
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    game = play(
        north["division"], aces, bells, A_WINS, user=north["scorer"], confirm_by=north["admin"]
    )
    ranking_recompute(federation=federation)
    before = {n: r.mu for n, r in _ratings(federation).items()}
    Game.objects.filter(pk=game.pk).update(score_a=40, score_b=608)  # as a correction leaves it
    ranking_recompute(federation=federation)
    after = {n: r.mu for n, r in _ratings(federation).items()}
    assert {n for n in before if before[n] > 25} == {n for n in after if after[n] < 25}
    assert RankedEvent.objects.count() == 1


def test_an_imported_source_is_rated_with_the_local_games_by_date(federation, clubs):
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    play(north["division"], aces, bells, A_WINS, user=north["scorer"], confirm_by=north["admin"])
    bell = bells.members.first().player.federation_links.get().federation_player
    ace = aces.members.first().player.federation_links.get().federation_player

    def imported(fed):
        yield EventResult(
            key="file-1:night-9",
            date=dt.date(2000, 1, 1),  # before every local game
            category="night",
            sides=(
                SideResult((bell.number,), 700, placing=1),
                SideResult((ace.number, "UNKNOWN-1"), 300, placing=2),
            ),
        )

    results_source_register(imported)
    try:
        ranking_settings_update(federation=federation, placing_points={"night": [5, 3]})
        assert ranking_recompute(federation=federation) == 2
    finally:
        SOURCES.remove(imported)
    first = RatingStep.objects.filter(player=bell).order_by("event__date").first()
    assert first.event.key == "file-1:night-9" and first.points == 5 and first.placing == 1
    assert NationalRating.objects.get(player=ace).points == 3


def test_placing_points_of_a_wrong_shape_are_refused_naming_the_field(federation):
    with pytest.raises(RankingError) as err:
        ranking_settings_update(federation=federation, placing_points={"night": [5, -1]})
    assert err.value.errors == [{"field": "placing_points", "message": PLACING_POINTS_SHAPE}]


def test_a_burst_of_confirmations_queues_one_recomputation(
    federation, clubs, django_capture_on_commit_callbacks, monkeypatch
):
    from clabber_league.ranking import tasks

    sent = []
    monkeypatch.setattr(tasks.recompute, "delay", lambda fid: sent.append(fid))
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play(
                north["division"],
                aces,
                bells,
                A_WINS,
                user=north["scorer"],
                confirm_by=north["admin"],
            )
    assert sent == [federation.pk]
    tasks.recompute.run(federation.pk)  # the worker starts it: the next change queues again
    with django_capture_on_commit_callbacks(execute=True):
        play(
            north["division"], aces, bells, A_WINS, user=north["scorer"], confirm_by=north["admin"]
        )
    assert sent == [federation.pk, federation.pk]


def test_replaying_from_a_date_gives_the_ranking_a_full_replay_gives(federation, clubs):
    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    bell = bells.members.first().player.federation_links.get().federation_player
    ace = aces.members.first().player.federation_links.get().federation_player
    day = dt.date(2026, 10, 1)

    def night(n, winner, loser):
        return EventResult(
            key=f"night-{n}",
            date=day + dt.timedelta(days=7 * n),
            category="night",
            sides=(SideResult((winner.number,), 700), SideResult((loser.number,), 300)),
        )

    ranking_settings_update(federation=federation, placing_points={"night": [3, 1]})
    season = [night(0, ace, bell), night(1, bell, ace), night(2, ace, bell)]
    ranking_recompute(federation=federation, events=season)
    later = [*season, night(3, bell, ace), night(4, bell, ace)]
    assert ranking_recompute(federation=federation, events=later, since=later[3].date) == 2
    partly = {
        r.player_id: (r.mu, r.sigma, r.events, r.points) for r in NationalRating.objects.all()
    }
    history = list(
        RatingStep.objects.filter(player=ace).order_by("id").values_list("event__key", "mu")
    )
    assert [key for key, _ in history] == [f"night-{n}" for n in range(5)]
    ranking_recompute(federation=federation, events=later)
    fully = {r.player_id: (r.mu, r.sigma, r.events, r.points) for r in NationalRating.objects.all()}
    assert partly == fully and partly[bell.pk][2:] == (5, 11)
    assert history == list(
        RatingStep.objects.filter(player=ace).order_by("id").values_list("event__key", "mu")
    )


def test_a_confirmed_game_replays_from_its_own_date(
    federation, clubs, django_capture_on_commit_callbacks, monkeypatch
):
    from clabber_league.ranking import tasks
    from clabber_league.ranking.models import RankingSettings

    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    bells = linked_team(federation, north["division"], "Bells")
    monkeypatch.setattr(tasks.recompute, "delay", lambda fid: None)
    with django_capture_on_commit_callbacks(execute=True):
        game = play(
            north["division"], aces, bells, A_WINS, user=north["scorer"], confirm_by=north["admin"]
        )
    row = RankingSettings.objects.get(federation=federation)
    day = game.played_on or timezone.localdate(game.confirmed_at)
    assert row.dirty_since == day and not row.dirty_all
    assert tasks.recompute.run(federation.pk)["events"] == 1
    assert tasks.recompute.run(federation.pk)["events"] == 0  # nothing asked since


def test_the_command_replays_the_ranking_after_a_link_the_hook_does_not_see(federation, clubs):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    north = clubs[0]
    aces = linked_team(federation, north["division"], "Aces")
    latecomers = TeamFactory(division=north["division"], name="Latecomers")
    play(
        north["division"], aces, latecomers, A_WINS, user=north["scorer"], confirm_by=north["admin"]
    )
    ranking_recompute(federation=federation)
    assert NationalRating.objects.count() == 2
    for member in latecomers.members.all():  # linked after their game was rated
        number_for(federation, member.player)
    out = StringIO()
    call_command("ranking_recompute", "nku", stdout=out)
    assert out.getvalue() == "nku: 1 events rated\n"
    assert NationalRating.objects.count() == 4
    with pytest.raises(CommandError):
        call_command("ranking_recompute", "nowhere")
