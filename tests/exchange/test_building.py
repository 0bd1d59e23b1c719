"""The pure parts: the file built from plain data, its canonical form, its XML form, the
checks and the rows kept of it (no database)."""

from __future__ import annotations

import copy

from clabber_league.exchange import building, checks, reading
from tests.exchange.files import night_file


def test_the_file_is_built_with_every_key_and_matches_the_schema():
    from clabber_league.exchange.services import schema_errors

    payload = night_file("de-klaver", numbers={1: "NKU-1"})
    assert payload["format"] == "clabber-results" and payload["version"] == 1
    assert payload["players"][0] == {
        "id": "p1",
        "name": "Ann Smit",
        "numbers": [{"federation": "nku", "number": "NKU-1"}],
    }
    assert payload["event"]["rules"] == {"base": "clabber", "name": None, "options": {}}
    assert payload["games"][0]["sides"] == [
        {"side": "A", "entrant": None, "score": 608},
        {"side": "B", "entrant": None, "score": 40},
    ]
    assert schema_errors(payload) == []


def test_house_rules_are_their_name_base_and_options():
    rules = {"name": "Our rules", "base": "klaverjas-amsterdam", "options": {"roem": False}}
    assert building.rules_entry(rules) == {
        "base": "klaverjas-amsterdam",
        "name": "Our rules",
        "options": {"roem": False},
    }


def test_the_same_results_exported_twice_have_one_digest():
    first = night_file("de-klaver", numbers={}, when="2026-12-05T20:00")
    later = night_file("de-klaver", numbers={}, when="2026-12-06T09:30")
    assert building.digest(first) == building.digest(later)
    changed = copy.deepcopy(first)
    changed["placings"][0]["score"] = 609
    assert building.digest(changed) != building.digest(first)


def test_the_xml_form_round_trips():
    payload = night_file("de-klaver", numbers={1: "NKU-1", 2: "NKU-2"})
    xml = building.to_xml(payload)
    assert "<CLABBER_RESULTS" in xml and '<PLACING side="p1" place="1" score="608"' in xml
    assert building.from_xml(xml) == payload


def test_shares_are_of_the_points_at_the_players_tables():
    rows = checks.player_results(night_file("de-klaver", numbers={1: "NKU-1"}), federation="nku")
    by = {r.player: r for r in rows}
    assert by["p1"].number == "NKU-1" and by["p2"].number == ""
    assert by["p1"].share == round(608 / 648, 6) and by["p2"].share == round(40 / 648, 6)
    assert (by["p1"].place, by["p1"].places, by["p1"].games) == (1, 4, 1)


def test_a_shared_place_with_another_score_is_a_contradiction():
    payload = night_file("de-klaver", numbers={})
    payload["placings"][1]["score"] = 600
    errors = checks.semantic_errors(payload, federation="nku")
    assert [e["field"] for e in errors] == ["placings[1].score"]


def test_cup_places_go_by_the_round_reached():
    ties = [("main", 1, 1, 2, None), ("main", 1, 3, 4, None), ("main", 2, 1, 3, None)]
    assert reading.cup_places([1, 2, 3, 4], champion=3, ties=ties) == {3: 1, 1: 2, 2: 3, 4: 3}


def test_a_third_place_match_splits_the_semi_finals_losers():
    ties = [
        ("main", 1, 1, 4, None, 1),
        ("main", 1, 2, 3, None, 3),
        ("main", 2, 1, 3, None, 1),
        ("third", 1, 4, 2, None, 2),
    ]
    assert reading.cup_places([1, 2, 3, 4], champion=1, ties=ties) == {1: 1, 3: 2, 2: 3, 4: 4}


def test_the_published_schema_is_the_one_the_import_checks_against():
    import json
    from pathlib import Path

    from clabber_league.exchange.services import schema

    published = Path(__file__).resolve().parents[2] / "docs/schemas/results-v1.schema.json"
    assert json.loads(published.read_text(encoding="utf-8")) == schema()
