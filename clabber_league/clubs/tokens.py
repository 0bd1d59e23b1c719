"""A member's own API tokens: created, named, scoped and revoked by the member
(``/me/settings/`` and ``/api/me/tokens/``), shown once, stored as a SHA-256 digest.

A key looks like ``clb_`` and 40 URL-safe characters. Only its first 12 characters
(``prefix``, to tell tokens apart) and its SHA-256 (``digest``, to find it) are stored: a
stolen database opens nothing. It is sent as ``Authorization: Bearer <key>`` or
``Authorization: Token <key>`` (``clubs.authentication``).

**Scopes cap the member's role**, in every club, for requests made with the token:

| scope | may do | a club admin's token of this scope |
|---|---|---|
| ``read`` | read (``read``, ``member``) | reads only |
| ``score`` | also ``play`` and ``score`` | scores, confirms; manages nothing |
| ``admin`` | whatever the member's role allows | everything the admin may |

Outside a club (the member's own settings and tokens) a ``read`` or ``score`` token reads
only; changing them takes an ``admin`` token (or the site's session), so a leaked
scorer's token cannot mint itself a stronger one. A refusal for the scope is a 403 with
the code ``insufficient_scope`` naming the scope needed and the token's.

Tokens made in the Django admin before these (DRF's ``authtoken``, keys of 40 hex digits)
keep working as they did: unscoped, with the member's full role.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, permissions

from clabber_league.core.errors import CONFLICT, NOT_FOUND, ServiceError

from .access import NEED_ROLE, ClubAccess, Need
from .models import ApiToken

Scope = ApiToken.Scope

KEY_PREFIX = "clb_"
PREFIX_LENGTH = 12
#: Tokens one member may hold at once (each has its own rate limit).
MAX_TOKENS = 20
#: ``last_used_at`` is written at most this often per token (not on every request).
LAST_USED_EVERY = dt.timedelta(minutes=1)

#: What each scope lets a token do, as the needs of ``clubs.access``.
SCOPE_NEEDS: dict[str, frozenset[str]] = {
    Scope.READ: frozenset({"read", "member"}),
    Scope.SCORE: frozenset({"read", "member", "play", "score"}),
    Scope.ADMIN: frozenset({"read", "member", "play", "score", "manage"}),
}
#: The least scope that allows a need.
NEED_SCOPE: dict[str, str] = {
    "read": Scope.READ,
    "member": Scope.READ,
    "play": Scope.SCORE,
    "score": Scope.SCORE,
    "manage": Scope.ADMIN,
}

NAME_NEEDED = _("Give the token a name, to know it by later.")
NAME_TOO_LONG = _("A token's name is at most 60 characters.")
UNKNOWN_SCOPE = _("Choose a scope: read, score or admin.")
TOO_MANY = _("You have {count} tokens, the most one member may hold: revoke one first.")
NO_SUCH_TOKEN = _("You have no such token.")
SCOPE_TOO_LOW = _(
    "This token's scope is {scope}: this needs a token with the {needed} scope{role}."
)
SCOPE_ROLE = _(" and the {role} role in this club (or a higher one)")
OWN_ACCOUNT_WRITES = _(
    "This token's scope is {scope}: changing your own settings or tokens needs a token with "
    "the admin scope (or the site, logged in)."
)


class TokenError(ServiceError):
    pass


class InsufficientScope(exceptions.PermissionDenied):
    """403: the member's role would allow this, the token's scope does not."""

    default_code = "insufficient_scope"


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def is_api_key(key: str) -> bool:
    """A key of a member's API token (not an older DRF token's)."""
    return key.startswith(KEY_PREFIX)


def tokens_of(*, user: Any) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


@transaction.atomic
def token_create(*, user: Any, name: str, scope: str) -> tuple[ApiToken, str]:
    """A new token for ``user``; answers it and its key, which is never shown again."""
    name = (name or "").strip()
    errors = []
    if not name:
        errors.append({"field": "name", "message": str(NAME_NEEDED)})
    elif len(name) > 60:
        errors.append({"field": "name", "message": str(NAME_TOO_LONG)})
    if scope not in SCOPE_NEEDS:
        errors.append({"field": "scope", "message": str(UNKNOWN_SCOPE)})
    if errors:
        raise TokenError(errors)
    # The member's row locked: two requests at once cannot both take the last place.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    count = ApiToken.objects.filter(user=user).count()
    if count >= MAX_TOKENS:
        raise TokenError.one("", str(TOO_MANY).format(count=count), kind=CONFLICT)
    key = KEY_PREFIX + secrets.token_urlsafe(30)
    token = ApiToken.objects.create(
        user=user, name=name, scope=scope, prefix=key[:PREFIX_LENGTH], digest=digest(key)
    )
    return token, key


def token_revoke(*, user: Any, token_id: Any) -> None:
    """The member's own token stops working at once (its row is deleted)."""
    deleted, _count = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise TokenError.one("id", str(NO_SUCH_TOKEN), kind=NOT_FOUND)


def token_touch(token: ApiToken) -> None:
    """Record that the token was used, at most once a minute."""
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


# --- the scope in force -----------------------------------------------------------------


def scope_of(request: Any) -> str | None:
    """The scope of the request's API token, None without one (session, older tokens)."""
    auth = getattr(request, "auth", None)
    return auth.scope if isinstance(auth, ApiToken) else None


@dataclass(frozen=True)
class ScopedAccess(ClubAccess):
    """A club access capped by a token's scope: ``can`` is the role's and the scope's."""

    scope: str = Scope.ADMIN

    def can(self, need: Need) -> bool:
        return super().can(need) and need in SCOPE_NEEDS[self.scope]

    def role_can(self, need: Need) -> bool:
        """What the member's role would allow without the token's cap."""
        return super().can(need)


def scoped(access: ClubAccess, scope: str | None) -> ClubAccess:
    """``access`` capped by ``scope`` (unchanged without a scope, or for ``admin``)."""
    if scope is None or scope == Scope.ADMIN:
        return access
    return ScopedAccess(
        club=access.club,
        membership=access.membership,
        by_key=access.by_key,
        table=access.table,
        scope=scope,
    )


def scope_refusal(scope: str, need: Need) -> str:
    role = NEED_ROLE.get(need)
    role_part = str(SCOPE_ROLE).format(role=str(role.label).lower()) if role is not None else ""
    return str(SCOPE_TOO_LOW).format(scope=scope, needed=NEED_SCOPE[need], role=role_part)


def check_scope(access: ClubAccess, need: Need) -> None:
    """403 ``insufficient_scope`` when the role allows ``need`` and the token's scope not."""
    if isinstance(access, ScopedAccess) and not access.can(need) and access.role_can(need):
        raise InsufficientScope(scope_refusal(access.scope, need))


class OwnAccountScope(permissions.BasePermission):
    """A member's own settings and tokens: any token reads them; writes take the admin
    scope (or the session)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        scope = scope_of(request)
        if scope in (None, Scope.ADMIN) or request.method in permissions.SAFE_METHODS:
            return True
        raise InsufficientScope(str(OWN_ACCOUNT_WRITES).format(scope=scope))
