"""The club nights' API: what the secretary's pages do, over JSON, through the same
services; the night's ranking, prizes and tables, and a season's ranking."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clabber_league.events.api import REQUEST_EXAMPLES
from clabber_league.events.models import Entry, Event, Round
from clabber_league.events.services.checkin import CHECKED_IN_TWICE
from clabber_league.games import services as games

from .conftest import deal, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(secretary):
    client = APIClient()
    client.force_authenticate(secretary)
    return client


def _base(club):
    return f"/api/clubs/{club.slug}"


def _night(api, club, **changes):
    body = {**REQUEST_EXAMPLES["EventRequest"], "series": None, **changes}
    answer = api.post(f"{_base(club)}/events/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_the_example_creates_an_event_with_a_seed_and_says_where(api, club):
    answer = api.post(
        f"{_base(club)}/events/",
        {**REQUEST_EXAMPLES["EventRequest"], "series": None},
        format="json",
    )
    assert answer.status_code == 201
    body = answer.json()
    assert len(body["seed_hash"]) == 64 and body["status"] == "planned"
    assert "seed" not in body  # the seed itself stays secret until the round is drawn
    assert answer["Location"].endswith(f"/events/{body['id']}/")


def test_bad_event_input_names_the_field_and_writes_nothing(api, club):
    answer = api.post(f"{_base(club)}/events/", {"name": "Night", "rules": "x"}, format="json")
    assert answer.status_code == 400
    assert {"date", "rules"} & {e["field"] for e in answer.json()["errors"]}
    assert not Event.objects.exists()


def test_check_in_twice_is_409_and_a_walk_in_by_name_is_added(api, club, members):
    event = _night(api, club)
    url = f"{_base(club)}/events/{event['id']}/entries/"
    assert api.post(url, {"player": members[0].pk}, format="json").status_code == 201
    twice = api.post(url, {"player": members[0].pk}, format="json")
    assert twice.status_code == 409
    assert twice.json()["errors"] == [
        {"field": "player", "message": CHECKED_IN_TWICE.format(name="Member 01")}
    ]
    walk_in = api.post(url, REQUEST_EXAMPLES["CheckInRequest"], format="json")
    assert walk_in.status_code == 201
    assert (walk_in.json()["name"], walk_in.json()["paid"]) == ("Jan de Vries", True)
    neither = api.post(url, {}, format="json")
    assert neither.status_code == 400 and neither.json()["errors"][0]["field"] == "player"
    assert Entry.objects.filter(event_id=event["id"]).count() == 2


def test_draw_tables_ranking_and_prizes(api, club, members):
    event = _night(api, club, rounds=2, round_kind="game", round_deals=None, prize_rule="per_four")
    base = f"{_base(club)}/events/{event['id']}"
    for member in members[:8]:
        api.post(f"{base}/entries/", {"player": member.pk, "paid": True}, format="json")
    drawn = api.post(f"{base}/rounds/", format="json")
    assert drawn.status_code == 201
    body = drawn.json()
    assert body["number"] == 1 and body["status"] == "playing" and len(body["tables"]) == 2
    assert {len(t["seats"]) for t in body["tables"]} == {4}
    again = api.post(f"{base}/rounds/", format="json")
    assert again.status_code == 409  # round 1's games are still being played
    tables = api.get(f"{base}/tables/?round=1").json()["results"]
    assert [t["number"] for t in tables] == [1, 2]
    paged = api.get(f"{base}/tables/?round=1&page_size=1&page=2").json()
    assert paged["count"] == 2 and [t["number"] for t in paged["results"]] == [2]
    assert api.get(f"{base}/tables/?round=1&page=3").status_code == 404
    assert api.get(f"{base}/tables/?round=x").status_code == 400
    play_out(Round.objects.get(pk=body["id"]))
    ranking = api.get(f"{base}/ranking/").json()
    assert len(ranking["lines"]) == 8 and ranking["live"] is False
    assert ranking["lines"][0]["position"] == 1
    prizes = api.get(f"{base}/prizes/").json()
    assert prizes["takings_cents"] == 8 * 500
    assert prizes["paid_out_cents"] <= prizes["fund_cents"]
    assert prizes["rule"] == "One prize per four players"


def test_a_series_ranks_its_nights(api, club, members, secretary):
    series = api.post(
        f"{_base(club)}/event-series/", REQUEST_EXAMPLES["SeriesRequest"], format="json"
    )
    assert series.status_code == 201
    series_id = series.json()["id"]
    event = _night(api, club, series=series_id, rounds=1, round_kind="game", round_deals=None)
    base = f"{_base(club)}/events/{event['id']}"
    for member in members[:4]:
        api.post(f"{base}/entries/", {"player": member.pk}, format="json")
    round_id = api.post(f"{base}/rounds/", format="json").json()["id"]
    play_out(Round.objects.get(pk=round_id))
    ranking = api.get(f"{_base(club)}/event-series/{series_id}/ranking/").json()
    assert ranking["rule"] == "Best 6 of 1 nights; at least 3 nights to be ranked"
    assert ranking["ranked"] == [] and len(ranking["unranked"]) == 4
    assert all(line["nights"] == {str(event["id"]): line["total"]} for line in ranking["unranked"])


def test_reads_follow_the_clubs_visibility(club, members, api):
    event = _night(api, club)
    anonymous = APIClient()
    assert anonymous.get(f"{_base(club)}/events/{event['id']}/ranking/").status_code in (
        401,
        403,
        404,
    )
    club.is_public = True
    club.save(update_fields=["is_public"])
    assert anonymous.get(f"{_base(club)}/events/{event['id']}/ranking/").status_code == 200
    denied = anonymous.post(f"{_base(club)}/events/{event['id']}/rounds/", format="json")
    assert denied.status_code in (401, 403)


def test_the_live_ranking_counts_a_game_in_progress(api, club, members):
    event = _night(api, club, rounds=1, round_kind="game", round_deals=None, ranking="points")
    base = f"{_base(club)}/events/{event['id']}"
    for member in members[:4]:
        api.post(f"{base}/entries/", {"player": member.pk}, format="json")
    round_ = Round.objects.get(pk=api.post(f"{base}/rounds/", format="json").json()["id"])
    games.deal_record(game_id=round_.tables.get().game.pk, data=deal(a=142))
    ranking = api.get(f"{base}/ranking/").json()
    assert ranking["live"] is True
    assert sorted(line["points"] for line in ranking["lines"]) == [
        10,
        10,
        152,
        152,
    ]  # 142 + last trick; 10
