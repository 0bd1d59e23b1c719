"""The webhooks' API: club admins subscribe, see the secret once, pause, test, follow the
deliveries and re-send; the same services and refusals as the page."""

from __future__ import annotations

import pytest
from standardwebhooks import Webhook

from clabber_league.webhooks import guard
from clabber_league.webhooks.models import Delivery, Subscription
from tests.clients import api_client

pytestmark = pytest.mark.django_db


def test_an_admin_subscribes_tests_and_reads_the_log(
    club, admin, receiver, django_capture_on_commit_callbacks
):
    api = api_client(admin)
    url = f"/api/clubs/{club.slug}/webhooks/"
    response = api.post(
        url,
        {"url": receiver.url, "events": ["result.confirmed", "fixture.changed"]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    secret = created["secret"]
    assert secret.startswith("whsec_")
    assert response["Location"].endswith(f"{url}{created['id']}/")
    # the secret is shown once: never in a read
    assert "secret" not in api.get(f"{url}{created['id']}/").json()
    assert all("secret" not in s for s in api.get(url).json()["results"])

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{url}{created['id']}/test/")
    assert response.status_code == 202
    delivery_url = f"{url}{created['id']}/deliveries/{response.json()['id']}/"
    assert response["Location"].endswith(delivery_url)
    Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers)

    deliveries = api.get(f"{url}{created['id']}/deliveries/").json()
    assert deliveries["count"] == 1
    [delivery] = deliveries["results"]
    assert delivery["event_type"] == "webhook.test" and delivery["status"] == "succeeded"
    assert delivery["payload"]["type"] == "webhook.test"
    [attempt] = delivery["log"]
    assert attempt["number"] == 1 and attempt["status_code"] == 204 and attempt["error"] == ""

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{delivery_url}resend/")
    assert response.status_code == 202
    assert len(receiver.received) == 2
    assert [a["number"] for a in api.get(delivery_url).json()["log"]] == [1, 2]


def test_an_admin_pauses_resumes_and_deletes(club, admin, subscribe, receiver):
    subscription = subscribe(receiver.url)
    api = api_client(admin)
    url = f"/api/clubs/{club.slug}/webhooks/{subscription.pk}/"
    response = api.patch(url, {"active": False}, format="json")
    assert response.status_code == 200 and response.json()["active"] is False
    response = api.patch(url, {"active": True, "events": ["night.finished"]}, format="json")
    assert response.json()["active"] is True and response.json()["events"] == ["night.finished"]
    old = subscription.secret
    response = api.post(f"{url}rotate-secret/")
    assert response.status_code == 200 and response.json()["secret"] not in ("", old)
    assert api.delete(url).status_code == 204
    assert not Subscription.objects.exists()


def test_a_private_address_is_refused_with_the_field_named(club, admin, settings):
    settings.CLABBER_WEBHOOKS_ALLOW_PRIVATE = False
    response = api_client(admin).post(
        f"/api/clubs/{club.slug}/webhooks/",
        {"url": "http://169.254.169.254/latest/", "events": ["result.confirmed"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "field": "url",
            "message": guard.URL_PRIVATE.format(host="169.254.169.254", address="169.254.169.254"),
        }
    ]
    assert not Subscription.objects.exists()


def test_an_unknown_event_or_no_event_is_refused(club, admin, receiver):
    api = api_client(admin)
    for events in (["result.sent"], [], "result.confirmed"):
        response = api.post(
            f"/api/clubs/{club.slug}/webhooks/",
            {"url": receiver.url, "events": events},
            format="json",
        )
        assert response.status_code == 400, events
        fields = {e["field"] for e in response.json()["errors"]}
        assert fields in ({"events"}, {"events.0"}), fields
    assert not Subscription.objects.exists()


def test_webhooks_are_for_club_admins_only_and_one_club_at_a_time(
    club, scorer, admin, subscribe, receiver
):
    from tests.factories import ClubFactory, MembershipFactory, UserFactory

    subscription = subscribe(receiver.url)
    assert api_client(scorer).get(f"/api/clubs/{club.slug}/webhooks/").status_code == 403
    other = ClubFactory()
    other_admin = MembershipFactory(club=other, role="admin", user=UserFactory()).user
    api = api_client(other_admin)
    assert api.get(f"/api/clubs/{other.slug}/webhooks/{subscription.pk}/").status_code == 404
    deliveries = f"/api/clubs/{other.slug}/webhooks/{subscription.pk}/deliveries/"
    assert api.get(deliveries).status_code == 404
    assert not Delivery.objects.exists()
