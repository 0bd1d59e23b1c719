"""The prize rule "a fixed list of shares": the secretary gives the percentages of the
fund (50, 30, 20) on the settings page or over the API; the prize list pays them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.events.api import REQUEST_EXAMPLES
from clabber_league.events.models import Event, Round
from clabber_league.events.services import events as event_services
from clabber_league.events.services.events import PRIZE_SHARES_MISSING, EventError

from .conftest import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(secretary):
    client = APIClient()
    client.force_authenticate(secretary)
    return client


def _events_url(club):
    return f"/api/clubs/{club.slug}/events/"


def _create(club, **values):
    return event_services.event_create(
        club=club, name="Tuesday night", date=dt.date(2026, 12, 8), rules="clabber", **values
    )


def test_a_night_keeps_its_list_of_shares(club):
    event = _create(club, prize_rule="shares", prize_shares=[50, 30, 20])
    event.refresh_from_db()
    assert (event.prize_rule, event.prize_shares) == ("shares", [50, 30, 20])


@pytest.mark.parametrize(
    "shares",
    [[60, 50], [50, 0], [50, -10], [1] * 21, ["50"], [True], [12.5], "50, 30", None],
)
def test_shares_that_are_no_list_of_percentages_are_refused_on_their_field(club, shares):
    with pytest.raises(EventError) as caught:
        _create(club, prize_rule="shares", prize_shares=shares)
    assert [e["field"] for e in caught.value.errors] == ["prize_shares"]
    assert not Event.objects.exists()


def test_the_shares_rule_needs_its_list(club):
    with pytest.raises(EventError) as caught:
        _create(club, prize_rule="shares")
    assert caught.value.errors == [{"field": "prize_shares", "message": PRIZE_SHARES_MISSING}]


def test_another_rule_keeps_no_shares(club):
    event = _create(club, prize_rule="shares", prize_shares=[70, 30])
    event = event_services.event_update(event=event, prize_rule="per_four")
    event.refresh_from_db()
    assert event.prize_shares == []


def test_the_prize_list_pays_the_shares_of_the_fund(api, client, club, members, secretary):
    body = {**REQUEST_EXAMPLES["EventRequest"], "series": None, "rounds": 1}
    body.update(round_kind="game", round_deals=None, hick_stake_cents=0, entry_fee_cents=500)
    created = api.post(_events_url(club), body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["prize_shares"] == [50, 30, 20]
    base = f"{_events_url(club)}{created.json()['id']}"
    for member in members[:8]:
        api.post(f"{base}/entries/", {"player": member.pk, "paid": True}, format="json")
    round_id = api.post(f"{base}/rounds/", format="json").json()["id"]
    play_out(Round.objects.get(pk=round_id))
    prizes = api.get(f"{base}/prizes/").json()
    assert prizes["fund_cents"] == 8 * 500
    assert prizes["prizes_cents"] == [2000, 1200, 800]
    assert prizes["rule"] == "A fixed list of shares of the fund (50%, 30%, 20%)"
    assert prizes["paid_out_cents"] == sum(a["amount_cents"] for a in prizes["awards"]) == 4000
    client.force_login(secretary)
    page = client.get(reverse("events:prizes", args=[club.slug, created.json()["id"]]))
    assert "Prizes: A fixed list of shares of the fund (50%, 30%, 20%)" in page.content.decode()


def test_the_api_refuses_bad_shares_on_their_field_and_writes_nothing(api, club):
    body = {**REQUEST_EXAMPLES["EventRequest"], "series": None, "prize_shares": [80, 40]}
    answer = api.post(_events_url(club), body, format="json")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == ["prize_shares"]
    assert not Event.objects.exists()


def test_the_api_changes_the_shares(api, club):
    event = _create(club, prize_rule="shares", prize_shares=[100])
    answer = api.patch(f"{_events_url(club)}{event.pk}/", {"prize_shares": [60, 40]}, format="json")
    assert answer.status_code == 200, answer.json()
    event.refresh_from_db()
    assert event.prize_shares == [60, 40]


def _form(**fields):
    return {
        "name": "Tuesday night",
        "date": "2026-12-08",
        "kind": "night",
        "rules": "clabber",
        "format": "individual",
        "movement": "mitchell",
        "rounds": "3",
        "round_kind": "game",
        "sit_out_rule": "average",
        "sit_out_score": "0",
        "entry_fee": "2.50",
        "prize_rule": "shares",
        "prize_shares": "50, 30, 20",
        "hick_stake": "0",
        "series": "",
        **fields,
    }


def test_the_settings_page_takes_the_shares_and_shows_them_again(client, club, secretary):
    client.force_login(secretary)
    new = reverse("events:new", kwargs={"club_slug": club.slug})
    assert client.post(new, _form(prize_shares="50%, 30%, 20%")).status_code == 302
    event = Event.objects.get()
    assert event.prize_shares == [50, 30, 20]
    edit = reverse("events:edit", kwargs={"club_slug": club.slug, "pk": event.pk})
    assert 'value="50, 30, 20"' in client.get(edit).content.decode()


@pytest.mark.parametrize("text", ["fifty, thirty", "60, 50", ""])
def test_bad_shares_on_the_page_show_beside_their_field(client, club, secretary, text):
    client.force_login(secretary)
    new = reverse("events:new", kwargs={"club_slug": club.slug})
    response = client.post(new, _form(prize_shares=text))
    assert response.status_code == 400
    assert "prize_shares" in response.context["form"].errors
    assert not Event.objects.exists()
