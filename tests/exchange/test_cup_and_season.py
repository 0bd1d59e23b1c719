"""A cup and a whole division exported: a cup's places go by the round reached (the
champion first), a division's by its table; both import with the same placings."""

from __future__ import annotations

import pytest

from clabber_league.clubs.access import club_access
from clabber_league.cups.models import Cup
from clabber_league.cups.services import progress, setup
from clabber_league.exchange import reading, services
from clabber_league.exchange.models import ImportedResult
from clabber_league.games import services as games
from clabber_league.standings.selectors import standings_table
from tests.factories import DivisionFactory, TeamFactory

pytestmark = pytest.mark.django_db

SHORT = {"name": "Short", "base": "clabber", "options": {"target": 150}}


def _win(tie, winner: str, admin, access) -> None:
    game = progress.tie_game_start(tie=tie)
    points = 142 if winner == "A" else 0
    games.deal_record(
        game_id=game.pk,
        data={
            "maker": winner,
            "trump": "hearts",
            "points": {"A": points, "B": 152 - points},
            "last_trick": winner,
        },
    )
    game.refresh_from_db()
    games.game_confirm(game=game, user=admin, access=access)
    tie.refresh_from_db()


def test_a_finished_cup_places_its_champion_first_and_the_semi_finalists_level(
    club, admin, federation, officer
):
    division = DivisionFactory(season__club=club, club=club, name="Cup teams")
    teams = [TeamFactory(division=division, name=n) for n in ("Aces", "Bells", "Clubs", "Dads")]
    access = club_access(slug=club.slug, user=admin)
    cup = setup.cup_draw(
        cup=setup.cup_create(club=club, name="Winter Cup", teams=teams, rules=SHORT)
    )
    for key, winner in (("M1-1", "A"), ("M1-2", "B"), ("M2-1", "A")):
        _win(cup.ties.get(key=key), winner, admin, access)
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED

    payload = reading.export_event(club=club, kind="cup", pk=cup.pk)

    assert services.schema_errors(payload) == []
    names = {s["id"]: s["name"] for s in payload["sides"]}
    places = {names[p["side"]]: p["place"] for p in payload["placings"]}
    assert places[cup.champion.name] == 1
    assert sorted(places.values()) == [1, 2, 3, 3]
    assert payload["event"]["rules"] == {
        "base": "clabber",
        "name": "Short",
        "options": {"target": 150},
    }
    assert len(payload["games"]) == 3
    assert all(side["entrant"] in names for g in payload["games"] for side in g["sides"])
    result_file, _ = services.result_file_import(
        federation=federation, content=payload, user=officer
    )
    assert ImportedResult.objects.filter(result_file=result_file, place=1).count() == 2  # a pair


def test_a_whole_division_is_placed_as_its_table(club, fixture, federation, officer):
    division = fixture.division
    payload = reading.export_event(club=club, kind="division", pk=division.pk)
    table = standings_table(division=division)
    assert [(p["side"], p["place"], p["score"]) for p in payload["placings"]] == [
        (f"t{line.team_id}", line.position, line.match_points) for line in table.lines
    ]
    assert payload["event"]["season"] == division.season.name
    result_file, created = services.result_file_import(
        federation=federation, content=payload, user=officer
    )
    assert created and result_file.kind == "division"
