"""Two-factor sign-in (issue 29): any account turns on an authenticator app (allauth's
TOTP) and then signs in with its code; a club may require it of its admins, and an admin
of such a club without it is sent to set it up before any admin action (pages and API)."""

import base64
import re

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
    yield_hotp_counters_from_time,
)
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.mfa import MFA_REQUIRED, MFA_SELF_FIRST
from clabber_league.clubs.models import Role
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "table-talk-42"  # the factories' password


def _code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def _log_in(client, username: str):
    return client.post(reverse("login"), {"login": username, "password": PASSWORD})


def test_an_account_turns_on_totp_and_then_signs_in_with_its_code(client):
    user = UserFactory(username="carla")
    assert _log_in(client, "carla").status_code == 302
    # Turning it on asks for the password again first (allauth's reauthentication).
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 302 and reverse("account_reauthenticate") in page["Location"]
    client.post(page["Location"], {"password": PASSWORD})
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200
    html = page.content.decode()
    qr = re.search(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert qr and b"xmlns" in base64.b64decode(qr.group(1))  # the otpauth link's QR code
    secret = re.search(r'value="([A-Z2-7]{32})"', html) or re.search(r"([A-Z2-7]{32})", html)
    assert secret, "the page shows the secret to type in"
    answer = client.post(reverse("mfa_activate_totp"), {"code": _code(secret.group(1))})
    assert answer.status_code == 302
    assert Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()

    client.logout()
    answer = _log_in(client, "carla")
    assert answer.status_code == 302 and answer["Location"] == reverse("mfa_authenticate")
    assert "_auth_user_id" not in client.session  # not in before the code
    wrong = client.post(reverse("mfa_authenticate"), {"code": "000000"})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    answer = client.post(reverse("mfa_authenticate"), {"code": _code(secret.group(1))})
    assert answer.status_code == 302 and "_auth_user_id" in client.session


@pytest.fixture
def strict_club(club):
    club.admins_need_mfa = True
    club.save()
    return club


def test_an_admin_without_totp_is_sent_to_set_it_up_first(client, strict_club):
    admin = MembershipFactory(club=strict_club, role=Role.ADMIN, user=UserFactory()).user
    client.force_login(admin)
    invitations = reverse("members:invitations", kwargs={"club_slug": strict_club.slug})
    answer = client.get(invitations)
    assert answer.status_code == 302 and answer["Location"] == reverse("mfa_activate_totp")
    api = APIClient()
    api.force_authenticate(admin)
    refused = api.post(f"/api/clubs/{strict_club.slug}/invitations/", {}, format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["message"] == MFA_REQUIRED
    # Reading and playing are not admin actions: the club's home still opens.
    assert client.get(reverse("club-home", args=[strict_club.slug])).status_code == 200

    TOTP.activate(admin, generate_totp_secret())
    assert client.get(invitations).status_code == 200
    made = api.post(f"/api/clubs/{strict_club.slug}/invitations/", {}, format="json")
    assert made.status_code == 201


def test_a_club_admin_requires_it_only_once_they_have_it(client, club, admin):
    client.force_login(admin)
    url = reverse("members:security", kwargs={"club_slug": club.slug})
    page = client.post(url, {"admins_need_mfa": "on"}, follow=True)
    assert MFA_SELF_FIRST.replace("'", "&#x27;") in page.content.decode()
    club.refresh_from_db()
    assert club.admins_need_mfa is False

    TOTP.activate(admin, generate_totp_secret())
    assert client.post(url, {"admins_need_mfa": "on"}).status_code == 302
    club.refresh_from_db()
    assert club.admins_need_mfa is True
    other = MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory()).user
    client.force_login(other)
    assert client.get(url)["Location"] == reverse("mfa_activate_totp")
