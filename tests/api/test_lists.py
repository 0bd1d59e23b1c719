"""Paging, ordering, ``updated_since`` and ETags, as a client that polls sees them: every
list paged alike (the leaderboards and a rating history too), an allow-list for
``?ordering=``, only what changed since a moment, and 304 while nothing did. Every answer
here is checked against the schema (tests/api/conftest.py)."""

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clabber_league.core.filtering import ORDERING_UNKNOWN, UPDATED_SINCE_INVALID
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.scheduling.models import Fixture
from tests.clients import api_client
from tests.factories import FixtureFactory
from tests.games.conftest import made
from tests.standings.conftest import A_WINS, play

pytestmark = pytest.mark.django_db


def _base(club) -> str:
    return f"/api/clubs/{club.slug}"


def _errors(response, status: int = 400) -> list[dict]:
    assert response.status_code == status, response.content
    return response.json()["errors"]


@pytest.fixture
def confirmed(division, teams, scorer, admin):
    home, away = teams
    return play(division, home, away, A_WINS, user=scorer, confirm_by=admin)


# --- every list paged alike ------------------------------------------------------------------


@pytest.mark.parametrize("board", ["players", "partnerships"])
def test_a_leaderboard_is_paged_like_every_list(club, viewer, confirmed, board):
    client = api_client(viewer)
    url = f"{_base(club)}/leaderboards/{board}/"
    whole = client.get(url).json()
    assert whole["count"] == len(whole["results"]) > 1 and whole["previous"] is None
    first = client.get(url, {"page_size": 1}).json()
    assert first["count"] == whole["count"] and len(first["results"]) == 1
    second = client.get(first["next"]).json()
    assert [r["place"] for r in first["results"] + second["results"]] == [1, 2]
    assert second["results"][0] == whole["results"][1]
    assert _errors(client.get(url, {"page": 99}), 404)
    assert _errors(client.get(url, {"page_size": "null"}))[0]["field"] == "page_size"


def test_a_rating_history_is_paged(club, viewer, confirmed):
    client = api_client(viewer)
    player = confirmed.seats.first().player_id
    url = f"{_base(club)}/ratings/{player}/history/"
    page = client.get(url, {"page_size": 1}).json()
    assert page["count"] == 1 and page["results"][0]["game"] == confirmed.pk
    assert _errors(client.get(url, {"page": 2}), 404)


# --- ordering --------------------------------------------------------------------------------


def test_fixtures_are_ordered_by_date_either_way_and_an_unknown_field_is_a_400(
    club, viewer, division, teams
):
    home, away = teams
    days = [dt.date(2027, 3, 9), dt.date(2027, 1, 12), dt.date(2027, 2, 2)]
    for day in days:
        FixtureFactory(division=division, home=home, away=away, date=day)
    client = api_client(viewer)
    url = f"{_base(club)}/fixtures/"
    dates = [f["date"] for f in client.get(url, {"ordering": "date"}).json()["results"]]
    assert dates == sorted(d.isoformat() for d in days)
    dates = [f["date"] for f in client.get(url, {"ordering": "-date"}).json()["results"]]
    assert dates == sorted((d.isoformat() for d in days), reverse=True)
    errors = _errors(client.get(url, {"ordering": "home__name"}))
    allowed = "date, round_number, updated_at, -date, -round_number, -updated_at"
    assert errors == [
        {
            "field": "ordering",
            "message": ORDERING_UNKNOWN.format(allowed=allowed, value="home__name"),
        }
    ]


def test_games_are_ordered_by_when_they_changed(club, viewer, division, teams, scorer):
    home, away = teams
    older = play(division, home, away, [], user=scorer)
    newer = play(division, home, away, [], user=scorer, number=2)
    Game.objects.filter(pk=older.pk).update(updated_at=timezone.now() + dt.timedelta(hours=1))
    client = api_client(viewer)
    url = f"{_base(club)}/games/"
    ids = [g["id"] for g in client.get(url, {"ordering": "-updated_at"}).json()["results"]]
    assert ids == [older.pk, newer.pk]
    ids = [g["id"] for g in client.get(url, {"ordering": "created_at"}).json()["results"]]
    assert ids == [older.pk, newer.pk]
    assert _errors(client.get(url, {"ordering": "score_a"}))[0]["field"] == "ordering"


def test_members_are_ordered_by_username(club, admin, scorer, viewer):
    url = f"{_base(club)}/members/"
    names = [
        m["username"]
        for m in api_client(admin).get(url, {"ordering": "-username"}).json()["results"]
    ]
    assert names == sorted(names, reverse=True) and len(names) == 3


# --- updated_since ---------------------------------------------------------------------------


