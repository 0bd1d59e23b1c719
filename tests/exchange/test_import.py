"""A federation imports results files: the same file twice is one import, a corrected file
replaces the earlier one (kept as history), numbers it does not know are flagged, a
closed period is final; every bad file is refused with one error per problem and nothing
imported."""

from __future__ import annotations

import copy
import datetime as dt
import json

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.exchange import building, reading, services
from clabber_league.exchange.models import ImportedGame, ImportedResult, Period, ResultFile
from clabber_league.federation import services as federation_services
from clabber_league.federation.access import federation_access
from clabber_league.federation.models import Federation, FederationClub, FederationPlayer
from clabber_league.federation.services.privacy import anonymous_name
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def payload(club, fixture):
    return reading.export_event(club=club, kind="fixture", pk=fixture.pk)


def _nothing_imported() -> bool:
    return not (
        ResultFile.objects.exists()
        or ImportedResult.objects.exists()
        or ImportedGame.objects.exists()
    )


def _refused(federation, officer, content) -> list[dict]:
    with pytest.raises(ServiceError) as caught:
        services.result_file_import(federation=federation, content=content, user=officer)
    assert _nothing_imported()
    return caught.value.errors


def test_the_same_file_twice_is_imported_once(federation, officer, payload):
    first, created = services.result_file_import(
        federation=federation, content=json.dumps(payload), user=officer
    )
    later = dict(payload, generated_at="2027-01-01T10:00:00Z")  # exported again, unchanged
    again, created_again = services.result_file_import(
        federation=federation, content=json.dumps(later), user=officer
    )
    assert created and not created_again and again.pk == first.pk
    assert ResultFile.objects.count() == 1
    assert ImportedResult.objects.count() == 4


def test_a_corrected_file_replaces_the_earlier_one_and_keeps_it(federation, officer, payload):
    first, _ = services.result_file_import(federation=federation, content=payload, user=officer)
    corrected = copy.deepcopy(payload)
    corrected["generated_at"] = "2027-01-01T10:00:00Z"
    corrected["players"][0]["name"] = "Corrected Name"
    second, created = services.result_file_import(
        federation=federation, content=corrected, user=officer
    )
    first.refresh_from_db()
    assert created
    assert first.status == ResultFile.Status.REPLACED and first.replaced_by == second
    assert second.status == ResultFile.Status.PROVISIONAL
    current = ImportedResult.objects.exclude(result_file__status=ResultFile.Status.REPLACED)
    assert "Corrected Name" in set(current.values_list("player_name", flat=True))
    assert ImportedResult.objects.filter(result_file=first).count() == 4  # the history


def test_an_older_file_for_the_same_event_does_not_replace_a_newer_one(
    federation, officer, payload
):
    newer = dict(copy.deepcopy(payload), generated_at="2027-01-01T10:00:00Z")
    newer["players"][0]["name"] = "Newer Name"
    services.result_file_import(federation=federation, content=newer, user=officer)
    older = dict(payload, generated_at="2026-01-01T10:00:00Z")
    with pytest.raises(ServiceError) as caught:
        services.result_file_import(federation=federation, content=older, user=officer)
    assert caught.value.kind == "conflict"
    assert ResultFile.objects.get().payload["players"][0]["name"] == "Newer Name"


def test_unknown_and_inactive_numbers_are_imported_flagged(federation, officer, payload):
    FederationPlayer.objects.filter(number="NKU-2").update(active=False)
    payload["players"][3]["numbers"] = [{"federation": "nku", "number": "NKU-999"}]
    result_file, _ = services.result_file_import(
        federation=federation, content=payload, user=officer
    )
    flags = {(f["number"], f["flag"]) for f in result_file.flags}
    assert flags == {("NKU-2", "inactive"), ("NKU-999", "unknown")}
    unknown = ImportedResult.objects.get(number="NKU-999")
    assert unknown.flag == "unknown" and unknown.federation_player is None
    assert ImportedResult.objects.get(number="NKU-1").flag == ""


def test_a_merged_number_counts_for_the_kept_record(federation, officer, payload):
    kept = FederationPlayer.objects.create(federation=federation, number="NKU-100", name="Kept")
    FederationPlayer.objects.filter(number="NKU-1").update(merged_into=kept)
    services.result_file_import(federation=federation, content=payload, user=officer)
    row = ImportedResult.objects.get(number="NKU-1")
    assert row.flag == "merged" and row.federation_player == kept


def test_closing_a_period_makes_its_results_final_and_takes_no_more_files(
    federation, officer, payload
):
    result_file, _ = services.result_file_import(
        federation=federation, content=payload, user=officer
    )
    period = services.period_create(
        federation=federation, start=dt.date(2026, 9, 1), end=dt.date(2026, 9, 30)
    )
    assert services.period_close(period=period, user=officer) == 1
    result_file.refresh_from_db()
    assert result_file.status == ResultFile.Status.FINAL
    corrected = dict(copy.deepcopy(payload), generated_at="2027-01-01T10:00:00Z")
    corrected["players"][0]["name"] = "Too Late"
    with pytest.raises(ServiceError) as caught:
        services.result_file_import(federation=federation, content=corrected, user=officer)
    assert caught.value.kind == "conflict"
    assert caught.value.errors[0]["field"] == "event.date_to"
    assert Period.objects.get().closed_at is not None


