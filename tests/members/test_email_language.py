"""Emails in the reader's language (issue 33): the member's own (``MemberProfile.language``),
else the club's (``Club.language``), else English, whatever language the request that
caused the email was answered in. Month and weekday names come from Django's own catalogs,
so they show the language without the project's catalogs compiled."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import formats, translation

from clabber_league.clubs.models import Membership, Role
from clabber_league.members import services
from clabber_league.members.models import MemberProfile
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _speaks(user, language: str) -> None:
    MemberProfile.objects.update_or_create(user=user, defaults={"language": language})


def _month(when: dt.datetime, language: str) -> str:
    with translation.override(language):
        return formats.date_format(when, "F")


def _invite(club, admin, email, capture):
    with capture(execute=True), translation.override("en"):  # the admin's page is English
        return services.invitation_create(club=club, created_by=admin, email=email)


def test_an_invitation_to_a_dutch_member_is_written_in_dutch(
    club, admin, django_capture_on_commit_callbacks
):
    _speaks(UserFactory(email="kees@example.org"), "nl")  # has an account from another club
    invitation = _invite(club, admin, "kees@example.org", django_capture_on_commit_callbacks)
    [message] = mail.outbox
    html, _mimetype = message.alternatives[0]
    assert '<html lang="nl">' in html
    month = _month(invitation.expires_at, "nl")
    assert month != _month(invitation.expires_at, "en")
    assert month in html and month in message.body


def test_an_invitation_to_a_stranger_follows_the_club_else_english(
    club, admin, django_capture_on_commit_callbacks
):
    _invite(club, admin, "new@example.org", django_capture_on_commit_callbacks)
    assert '<html lang="en">' in mail.outbox[0].alternatives[0][0]
    club.language = "de"
    club.save(update_fields=["language"])
    invitation = _invite(club, admin, "neu@example.org", django_capture_on_commit_callbacks)
    html = mail.outbox[1].alternatives[0][0]
    assert '<html lang="de">' in html
    assert _month(invitation.expires_at, "de") in mail.outbox[1].body


def test_an_unknown_language_falls_back_to_the_clubs(
    club, admin, django_capture_on_commit_callbacks
):
    _speaks(UserFactory(email="old@example.org"), "tlh")  # no longer offered
    club.language = "fr"
    club.save(update_fields=["language"])
    _invite(club, admin, "old@example.org", django_capture_on_commit_callbacks)
    assert '<html lang="fr">' in mail.outbox[0].alternatives[0][0]


def test_each_club_admin_reads_a_dispute_in_their_own_language(
    table, admin, scorer, django_capture_on_commit_callbacks
):
    game, club = table["game"], table["game"].club
    club.language = "de"
    club.save(update_fields=["language"])
    _speaks(admin, "nl")
    other = UserFactory(email="second-admin@example.org")
    Membership.objects.create(club=club, user=other, role=Role.ADMIN)  # follows the club
    with django_capture_on_commit_callbacks(execute=True), translation.override("ja"):
        services.dispute_raise(game=game, reason="Deal 3 was 82 to us", device_user=scorer)
    languages = {
        message.to[0]: message.alternatives[0][0].split('<html lang="')[1].split('"')[0]
        for message in mail.outbox
    }
    assert languages == {admin.email: "nl", other.email: "de"}
    assert all("Deal 3 was 82 to us" in message.body for message in mail.outbox)


def test_a_password_reset_is_written_in_the_members_own_language(client):
    """allauth's own emails follow the member's choice too, not the page's language."""
    from django.urls import reverse

    user = UserFactory(username="vergesslich", email="vergesslich@example.org")
    _speaks(user, "de")
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("account_reset_password"),
        {"email": "vergesslich@example.org"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    [message] = mail.outbox
    html, _mimetype = message.alternatives[0]
    assert '<html lang="de">' in html
    with translation.override("de"):
        from django.utils.translation import gettext

        assert gettext("Choose a new password") in html
    assert "Choose a new password" not in html
