"""Each kind of event reaches the subscriptions that want it, with its data: a club
night's draw and its end (events.hooks), a fixture moved or forfeited (scheduling.hooks)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services import fixture_changes
from tests.events.conftest import play_out
from tests.webhooks.conftest import schema_errors

pytestmark = pytest.mark.django_db


def bodies(receiver) -> list[dict]:
    """The bodies received, each checked against docs/webhooks.schema.json."""
    for request in receiver.received:
        assert schema_errors(request.body) == []
    return [json.loads(r.body) for r in receiver.received]


def test_a_drawn_round_and_a_finished_night_are_sent(
    receiver,
    subscribe,
    club,
    members,
    access,
    django_capture_on_commit_callbacks,
):
    subscribe(receiver.url, events=["draw.published", "night.finished"])
    night = event_services.event_create(
        club=club, name="Quick night", date=dt.date(2026, 12, 1), rules="clabber", rounds=1
    )
    for member in members[:4]:
        checkin.entry_check_in(event=night, player=member)
    with django_capture_on_commit_callbacks(execute=True):
        drawn = rounds.round_draw(event=night, access=access)
    [draw] = bodies(receiver)
    assert draw["type"] == "draw.published"
    assert draw["data"]["event"]["name"] == "Quick night"
    table = draw["data"]["round"]["tables"][0]
    assert draw["data"]["round"]["number"] == 1
    assert table["game"] == drawn.tables.get().game_id
    assert {p["id"] for p in table["players"]} == {m.pk for m in members[:4]}
    play_out(drawn)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_finish(round_=drawn, access=access)
    assert [b["type"] for b in bodies(receiver)] == ["draw.published", "night.finished"]
    assert bodies(receiver)[1]["data"]["event"]["status"] == "finished"


def test_a_finished_round_that_is_not_the_last_sends_no_night_finished(
    receiver,
    subscribe,
    club,
    members,
    access,
    django_capture_on_commit_callbacks,
):
    subscribe(receiver.url, events=["night.finished"])
    night = event_services.event_create(
        club=club, name="Long night", date=dt.date(2026, 12, 1), rules="clabber", rounds=2
    )
    for member in members[:4]:
        checkin.entry_check_in(event=night, player=member)
    first = rounds.round_draw(event=night, access=access)
    play_out(first)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_finish(round_=first, access=access)
    assert receiver.received == []


@pytest.fixture
def fixture_row(club, division, teams):
    home, away = teams
    return Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=home,
        away=away,
        date=dt.date(2026, 12, 7),
    )


def test_a_moved_postponed_or_forfeited_fixture_is_sent(
    receiver, subscribe, fixture_row, teams, django_capture_on_commit_callbacks
):
    subscribe(receiver.url, events=["fixture.changed"])
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_move(fixture=fixture_row, date=dt.date(2026, 12, 14))
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_move(fixture=fixture_row, date=None, note="Hall flooded")
    with django_capture_on_commit_callbacks(execute=True):
        fixture_changes.fixture_forfeit(fixture=fixture_row, winner=teams[0], note="No show")
    sent = bodies(receiver)
    assert [b["data"]["change"] for b in sent] == ["moved", "postponed", "forfeit"]
    moved = sent[0]["data"]["fixture"]
    assert (moved["date"], moved["original_date"]) == ("2026-12-14", "2026-12-07")
    assert moved["home"] == {"id": teams[0].pk, "name": "Mules"}
    assert sent[1]["data"]["fixture"]["note"] == "Hall flooded"
    assert sent[2]["data"]["fixture"]["forfeit_winner"] == teams[0].pk
    assert all(b["type"] == "fixture.changed" for b in sent)