# --- bad files: one error per problem, nothing imported ---------------------------------------


def test_a_file_that_is_not_json_or_xml_is_refused(federation, officer):
    errors = _refused(federation, officer, b"club,date\nnku,2026")
    assert [e["field"] for e in errors] == ["file"]


def test_a_file_off_the_schema_names_each_place(federation, officer, payload):
    payload["version"] = 2
    payload["event"]["date_from"] = "7 Sept"
    del payload["players"][0]["name"]
    payload["placings"][1]["place"] = 0
    errors = _refused(federation, officer, payload)
    assert sorted(e["field"] for e in errors) == [
        "event.date_from",
        "placings[1].place",
        "players[0].name",
        "version",
    ]


def test_another_federations_club_is_refused(federation, officer, payload):
    stranger = ClubFactory(slug="elsewhere")
    other = Federation.objects.create(name="Other", slug="kbn")
    FederationClub.objects.create(federation=other, club=stranger)
    payload["sender"]["club"]["slug"] = "elsewhere"
    errors = _refused(federation, officer, payload)
    assert errors == [
        {
            "field": "sender.club.slug",
            "message": "The club elsewhere is not a member of this federation: its results "
            "are not taken here.",
        }
    ]


def test_a_player_repeated_in_one_event_is_refused(federation, officer, payload):
    payload["players"][1]["numbers"] = [{"federation": "nku", "number": "NKU-1"}]
    second = payload["sides"][1]["players"][0]
    payload["sides"][0]["players"].append(second)
    errors = _refused(federation, officer, payload)
    assert [e["field"] for e in errors] == ["players[1].numbers", "sides[1].players[0]"]
    assert "NKU-1" in errors[0]["message"]


def test_placings_that_contradict_the_scores_are_refused(federation, officer, payload):
    payload["placings"][0]["score"] = 0  # placed first with 0 games won
    payload["placings"][1]["score"] = 2
    errors = _refused(federation, officer, payload)
    assert [e["field"] for e in errors] == ["placings[1].score"]
    assert "contradict" in errors[0]["message"]


def test_several_problems_are_each_one_error(federation, officer, payload):
    payload["event"]["date_to"] = "2026-09-01"  # before it starts
    payload["placings"][1]["side"] = "t999999"
    payload["games"][0]["seats"][1]["player"] = payload["games"][0]["seats"][0]["player"]
    payload["sender"]["club"]["slug"] = "nobody"
    errors = _refused(federation, officer, payload)
    assert [e["field"] for e in errors] == [
        "event.date_to",
        "placings[1].side",
        "games[0].seats[1].player",
        "sender.club.slug",
    ]


def test_a_club_sends_only_its_own_results(federation, payload, club, secretary):
    other = ClubFactory(slug="neighbours")
    FederationClub.objects.create(federation=federation, club=other)
    payload["sender"]["club"]["slug"] = "neighbours"
    with pytest.raises(ServiceError) as caught:
        services.result_file_import(federation=federation, content=payload, user=secretary)
    assert caught.value.kind == "forbidden"
    assert _nothing_imported()
    payload["sender"]["club"]["slug"] = club.slug
    _, created = services.result_file_import(
        federation=federation, content=payload, user=secretary, via="api", scope="admin"
    )
    assert created


def test_xml_with_entities_is_refused(federation, officer, payload):
    xml = building.to_xml(payload).replace(
        "<CLABBER_RESULTS", '<!DOCTYPE x [<!ENTITY e "boom">]>\n<CLABBER_RESULTS', 1
    )
    errors = _refused(federation, officer, xml.encode())
    assert [e["field"] for e in errors] == ["file"]


def test_an_erased_player_keeps_their_results_under_an_anonymous_name(federation, officer, payload):
    result_file, _ = services.result_file_import(
        federation=federation, content=payload, user=officer
    )
    record = FederationPlayer.objects.get(number="NKU-1")
    row = ImportedResult.objects.get(federation_player=record)
    real_name = row.player_name

    # The federation erases the record; its hook (federation.hooks.player_erased) reaches
    # the imported results too.
    federation_services.player_erase(
        access=federation_access(slug=federation.slug, user=officer), player=record
    )

    row.refresh_from_db()
    result_file.refresh_from_db()
    assert row.player_name == anonymous_name("NKU-1") and row.place == 1
    assert real_name not in json.dumps(result_file.payload)
    assert anonymous_name("NKU-1") in json.dumps(result_file.payload)
