"""An Idempotency-Key over the documented length or outside printable ASCII is refused with
400 on every path that takes one (a creating POST, a deal, a correction; a logged-in
caller's and the table phone's), and nothing is done: a key is never cut to fit, since a
key cut short could be another request's key."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.core.idempotency import HEADER, KEY_INVALID, KEY_MAX_LENGTH
from clabber_league.games import services
from clabber_league.games.models import Deal, DealRevision, Game
from clabber_league.games.table_links import table_link_issue, table_link_token
from clabber_league.games.views import PAGE_KEY_INVALID
from tests.games.conftest import made

pytestmark = pytest.mark.django_db

BAD_KEYS = {
    "one too long": "k" * (KEY_MAX_LENGTH + 1),
    "far too long": "k" * 5000,
    "not ASCII": "schlüssel-1",
    "a control character": "key\x01one",
    "a tab": "key\tone",
    "DEL": "key\x7f",
}
REFUSED = [{"field": HEADER, "message": KEY_INVALID}]


@pytest.fixture(params=["table", "scorer"])
def phone(request, game, scorer):
    client = APIClient()
    if request.param == "table":
        link = table_link_issue(game=game, table_label="3", user=scorer)
        client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    else:
        client.force_authenticate(scorer)
    return client


def _deals_url(game, pk=None):
    kwargs = {"club_slug": game.club.slug, "game_id": game.pk}
    if pk is None:
        return reverse("deal-list", kwargs=kwargs)
    return reverse("deal-detail", kwargs={**kwargs, "pk": pk})


@pytest.mark.parametrize("key", BAD_KEYS.values(), ids=BAD_KEYS.keys())
def test_a_deal_with_a_bad_key_is_refused_and_not_recorded(phone, game, key):
    answer = phone.post(_deals_url(game), made(), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert answer.status_code == 400
    assert answer.json()["errors"] == REFUSED
    assert not Deal.objects.filter(game=game).exists()


def test_a_table_phones_key_is_not_cut_to_fit(phone, game):
    key = "k" * KEY_MAX_LENGTH
    first = phone.post(_deals_url(game), made(a=100), format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == 201
    # The same 80 characters and one more: another key, refused, not the first one's retry
    longer = phone.post(
        _deals_url(game), made(a=100), format="json", HTTP_IDEMPOTENCY_KEY=key + "x"
    )
    assert longer.status_code == 400 and longer.json()["errors"] == REFUSED
    assert Deal.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("key", BAD_KEYS.values(), ids=BAD_KEYS.keys())
def test_a_correction_with_a_bad_key_is_refused_and_changes_nothing(phone, game, key):
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    history = DealRevision.objects.filter(game=game).count()
    answer = phone.put(
        _deals_url(game, deal.pk), made(a=90), format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert answer.status_code == 400
    assert answer.json()["errors"] == REFUSED
    deal.refresh_from_db()
    assert deal.data["points"]["A"] == 100
    assert DealRevision.objects.filter(game=game).count() == history


@pytest.mark.parametrize("key", BAD_KEYS.values(), ids=BAD_KEYS.keys())
def test_a_creating_post_with_a_bad_key_is_refused_and_creates_nothing(
    club, division, teams, scorer, key
):
    api = APIClient()
    api.force_authenticate(scorer)
    a, b = teams
    seats = [
        a.members.order_by("position")[0].player,
        b.members.order_by("position")[0].player,
        a.members.order_by("position")[1].player,
        b.members.order_by("position")[1].player,
    ]
    body = {
        "division": division.pk,
        "sides": {"A": a.pk, "B": b.pk},
        "seats": [p.pk for p in seats],
    }
    answer = api.post(
        f"/api/clubs/{club.slug}/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert answer.status_code == 400
    assert answer.json()["errors"] == REFUSED
    assert not Game.objects.exists()


def test_the_deal_page_refuses_a_form_whose_key_was_changed(client, game, scorer):
    client.force_login(scorer)
    url = reverse("games:deal-new", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    form = {
        "round": "1",
        "turned": "hearts",
        "maker_seat": "0",
        "trump": "hearts",
        "points_A": "100",
        "last_trick": "A",
        "idempotency_key": "k" * (KEY_MAX_LENGTH + 1),
    }
    answer = client.post(url, form)
    assert answer.status_code == 200
    assert str(PAGE_KEY_INVALID) in answer.context["form"].non_field_errors()
    assert not Deal.objects.filter(game=game).exists()
