"""A club's finished competitions exported, then imported into a federation on "another
database" (the file as text, the sending club's data cleared): the same results."""

from __future__ import annotations

import json

import pytest

from clabber_league.clubs.models import Club
from clabber_league.events.selectors import event_ranking
from clabber_league.exchange import building, reading, services
from clabber_league.exchange.models import ImportedGame, ImportedResult, ResultFile
from clabber_league.federation.models import FederationClub

pytestmark = pytest.mark.django_db


def _clear_the_sender(club: Club, federation) -> Club:
    """The sending club's games and results gone, the club moved aside: the federation's
    site knows a club of that slug (its own row) and nothing of its games."""
    from clabber_league.games.models import Game

    slug, name = club.slug, club.name
    Game.objects.filter(club=club).delete()
    FederationClub.objects.filter(club=club).delete()
    Club.objects.filter(pk=club.pk).update(slug=f"{slug}-elsewhere")
    other = Club.objects.create(slug=slug, name=name)
    FederationClub.objects.create(federation=federation, club=other)
    return other


def _imported(result_file) -> dict[str, tuple]:
    return {
        r.player_name: (r.place, r.number, r.flag)
        for r in ImportedResult.objects.filter(result_file=result_file)
    }


def test_a_fixture_round_trips_with_its_placings_numbers_and_deals(
    club, fixture, federation, officer
):
    text = json.dumps(reading.export_event(club=club, kind="fixture", pk=fixture.pk))
    players = {
        m.player.name: (1 if m.team == fixture.home else 2)
        for team in (fixture.home, fixture.away)
        for m in team.members.select_related("player", "team")
    }
    numbers = {link.player.name: link.federation_player.number for link in federation.links.all()}
    deals = sum(g.deals.count() for g in fixture.games.all())
    _clear_the_sender(club, federation)

    result_file, created = services.result_file_import(
        federation=federation, content=text.encode(), user=officer
    )

    assert created and result_file.status == ResultFile.Status.PROVISIONAL
    assert result_file.kind == "fixture" and str(result_file.date_to) == "2026-09-07"
    assert _imported(result_file) == {
        name: (place, numbers.get(name, ""), "") for name, place in players.items()
    }
    assert result_file.payload["placings"] == [
        {"side": f"t{fixture.home_id}", "place": 1, "score": 2},
        {"side": f"t{fixture.away_id}", "place": 2, "score": 0},
    ]
    assert sum(len(g["deals"]) for g in result_file.payload["games"]) == deals == 8
    games = ImportedGame.objects.filter(result_file=result_file)
    assert games.count() == 2
    assert all([s["rank"] for s in g.sides] == [1, 2] for g in games)
    winners = ImportedResult.objects.filter(result_file=result_file, place=1)
    assert {round(r.score_share, 4) for r in winners} == {round(608 / 648, 4)}


def test_a_club_night_round_trips_with_its_ranking(club, night, federation, officer):
    payload = reading.export_event(club=club, kind="night", pk=night.pk)
    expected = {line.name: line.position for line in event_ranking(night, to_member=True).lines}
    text = json.dumps(payload)
    _clear_the_sender(club, federation)

    result_file, _ = services.result_file_import(federation=federation, content=text, user=officer)

    imported = _imported(result_file)
    assert {name: place for name, (place, _n, _f) in imported.items()} == expected
    assert all(number.startswith("NKU-") for _p, number, _f in imported.values())
    assert ImportedGame.objects.filter(result_file=result_file).count() == 4  # 2 rounds x 2


def test_the_xml_form_holds_the_same_file(club, fixture, night):
    for kind, pk in (("fixture", fixture.pk), ("night", night.pk)):
        payload = reading.export_event(club=club, kind=kind, pk=pk)
        xml = building.to_xml(payload)
        assert building.from_xml(xml) == payload
        assert building.digest(building.from_xml(xml)) == building.digest(payload)


def test_an_xml_upload_is_the_same_file_as_its_json(club, fixture, federation, officer):
    payload = reading.export_event(club=club, kind="fixture", pk=fixture.pk)
    first, created = services.result_file_import(
        federation=federation, content=building.to_xml(payload).encode(), user=officer
    )
    again, created_again = services.result_file_import(
        federation=federation, content=json.dumps(payload), user=officer
    )
    assert created and not created_again and again.pk == first.pk


def test_every_exported_file_matches_the_published_schema(club, fixture, night):
    for kind, pk in (
        ("fixture", fixture.pk),
        ("division", fixture.division_id),
        ("night", night.pk),
    ):
        payload = reading.export_event(club=club, kind=kind, pk=pk)
        assert services.schema_errors(payload) == [], kind
