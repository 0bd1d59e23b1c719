"""Idempotency-Key on corrections and on the table phone's deals: a phone's outbox sends
a request again when its answer was lost; the retry answers the first answer and writes
nothing, and the same key sent with another request is refused (422)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clabber_league.core import tasks
from clabber_league.core.idempotency import KEY_REUSED
from clabber_league.games import services
from clabber_league.games.models import CorrectionKey, Deal, DealRevision
from clabber_league.games.table_links import table_link_issue, table_link_token

from .conftest import made

pytestmark = pytest.mark.django_db


def _deals_url(game, pk=None):
    kwargs = {"club_slug": game.club.slug, "game_id": game.pk}
    if pk is None:
        return reverse("deal-list", kwargs=kwargs)
    return reverse("deal-detail", kwargs={**kwargs, "pk": pk})


@pytest.fixture
def link(game, scorer):
    return table_link_issue(game=game, table_label="3", user=scorer)


@pytest.fixture(params=["table", "scorer"])
def phone(request, game, link, scorer):
    """The API client of the phone at the table: by its table link, or a scorer's."""
    client = APIClient()
    if request.param == "table":
        client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    else:
        client.force_authenticate(scorer)
    return client


def _put(client, game, deal, body, key):
    return client.put(_deals_url(game, deal.pk), body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def _history(game):
    return list(DealRevision.objects.filter(game=game).values_list("action", "after"))


def test_a_replayed_correction_answers_the_first_answer_and_writes_nothing(phone, game):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    first = _put(phone, game, deal, made(a=90), "fix-1")
    later = _put(phone, game, deal, made(a=60), "fix-2")  # corrected again since
    history = _history(game)
    replay = _put(phone, game, deal, made(a=90), "fix-1")
    assert first.status_code == later.status_code == 200, first.content
    assert (replay.status_code, replay.json()) == (200, first.json())
    deal.refresh_from_db()
    assert deal.data["points"] == {"A": 60, "B": 92}
    assert _history(game) == history


def test_the_same_key_with_another_correction_is_refused(phone, game):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    other = services.deal_record(game_id=game.pk, data=made(a=80)).deal
    assert _put(phone, game, deal, made(a=90), "fix-1").status_code == 200
    history = _history(game)
    for target, body in [(deal, made(a=70)), (other, made(a=90))]:
        refused = _put(phone, game, target, body, "fix-1")
        assert refused.status_code == 422
        assert refused.json()["errors"][0]["message"] == KEY_REUSED
    assert _history(game) == history
    assert [d.data["points"]["A"] for d in Deal.objects.filter(game=game)] == [90, 80]


def test_a_refused_correction_keeps_nothing_and_is_sent_again_with_its_key(phone, game):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    refused = _put(phone, game, deal, made(a=400), "fix-1")
    fixed = _put(phone, game, deal, made(a=90), "fix-1")
    assert refused.status_code == 400
    assert fixed.status_code == 200, fixed.content
    assert fixed.json()["data"]["points"]["A"] == 90


def test_a_replay_after_the_game_finished_answers_the_first_answer(phone, game):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    first = _put(phone, game, deal, made(a=90), "fix-1")
    assert first.status_code == 200
    from clabber_league.games.models import Game

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    replay = _put(phone, game, deal, made(a=90), "fix-1")
    assert (replay.status_code, replay.json()) == (200, first.json())


def test_the_table_phones_key_sent_with_another_deal_is_refused(game, link):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    url = _deals_url(game)
    first = client.post(url, made(a=100), format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    refused = client.post(url, made(a=60), format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    assert first.status_code == 201, first.content
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["message"] == KEY_REUSED
    assert [d.data["points"]["A"] for d in Deal.objects.filter(game=game)] == [100]


def test_the_table_phones_retry_answers_its_deal_after_a_correction(game, link):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    url = _deals_url(game)
    first = client.post(url, made(a=100), format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    deal = Deal.objects.get(game=game)
    assert _put(client, game, deal, made(a=90), "fix-1").status_code == 200
    retry = client.post(url, made(a=100), format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    assert retry.status_code in (200, 201), retry.content
    assert retry.json()["id"] == first.json()["id"]
    assert Deal.objects.filter(game=game).count() == 1


def test_the_daily_clean_up_forgets_a_corrections_key_past_its_retention(phone, game):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    assert _put(phone, game, deal, made(a=90), "fix-old").status_code == 200
    assert _put(phone, game, deal, made(a=80), "fix-new").status_code == 200
    CorrectionKey.objects.filter(key="fix-old").update(
        created_at=timezone.now() - dt.timedelta(hours=25)
    )
    assert tasks.purge_idempotency_keys.apply().get() == 1
    assert list(CorrectionKey.objects.values_list("key", flat=True)) == ["fix-new"]
    history = _history(game)
    replay = _put(phone, game, deal, made(a=80), "fix-new")  # the fresh key still answers
    assert replay.status_code == 200 and replay.json()["data"]["points"]["A"] == 80
    assert _history(game) == history
