"""``clubs/store.py`` against the ORM queries it replaces (the club of the URL with the
caller's membership; an API token with its user and that club), on clubs, accounts,
memberships and tokens hypothesis makes up, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from clabber_league.clubs import store
from clabber_league.clubs.models import ApiToken, Club, Membership, Role
from clabber_league.clubs.tokens import digest, token_create
from tests.factories import ClubFactory, UserFactory
from tests.parity import PARITY, fields_of, rolled_back

pytestmark = pytest.mark.django_db

ROLES = st.sampled_from([r.value for r in Role])
#: Per club: public or not, and each of three accounts' role in it (None: not a member).
clubs = st.lists(
    st.tuples(st.booleans(), st.lists(st.none() | ROLES, min_size=3, max_size=3)),
    min_size=1,
    max_size=3,
)


def _world(specs, active) -> tuple[list[Club], list]:
    users = [UserFactory(is_active=flag) for flag in active]
    made = []
    for public, roles in specs:
        club = ClubFactory(is_public=public)
        for user, role in zip(users, roles, strict=True):
            if role is not None:
                Membership.objects.create(club=club, user=user, role=role)
        made.append(club)
    return made, users


def _orm(slug: str, user_id: int | None) -> tuple[Club | None, Membership | None]:
    club = Club.objects.filter(slug=slug).first()
    membership = None
    if club is not None and user_id is not None:
        membership = Membership.objects.filter(club=club, user_id=user_id).first()
    return club, membership


@PARITY
@given(specs=clubs, active=st.lists(st.booleans(), min_size=3, max_size=3))
def test_club_with_membership_is_the_orm_s(db, specs, active):
    with rolled_back():
        made, users = _world(specs, active)
        for slug in [c.slug for c in made] + ["no-such-club"]:
            for user_id in [None, *(u.pk for u in users)]:
                club, membership = store.club_with_membership(slug=slug, user_id=user_id)
                want_club, want_membership = _orm(slug, user_id)
                assert fields_of(club) == fields_of(want_club)
                assert fields_of(membership) == fields_of(want_membership)
                if membership is not None:
                    assert membership.club is club  # no query to reach it


@PARITY
@given(specs=clubs, active=st.lists(st.booleans(), min_size=3, max_size=3))
def test_token_with_club_is_the_orm_s(db, specs, active):
    with rolled_back():
        made, users = _world(specs, active)
        tokens = [Token.objects.create(user=user) for user in users[:2]]
        for key in [t.key for t in tokens] + ["0" * 40]:
            for slug in [c.slug for c in made] + ["no-such-club"]:
                found = store.token_with_club(key=key, slug=slug)
                token = Token.objects.select_related("user").filter(key=key).first()
                if token is None:
                    assert found is None
                    continue
                got_token, club, membership = found
                assert fields_of(got_token) == fields_of(token)
                assert fields_of(got_token.user) == fields_of(token.user)
                want_club, want_membership = _orm(slug, token.user_id)
                assert fields_of(club) == fields_of(want_club)
                assert fields_of(membership) == fields_of(want_membership)


@PARITY
@given(
    specs=clubs,
    active=st.lists(st.booleans(), min_size=3, max_size=3),
    scopes=st.lists(st.sampled_from(["read", "score", "admin"]), min_size=2, max_size=2),
)
def test_api_token_with_club_is_the_orm_s(db, specs, active, scopes):
    with rolled_back():
        made, users = _world(specs, active)
        keys = [
            token_create(user=user, name=f"token {n}", scope=scope)[1]
            for n, (user, scope) in enumerate(zip(users[:2], scopes, strict=True))
        ]
        for key in [*keys, "clb_" + "0" * 40]:
            for slug in [c.slug for c in made] + ["no-such-club"]:
                found = store.api_token_with_club(digest=digest(key), slug=slug)
                token = ApiToken.objects.select_related("user").filter(digest=digest(key)).first()
                if token is None:
                    assert found is None
                    continue
                got_token, club, membership = found
                assert fields_of(got_token) == fields_of(token)
                assert fields_of(got_token.user) == fields_of(token.user)
                want_club, want_membership = _orm(slug, token.user_id)
                assert fields_of(club) == fields_of(want_club)
                assert fields_of(membership) == fields_of(want_membership)
