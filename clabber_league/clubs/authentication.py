"""The API's token authentication, reading the club of the URL in the same query.

Every club-scoped API request reads the caller's token with its user, then the club of the
URL with the caller's membership (``clubs.access.club_access``). Where the URL names a club
(``club_slug``), :class:`ClubTokenAuthentication` reads all four in one hand-written
statement: the token, joined to its user, with the club by slug and the user's membership
in it. ``clubs.api_base.ClubScopedMixin`` then takes that club and membership
(``request.club_found``) instead of asking again. Anywhere else it is DRF's
``TokenAuthentication``, unchanged.

A member's own API token (``clubs.tokens``: ``clb_...``, scoped, stored as its SHA-256) is
found by its digest the same way, in the same one statement; its scope is then the request's
``auth.scope``, which ``ClubScopedMixin`` applies to the club access. Any other key is a
DRF token's, as before.

What a token opens does not change: an unknown (or revoked: deleted) token is 401 "Invalid
token.", an inactive user's is 401 "User inactive or deleted.", as DRF answers; the club
and the membership then decide as ever (404 for a club the caller may not read, 403 for a
role too low). A club that does not exist reads as no club, so a bad token is still 401
before any 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token

from clabber_league.core.throttling import RATE_KEY_ATTRIBUTE

from . import store, tokens
from .access import ClubFound
from .models import ApiToken

#: Where the club and membership read with the token wait for ``ClubScopedMixin``.
FOUND_ATTRIBUTE = "club_found"


#: The schemes a token is sent with: DRF's ``Token`` and RFC 6750's ``Bearer``, the same key.
KEYWORDS = (b"token", b"bearer")


class ClubTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>`` or ``Authorization: Bearer <key>`` (the same key);
    on a club's URL, the club and membership come with it."""

    def authenticate(self, request: Any) -> tuple[Any, Token] | None:
        self.request = request  # authenticators are made for each request
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() not in KEYWORDS:
            return None
        if len(auth) == 1:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. No credentials provided.")
            )
        if len(auth) > 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain spaces.")
            )
        try:
            key = auth[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain invalid characters.")
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token | ApiToken]:
        request = getattr(self, "request", None)  # None: called without authenticate()
        slug = _club_slug(request)
        if tokens.is_api_key(key):
            return self._api_token(request, slug, key)
        if slug is None or self.get_model() is not Token:
            return super().authenticate_credentials(key)
        found_row = store.token_with_club(key=key, slug=slug)
        if found_row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token, club, membership = found_row
        user = token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        found = ClubFound(slug=slug, user_id=user.pk, club=club, membership=membership)
        setattr(request, FOUND_ATTRIBUTE, found)
        return user, token

    def _api_token(self, request: Any, slug: str | None, key: str) -> tuple[Any, ApiToken]:
        """A member's API token by its digest (with the club and membership on a club's
        URL, one statement); it counts its own rate limit and when it was last used."""
        if slug is None:
            token = ApiToken.objects.select_related("user").filter(digest=tokens.digest(key))
            token = token.first()
            if token is None:
                raise exceptions.AuthenticationFailed(_("Invalid token."))
            user = token.user
        else:
            found_row = store.api_token_with_club(digest=tokens.digest(key), slug=slug)
            if found_row is None:
                raise exceptions.AuthenticationFailed(_("Invalid token."))
            token, club, membership = found_row
            user = token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if slug is not None:
            found = ClubFound(slug=slug, user_id=user.pk, club=club, membership=membership)
            setattr(request, FOUND_ATTRIBUTE, found)
        if request is not None:  # each token its own rate limit (core.throttling)
            django_request = getattr(request, "_request", request)
            setattr(django_request, RATE_KEY_ATTRIBUTE, f"token:{token.pk}")
        tokens.token_touch(token)
        return user, token


class ClubTokenScheme(OpenApiAuthenticationExtension):
    """The schema's ``tokenAuth``: a member's API token as an RFC 6750 Bearer token."""

    target_class = "clabber_league.clubs.authentication.ClubTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "clb_ and 40 characters",
            "description": "A member's API token: `Authorization: Bearer <token>` (or `Token "
            "<token>`, as older clients send it). A member makes one on their settings page "
            "(/me/settings/, API tokens) or with POST /api/me/tokens/, and sees it once. Its "
            "scope (read, score, admin) caps the member's role in every club: a request the "
            "role allows and the scope does not is 403 insufficient_scope. Keys made in the "
            "Django admin before (DRF tokens) work too, with the member's full role.",
        }


def _club_slug(request: Any) -> str | None:
    """The ``club_slug`` of the URL the request's view serves, if it has one."""
    kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
    slug = kwargs.get("club_slug")
    return slug if isinstance(slug, str) else None
