"""The clubs' hand-written SQL: the two statements every request of a club's page or API
runs, written once (``core.rows``): built by the ORM they cost five times their round trip.

- :func:`club_with_membership`: the club of the URL by its slug, with the caller's
  membership in it;
- :func:`token_with_club`: an API token by its key, with its user, and the club of the
  URL with the user's membership in it (one statement for the authentication and the
  club's access).

Each returns model instances; ``tests/clubs/test_store_parity.py`` holds them to the ORM's
answer on SQLite and PostgreSQL.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from clabber_league.core import rows

from .models import ApiToken, Club, Membership


def club_with_membership(
    *, slug: str, user_id: int | None
) -> tuple[Club | None, Membership | None]:
    """The club ``slug`` and ``user_id``'s membership in it (its club set: no query to reach
    it), each None where there is none."""
    with connection.cursor() as cursor:
        cursor.execute(_club_sql(), [user_id, slug])
        row = cursor.fetchone()
    if row is None:
        return None, None
    return _club_from_row(row)


@functools.cache
def _club_sql() -> str:
    return (
        f"SELECT {', '.join(_club_columns())} FROM {Club._meta.db_table} c "
        f"LEFT JOIN {Membership._meta.db_table} m ON m.club_id = c.id AND m.user_id = %s "
        "WHERE c.slug = %s"
    )


def _club_columns() -> list[str]:
    """The columns of the club (``c``) and of a membership in it (``m``), in the order
    :func:`_club_from_row` takes them."""
    return rows.columns(Club, "c") + rows.columns(Membership, "m")


def _club_from_row(values: Sequence[Any]) -> tuple[Club | None, Membership | None]:
    width = len(Club._meta.concrete_fields)
    if values[_pk_index(Club)] is None:  # no such club
        return None, None
    club = rows.instance(Club, values[:width])
    if values[width + _pk_index(Membership)] is None:
        return club, None
    membership = rows.instance(Membership, values[width:])
    membership.club = club  # already here: no query to reach it
    return club, membership


@functools.cache
def _pk_index(model: type[Club] | type[Membership]) -> int:
    return list(model._meta.concrete_fields).index(model._meta.pk)


def token_with_club(*, key: str, slug: str) -> tuple[Token, Club | None, Membership | None] | None:
    """The token ``key`` with its user (``token.user``, no query to reach it), the club
    ``slug`` and the user's membership in it (each None where there is none); None for an
    unknown key."""
    return _with_club(Token, Token._meta.pk.column, key, slug)


def api_token_with_club(
    *, digest: str, slug: str
) -> tuple[ApiToken, Club | None, Membership | None] | None:
    """As :func:`token_with_club`, for a member's API token found by its ``digest``."""
    return _with_club(ApiToken, "digest", digest, slug)


def _with_club(model: Any, column: str, value: str, slug: str) -> Any:
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(model, column), [slug, value])
        row = cursor.fetchone()
    if row is None:
        return None
    user_model = get_user_model()
    token_width = len(model._meta.concrete_fields)
    user_width = len(user_model._meta.concrete_fields)
    token = rows.instance(model, row[:token_width])
    token.user = rows.instance(user_model, row[token_width : token_width + user_width])
    club, membership = _club_from_row(row[token_width + user_width :])
    return token, club, membership


@functools.cache
def _token_sql(model: Any, column: str) -> str:
    """The token (``model``: DRF's or a member's API token) by ``column``, its user, the club
    by slug and the user's membership in it; no row for an unknown key, the club's and
    membership's columns null where there are none."""
    user = get_user_model()._meta
    token_user = model._meta.get_field("user").column
    select = rows.columns(model, "t") + rows.columns(get_user_model(), "u") + _club_columns()
    return (
        f"SELECT {', '.join(select)} FROM {model._meta.db_table} t "
        f"JOIN {user.db_table} u ON u.{user.pk.column} = t.{token_user} "
        f"LEFT JOIN {Club._meta.db_table} c ON c.slug = %s "
        f"LEFT JOIN {Membership._meta.db_table} m "
        f"ON m.club_id = c.id AND m.user_id = t.{token_user} "
        f"WHERE t.{column} = %s"
    )
