"""Webhooks go only to public http(s) addresses: refused when subscribing and again before
each try, since DNS can change (unless CLABBER_WEBHOOKS_ALLOW_PRIVATE, as in the tests)."""

from __future__ import annotations

import socket

import pytest

from clabber_league.webhooks import guard, services
from clabber_league.webhooks.models import Delivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_private(settings):
    settings.CLABBER_WEBHOOKS_ALLOW_PRIVATE = False


def fake_dns(monkeypatch, answers: dict[str, str]) -> None:
    """``getaddrinfo`` answering ``answers`` (name -> address) and nothing else."""
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host in answers:
            family = socket.AF_INET6 if ":" in answers[host] else socket.AF_INET
            return [(family, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("http://127.0.0.1:8000/hook", "127.0.0.1"),
        ("http://[::1]/hook", "::1"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("https://10.1.2.3/hook", "10.1.2.3"),
        ("http://192.168.1.20/hook", "192.168.1.20"),
        ("http://172.16.0.9/hook", "172.16.0.9"),
        ("http://[fe80::1]/hook", "fe80::1"),
        ("http://[::ffff:127.0.0.1]/hook", "::ffff:127.0.0.1"),
        ("http://0.0.0.0/hook", "0.0.0.0"),
    ],
)
def test_a_private_loopback_or_link_local_address_is_refused(no_private, club, url, address):
    with pytest.raises(services.WebhookError) as refused:
        services.subscription_create(club=club, url=url, events=["result.confirmed"])
    host = url.split("//")[1].split("/")[0].rsplit(":", 1)[0] if "[" not in url else address
    assert refused.value.errors == [
        {"field": "url", "message": guard.URL_PRIVATE.format(host=host, address=address)}
    ]


def test_a_name_that_resolves_to_loopback_is_refused(no_private, club):
    with pytest.raises(services.WebhookError) as refused:
        services.subscription_create(
            club=club, url="http://localhost:9000/hook", events=["result.confirmed"]
        )
    [error] = refused.value.errors
    assert error["field"] == "url"
    assert error["message"].startswith("localhost is a private, loopback or link-local address")


def test_a_name_with_one_private_address_among_public_ones_is_refused(
    no_private, club, monkeypatch
):
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda host, port, *a, **k: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port)),
        ],
    )
    with pytest.raises(services.WebhookError):
        services.subscription_create(
            club=club, url="https://hooks.example.org/", events=["result.confirmed"]
        )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://93.184.216.34/hook", guard.URL_SCHEME),
        ("file:///etc/passwd", guard.URL_SCHEME),
        ("javascript:alert(1)", guard.URL_SCHEME),
        ("https://user:pw@93.184.216.34/", guard.URL_CREDENTIALS),
        ("https:///nohost", guard.URL_HOST),
    ],
)
def test_only_http_and_https_urls_with_a_host_are_taken(no_private, club, url, message):
    with pytest.raises(services.WebhookError) as refused:
        services.subscription_create(club=club, url=url, events=["result.confirmed"])
    assert refused.value.errors == [{"field": "url", "message": str(message)}]


def test_a_public_address_is_taken(no_private, club):
    subscription = services.subscription_create(
        club=club, url="https://93.184.216.34/hook", events=["result.confirmed"]
    )
    assert subscription.secret.startswith("whsec_")


def test_a_name_that_moves_to_loopback_after_subscribing_is_refused_at_delivery(
    no_private, club, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    port = receiver.url.split(":")[2].split("/")[0]
    fake_dns(monkeypatch, {"hooks.example.org": "93.184.216.34"})
    subscription = services.subscription_create(
        club=club, url=f"http://hooks.example.org:{port}/hook", events=["result.confirmed"]
    )
    fake_dns(monkeypatch, {"hooks.example.org": "127.0.0.1"})  # DNS rebinding
    with django_capture_on_commit_callbacks(execute=True):
        delivery = services.subscription_test(subscription=subscription)
    delivery.refresh_from_db()
    assert receiver.received == []
    assert delivery.status == Delivery.Status.RETRYING
    [attempt] = delivery.log.all()
    assert attempt.status_code is None
    assert attempt.error == guard.URL_PRIVATE.format(host="hooks.example.org", address="127.0.0.1")


def test_the_setting_lets_a_receiver_on_this_machine_in(club, receiver, settings):
    settings.CLABBER_WEBHOOKS_ALLOW_PRIVATE = True
    subscription = services.subscription_create(
        club=club, url=receiver.url, events=["result.confirmed"]
    )
    assert subscription.url == receiver.url


@pytest.mark.parametrize(
    ("address", "is_public"),
    [
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
        ("100.64.0.1", False),  # carrier-grade NAT
        ("224.0.0.1", False),  # multicast
        ("2002:7f00:1::", False),  # 6to4 around 127.0.0.1
        ("64:ff9b::a00:1", False),  # NAT64 around 10.0.0.1
        ("fc00::1", False),
    ],
)
def test_which_addresses_are_public(address, is_public):
    assert guard.public(address) is is_public
