"""A member's own API tokens (``clubs.tokens``): created, listed and revoked by the member,
shown once, stored as a digest only; sent as Bearer or Token; their scope caps the member's
role in every club, and a refusal for the scope says which scope and role it needs."""

import hashlib

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clabber_league.clubs import tokens
from clabber_league.clubs.models import ApiToken, Membership, Role
from tests.factories import UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db

TOKENS = "/api/me/tokens/"


def _session(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _bearer(key: str, scheme: str = "Bearer") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")
    return client


def _key(user, scope: str, name: str = "script") -> str:
    return tokens.token_create(user=user, name=name, scope=scope)[1]


def _only_error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    (error,) = body["errors"]
    return {"code": body["code"], "message": error["message"]}


def test_a_member_creates_lists_uses_and_revokes_a_token_through_the_api(scorer):
    session = _session(scorer)
    created = session.post(TOKENS, {"name": "Results board", "scope": "read"}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    key = body["key"]
    assert key.startswith("clb_") and len(key) > 40
    assert body["prefix"] == key[:12]
    assert (body["name"], body["scope"], body["last_used_at"]) == ("Results board", "read", None)
    assert created["Location"].endswith(f"{TOKENS}{body['id']}/")

    listed = session.get(TOKENS).json()
    assert listed["count"] == 1
    (row,) = listed["results"]
    assert "key" not in row and row["prefix"] == key[:12]

    assert _bearer(key).get("/api/whoami/").json() == {"username": "scorer"}
    assert _bearer(key, "Token").get("/api/whoami/").json() == {"username": "scorer"}
    assert session.get(TOKENS).json()["results"][0]["last_used_at"] is not None

    assert session.delete(f"{TOKENS}{body['id']}/").status_code == 204
    refused = _bearer(key).get("/api/whoami/")
    assert _only_error(refused, 401)["message"] == "Invalid token."
    assert not ApiToken.objects.exists()


def test_only_the_keys_digest_and_prefix_are_stored(scorer):
    token, key = tokens.token_create(user=scorer, name="cron", scope="score")
    stored = ApiToken.objects.filter(pk=token.pk).values().get()
    assert stored["digest"] == hashlib.sha256(key.encode()).hexdigest()
    assert stored["prefix"] == key[:12]
    assert not any(key in str(value) for value in stored.values())


def test_a_token_is_shown_once_and_never_listed_again(scorer):
    session = _session(scorer)
    key = session.post(TOKENS, {"name": "once", "scope": "read"}, format="json").json()["key"]
    token_id = ApiToken.objects.get().pk
    assert key not in session.get(TOKENS).content.decode()
    assert key not in session.get(f"{TOKENS}{token_id}/").content.decode()


def test_bad_input_names_the_field_and_the_number_of_tokens_is_capped(scorer):
    session = _session(scorer)
    response = session.post(TOKENS, {"name": "x", "scope": "root"}, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["scope"]
    assert session.post(TOKENS, {"scope": "read"}, format="json").status_code == 400
    for n in range(tokens.MAX_TOKENS):
        tokens.token_create(user=scorer, name=f"t{n}", scope="read")
    response = session.post(TOKENS, {"name": "one more", "scope": "read"}, format="json")
    assert response.status_code == 409
    assert ApiToken.objects.count() == tokens.MAX_TOKENS


def test_nobody_sees_or_revokes_another_members_tokens(scorer, viewer):
    theirs, key = tokens.token_create(user=viewer, name="viewer's", scope="read")
    session = _session(scorer)
    assert session.get(TOKENS).json()["count"] == 0
    assert session.get(f"{TOKENS}{theirs.pk}/").status_code == 404
    assert session.delete(f"{TOKENS}{theirs.pk}/").status_code == 404
    assert _bearer(key).get("/api/whoami/").status_code == 200


def test_only_an_admin_token_or_the_session_changes_ones_own_tokens_and_settings(scorer):
    for scope in ("read", "score"):
        client = _bearer(_key(scorer, scope))
        assert client.get(TOKENS).status_code == 200
        assert client.get("/api/me/settings/").status_code == 200
        refused = client.post(TOKENS, {"name": "stronger", "scope": "admin"}, format="json")
        error = _only_error(refused, 403)
        assert error["code"] == "insufficient_scope"
        assert f"scope is {scope}" in error["message"] and "admin scope" in error["message"]
        patched = client.patch("/api/me/settings/", {"name_public": False}, format="json")
        assert _only_error(patched, 403)["code"] == "insufficient_scope"
    admin_token = _bearer(_key(scorer, "admin"))
    made_one = admin_token.post(TOKENS, {"name": "another", "scope": "read"}, format="json")
    assert made_one.status_code == 201
    assert admin_token.delete(f"{TOKENS}{made_one.json()['id']}/").status_code == 204
    assert not ApiToken.objects.filter(name__in=["stronger", "another"]).exists()


# --- the scope caps the role, in every club ------------------------------------------------

READ, SCORE, MANAGE = "read", "score", "manage"
#: What each role may do without a token's cap.
ROLE_MAY = {
    Role.VIEWER: {READ},
    Role.PLAYER: {READ},
    Role.SCORER: {READ, SCORE},
    Role.ADMIN: {READ, SCORE, MANAGE},
}
SCOPE_MAY = {"read": {READ}, "score": {READ, SCORE}, "admin": {READ, SCORE, MANAGE}}


def _try(client: APIClient, game, what: str):
    club = game.club.slug
    if what == READ:
        return client.get(f"/api/clubs/{club}/games/{game.pk}/deals/")
    if what == SCORE:
        return client.post(f"/api/clubs/{club}/games/{game.pk}/deals/", made(), format="json")
    return client.post(f"/api/clubs/{club}/players/", {"name": "Zed"}, format="json")


@pytest.mark.parametrize("role", list(ROLE_MAY))
@pytest.mark.parametrize("scope", list(SCOPE_MAY))
def test_a_tokens_scope_caps_the_members_role_on_reads_and_writes(game, role, scope):
    member = UserFactory(username=f"m-{role}-{scope}")
    Membership.objects.create(club=game.club, user=member, role=role)
    client = _bearer(_key(member, scope))
    for what in (READ, SCORE, MANAGE):
        response = _try(client, game, what)
        if what in ROLE_MAY[role] and what in SCOPE_MAY[scope]:
            assert response.status_code in (200, 201), (what, response.content)
            continue
        error = _only_error(response, 403)
        if what in ROLE_MAY[role]:  # the role would: the scope refuses, and says which
            needed = "admin" if what == MANAGE else "score"
            assert error["code"] == "insufficient_scope", (what, error)
            assert error["message"].startswith(f"This token's scope is {scope}: this needs a ")
            assert f"the {needed} scope" in error["message"]
        else:  # the role refuses, whatever the scope
            assert error["code"] == "forbidden", (what, error)
            assert "role" in error["message"]


def test_a_read_token_of_a_club_admin_reads_invitations_with_none_of_the_admins_writes(game, admin):
    club = game.club.slug
    read = _bearer(_key(admin, "read"))
    error = _only_error(read.get(f"/api/clubs/{club}/invitations/"), 403)
    assert error["code"] == "insufficient_scope" and "admin scope" in error["message"]
    assert _bearer(_key(admin, "admin")).get(f"/api/clubs/{club}/invitations/").status_code == 200


def test_a_score_token_scores_and_confirms_but_a_read_token_changes_nothing(game, scorer):
    deals = f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"
    assert _bearer(_key(scorer, "read")).post(deals, made(), format="json").status_code == 403
    assert _bearer(_key(scorer, "score")).post(deals, made(), format="json").status_code == 201
    assert game.deals.count() == 1


def test_older_drf_tokens_keep_the_members_full_role(game, admin):
    client = _bearer(Token.objects.create(user=admin).key, "Token")
    assert _try(client, game, MANAGE).status_code == 201
    assert _try(client, game, SCORE).status_code == 201


def test_a_token_of_an_inactive_member_is_refused(scorer, game):
    key = _key(scorer, "admin")
    type(scorer).objects.filter(pk=scorer.pk).update(is_active=False)
    refused = _bearer(key).get(f"/api/clubs/{game.club.slug}/games/")
    assert _only_error(refused, 401)["message"] == "User inactive or deleted."
    assert _only_error(_bearer(key).get("/api/whoami/"), 401)["message"] == (
        "User inactive or deleted."
    )


def test_on_a_clubs_url_the_token_user_club_and_membership_are_one_query(game, scorer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIRequestFactory

    from clabber_league.clubs.authentication import FOUND_ATTRIBUTE, ClubTokenAuthentication

    token, key = tokens.token_create(user=scorer, name="one", scope="score")
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=tokens.timezone.now())
    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Bearer {key}")
    request.parser_context = {"kwargs": {"club_slug": game.club.slug}}
    with CaptureQueriesContext(connection) as queries:
        user, auth = ClubTokenAuthentication().authenticate(request)
    assert len(queries.captured_queries) == 1  # used a moment ago: no write either
    assert (user, auth.pk, auth.scope) == (scorer, token.pk, "score")
    found = getattr(request, FOUND_ATTRIBUTE)
    assert (found.club, found.membership.role) == (game.club, Role.SCORER)
