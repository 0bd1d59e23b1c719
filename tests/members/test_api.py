"""The members' API calls the same services as the pages: invitations and disputes for
club admins, the handover (PIN or dispute) for the scorer's phone."""

import pytest
from django.core import mail

from clabber_league.games.models import Game
from clabber_league.members import services
from clabber_league.members.models import Dispute, Invitation
from tests.members.conftest import PIN

pytestmark = pytest.mark.django_db


def test_an_admin_invites_by_email_and_revokes(
    club, admin, django_capture_on_commit_callbacks, api_client_for
):
    url = f"/api/clubs/{club.slug}/invitations/"
    with django_capture_on_commit_callbacks(execute=True):
        response = api_client_for(admin).post(
            url, {"email": "new@example.org", "role": "scorer", "days": 3}, format="json"
        )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"] == "Open" and body["role"] == "scorer" and "/join/" in body["url"]
    assert mail.outbox[0].to == ["new@example.org"]
    response = api_client_for(admin).post(f"{url}{body['id']}/revoke/")
    assert response.status_code == 200 and response.json()["state"] == "Revoked"
    assert response.json()["url"] is None
    response = api_client_for(admin).post(f"{url}{body['id']}/revoke/")
    assert response.status_code == 409
    assert response.json()["errors"] == [
        {"field": "invitation", "message": services.INVITATION_REVOKED}
    ]


def test_a_bad_invitation_names_the_field_and_writes_nothing(club, admin, api_client_for):
    response = api_client_for(admin).post(
        f"/api/clubs/{club.slug}/invitations/", {"days": 400, "role": "boss"}, format="json"
    )
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert "role" in fields
    assert not Invitation.objects.exists()


def test_invitations_are_for_club_admins_only(club, scorer, api_client_for):
    assert api_client_for(scorer).get(f"/api/clubs/{club.slug}/invitations/").status_code == 403


def test_the_scorers_phone_confirms_by_pin_through_the_api(club, scorer, table, api_client_for):
    game, opponent = table["game"], table["opponent"]
    url = f"/api/clubs/{club.slug}/games/{game.pk}/handover/confirm/"
    response = api_client_for(scorer).post(
        url, {"player": opponent.pk, "pin": "0000"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "pin", "message": services.PIN_WRONG.format(left=4)}
    ]
    response = api_client_for(scorer).post(url, {"player": opponent.pk, "pin": PIN}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "confirmed"
    game.refresh_from_db()
    assert game.confirmed_by == opponent.user


def test_five_wrong_pins_answer_429_with_the_wait(club, scorer, table, api_client_for):
    game, opponent = table["game"], table["opponent"]
    url = f"/api/clubs/{club.slug}/games/{game.pk}/handover/confirm/"
    for _ in range(5):
        api_client_for(scorer).post(url, {"player": opponent.pk, "pin": "0000"}, format="json")
    response = api_client_for(scorer).post(url, {"player": opponent.pk, "pin": PIN}, format="json")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    message = services.PIN_LOCKED.format(minutes=services.PIN_LOCK_MINUTES)
    assert response.json()["errors"] == [{"field": "pin", "message": message}]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_dispute_through_the_api_is_resolved_by_the_admin(
    club, scorer, admin, table, api_client_for
):
    game = table["game"]
    response = api_client_for(scorer).post(
        f"/api/clubs/{club.slug}/games/{game.pk}/handover/dispute/",
        {"reason": "Deal 3 was a renege", "player": table["opponent"].pk},
        format="json",
    )
    assert response.status_code == 201 and response.json()["is_open"] is True
    listing = api_client_for(admin).get(f"/api/clubs/{club.slug}/disputes/").json()["results"]
    assert [d["reason"] for d in listing] == ["Deal 3 was a renege"]
    dispute = Dispute.objects.get()
    response = api_client_for(admin).post(
        f"/api/clubs/{club.slug}/disputes/{dispute.pk}/resolve/",
        {"resolution": "Renege confirmed, deal corrected"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["is_open"] is False
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
