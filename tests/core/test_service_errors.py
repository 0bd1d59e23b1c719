"""One error type for the service layer, mapped to the one error body in one place; one
explicit hook (no model signal) from the games to the layers above."""

import pytest
from django.db.models.signals import post_init, post_save, pre_save
from rest_framework.test import APIRequestFactory

from clabber_league.core.api import exception_handler
from clabber_league.core.errors import ServiceError
from clabber_league.core.hooks import Hook
from clabber_league.games import services as games
from clabber_league.games.hooks import game_changed
from clabber_league.games.models import Deal, Game
from clabber_league.rules import RulesError
from clabber_league.scheduling.hooks import fixture_changed
from clabber_league.scheduling.services import ScheduleError
from clabber_league.standings.services import StandingsError
from clabber_league.standings.services.write_through import (
    standings_fixture_changed,
    standings_game_changed,
)
from tests.games.conftest import made


def _answer(exc: Exception):
    request = APIRequestFactory().post("/api/x/")
    return exception_handler(exc, {"request": request, "view": None})


@pytest.mark.parametrize(
    ("kind", "status"),
    [("invalid", 400), ("conflict", 409), ("not_found", 404), ("forbidden", 403)],
)
def test_a_service_refusal_is_the_one_error_body_with_its_kinds_status(kind, status):
    response = _answer(ServiceError.one("tables", "Give 1 to 500 tables.", kind=kind))
    assert response.status_code == status
    assert response.data["errors"] == [{"field": "tables", "message": "Give 1 to 500 tables."}]
    assert (response.data["status"], response.data["code"]) == (status, kind)
    assert response.data["detail"] == "Give 1 to 500 tables."


def test_too_many_tries_is_429_saying_when_to_try_again():
    error = ServiceError([{"field": "pin", "message": "Wait."}], kind="throttled", retry_after=300)
    response = _answer(error)
    assert response.status_code == 429
    assert response["Retry-After"] == "300"
    assert response.data["errors"] == [{"field": "pin", "message": "Wait."}]
    assert response.data["code"] == "throttled"
    assert "Retry-After" not in _answer(ServiceError.one("pin", "Wrong."))


def test_the_apps_errors_are_service_errors_and_default_to_invalid():
    for cls in (games.GameError, ScheduleError, StandingsError):
        error = cls.one("game", "No.")
        assert isinstance(error, ServiceError)
        assert _answer(error).status_code == 400


def test_a_rules_engine_refusal_is_the_same_body():
    response = _answer(RulesError([{"field": "points.A", "message": "Too many."}]))
    assert response.status_code == 400
    assert response.data["errors"] == [{"field": "points.A", "message": "Too many."}]
    assert response.data["code"] == "rules"


def test_a_service_error_may_give_its_own_documented_code():
    given = ServiceError(
        [{"field": "pin", "message": "Wrong.", "code": "conflict"}], kind="conflict"
    )
    assert _answer(given).data["code"] == "conflict"
    # A code that is not documented for the status is never sent: the status's own is.
    odd = ServiceError([{"field": "pin", "message": "Wrong.", "code": "made_up"}])
    assert _answer(odd).data["code"] == "invalid"


def test_a_service_error_names_every_mistake_and_refuses_an_unknown_kind():
    error = ServiceError(
        [{"field": "name", "message": "Taken."}, {"field": "tables", "message": "Too few."}]
    )
    assert error.messages_for("tables") == ["Too few."]
    assert str(error) == "name: Taken.; tables: Too few."
    with pytest.raises(ValueError):
        ServiceError.one("x", "y", kind="teapot")
    with pytest.raises(ValueError):
        ServiceError([])


def test_a_hook_calls_its_handlers_in_order_once_each():
    calls = []
    hook = Hook("test")

    def first(**kwargs):
        calls.append(("first", kwargs))

    def second(**kwargs):
        calls.append(("second", kwargs))

    hook.connect(first)
    hook.connect(second)
    hook.connect(first)  # again: still once
    hook.send(x=1)
    assert calls == [("first", {"x": 1}), ("second", {"x": 1})]
    hook.disconnect(first)
    assert hook.handlers() == (second,)


def test_the_standings_listen_through_the_hooks_not_a_model_signal():
    assert standings_game_changed in game_changed.handlers()
    assert standings_fixture_changed in fixture_changed.handlers()
    for signal in (post_init, pre_save, post_save):
        assert not signal.has_listeners(Game)


@pytest.mark.django_db(transaction=True)
def test_a_failing_handler_rolls_the_deal_back(game, scorer):
    def broken(**kwargs):
        raise RuntimeError("the standings are down")

    game_changed.connect(broken)
    try:
        with pytest.raises(RuntimeError):
            games.deal_record(game_id=game.pk, data=made(), user=scorer)
    finally:
        game_changed.disconnect(broken)
    assert not Deal.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).deal_count == 0


@pytest.mark.django_db
def test_a_handler_hears_the_status_before_and_after(game, scorer):
    heard = []

    def listen(*, game, status_before, fixture):
        heard.append((status_before, game.status))

    game_changed.connect(listen)
    try:
        games.deal_record(game_id=game.pk, data=made(), user=scorer)
    finally:
        game_changed.disconnect(listen)
    assert heard == [("in_progress", "in_progress")]
