"""Invitations that cannot be bent (issue 29): an invitation for an email address is
accepted only by an account that verified that address; one invitation link creates at
most one account; joining as an existing player is offered only for the player the
invitation names, or with a club admin's approval (always for a player with games
awaiting acceptance)."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.models import Membership, Role
from clabber_league.members import services
from clabber_league.members.models import Invitation
from tests.factories import PlayerFactory

from .conftest import finish

pytestmark = pytest.mark.django_db

PASSWORD = "green-baize-2026"


def _join_url(invitation):
    return reverse("members:join", kwargs={"key": services.invitation_key(invitation)})


def _sign_up(client, invitation, username, email):
    join_url = _join_url(invitation)
    client.get(join_url)  # the link opens sign-up
    return client.post(
        reverse("account_signup") + "?next=" + join_url,
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_an_email_invitation_needs_that_address_verified(client, club, admin):
    invitation = services.invitation_create(
        club=club, created_by=admin, email="irma@example.org", role=Role.SCORER
    )
    # Signing up with the invited address proves nothing until it is confirmed.
    assert _sign_up(client, invitation, "irma", "irma@example.org").status_code == 302
    page = client.get(_join_url(invitation)).content.decode()
    assert "only an account that has confirmed that address" in page
    answer = client.post(_join_url(invitation), {"new_name": "Irma", "name_public": "on"})
    assert answer.status_code == 200
    message = services.INVITATION_EMAIL_UNVERIFIED.format(email="irma@example.org")
    assert message in answer.content.decode().replace("&#x27;", "'")
    assert not Membership.objects.filter(club=club, user__username="irma").exists()

    EmailAddress.objects.filter(email="irma@example.org").update(verified=True)
    answer = client.post(_join_url(invitation), {"new_name": "Irma", "name_public": "on"})
    assert answer.status_code == 302
    assert Membership.objects.get(club=club, user__username="irma").role == Role.SCORER


def test_an_address_added_on_the_account_page_is_not_enough(client, club, admin, user_factory):
    user = user_factory(username="mallory", email="mallory@example.org")
    EmailAddress.objects.create(user=user, email="mallory@example.org", verified=True, primary=True)
    invitation = services.invitation_create(club=club, created_by=admin, email="ann@example.org")
    client.force_login(user)
    client.post(reverse("account_email"), {"action_add": "", "email": "ann@example.org"})
    assert EmailAddress.objects.filter(user=user, email="ann@example.org").exists()
    answer = client.post(_join_url(invitation), {"new_name": "Ann", "name_public": "on"})
    assert answer.status_code == 200
    assert not Membership.objects.filter(club=club, user=user).exists()


def test_one_link_creates_at_most_one_account(client, club, admin):
    invitation = services.invitation_create(club=club, created_by=admin)
    assert _sign_up(client, invitation, "first", "first@example.org").status_code == 302
    client.logout()
    second = _sign_up(client, invitation, "second", "second@example.org")
    assert not get_user_model().objects.filter(username="second").exists()
    assert second.status_code in (200, 409)
    invitation.refresh_from_db()
    assert invitation.signup_user.username == "first"
    # The one account it made still joins with it.
    client.force_login(invitation.signup_user)
    assert client.post(_join_url(invitation), {"new_name": "First"}).status_code == 302


def test_choosing_a_player_the_invitation_does_not_name_waits_for_an_admin(client, club, admin):
    irma = PlayerFactory(club=club, name="Irma")
    invitation = services.invitation_create(club=club, created_by=admin)
    assert _sign_up(client, invitation, "not-irma", "x@example.org").status_code == 302
    assert client.post(_join_url(invitation), {"player": irma.pk}).status_code == 302
    irma.refresh_from_db()
    assert irma.user is None  # not theirs yet

    api = APIClient()
    api.force_authenticate(admin)
    url = f"/api/clubs/{club.slug}/invitations/{invitation.pk}/"
    body = api.get(url).json()
    assert body["claim_pending"] is True and body["claimed_player"] == irma.pk
    refused = api.post(url + "claim/", {"approve": False}, format="json")
    assert refused.status_code == 200 and refused.json()["claim_approved"] is False
    irma.refresh_from_db()
    assert irma.user is None
    again = api.post(url + "claim/", {"approve": True}, format="json")
    assert again.status_code == 409


def test_the_named_player_joins_at_once_unless_games_await_acceptance(
    club, admin, game, scorer, user_factory
):
    named = game.seats.get(seat=1).player  # side B of a game about to finish
    free = PlayerFactory(club=club, name="Free")
    ok = services.invitation_create(club=club, created_by=admin, player=free)
    services.invitation_accept(key=services.invitation_key(ok), user=user_factory())
    free.refresh_from_db()
    assert free.user is not None

    finish(game, scorer)  # awaiting acceptance by side B
    invitation = services.invitation_create(club=club, created_by=admin, player=named)
    joiner = user_factory()
    services.invitation_accept(key=services.invitation_key(invitation), user=joiner)
    named.refresh_from_db()
    assert named.user is None
    invitation.refresh_from_db()
    assert invitation.claim_pending

    api = APIClient()
    api.force_authenticate(admin)
    url = f"/api/clubs/{club.slug}/invitations/{invitation.pk}/claim/"
    assert api.post(url, {"approve": True}, format="json").status_code == 200
    named.refresh_from_db()
    assert named.user == joiner
    assert Invitation.objects.get(pk=invitation.pk).claim_approved is True
