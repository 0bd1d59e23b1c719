"""Page views of a club: the club comes from the URL and is checked once."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext

from .access import Need, TableGrant, club_access
from .locale import club_locale, club_locale_stream, pick_language
from .mfa import MFA_REQUIRED, admin_needs_mfa_setup

#: A view's table-link check (``club_view(table=...)``): the grant that the request carries
#: for this view's object, or None; raises ``PermissionDenied`` with the reason for a link
#: that no longer works. The games app provides it (``games.table_links.page_grant``).
TableCheck = Callable[..., TableGrant | None]

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def club_view(
    need: Need = "read", *, write: Need | None = None, table: TableCheck | None = None
) -> Callable:
    """Resolve ``club_slug`` into ``request.club_access`` and require ``need`` (and
    ``write`` for a POST or any other unsafe method: a page anyone may read whose form only
    club admins may send is ``club_view("read", write="manage")``).

    Anonymous visitors who need more than ``read`` go to the login page; members whose
    role is too low get 403; a club they may not read is 404. An admin of a club that
    requires two-factor sign-in of its admins, without it, is sent to set it up first.

    ``table`` lets a table link stand in for an account on the views of one game: it is
    called with the request, the club's slug and the view's arguments, and its grant is
    passed to ``club_access`` (which checks the club).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(
            request: HttpRequest, club_slug: str, *args: Any, **kwargs: Any
        ) -> HttpResponse:
            required = need
            if write is not None and request.method not in SAFE_METHODS:
                required = write
            grant = table(request, club_slug, *args, **kwargs) if table is not None else None
            refusal = grant.refusal if grant is not None else ""
            granted = grant is not None and not refusal
            if required != "read" and not request.user.is_authenticated and not granted:
                if refusal:  # the phone's table link stopped working: say why
                    raise PermissionDenied(refusal)
                if write is not None:  # the page's club must be readable first: else 404
                    club_access(slug=club_slug, user=request.user)
                return redirect_to_login(request.get_full_path())
            try:
                access = club_access(slug=club_slug, user=request.user, table=grant)
            except Http404:
                if refusal:
                    raise PermissionDenied(refusal) from None
                raise
            if not access.can(required):
                raise PermissionDenied(
                    refusal or access.refusal("Your role in this club does not allow this.")
                )
            if required == "manage" and admin_needs_mfa_setup(access, request.user):
                messages.info(request, gettext(MFA_REQUIRED))
                return redirect("mfa_activate_totp")
            request.club_access = access  # type: ignore[attr-defined]
            request.club = access.club  # type: ignore[attr-defined]
            # The member's own language (a visitor's from the switcher), else the club's,
            # else the browser's (site.locale.LanguageMiddleware read the first and last).
            language = pick_language(
                getattr(request, "language_choice", ""),
                access.club.language,
                getattr(request, "language_browser", ""),
            )
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
            with club_locale(access.club, language=language):  # "today", times and words
                response = view(request, *args, **kwargs)
            return club_locale_stream(access.club, response, language=language)

        return wrapper

    return decorator
