"""Draws anyone can check and nobody can steer (issue 29): a night's round is drawn from a
seed the server committed to before the round's players were final. The API shows the
seed's SHA-256 until the draw and the seed after it, the round names what the draw read
and the planner's version, so the draw can be made again from them; a failed draw is
drawn again from the same seed."""

from __future__ import annotations

import hashlib

import pytest
from rest_framework.test import APIClient

from clabber_league.events import draw
from clabber_league.events.api import REQUEST_EXAMPLES
from clabber_league.events.models import Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(secretary):
    client = APIClient()
    client.force_authenticate(secretary)
    return client


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _night(api, club, members, count=8):
    body = {**REQUEST_EXAMPLES["EventRequest"], "series": None, "rounds": 3}
    created = api.post(f"/api/clubs/{club.slug}/events/", body, format="json")
    assert created.status_code == 201, created.json()
    base = f"/api/clubs/{club.slug}/events/{created.json()['id']}"
    for member in members[:count]:
        api.post(f"{base}/entries/", {"player": member.pk}, format="json")
    return base, created.json()


def test_the_seed_is_committed_before_the_draw_and_shown_after(api, club, members):
    base, event = _night(api, club, members)
    committed = event["seed_hash"]
    assert len(committed) == 64 and "seed" not in event
    assert api.get(base + "/").json()["seed_hash"] == committed

    drawn = api.post(f"{base}/rounds/", format="json")
    assert drawn.status_code == 201, drawn.json()
    round_ = drawn.json()
    assert _sha256(round_["seed"]) == committed == round_["seed_hash"]
    assert round_["draw_algorithm"] == draw.ALGORITHM
    # The next round's seed is a new commitment, its seed not shown.
    assert api.get(base + "/").json()["seed_hash"] not in (committed, _sha256(round_["seed"]))

    # Anyone draws the round again from what the API published, with the planner of the
    # version it names, and gets its tables.
    inputs = round_["draw_input"]
    again = draw.draw_round(
        inputs["ids"],
        round_number=round_["number"],
        seed=round_["seed"],
        table_size=inputs["table_size"],
        three_hand=inputs["three_hand"],
        keep_apart=inputs["keep_apart"],
    )
    stored = Table.objects.filter(round_id=round_["id"]).order_by("number")
    assert [list(t.seats) for t in again.tables] == [t.seats for t in stored]
    checked = api.get(f"{base}/rounds/{round_['id']}/check/").json()
    assert checked["ok"] is True and checked["seed"] == round_["seed"]


def test_a_later_round_is_checked_against_its_history(api, club, members):
    from .conftest import play_out

    base, _event = _night(api, club, members, count=12)
    first = api.post(f"{base}/rounds/", format="json").json()
    committed = api.get(base + "/").json()["seed_hash"]
    play_out(Round.objects.get(pk=first["id"]))
    second = api.post(f"{base}/rounds/", format="json").json()
    assert _sha256(second["seed"]) == committed and second["seed"] != first["seed"]
    assert second["draw_input"]["history"]["night"] == [first["id"]]
    assert api.get(f"{base}/rounds/{second['id']}/check/").json()["ok"] is True


def test_a_failed_draw_is_drawn_again_from_its_committed_seed(
    api, club, members, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from clabber_league.events import tasks

    settings.CLABBER_EVENT_DRAW_IN_REQUEST = 4  # the draw runs as a task, here in-process
    task = tasks.draw_round  # (in-process even with a worker: the failure is patched in)
    monkeypatch.setattr(task, "apply_async", lambda args, **_: task.apply(args=args))
    base, event = _night(api, club, members)
    committed = event["seed_hash"]
    real = draw.draw_round

    def broken(*args, **kwargs):
        raise RuntimeError("the worker fell over")

    monkeypatch.setattr(draw, "draw_round", broken)
    with django_capture_on_commit_callbacks(execute=True):
        queued = api.post(f"{base}/rounds/", format="json")
    assert queued.status_code == 202
    failed = api.get(f"{base}/rounds/{queued.json()['id']}/").json()
    assert failed["status"] == "failed"
    assert failed["seed"] is None and failed["seed_hash"] == committed  # still secret
    # Not in the database either (the club's backup holds every row): only its nonce,
    # from which the seed is worked out with the server's secret key.
    assert Round.objects.get(pk=failed["id"]).seed == ""

    monkeypatch.setattr(draw, "draw_round", real)
    with django_capture_on_commit_callbacks(execute=True):
        retried = api.post(f"{base}/rounds/", format="json")
    round_ = api.get(f"{base}/rounds/{retried.json()['id']}/").json()
    assert round_["status"] == "playing"
    assert _sha256(round_["seed"]) == committed


def test_the_night_page_shows_the_commitment_and_then_the_seed(client, secretary, club, members):
    api = APIClient()
    api.force_authenticate(secretary)
    base, event = _night(api, club, members)
    client.force_login(secretary)
    page = client.get(f"/clubs/{club.slug}/events/{event['id']}/").content.decode()
    assert event["seed_hash"] in page
    round_ = api.post(f"{base}/rounds/", format="json").json()
    page = client.get(f"/clubs/{club.slug}/events/{event['id']}/").content.decode()
    assert round_["seed"] in page and round_["seed_hash"] in page
    guide = client.get(f"/clubs/{club.slug}/events/check-a-draw/")
    assert guide.status_code == 200 and b"sha256sum" in guide.content


def test_draw_check_command_draws_every_round_again(api, club, members):
    from django.core.management import call_command

    base, event = _night(api, club, members)
    api.post(f"{base}/rounds/", format="json")
    from io import StringIO

    out = StringIO()
    call_command("draw_check", str(event["id"]), stdout=out)
    assert "Round 1: OK" in out.getvalue()
    # A stored table changed by hand no longer matches its seed: the check says so.
    table = Table.objects.filter(round__event_id=event["id"]).first()
    table.seats = list(reversed(table.seats))
    table.save()
    with pytest.raises(SystemExit):
        call_command("draw_check", str(event["id"]), stdout=StringIO())


@pytest.mark.parametrize("movement", ["mitchell", "swiss"])
def test_a_pairs_night_is_checked_round_by_round(club, members, movement):
    import datetime as dt

    from clabber_league.events.draw_check import round_check
    from clabber_league.events.services import checkin, rounds
    from clabber_league.events.services import events as event_services

    from .conftest import play_out

    event = event_services.event_create(
        club=club,
        name="Pairs night",
        date=dt.date(2026, 12, 8),
        rules="clabber",
        format="pairs",
        movement=movement,
        rounds=3,
    )
    for k in range(0, 10, 2):  # five pairs: one has a bye every round
        checkin.pair_enter(event=event, player_1=members[k], player_2=members[k + 1])
    for _ in range(3):
        round_ = rounds.round_draw(event=event)
        assert round_check(round_).ok, round_check(round_).message
        play_out(round_)
