"""Two requests that deadlock in the database: the one the database stopped is told to try
again (409, ``Retry-After``), never that the database is not reachable (503), on the API
and on the pages. A database that is really down still answers 503."""

import threading
import time

import psycopg
import pytest
from django.db import OperationalError, connection, connections, transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.core.api import SERVICE_UNAVAILABLE, TRY_AGAIN
from clabber_league.games import services
from clabber_league.games.models import Deal, Game
from tests.games.conftest import made


def _raises(driver_error: Exception):
    """A service that fails as Django does when the driver raises ``driver_error``."""

    def fail(**kwargs):
        try:
            raise driver_error
        except Exception as exc:
            raise OperationalError(str(exc)) from exc

    return fail


class _Psycopg2Style(Exception):
    pgcode = "40P01"  # psycopg2 names the SQLSTATE ``pgcode``


DEADLOCKS = {
    "psycopg DeadlockDetected": psycopg.errors.DeadlockDetected("deadlock detected"),
    "serialization failure": psycopg.errors.SerializationFailure("could not serialize"),
    "psycopg2 40P01": _Psycopg2Style("deadlock detected"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("error", DEADLOCKS.values(), ids=DEADLOCKS.keys())
def test_a_deadlocked_deal_is_told_to_try_again_on_the_api(game, scorer, monkeypatch, error):
    monkeypatch.setattr(services, "deal_record", _raises(error))
    api = APIClient()
    api.force_authenticate(scorer)

    answer = api.post(f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/", made(), format="json")

    assert answer.status_code == 409
    assert answer.json()["errors"] == [{"field": "", "message": TRY_AGAIN}]
    assert answer["Retry-After"] == "1"


@pytest.mark.django_db
def test_a_deadlocked_deal_is_told_to_try_again_on_the_page(game, scorer, monkeypatch):
    monkeypatch.setattr(services, "deal_record", _raises(DEADLOCKS["psycopg DeadlockDetected"]))
    page = Client(raise_request_exception=False)
    page.force_login(scorer)
    url = reverse("games:deal-new", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    form = {
        "round": "1",
        "turned": "hearts",
        "maker_seat": "0",
        "trump": "hearts",
        "points_A": "100",
        "last_trick": "A",
    }

    answer = page.post(url, form)

    assert answer.status_code == 409
    assert TRY_AGAIN in answer.content.decode()
    assert "not reachable" not in answer.content.decode()


@pytest.mark.django_db
def test_a_database_that_cannot_be_reached_is_still_a_503(game, scorer, monkeypatch):
    refused = psycopg.OperationalError("connection refused")
    monkeypatch.setattr(services, "deal_record", _raises(refused))
    api = APIClient()
    api.force_authenticate(scorer)

    answer = api.post(f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/", made(), format="json")

    assert answer.status_code == 503
    assert answer.json()["errors"] == [{"field": "", "message": SERVICE_UNAVAILABLE}]


@pytest.mark.django_db(transaction=True)
def test_a_real_deadlock_between_a_deal_and_another_writer_is_a_409(game, scorer):
    """A real PostgreSQL deadlock: another writer has inserted the game's deal 1 and not
    committed; the phone's deal locks the game and waits on that deal's number; the other
    writer then asks for the game's lock. PostgreSQL stops the phone's request (its wait is
    the older one), which is answered 409 "try again", and nothing of it is saved."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks to deadlock")
    inserted, phone_waits, done = threading.Event(), threading.Event(), threading.Event()
    answers: list[int] = []
    bodies: list[dict] = []
    errors: list[BaseException] = []

    def other_writer() -> None:
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:  # its own detector fires after the phone's
                    cursor.execute("SET LOCAL deadlock_timeout = '20s'")
                Deal.objects.create(game_id=game.pk, number=1, dealer=0, data={}, outcome="made")
                inserted.set()
                assert phone_waits.wait(timeout=60)
                Game.objects.select_for_update().get(pk=game.pk)
                transaction.set_rollback(True)  # it only played its part in the deadlock
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()
            done.set()

    def phone() -> None:
        try:
            assert inserted.wait(timeout=60)
            api = APIClient()
            api.force_authenticate(scorer)
            url = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
            answer = api.post(url, made(), format="json")
            answers.append(answer.status_code)
            bodies.append(answer.json())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=other_writer), threading.Thread(target=phone)]
    for thread in threads:
        thread.start()
    assert inserted.wait(timeout=60)
    deadline = time.monotonic() + 60
    while not phone_waits.is_set() and time.monotonic() < deadline:
        with connection.cursor() as cursor:  # the phone's request is waiting on a lock
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                phone_waits.set()
        time.sleep(0.05)
    for thread in threads:
        thread.join(timeout=120)

    assert errors == []
    assert answers == [409]
    assert [body["errors"] for body in bodies] == [[{"field": "", "message": TRY_AGAIN}]]
    assert [body["code"] for body in bodies] == ["try_again"]
    assert not Deal.objects.filter(game=game).exists()
