"""A deal's Idempotency-Key outlives the deal: a phone whose answer was lost retries after
the deal was deleted, and is told it was deleted (409), not given a new deal; for the
key's retention, on the API (a scorer's phone and the table phone) and on the page."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clabber_league.core import tasks
from clabber_league.core.idempotency import KEY_REUSED
from clabber_league.games import services
from clabber_league.games.models import Deal, Game
from clabber_league.games.table_links import table_link_issue, table_link_token

from .conftest import made

pytestmark = pytest.mark.django_db

DEAL_FORM = {
    "round": "1",
    "turned": "hearts",
    "maker_seat": "0",
    "trump": "hearts",
    "points_A": "100",
    "last_trick": "A",
}


def _deals_url(game, pk=None):
    kwargs = {"club_slug": game.club.slug, "game_id": game.pk}
    if pk is None:
        return reverse("deal-list", kwargs=kwargs)
    return reverse("deal-detail", kwargs={**kwargs, "pk": pk})


@pytest.fixture(params=["table", "scorer"])
def phone(request, game, scorer):
    """The API client of the phone at the table: by its table link, or a scorer's."""
    client = APIClient()
    if request.param == "table":
        link = table_link_issue(game=game, table_label="3", user=scorer)
        client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    else:
        client.force_authenticate(scorer)
    client.kind = request.param
    return client


def _post(client, game, body, key):
    return client.post(_deals_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def _deleted(number=1) -> list[dict]:
    message = services.DEAL_KEY_DELETED.format(number=number)
    return [{"field": "Idempotency-Key", "message": message}]


def test_a_retry_after_its_deal_was_deleted_is_told_so_and_records_nothing(phone, game):
    first = _post(phone, game, made(a=100), "deal-1")
    assert first.status_code == 201, first.content
    assert _post(phone, game, made(a=90), "deal-2").status_code == 201
    gone = phone.delete(_deals_url(game, first.json()["id"]))
    assert gone.status_code == 204

    retry = _post(phone, game, made(a=100), "deal-1")  # the first answer was lost

    assert retry.status_code == 409
    assert retry.json()["errors"] == _deleted(1)
    kept = Deal.objects.filter(game=game).values_list("number", "data__points__A")
    assert list(kept) == [(1, 90)]
    # the other deal's key still answers its deal
    again = _post(phone, game, made(a=90), "deal-2")
    assert again.status_code == 201 and Deal.objects.filter(game=game).count() == 1


def test_the_key_of_a_deleted_deal_with_another_deal_is_refused(phone, game):
    first = _post(phone, game, made(a=100), "deal-1")
    assert phone.delete(_deals_url(game, first.json()["id"])).status_code == 204

    other = _post(phone, game, made(a=60), "deal-1")

    if phone.kind == "scorer":  # the request is known by its fingerprint: another one
        assert other.status_code == 422
        assert other.json()["errors"][0]["message"] == KEY_REUSED
    else:
        assert other.status_code == 409 and other.json()["errors"] == _deleted(1)
    assert not Deal.objects.filter(game=game).exists()


def test_a_deleted_deals_key_is_forgotten_after_its_retention(phone, game):
    first = _post(phone, game, made(a=100), "deal-1")
    assert phone.delete(_deals_url(game, first.json()["id"])).status_code == 204
    game.refresh_from_db()
    aged = {
        key: {**entry, "at": (timezone.now() - dt.timedelta(hours=25)).isoformat()}
        for key, entry in game.deleted_keys.items()
    }
    Game.objects.filter(pk=game.pk).update(deleted_keys=aged)

    assert tasks.purge_idempotency_keys.apply().get() >= 1

    game.refresh_from_db()
    assert game.deleted_keys == {}
    assert _post(phone, game, made(a=100), "deal-1").status_code == 201


def test_the_page_retrying_a_deleted_deals_form_is_told_so(client, game, scorer):
    client.force_login(scorer)
    new = reverse("games:deal-new", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    form = {**DEAL_FORM, "idempotency_key": "page-form-1"}
    assert client.post(new, form).status_code == 302
    delete = reverse(
        "games:deal-delete", kwargs={"club_slug": game.club.slug, "pk": game.pk, "number": 1}
    )
    assert client.post(delete).status_code == 302

    again = client.post(new, form)  # the same form sent again (a reload, a lost answer)

    assert again.status_code == 200
    assert services.DEAL_KEY_DELETED.format(number=1) in str(again.context["form"].errors)
    assert not Deal.objects.filter(game=game).exists()