def test_updated_since_lists_only_the_games_and_fixtures_changed_since(
    club, viewer, division, teams, scorer
):
    home, away = teams
    then = timezone.now()
    old_game = play(division, home, away, [], user=scorer)
    new_game = play(division, home, away, [], user=scorer, number=2)
    Game.objects.filter(pk=old_game.pk).update(updated_at=then - dt.timedelta(days=1))
    old_fixture = FixtureFactory(division=division, home=home, away=away)
    new_fixture = FixtureFactory(division=division, home=home, away=away)
    Fixture.objects.filter(pk=old_fixture.pk).update(updated_at=then - dt.timedelta(days=1))
    client = api_client(viewer)
    since = {"updated_since": then.isoformat()}
    games = client.get(f"{_base(club)}/games/", since).json()["results"]
    assert [g["id"] for g in games] == [new_game.pk]
    fixtures = client.get(f"{_base(club)}/fixtures/", since).json()["results"]
    assert [f["id"] for f in fixtures] == [new_fixture.pk]
    # A deal recorded since lists its game, whatever the game's own row says.
    services.deal_record(game_id=old_game.pk, data=made(), maker_seat=0, user=scorer)
    Game.objects.filter(pk=old_game.pk).update(updated_at=then - dt.timedelta(days=1))
    games = client.get(f"{_base(club)}/games/", since).json()["results"]
    assert {g["id"] for g in games} == {old_game.pk, new_game.pk}
    # An offset's "+" sent unencoded arrives as a space: read as the "+" it was.
    plus = then.astimezone(dt.timezone(dt.timedelta(hours=1))).isoformat().replace("+", " ")
    fixtures = client.get(f"{_base(club)}/fixtures/", {"updated_since": plus}).json()
    assert [f["id"] for f in fixtures["results"]] == [new_fixture.pk]


def test_updated_since_lists_the_deals_recorded_or_corrected_since(club, game, scorer, division):
    services.deal_record(game_id=game.pk, data=made(), maker_seat=0, user=scorer)
    first = game.deals.get()
    game.deals.update(updated_at=timezone.now() - dt.timedelta(hours=1))
    moment = timezone.now() - dt.timedelta(minutes=1)
    services.deal_record(game_id=game.pk, data=made("B", 40, last="B"), maker_seat=1, user=scorer)
    client = api_client(scorer)
    since = {"updated_since": moment.isoformat()}
    deals = client.get(f"{_base(club)}/games/{game.pk}/deals/", since).json()["results"]
    assert [d["number"] for d in deals] == [2]
    rows = client.get(f"{_base(club)}/standings/{division.pk}/deals/", since).json()["results"]
    assert [d["number"] for d in rows] == [2]
    assert first.number == 1


@pytest.mark.parametrize(
    "value", ["yesterday", "2026-12-05T18:30:00", "2026-12-05", "2026-13-05T18:30:00Z", ""]
)
def test_a_bad_updated_since_is_a_400_naming_it(club, viewer, game, value):
    for path in ("games/", "fixtures/", f"games/{game.pk}/deals/"):
        errors = _errors(api_client(viewer).get(f"{_base(club)}/{path}", {"updated_since": value}))
        assert errors == [
            {"field": "updated_since", "message": UPDATED_SINCE_INVALID.format(value=value)}
        ], path


# --- ETag and If-None-Match ------------------------------------------------------------------


def _round_trip(client, url: str, change) -> None:
    """200 with an ETag; 304 (no body) with it in If-None-Match; after ``change``, 200
    with another ETag."""
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert first["Cache-Control"] == "private, no-cache"
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    weak = client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{first["ETag"]}')
    assert weak.status_code == 304
    change()
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert after.json() != first.json()


def test_a_game_and_its_sheet_answer_304_until_a_deal_is_recorded(club, game, scorer):
    client = api_client(scorer)

    def record() -> None:
        services.deal_record(game_id=game.pk, data=made(), maker_seat=0, user=scorer)

    _round_trip(client, f"{_base(club)}/games/{game.pk}/", record)
    _round_trip(client, f"{_base(club)}/games/{game.pk}/deals/", record)


def test_a_correction_changes_the_sheets_etag(club, game, scorer):
    services.deal_record(game_id=game.pk, data=made(), maker_seat=0, user=scorer)
    client = api_client(scorer)

    def correct() -> None:
        deal = game.deals.get()
        services.deal_correct(deal=deal, data=made(a=90), maker_seat=0, user=scorer)

    _round_trip(client, f"{_base(club)}/games/{game.pk}/deals/", correct)


def test_the_standings_and_leaderboards_answer_304_until_a_result_changes_them(
    club, division, teams, scorer, viewer
):
    home, away = teams
    client = api_client(viewer)
    game = play(division, home, away, A_WINS[:3], user=scorer)

    def finish() -> None:
        services.deal_record(game_id=game.pk, data=made("A", 142), maker_seat=0, user=scorer)

    _round_trip(client, f"{_base(club)}/standings/{division.pk}/", finish)
    second = play(division, home, away, A_WINS[:3], user=scorer, number=2)

    def finish_second() -> None:
        services.deal_record(game_id=second.pk, data=made("A", 142), maker_seat=0, user=scorer)

    _round_trip(client, f"{_base(club)}/leaderboards/players/", finish_second)


def test_an_etag_is_per_page_and_per_reader(club, confirmed, viewer):
    url = f"{_base(club)}/leaderboards/players/"
    member = api_client(viewer).get(url)
    page = api_client(viewer).get(url, {"page_size": 1})
    assert page["ETag"] != member["ETag"]
    club.is_public = True
    club.save()
    club.players.update(name_public=False)  # the public sees their initials
    public = APIClient().get(url, HTTP_IF_NONE_MATCH=member["ETag"])
    assert public.status_code == 200 and public["ETag"] != member["ETag"]
    assert api_client(viewer).get(url, HTTP_IF_NONE_MATCH=member["ETag"]).status_code == 304
