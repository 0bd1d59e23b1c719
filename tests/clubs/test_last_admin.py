"""The last club admin (issue 10) can neither demote themselves nor be removed."""

import pytest
from rest_framework.test import APIClient

from clabber_league.clubs import services
from clabber_league.clubs.models import Membership, Role
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_the_last_admin_cannot_demote_or_remove_themselves(club, admin):
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/api/clubs/{club.slug}/members/{mine.pk}/"
    demoted = _api(admin).patch(url, {"role": Role.SCORER}, format="json")
    assert demoted.status_code == 409
    assert demoted.json() == {"errors": [{"field": "role", "message": services.LAST_ADMIN}]}
    assert _api(admin).delete(url).status_code == 409
    mine.refresh_from_db()
    assert mine.role == Role.ADMIN


def test_with_another_admin_in_place_an_admin_may_step_down(club, admin):
    MembershipFactory(club=club, user=UserFactory(username="deputy"), role=Role.ADMIN)
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/api/clubs/{club.slug}/members/{mine.pk}/"
    response = _api(admin).patch(url, {"role": Role.PLAYER}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["role"] == Role.PLAYER
