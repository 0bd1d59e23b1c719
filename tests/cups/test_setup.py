"""Creating, seeding and drawing cups; play-offs built from a finished division."""

from __future__ import annotations

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.cups.models import Cup, Stage, Tie
from clabber_league.cups.services import build, progress, setup
from clabber_league.cups.tasks import build_knockout
from tests.factories import ClubFactory, DivisionFactory, TeamFactory

from .builders import finish_by_forfeits, round_robin

pytestmark = pytest.mark.django_db


def _cup(club, teams, **kwargs):
    return setup.cup_create(club=club, name=kwargs.pop("name", "Club Cup"), teams=teams, **kwargs)


def test_a_cup_of_five_gives_byes_to_the_top_three_seeds(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=_cup(club, teams[:5]))
    byes = Tie.objects.filter(cup=cup, status=Tie.Status.BYE, round=1)
    assert sorted(t.winner.seed for t in byes) == [1, 2, 3]
    round_two = Tie.objects.filter(cup=cup, round=2).order_by("order")
    assert {t.home.seed for t in round_two} == {1, 2}
    ready = Tie.objects.get(cup=cup, round=1, status=Tie.Status.READY)
    assert {ready.home.seed, ready.away.seed} == {4, 5}


def test_walkovers_carry_the_winners_through_to_a_champion(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=_cup(club, teams[:4]))
    while (tie := cup.ties.filter(status=Tie.Status.READY).order_by("order").first()) is not None:
        progress.tie_walkover(tie=tie, absent="away")
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED
    assert cup.champion.name == "Aces"  # seed 1 was home every time


def test_a_walkover_advances_the_side_that_turned_up(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=_cup(club, teams[:4]))
    semi = cup.ties.get(key="M1-1")
    progress.tie_walkover(tie=semi, absent="home")
    final = cup.ties.get(key="M2-1")
    assert final.home == semi.away or final.away == semi.away
    semi.refresh_from_db()
    assert semi.status == Tie.Status.WALKOVER


def test_a_bracket_with_a_result_is_not_drawn_again(club, league):
    _, teams = league
    cup = setup.cup_draw(cup=_cup(club, teams[:4]))
    progress.tie_walkover(tie=cup.ties.get(key="M1-1"), absent="away")
    with pytest.raises(ServiceError) as err:
        setup.cup_draw(cup=cup)
    assert err.value.status == 409
    assert err.value.errors[0]["message"] == setup.HAS_RESULTS
    with pytest.raises(ServiceError):
        setup.cup_seed(cup=cup, seeding="random")
    assert cup.ties.filter(status=Tie.Status.WALKOVER).count() == 1


def test_a_team_of_another_club_is_refused(club, league):
    _, teams = league
    stranger = TeamFactory(division=DivisionFactory(season__club=ClubFactory()))
    with pytest.raises(ServiceError) as err:
        _cup(club, [teams[0], teams[1], stranger])
    assert {"field": "teams[2]", "message": setup.TEAM_OTHER_CLUB} in err.value.errors
    assert not Cup.objects.exists()


def test_a_random_draw_shows_its_seed_and_repeats(club, league):
    _, teams = league
    first = _cup(club, teams, seeding="random", seed_text="abc123")
    again = _cup(club, teams, name="Again", seeding="random", seed_text="abc123")
    order = list(first.entrants.values_list("team__name", flat=True))
    assert order == list(again.entrants.values_list("team__name", flat=True))
    assert "abc123" in " ".join(first.stages.get(kind="knockout").notes)


def test_a_three_handed_rule_set_is_refused_for_a_cup_of_teams(club, league):
    _, teams = league
    with pytest.raises(ServiceError) as err:
        _cup(club, teams[:4], rules="clabber-3")
    assert err.value.errors[0] == {
        "field": "entrant_kind",
        "message": setup.THREE_PLAYERS.format(ruleset="clabber-3"),
    }


def test_double_elimination_with_third_place_is_refused(club, league):
    _, teams = league
    with pytest.raises(ServiceError) as err:
        _cup(club, teams[:4], format="double", third_place=True)
    assert err.value.errors[0]["field"] == "third_place"


