"""Absolute links in every email (issue 31): an invitation and a dispute notice sent with
no request at hand (the API's token clients, a command) link to ``CLABBER_SITE_URL``; one
sent from a page links to that setting too, not to whatever address the page was opened
with (a club laptop's LAN address means nothing to a member at home)."""

import re

import pytest
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from clabber_league.members import services

pytestmark = pytest.mark.django_db

SITE = "https://league.example.org"


def _links(message) -> list[str]:
    [(html, _)] = message.alternatives
    return re.findall(r'href="([^"]+)"', html) + re.findall(r"\S*/(?:join|clubs)/\S+", message.body)


def test_an_invitation_without_a_request_links_to_the_site(
    club, admin, settings, django_capture_on_commit_callbacks
):
    settings.CLABBER_SITE_URL = SITE
    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invitation_create(
            club=club, created_by=admin, email="new@example.org"
        )
    [message] = mail.outbox
    url = services.invitation_url(invitation=invitation)
    assert url.startswith(f"{SITE}/join/")
    assert url in message.body
    assert all(link.startswith(SITE) for link in _links(message)), _links(message)


def test_an_invitation_from_a_page_on_the_lan_still_links_to_the_site(
    club, admin, settings, django_capture_on_commit_callbacks
):
    settings.CLABBER_SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    request = RequestFactory().get("/", HTTP_HOST="192.168.1.20")
    with django_capture_on_commit_callbacks(execute=True):
        services.invitation_create(
            club=club, created_by=admin, email="new@example.org", request=request
        )
    [message] = mail.outbox
    assert "192.168.1.20" not in message.body
    assert f"{SITE}/join/" in message.body


def test_without_the_setting_a_page_gives_its_own_host(club, admin, settings):
    settings.CLABBER_SITE_URL = ""
    request = RequestFactory().get("/")
    invitation = services.invitation_create(club=club, created_by=admin, request=request)
    assert services.invitation_url(invitation=invitation, request=request).startswith(
        "http://testserver/join/"
    )


def test_a_dispute_notice_links_to_the_site(
    table, scorer, admin, settings, django_capture_on_commit_callbacks
):
    settings.CLABBER_SITE_URL = SITE
    with django_capture_on_commit_callbacks(execute=True):
        dispute = services.dispute_raise(
            game=table["game"], reason="Deal 3", player_id=table["opponent"].pk, device_user=scorer
        )
    [message] = mail.outbox
    url = reverse("members:dispute", kwargs={"club_slug": dispute.club.slug, "pk": dispute.pk})
    assert f"{SITE}{url}" in message.body
    assert all(link.startswith(SITE) for link in _links(message)), _links(message)
