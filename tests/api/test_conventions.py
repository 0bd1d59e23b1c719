"""The API's cross-cutting conventions, as a client sees them: one error body for every
status, JSON bodies only, token authentication first, Location on 201/202, paging bounds,
Idempotency-Key as the IETF draft says, RateLimit headers, the old calculator paths."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from clabber_league.core.api import PROBLEMS
from clabber_league.core.idempotency import KEY_INVALID, KEY_REUSED
from clabber_league.core.models import IdempotencyRecord
from clabber_league.core.pagination import MAX_PAGE_SIZE
from clabber_league.games.models import Deal, Game
from tests.clients import api_client
from tests.games.conftest import made

pytestmark = pytest.mark.django_db


def _deals(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def _assert_error_body(response, status: int) -> list[dict]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    # An RFC 9457 problem with a documented code, the errors (the older body's list kept
    # as an extension) and the id that finds the request in the logs (its X-Request-ID).
    assert set(body) == {
        "type",
        "title",
        "status",
        "detail",
        "instance",
        "code",
        "errors",
        "request_id",
    }
    assert body["status"] == status and PROBLEMS[body["code"]][0] == status
    assert body["type"] == f"/api/docs/errors/#{body['code']}"
    assert body["instance"] == response.wsgi_request.path
    assert body["request_id"] == response["X-Request-ID"]
    assert body["errors"], body
    for error in body["errors"]:
        assert set(error) == {"field", "message"} and error["message"]
    return body["errors"]


# --- one error body for every status ----------------------------------------------------


def test_no_token_is_401_with_www_authenticate_in_the_one_body(game):
    game.club.is_public = True
    game.club.save()
    response = api_client().post(_deals(game), made(), format="json")
    _assert_error_body(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_a_bad_token_is_401(game):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get(f"/api/clubs/{game.club.slug}/games/")
    _assert_error_body(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_a_role_too_low_is_403(game, viewer):
    _assert_error_body(
        api_client(viewer, token=True).post(_deals(game), made(), format="json"), 403
    )


def test_an_unknown_object_and_an_unknown_api_url_are_json_404s(game, scorer):
    _assert_error_body(api_client(scorer, token=True).get(_deals(game) + "999999/"), 404)
    errors = _assert_error_body(api_client(scorer, token=True).get("/api/no-such-thing/"), 404)
    assert "/api/no-such-thing/" in errors[0]["message"]
    _assert_error_body(api_client(scorer, token=True).post("/api/clubs/x/nothing/here/", {}), 404)


def test_a_method_not_allowed_is_405(game, scorer):
    _assert_error_body(api_client(scorer, token=True).patch(_deals(game), {}, format="json"), 405)


def test_malformed_json_is_400_saying_so(game, scorer):
    response = api_client(scorer, token=True).post(
        _deals(game), "{nope", content_type="application/json"
    )
    errors = _assert_error_body(response, 400)
    assert "not well-formed JSON" in errors[0]["message"]
    assert game.deals.count() == 0


def test_a_form_body_is_415_json_only(game, scorer):
    client = api_client(scorer, token=True)
    response = client.post(_deals(game), {"maker": "A", "trump": "hearts"}, format="multipart")
    _assert_error_body(response, 415)
    response = client.post(
        _deals(game), "maker=A", content_type="application/x-www-form-urlencoded"
    )
    _assert_error_body(response, 415)
    assert game.deals.count() == 0


def test_a_body_too_large_is_413(game, scorer, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = made(padding="x" * 4096)
    _assert_error_body(api_client(scorer, token=True).post(_deals(game), body, format="json"), 413)


def test_invalid_input_is_400_naming_the_field(game, scorer):
    bad = made(a=200)
    errors = _assert_error_body(
        api_client(scorer, token=True).post(_deals(game), bad, format="json"), 400
    )
    assert any(e["field"].startswith("points") for e in errors)


def test_deleting_something_still_in_use_is_409(game, admin):
    url = f"/api/clubs/{game.club.slug}/divisions/{game.division_id}/"
    errors = _assert_error_body(api_client(admin, token=True).delete(url), 409)
    assert "games" in errors[0]["message"]


# --- Location -------------------------------------------------------------------------


def test_a_201_says_where_the_new_thing_is(game, scorer, admin, club):
    client = api_client(scorer, token=True)
    response = client.post(_deals(game), made(), format="json")
    assert response.status_code == 201
    assert response["Location"] == f"{_deals(game)}{response.json()['id']}/"
    assert client.get(response["Location"]).json() == response.json()
    venue = api_client(admin, token=True).post(
        f"/api/clubs/{club.slug}/venues/", {"name": "Hall", "tables": 3}, format="json"
    )
    assert venue["Location"] == f"/api/clubs/{club.slug}/venues/{venue.json()['id']}/"


def test_a_paper_sheet_import_points_to_the_games_deals(game, scorer):
    rows = {"rows": [{"maker": "A", "mark": "made", "sheet": {"A": 110, "B": 52}}]}
    response = api_client(scorer, token=True).post(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/", rows, format="json"
    )
    assert response.status_code == 201, response.content
    assert response["Location"] == _deals(game)
    assert [d["number"] for d in response.json()] == [1]


# --- paging ---------------------------------------------------------------------------


def test_page_size_is_honoured_and_bounded(game, scorer):
    client = api_client(scorer, token=True)
    for i in range(3):
        client.post(_deals(game), made(a=100 - i), format="json")
    page = client.get(_deals(game), {"page_size": 2}).json()
    assert (page["count"], len(page["results"])) == (3, 2)
    second = client.get(page["next"]).json()
    assert [d["number"] for d in second["results"]] == [3]
    big = client.get(_deals(game), {"page_size": MAX_PAGE_SIZE * 10})
    assert big.status_code == 200 and len(big.json()["results"]) == 3
    _assert_error_body(client.get(_deals(game), {"page": 99}), 404)


# --- Idempotency-Key ------------------------------------------------------------------


def test_a_replay_is_the_first_response_and_records_nothing(game, scorer):
    client = api_client(scorer, token=True)
    first = client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json() == again.json()
    assert game.deals.count() == 1


def test_a_retry_of_the_deal_that_finished_the_game_is_the_first_response(game, scorer):
    # The retry's work is refused now (the game is over), yet the answer is the first one.
    client = api_client(scorer, token=True)
    for n in range(3):
        client.post(_deals(game), made(a=152), format="json", HTTP_IDEMPOTENCY_KEY=f"d-{n}")
    game.refresh_from_db()
    assert game.status == "in_progress"
    last = client.post(_deals(game), made(a=152), format="json", HTTP_IDEMPOTENCY_KEY="d-last")
    game.refresh_from_db()
    assert (last.status_code, game.status) == (201, "finished")
    again = client.post(_deals(game), made(a=152), format="json", HTTP_IDEMPOTENCY_KEY="d-last")
    assert (again.status_code, again.json()) == (201, last.json())
    other = client.post(_deals(game), made(a=90), format="json", HTTP_IDEMPOTENCY_KEY="d-last")
    assert _assert_error_body(other, 422)[0]["message"] == KEY_REUSED
    assert game.deals.count() == 4


def test_a_key_reused_with_another_body_is_422(game, scorer):
    client = api_client(scorer, token=True)
    client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    other = client.post(_deals(game), made(a=90), format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    errors = _assert_error_body(other, 422)
    assert errors[0]["message"] == KEY_REUSED
    assert game.deals.count() == 1


def test_keys_belong_to_their_caller(game, scorer, admin):
    first = api_client(scorer, token=True).post(
        _deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    second = api_client(admin, token=True).post(
        _deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="same"
    )
    assert (first.status_code, second.status_code) == (201, 201)
    assert first.json()["id"] != second.json()["id"]
    assert game.deals.count() == 2


def test_a_refused_request_keeps_nothing_so_the_key_can_be_used_again(game, scorer):
    client = api_client(scorer, token=True)
    bad = client.post(_deals(game), made(a=200), format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert bad.status_code == 400
    good = client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="k-3")
    assert good.status_code == 201
    assert not IdempotencyRecord.objects.filter(status__gte=400).exists()


@pytest.mark.parametrize("key", ["x" * 81, "caf\u00e9", "tab\there"])
def test_a_bad_key_is_400_naming_the_header(game, scorer, key):
    response = api_client(scorer, token=True).post(
        _deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert _assert_error_body(response, 400) == [
        {"field": "Idempotency-Key", "message": KEY_INVALID}
    ]
    assert game.deals.count() == 0


def _sheet(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"


def _rows(a: int) -> dict:
    return {"rows": [{"maker": "A", "mark": "made", "sheet": {"A": a, "B": 162 - a}}]}


def test_a_key_past_its_retention_is_free_again(game, scorer, settings):
    client = api_client(scorer, token=True)
    client.post(_sheet(game), _rows(110), format="json", HTTP_IDEMPOTENCY_KEY="old")
    settings.IDEMPOTENCY_RETENTION_HOURS = 0
    again = client.post(_sheet(game), _rows(100), format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert again.status_code == 201
    assert game.deals.count() == 2


def test_a_deals_key_is_kept_as_long_as_the_deal(game, scorer, settings):
    # The deal itself keeps its key: a retry finds it however late it comes.
    client = api_client(scorer, token=True)
    first = client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="old")
    settings.IDEMPOTENCY_RETENTION_HOURS = 0
    again = client.post(_deals(game), made(), format="json", HTTP_IDEMPOTENCY_KEY="old")
    other = client.post(_deals(game), made(a=90), format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert (again.status_code, again.json()) == (201, first.json())
    assert _assert_error_body(other, 422)[0]["message"] == KEY_REUSED
    assert game.deals.count() == 1


def test_game_start_is_idempotent(game, scorer):
    body = {
        "division": game.division_id,
        "sides": {s.side: s.team_id for s in game.sides.all()},
        "seats": [s.player_id for s in game.seats.order_by("seat")],
    }
    client = api_client(scorer, token=True)
    url = f"/api/clubs/{game.club.slug}/games/"
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="start-1")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="start-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json() == again.json()
    assert first["Location"] == f"{url}{first.json()['id']}/"
    assert Game.objects.filter(club=game.club).count() == 2  # the fixture's and this one


def test_the_paper_sheet_import_is_idempotent(game, scorer):
    rows = {"rows": [{"maker": "A", "mark": "made", "sheet": {"A": 110, "B": 52}}]}
    url = f"/api/clubs/{game.club.slug}/games/{game.pk}/paper-sheet/"
    client = api_client(scorer, token=True)
    first = client.post(url, rows, format="json", HTTP_IDEMPOTENCY_KEY="sheet-1")
    again = client.post(url, rows, format="json", HTTP_IDEMPOTENCY_KEY="sheet-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert first.json() == again.json()
    assert Deal.objects.filter(game=game).count() == 1


# --- rate limits and the calculator's paths --------------------------------------------


DEAL = {
    "ruleset": "clabber",
    "maker": "A",
    "trump": "hearts",
    "points": {"A": 90, "B": 62},
    "last_trick": "A",
}


def test_throttled_answers_carry_ratelimit_and_a_429_retry_after(client):
    from rest_framework.throttling import ScopedRateThrottle

    cache.clear()
    original = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = {**original, "calculator": "2/minute"}
    try:
        answers = [
            client.post("/api/rules/score/", DEAL, content_type="application/json")
            for _ in range(3)
        ]
    finally:
        ScopedRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[0]["RateLimit-Policy"] == '"calculator";q=2;w=60'
    assert answers[0]["RateLimit"].startswith('"calculator";r=1;t=')
    assert answers[1]["RateLimit"].startswith('"calculator";r=0;t=')
    _assert_error_body(answers[2], 429)
    assert int(answers[2]["Retry-After"]) > 0
    assert answers[2]["RateLimit"].startswith('"calculator";r=0;')


def test_the_old_calculator_paths_redirect_keeping_the_post(client):
    for old in ("/api/rules/score", "/api/rules/game"):
        response = client.post(old, DEAL, content_type="application/json")
        assert response.status_code == 308
        assert response["Location"] == old + "/"
    followed = client.post("/api/rules/score", DEAL, content_type="application/json", follow=True)
    assert followed.status_code == 200 and followed.json()["outcome"]


def test_the_daily_clean_up_forgets_keys_past_their_retention(game, scorer):
    import datetime as dt

    from django.core.management import call_command
    from django.utils import timezone

    from clabber_league.core import tasks

    client = api_client(scorer, token=True)
    client.post(_sheet(game), _rows(110), format="json", HTTP_IDEMPOTENCY_KEY="old")
    client.post(_sheet(game), _rows(100), format="json", HTTP_IDEMPOTENCY_KEY="new")
    IdempotencyRecord.objects.filter(key="old").update(
        created_at=timezone.now() - dt.timedelta(hours=25)
    )
    assert tasks.purge_idempotency_keys.apply().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    call_command("setup_periodic_tasks")
    from django_celery_beat.models import PeriodicTask

    assert PeriodicTask.objects.filter(task="core.purge_idempotency_keys").exists()


def test_a_duplicate_is_409_naming_the_field(club, admin):
    from clabber_league.clubs.services import PLAYER_NAME_TAKEN

    client = api_client(admin, token=True)
    url = f"/api/clubs/{club.slug}/players/"
    assert client.post(url, {"name": "Maria"}, format="json").status_code == 201
    again = client.post(url, {"name": "Maria"}, format="json")
    message = PLAYER_NAME_TAKEN.format(name="Maria")
    assert _assert_error_body(again, 409) == [{"field": "name", "message": message}]
