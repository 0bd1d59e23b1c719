"""The last club admin (issue 10) can neither demote themselves nor be removed."""

import pytest

from clabber_league.clubs import services
from clabber_league.clubs.models import Membership, Role
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_last_admin_cannot_demote_or_remove_themselves(club, admin, api_client_for):
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/api/clubs/{club.slug}/members/{mine.pk}/"
    demoted = api_client_for(admin).patch(url, {"role": Role.SCORER}, format="json")
    assert demoted.status_code == 409
    assert demoted.json()["errors"] == [{"field": "role", "message": services.LAST_ADMIN}]
    assert api_client_for(admin).delete(url).status_code == 409
    mine.refresh_from_db()
    assert mine.role == Role.ADMIN


def test_with_another_admin_in_place_an_admin_may_step_down(club, admin, api_client_for):
    MembershipFactory(club=club, user=UserFactory(username="deputy"), role=Role.ADMIN)
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/api/clubs/{club.slug}/members/{mine.pk}/"
    response = api_client_for(admin).patch(url, {"role": Role.PLAYER}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["role"] == Role.PLAYER


def _club_change_form(club, memberships, **changes) -> dict:
    """The club's admin change form with its memberships inline, as the browser posts it."""
    data = {
        "name": club.name,
        "slug": club.slug,
        "city": club.city,
        "memberships-TOTAL_FORMS": str(len(memberships)),
        "memberships-INITIAL_FORMS": str(len(memberships)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    if club.is_public:
        data["is_public"] = "on"
    data.update(ruleset=club.ruleset, time_zone=club.time_zone, language=club.language)
    if club.is_approved:
        data["is_approved"] = "on"
    for i, membership in enumerate(memberships):
        data[f"memberships-{i}-id"] = str(membership.pk)
        data[f"memberships-{i}-club"] = str(club.pk)
        data[f"memberships-{i}-user"] = str(membership.user_id)
        data[f"memberships-{i}-role"] = membership.role
    data.update(changes)
    return data


@pytest.fixture
def superuser(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def test_the_django_admin_cannot_demote_or_delete_the_last_admin(client, club, admin, superuser):
    client.force_login(superuser)
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/admin/clubs/club/{club.pk}/change/"
    demoted = client.post(url, _club_change_form(club, [mine], **{"memberships-0-role": "viewer"}))
    assert demoted.status_code == 200  # the form again, with the error
    assert services.LAST_ADMIN in demoted.content.decode()
    deleted = client.post(url, _club_change_form(club, [mine], **{"memberships-0-DELETE": "on"}))
    assert services.LAST_ADMIN in deleted.content.decode()
    mine.refresh_from_db()
    assert mine.role == Role.ADMIN


def test_the_django_admin_lets_an_admin_step_down_with_another_in_place(
    client, club, admin, superuser
):
    client.force_login(superuser)
    deputy = MembershipFactory(club=club, user=UserFactory(username="deputy"), role=Role.ADMIN)
    mine = Membership.objects.get(club=club, user=admin)
    url = f"/admin/clubs/club/{club.pk}/change/"
    form = _club_change_form(club, [mine, deputy], **{"memberships-0-role": "scorer"})
    assert client.post(url, form).status_code == 302
    mine.refresh_from_db()
    assert mine.role == Role.SCORER


def test_the_django_admin_does_not_link_a_login_to_a_player(client, club, superuser, teams):
    """Linking goes through player_link_user (a member, one player per login); the admin
    is not a second path around it."""
    client.force_login(superuser)
    player = teams[0].members.first().player
    stranger = UserFactory(username="stranger")  # not a member of the club
    url = f"/admin/clubs/player/{player.pk}/change/"
    form = {"club": club.pk, "name": player.name, "user": stranger.pk, "active": "on"}
    client.post(url, form)
    player.refresh_from_db()
    assert player.user_id is None


def test_the_django_admin_will_not_delete_the_account_of_a_club_s_last_admin(client, club, admin):
    from django.contrib.auth import get_user_model

    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    url = f"/admin/auth/user/{admin.pk}/delete/"
    page = client.get(url).content.decode()
    assert "make someone else club admin first" in page
    client.post(url, {"post": "yes"})
    bulk = {"action": "delete_selected", "_selected_action": [admin.pk], "post": "yes"}
    client.post("/admin/auth/user/", bulk)
    assert get_user_model().objects.filter(pk=admin.pk).exists()
    assert Membership.objects.filter(club=club, user=admin, role=Role.ADMIN).exists()


def test_with_another_admin_the_django_admin_deletes_the_account(client, club, admin):
    from django.contrib.auth import get_user_model

    MembershipFactory(club=club, user=UserFactory(username="deputy"), role=Role.ADMIN)
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)
    client.post(f"/admin/auth/user/{admin.pk}/delete/", {"post": "yes"})
    assert not get_user_model().objects.filter(pk=admin.pk).exists()
