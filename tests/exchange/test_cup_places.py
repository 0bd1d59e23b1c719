"""A cup's placings in the results file, from real cups played out: double elimination
(champion, grand final loser, losers' bracket final loser, then by the losers' round
knocked out in, level entrants sharing a place) and single elimination with a
third-place match."""

from __future__ import annotations

import pytest

from clabber_league.clubs.access import club_access
from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services import setup
from clabber_league.exchange import reading, services
from tests.factories import DivisionFactory, TeamFactory

from .test_cup_and_season import SHORT, _win

pytestmark = pytest.mark.django_db


def _cup(club, count, **options):
    division = DivisionFactory(season__club=club, club=club, name="Cup teams")
    teams = [TeamFactory(division=division, name=f"Team {i}") for i in range(1, count + 1)]
    return setup.cup_draw(
        cup=setup.cup_create(club=club, name="Winter Cup", teams=teams, rules=SHORT, **options)
    )


def _play_out(cup, admin, club, *, away_wins=()):
    """Play every tie as it becomes ready, the home side winning unless its key is in
    ``away_wins``, until the cup is finished."""
    access = club_access(slug=club.slug, user=admin)
    for _ in range(100):
        ready = list(cup.ties.filter(status=Tie.Status.READY).order_by("order"))
        if not ready:
            break
        for tie in ready:
            _win(tie, "B" if tie.key in away_wins else "A", admin, access)
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED


def _places(club, cup):
    payload = reading.export_event(club=club, kind="cup", pk=cup.pk)
    assert services.schema_errors(payload) == []
    entrant = {f"e{e.pk}": e.pk for e in cup.entrants.all()}
    return {entrant[p["side"]]: p["place"] for p in payload["placings"]}


def _loser(cup, key):
    return cup.ties.get(key=key).loser_id


def test_double_elimination_places_by_the_losers_round_knocked_out_in(club, admin):
    cup = _cup(club, 8, format=Cup.Format.DOUBLE)
    # the losers' bracket's winner comes from the main bracket's final: a rematch
    _play_out(cup, admin, club, away_wins={"M1-2", "L2-1"})
    places = _places(club, cup)
    losers_rounds = sorted(
        {t.round for t in cup.ties.filter(bracket="losers")}
    )  # 1, 2, 3, 4 for eight entrants
    assert losers_rounds == [1, 2, 3, 4]
    assert places[cup.champion_id] == 1
    assert places[_loser(cup, "GF")] == 2
    assert places[_loser(cup, "L4-1")] == 3
    assert places[_loser(cup, "L3-1")] == 4
    assert {places[_loser(cup, "L2-1")], places[_loser(cup, "L2-2")]} == {5}
    assert {places[_loser(cup, "L1-1")], places[_loser(cup, "L1-2")]} == {7}
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 5, 7, 7]


def test_a_second_final_decides_second_place(club, admin):
    cup = _cup(club, 4, format=Cup.Format.DOUBLE, final_reset=True)
    _play_out(cup, admin, club, away_wins={"GF"})  # the losers' winner forces the reset
    assert cup.ties.get(key="GF2").status == Tie.Status.DECIDED
    places = _places(club, cup)
    assert places[cup.champion_id] == 1
    assert places[_loser(cup, "GF2")] == 2
    assert places[_loser(cup, "L2-1")] == 3
    assert places[_loser(cup, "L1-1")] == 4
    assert sorted(places.values()) == [1, 2, 3, 4]


def test_single_elimination_with_a_third_place_match(club, admin):
    cup = _cup(club, 8, third_place=True)
    _play_out(cup, admin, club, away_wins={"3P", "M3-1"})
    places = _places(club, cup)
    assert places[cup.champion_id] == 1
    assert places[_loser(cup, "M3-1")] == 2
    third = cup.ties.get(key="3P")
    assert (places[third.winner_id], places[third.loser_id]) == (3, 4)
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 5, 5, 5]


def test_single_elimination_without_a_third_place_match_shares_third(club, admin):
    cup = _cup(club, 4)
    _play_out(cup, admin, club)
    assert sorted(_places(club, cup).values()) == [1, 2, 3, 3]
