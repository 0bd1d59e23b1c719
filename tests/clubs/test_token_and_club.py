"""The API's token authentication reads the club of the URL and the caller's membership with
the token (``clubs.authentication``): what a token opens is what it opened before, token by
token, club by club, and the rows it hands on are the rows the ORM reads."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient, APIRequestFactory

from clabber_league.clubs.authentication import FOUND_ATTRIBUTE, ClubTokenAuthentication
from clabber_league.clubs.models import Club, Membership, Role
from clabber_league.games.models import Deal
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _deals(game, slug: str | None = None) -> str:
    return f"/api/clubs/{slug or game.club.slug}/games/{game.pk}/deals/"


def _error(response, status: int) -> str:
    assert response.status_code == status, response.content
    (error,) = response.json()["errors"]
    return error["message"]


def test_a_revoked_token_is_401_on_a_clubs_url(game, scorer):
    token = Token.objects.create(user=scorer)
    client = _client(token.key)
    assert client.post(_deals(game), made(), format="json").status_code == 201
    token.delete()
    response = client.post(_deals(game), made(), format="json")
    assert _error(response, 401) == "Invalid token."
    assert response["WWW-Authenticate"] == "Token"
    assert game.deals.count() == 1


def test_an_inactive_users_token_is_401_on_a_clubs_url(game, scorer):
    token = Token.objects.create(user=scorer)
    get_user_model().objects.filter(pk=scorer.pk).update(is_active=False)
    response = _client(token.key).post(_deals(game), made(), format="json")
    assert _error(response, 401) == "User inactive or deleted."
    assert not game.deals.exists()


def test_a_bad_token_is_401_even_for_a_club_that_does_not_exist(game):
    response = _client("not-a-real-token").get("/api/clubs/no-such-club/games/")
    assert _error(response, 401) == "Invalid token."


def test_a_good_token_for_a_club_that_does_not_exist_is_404(game, scorer):
    token = Token.objects.create(user=scorer)
    assert _client(token.key).get(_deals(game, "no-such-club")).status_code == 404


def test_a_non_member_finds_no_private_club_and_cannot_write_in_a_public_one(game):
    stranger = Token.objects.create(user=UserFactory(username="stranger")).key
    assert _client(stranger).get(_deals(game)).status_code == 404
    assert _client(stranger).post(_deals(game), made(), format="json").status_code == 404
    Club.objects.filter(pk=game.club_id).update(is_public=True)
    assert _client(stranger).get(_deals(game)).status_code == 200
    assert _client(stranger).post(_deals(game), made(), format="json").status_code == 403
    assert not game.deals.exists()


def test_a_scorer_of_another_club_reaches_neither_this_club_nor_its_games(game):
    other = ClubFactory()
    member = MembershipFactory(club=other, role=Role.SCORER, user=UserFactory(username="o")).user
    client = _client(Token.objects.create(user=member).key)
    assert client.post(_deals(game), made(), format="json").status_code == 404
    assert client.post(_deals(game, other.slug), made(), format="json").status_code == 404
    assert not Deal.objects.exists()


def test_a_role_changed_or_removed_counts_from_the_next_request(game, scorer):
    client = _client(Token.objects.create(user=scorer).key)
    assert client.post(_deals(game), made(), format="json").status_code == 201
    Membership.objects.filter(user=scorer).update(role=Role.VIEWER)
    assert client.post(_deals(game), made(), format="json").status_code == 403
    Membership.objects.filter(user=scorer).delete()
    assert client.post(_deals(game), made(), format="json").status_code == 404
    assert game.deals.count() == 1


def test_the_token_user_club_and_membership_are_the_rows_the_orm_reads(game, scorer):
    def values(instance):
        return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.fields}

    token = Token.objects.create(user=scorer)
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {token.key}")
    request.parser_context = {"kwargs": {"club_slug": game.club.slug}}
    with CaptureQueriesContext(connection) as queries:
        user, auth = ClubTokenAuthentication().authenticate(request)
    assert len(queries.captured_queries) == 1  # the token, its user, the club, the membership
    assert values(auth) == values(Token.objects.get(pk=token.pk))
    assert values(user) == values(get_user_model().objects.get(pk=scorer.pk))
    assert auth.user is user
    found = getattr(request, FOUND_ATTRIBUTE)
    assert values(found.club) == values(Club.objects.get(pk=game.club_id))
    assert values(found.membership) == values(Membership.objects.get(user=scorer))
    assert found.membership.club is found.club


def test_without_a_club_in_the_url_it_is_drfs_token_authentication(scorer):
    token = Token.objects.create(user=scorer)
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Token {token.key}")
    request.parser_context = {"kwargs": {}}
    user, auth = ClubTokenAuthentication().authenticate(request)
    assert (user, auth) == (scorer, token)
    assert not hasattr(request, FOUND_ATTRIBUTE)


@pytest.mark.parametrize("scheme", ["Bearer", "bearer", "Token"])
def test_a_token_is_read_as_bearer_or_token_alike(scheme, club, scorer):
    token, _ = Token.objects.get_or_create(user=scorer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {token.key}")
    assert client.get(f"/api/clubs/{club.slug}/teams/").status_code == 200
    assert client.get("/api/whoami/").json() == {"username": scorer.username}
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} not-a-token")
    refused = client.get(f"/api/clubs/{club.slug}/teams/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert refused["WWW-Authenticate"] == "Token"
