"""The webhooks' pages: a club admin adds a webhook (its secret shown once), sends a test
event, sees the tries, pauses, re-sends and deletes; a refused URL is shown beside it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clabber_league.webhooks import guard
from clabber_league.webhooks.models import Subscription

pytestmark = pytest.mark.django_db


def test_an_admin_adds_a_webhook_and_sees_its_secret_once(
    client, club, admin, receiver, django_capture_on_commit_callbacks
):
    client.force_login(admin)
    list_url = reverse("webhooks:list", kwargs={"club_slug": club.slug})
    response = client.post(
        list_url,
        {"url": receiver.url, "description": "Website", "events": ["result.confirmed"]},
    )
    subscription = Subscription.objects.get()
    detail = reverse("webhooks:detail", kwargs={"club_slug": club.slug, "pk": subscription.pk})
    assert response.status_code == 302 and response["Location"] == detail
    first = client.get(detail).content.decode()
    assert subscription.secret in first
    assert subscription.secret not in client.get(detail).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("webhooks:test", kwargs={"club_slug": club.slug, "pk": subscription.pk})
        )
    page = client.get(detail).content.decode()
    assert "webhook.test" in page and "HTTP 204" in page
    assert len(receiver.received) == 1

    delivery = subscription.deliveries.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse(
                "webhooks:resend",
                kwargs={"club_slug": club.slug, "pk": subscription.pk, "delivery_pk": delivery.pk},
            )
        )
    assert len(receiver.received) == 2

    client.post(reverse("webhooks:pause", kwargs={"club_slug": club.slug, "pk": subscription.pk}))
    subscription.refresh_from_db()
    assert not subscription.active
    client.post(reverse("webhooks:delete", kwargs={"club_slug": club.slug, "pk": subscription.pk}))
    assert not Subscription.objects.exists()


def test_a_refused_url_is_shown_beside_its_field(client, club, admin, settings):
    settings.CLABBER_WEBHOOKS_ALLOW_PRIVATE = False
    client.force_login(admin)
    response = client.post(
        reverse("webhooks:list", kwargs={"club_slug": club.slug}),
        {"url": "http://10.0.0.1/hook", "events": ["result.confirmed"]},
    )
    assert response.status_code == 200
    message = guard.URL_PRIVATE.format(host="10.0.0.1", address="10.0.0.1")
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Subscription.objects.exists()


def test_the_pages_are_for_club_admins(client, club, scorer):
    client.force_login(scorer)
    assert client.get(reverse("webhooks:list", kwargs={"club_slug": club.slug})).status_code == 403
