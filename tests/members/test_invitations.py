"""Invitations: by email (sent, text and HTML) or by link with a QR code; joining makes
the account (allauth), links the player and gives the invitation's role; expired, revoked
and used invitations are refused and change nothing."""

import datetime as dt

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from clabber_league.clubs.models import Membership, Player, Role
from clabber_league.members import services
from clabber_league.members.models import Invitation
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "green-baize-2026"


def _key(invitation):
    return services.invitation_key(invitation)


def test_an_email_invitation_is_sent_with_text_and_html_bodies(
    club, admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invitation_create(
            club=club, created_by=admin, email="newbie@example.org", role=Role.SCORER
        )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["newbie@example.org"]
    link = reverse("members:join", kwargs={"key": _key(invitation)})
    assert link in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and link in html and club.name in html


def test_the_admins_invitation_page_shows_a_qr_code_of_the_link(client, club, admin):
    client.force_login(admin)
    response = client.post(
        reverse("members:invitations", kwargs={"club_slug": club.slug}),
        {"role": Role.PLAYER, "days": 7, "note": "Irma at the bar"},
    )
    invitation = Invitation.objects.get(club=club)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert '<svg role="img" aria-label="QR code: invitation to join' in page
    assert _key(invitation) in page
    assert invitation.expires_at.date() == (timezone.now() + dt.timedelta(days=7)).date()


def test_someone_new_signs_up_from_the_link_picks_their_player_and_joins(client, club, admin):
    irma = PlayerFactory(club=club, name="Irma")
    invitation = services.invitation_create(club=club, created_by=admin, role=Role.PLAYER)
    join_url = reverse("members:join", kwargs={"key": _key(invitation)})
    assert "Create an account" in client.get(join_url).content.decode()
    response = client.post(
        reverse("account_signup") + "?next=" + join_url,
        {
            "username": "irma",
            "email": "irma@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    response = client.post(join_url, {"player": irma.pk, "name_public": ""})
    assert response.status_code == 302
    membership = Membership.objects.get(club=club, user__username="irma")
    assert membership.role == Role.PLAYER
    # A player the invitation did not name: a club admin approves the link first.
    irma.refresh_from_db()
    assert irma.user is None
    client.force_login(admin)
    client.post(
        reverse("members:invitation-claim", kwargs={"club_slug": club.slug, "pk": invitation.pk}),
        {"decision": "approve"},
    )
    irma.refresh_from_db()
    assert irma.user == membership.user
    assert irma.name_public is False
    invitation.refresh_from_db()
    assert invitation.state() == Invitation.State.ACCEPTED


def test_sign_up_is_closed_without_an_invitation(client, settings):
    settings.CLABBER_SIGNUP_OPEN = False  # a site where only invited people sign up
    response = client.post(
        reverse("account_signup"),
        {"username": "x", "email": "x@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert not Membership.objects.exists()
    assert response.status_code == 200 and "closed" in response.content.decode().lower()
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="x").exists()


def test_an_existing_account_joins_with_the_invitations_role_and_a_new_player(client, club, admin):
    user = UserFactory(username="walt")
    invitation = services.invitation_create(club=club, created_by=admin, role=Role.SCORER)
    membership = services.invitation_accept(key=_key(invitation), user=user, new_name="Walt W.")
    assert membership.role == Role.SCORER
    assert Player.objects.get(club=club, user=user).name == "Walt W."


@pytest.mark.parametrize(
    "spoil, message",
    [
        (lambda i: setattr(i, "revoked_at", timezone.now()), services.INVITATION_REVOKED),
        (
            lambda i: setattr(i, "expires_at", timezone.now() - dt.timedelta(seconds=1)),
            services.INVITATION_EXPIRED,
        ),
        (lambda i: setattr(i, "accepted_at", timezone.now()), services.INVITATION_USED),
    ],
    ids=["revoked", "expired", "used"],
)
def test_a_spoilt_invitation_is_refused_and_changes_nothing(client, club, admin, spoil, message):
    invitation = services.invitation_create(club=club, created_by=admin)
    spoil(invitation)
    invitation.save()
    user = UserFactory(username="late")
    with pytest.raises(services.MemberError) as caught:
        services.invitation_accept(key=_key(invitation), user=user, new_name="Late")
    assert caught.value.errors == [{"field": "invitation", "message": message}]
    assert not Membership.objects.filter(user=user).exists()
    assert not Player.objects.filter(name="Late").exists()
    client.force_login(user)
    response = client.get(reverse("members:join", kwargs={"key": _key(invitation)}))
    assert response.status_code == 410 and str(message) in response.content.decode()


def test_an_invitation_is_used_once(club, admin):
    invitation = services.invitation_create(club=club, created_by=admin)
    services.invitation_accept(key=_key(invitation), user=UserFactory(), new_name="First")
    with pytest.raises(services.MemberError) as caught:
        services.invitation_accept(key=_key(invitation), user=UserFactory(), new_name="Second")
    assert caught.value.errors[0]["message"] == services.INVITATION_USED


def test_a_forged_link_is_refused(client):
    response = client.get(reverse("members:join", kwargs={"key": "1:forged:key"}))
    assert response.status_code == 410
    assert str(services.INVITATION_UNKNOWN) in response.content.decode()


def test_the_admin_revokes_an_invitation_from_its_page(client, club, admin):
    invitation = services.invitation_create(club=club, created_by=admin)
    client.force_login(admin)
    client.post(
        reverse("members:invitation-revoke", kwargs={"club_slug": club.slug, "pk": invitation.pk})
    )
    invitation.refresh_from_db()
    assert invitation.state() == Invitation.State.REVOKED


def test_joining_as_a_player_already_linked_to_someone_else_is_refused(club, admin):
    taken = PlayerFactory(club=club, name="Taken", user=UserFactory())
    invitation = services.invitation_create(club=club, created_by=admin)
    user = UserFactory()
    with pytest.raises(services.MemberError) as caught:
        services.invitation_accept(key=_key(invitation), user=user, player_id=taken.pk)
    assert caught.value.errors == [
        {"field": "player", "message": services.JOIN_PLAYER_TAKEN.format(player=taken)}
    ]
    assert not Membership.objects.filter(user=user).exists()


def test_a_player_of_another_club_cannot_be_chosen(club, admin):
    stranger = PlayerFactory(name="Elsewhere")
    invitation = services.invitation_create(club=club, created_by=admin)
    with pytest.raises(services.MemberError) as caught:
        services.invitation_accept(key=_key(invitation), user=UserFactory(), player_id=stranger.pk)
    assert caught.value.errors == [{"field": "player", "message": services.JOIN_PLAYER_OTHER}]


def test_password_reset_is_emailed(client, user_factory):
    user_factory(username="forgetful", email="forgetful@example.org")
    response = client.post(reverse("account_reset_password"), {"email": "forgetful@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert "/accounts/password/reset/key/" in message.body
    assert message.alternatives and "/accounts/password/reset/key/" in message.alternatives[0][0]
