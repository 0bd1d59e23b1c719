"""The settings page's notification section, and the JSON a browser's script sends to keep
a device: saved, or refused with the field named and nothing written."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from clabber_league.notify.models import PushSubscription
from clabber_league.notify.views import device_label
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

KEYS = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u", "auth": "tBHI"}


@pytest.fixture
def member_client():
    client = Client()
    user = UserFactory(username="marge")
    client.force_login(user)
    return client, user


def test_the_settings_page_shows_the_section(member_client):
    client, _user = member_client
    page = client.get("/me/settings/").content.decode()
    assert 'id="notifications"' in page
    assert "Save my notification choices" in page


def test_a_browser_keeps_its_subscription(member_client, settings):
    client, user = member_client
    settings.CLABBER_PUSH_ALLOW_PRIVATE = True
    body = {"endpoint": "http://127.0.0.1:8729/push/abc", "keys": KEYS}
    answer = client.post(
        "/me/notifications/devices/",
        json.dumps(body),
        content_type="application/json",
        HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Firefox/133.0",
    )
    assert answer.status_code == 201
    device = PushSubscription.objects.get()
    assert (device.user, device.label) == (user, "Firefox on Android")
    again = client.post(
        "/me/notifications/devices/", json.dumps(body), content_type="application/json"
    )
    assert again.status_code == 201 and PushSubscription.objects.count() == 1


def test_a_subscription_that_is_not_one_is_refused_naming_the_field(member_client, settings):
    client, _user = member_client
    settings.CLABBER_PUSH_ALLOW_PRIVATE = False
    body = {"endpoint": "http://10.0.0.1/push", "keys": {"p256dh": "", "auth": KEYS["auth"]}}
    answer = client.post(
        "/me/notifications/devices/", json.dumps(body), content_type="application/json"
    )
    assert answer.status_code == 400
    assert {e["field"] for e in answer.json()["errors"]} == {"endpoint", "keys.p256dh"}
    bad = client.post("/me/notifications/devices/", "[1]", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == ""
    assert not PushSubscription.objects.exists()


def test_one_member_cannot_remove_anothers_device(member_client):
    client, _user = member_client
    other = PushSubscription.objects.create(
        user=UserFactory(username="bart"),
        endpoint="https://push.example.org/b",
        p256dh="a",
        auth="b",
    )
    client.post(f"/me/notifications/devices/{other.pk}/delete/")
    assert PushSubscription.objects.filter(pk=other.pk).exists()


def test_device_labels():
    assert device_label("") == "A browser"
    iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1"
    assert device_label(iphone) == "Safari on iPhone"
