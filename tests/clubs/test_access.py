"""Who may do what in a club, decided in one place (clubs.access) for pages, the API and
the services: the role ladder, private clubs, the clubs a person sees."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from rest_framework.test import APIClient

from clabber_league.clubs.access import access_for, club_access
from clabber_league.clubs.models import Role
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "play", "score", "manage"),
    [
        (Role.VIEWER, False, False, False),
        (Role.PLAYER, True, False, False),
        (Role.SCORER, True, True, False),
        (Role.ADMIN, True, True, True),
    ],
)
def test_each_role_can_do_what_the_roles_below_it_can(role, play, score, manage):
    club = ClubFactory()
    user = MembershipFactory(club=club, role=role).user
    access = access_for(club=club, user=user)
    assert access.can("read")
    assert (access.can_play, access.can_score, access.can_manage) == (play, score, manage)


def test_a_private_club_is_not_found_by_strangers_a_public_one_is_read_by_anyone():
    private, public = ClubFactory(), ClubFactory(is_public=True)
    stranger = UserFactory()
    with pytest.raises(Http404):
        club_access(slug=private.slug, user=stranger)
    with pytest.raises(Http404):
        club_access(slug=private.slug, user=AnonymousUser())
    anonymous = club_access(slug=public.slug, user=AnonymousUser())
    assert anonymous.can("read") and not anonymous.can_play
    assert access_for(club=private, user=None).role is None


def test_the_clubs_a_person_sees_are_their_own_and_the_public_ones():
    mine, public, other = (
        ClubFactory(name="Mine"),
        ClubFactory(name="Open", is_public=True),
        (ClubFactory(name="Closed")),
    )
    user = MembershipFactory(club=mine, role=Role.VIEWER).user
    client = APIClient()
    client.force_authenticate(user)
    names = [c["name"] for c in client.get("/api/clubs/").json()["results"]]
    assert names == ["Mine", "Open"]
    assert client.get(f"/api/clubs/{other.slug}/").status_code == 404
    anonymous = [c["name"] for c in APIClient().get("/api/clubs/").json()["results"]]
    assert anonymous == [public.name]


def test_members_are_listed_to_members_only_even_in_a_public_club():
    club = ClubFactory(is_public=True)
    MembershipFactory(club=club, role=Role.ADMIN)
    outsider = APIClient()
    outsider.force_authenticate(UserFactory())
    assert outsider.get(f"/api/clubs/{club.slug}/members/").json()["results"] == []
    member = APIClient()
    member.force_authenticate(MembershipFactory(club=club, role=Role.VIEWER).user)
    assert len(member.get(f"/api/clubs/{club.slug}/members/").json()["results"]) == 2


def test_a_page_anyone_reads_takes_its_form_from_club_admins_only(client, division, viewer):
    """club_view("read", write="manage"): the season page."""
    club = division.club
    url = f"/clubs/{club.slug}/schedule/seasons/{division.season.slug}/"
    client.force_login(viewer)
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "X", "ruleset": "clabber"}).status_code == 403
    admin = MembershipFactory(club=club, role=Role.ADMIN).user
    client.force_login(admin)
    response = client.post(url, {"name": "X", "ruleset": "clabber", "games_per_fixture": 1})
    assert response.status_code == 302
    assert division.season.divisions.filter(name="X").exists()


def test_an_admin_confirms_through_the_access_the_page_resolved(game, admin, scorer):
    """The game services take the caller's access instead of asking the memberships."""
    from clabber_league.games import services
    from tests.games.conftest import made

    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    game.refresh_from_db()
    viewer_access = access_for(club=game.club, user=UserFactory())
    assert services.game_confirm_refusal(game=game, user=admin, access=viewer_access) is not None
    admin_access = access_for(club=game.club, user=admin)
    assert services.game_confirm_refusal(game=game, user=admin, access=admin_access) is None


def test_the_game_services_never_look_a_role_up(game, admin, scorer):
    """Without the caller's access an account is no club admin, and an admin's access to
    another club does not count: roles are decided by clubs.access, once, by the caller."""
    from clabber_league.games import services
    from tests.games.conftest import made

    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    game.refresh_from_db()
    assert services.game_confirm_refusal(game=game, user=admin) == services.CONFIRM_NOT_SEATED
    elsewhere = ClubFactory()
    MembershipFactory(club=elsewhere, user=admin, role=Role.ADMIN)
    other_access = access_for(club=elsewhere, user=admin)
    assert other_access.can_manage
    refusal = services.game_confirm_refusal(game=game, user=admin, access=other_access)
    assert refusal == services.CONFIRM_NOT_SEATED
    with pytest.raises(services.GameError):
        services.game_confirm(game=game, user=admin, how="club")
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED


def test_the_club_and_membership_of_a_request_are_the_rows_the_orm_reads(club, scorer):
    from clabber_league.clubs.models import Club, Membership

    def values(instance):
        return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.fields}

    access = club_access(slug=club.slug, user=scorer)
    assert values(access.club) == values(Club.objects.get(pk=club.pk))
    assert values(access.membership) == values(Membership.objects.get(club=club, user=scorer))
    assert access.membership.club is access.club
    outsider = UserFactory(username="outsider-of-the-club")
    Club.objects.filter(pk=club.pk).update(is_public=True)
    assert club_access(slug=club.slug, user=outsider).membership is None