def test_seeding_from_an_unfinished_division_is_refused_with_what_is_missing(club, league):
    division, teams = league
    round_robin(division, teams[:4])
    cup = setup.cup_create(club=club, name="Play-offs", divisions=[division], top=4)
    assert cup.status == Cup.Status.WAITING
    with pytest.raises(ServiceError) as err:
        build.stage_build(cup=cup)
    assert err.value.status == 409
    assert (
        "Premier is not finished: 6 fixture(s) have no result yet" in err.value.errors[0]["message"]
    )
    assert not cup.entrants.exists()


def test_the_top_four_go_into_play_offs_when_the_division_finishes(
    club, league, django_capture_on_commit_callbacks
):
    division, teams = league
    fixtures = round_robin(division, teams[:5])
    cup = setup.cup_create(club=club, name="Play-offs", divisions=[division], top=4)
    order = [teams[2], teams[0], teams[4], teams[1], teams[3]]
    with django_capture_on_commit_callbacks() as queued:
        finish_by_forfeits(fixtures, order)
    # The last forfeit completed the stage: the build was queued (once) for the commit.
    assert len(queued) == 1
    league_stage = cup.stages.get(kind=Stage.Kind.LEAGUE)
    assert league_stage.build == Stage.Build.QUEUED
    build_knockout(league_stage.pk)  # the task's work, here rather than on a worker
    cup.refresh_from_db()
    assert cup.status == Cup.Status.DRAWN
    seeds = list(cup.entrants.order_by("seed").values_list("team__name", "note"))
    assert [name for name, _ in seeds] == [t.name for t in order[:4]]
    assert seeds[0][1].startswith("Place 1 in Premier")
    league_stage.refresh_from_db()
    assert league_stage.build == Stage.Build.DONE
    assert "top 4 of each division" in cup.stages.get(kind="knockout").notes[0]
    semis = cup.ties.filter(round=1).order_by("order")
    assert [(t.home.seed, t.away.seed) for t in semis] == [(1, 4), (2, 3)]


def test_a_shared_place_at_the_cut_is_drawn_by_lot_and_said(club):
    first = DivisionFactory(season__club=club, club=club, name="North")
    second = DivisionFactory(season__club=first.season.club, club=club, name="South")
    north = [TeamFactory(division=first, name=f"N{i}") for i in range(3)]
    south = [TeamFactory(division=second, name=f"S{i}") for i in range(3)]
    for division, teams in ((first, north), (second, south)):
        finish_by_forfeits(round_robin(division, teams), teams)
    cup = setup.cup_create(
        club=club, name="Overall", divisions=[first, second], top=3, per="overall"
    )
    stage = cup.stages.get(kind="league")
    candidates, notes = build.qualifiers(stage=stage, cup=cup)
    names = [c.thing.name for c in candidates]
    assert names[:2] == ["N0", "S0"] or names[:2] == ["S0", "N0"]
    assert len(names) == 3 and names[2] in ("N1", "S1")
    assert any("drawn by lot" in n for n in notes)


@pytest.mark.parametrize(
    ("entrants", "options"),
    [
        (2, {}),
        (6, {"third_place": True, "plate": True}),
        (6, {"format": Cup.Format.DOUBLE, "final_reset": True}),
        (3, {"format": Cup.Format.DOUBLE}),
    ],
)
def test_a_drawn_bracket_is_already_what_its_progress_says(club, league, entrants, options):
    """The draw writes every tie's sides and state at once (byes through, a reset not
    needed void): bringing the cup in line with its results afterwards changes nothing."""
    _, teams = league
    cup = setup.cup_draw(cup=_cup(club, teams[:entrants], **options))

    def snapshot():
        cup.refresh_from_db()
        ties = cup.ties.order_by("order").values_list(
            "key", "home_id", "away_id", "status", "winner_id", "loser_id"
        )
        return cup.status, cup.champion_id, list(ties)

    drawn = snapshot()
    assert drawn[0] == Cup.Status.DRAWN
    progress.cup_sync(cup=cup)
    assert snapshot() == drawn
