"""The API's token authentication, reading the club of the URL in the same query.

Every club-scoped API request reads the caller's token with its user, then the club of the
URL with the caller's membership (``clubs.access.club_access``). Where the URL names a club
(``club_slug``), :class:`ClubTokenAuthentication` reads all four in one hand-written
statement: the token, joined to its user, with the club by slug and the user's membership
in it. ``clubs.api_base.ClubScopedMixin`` then takes that club and membership
(``request.club_found``) instead of asking again. Anywhere else it is DRF's
``TokenAuthentication``, unchanged.

What a token opens does not change: an unknown (or revoked: deleted) token is 401 "Invalid
token.", an inactive user's is 401 "User inactive or deleted.", as DRF answers; the club
and the membership then decide as ever (404 for a club the caller may not read, 403 for a
role too low). A club that does not exist reads as no club, so a bad token is still 401
before any 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token

from . import store
from .access import ClubFound

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

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        request = getattr(self, "request", None)  # None: called without authenticate()
        slug = _club_slug(request)
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


def _club_slug(request: Any) -> str | None:
    """The ``club_slug`` of the URL the request's view serves, if it has one."""
    kwargs = (getattr(request, "parser_context", None) or {}).get("kwargs") or {}
    slug = kwargs.get("club_slug")
    return slug if isinstance(slug, str) else None
