"""Page views of a federation: the federation comes from the URL and is checked once
(``access.federation_access``), as ``clubs.decorators.club_view`` does for a club."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from .access import Need, federation_access
from .services import errors as E


def federation_view(need: Need = "read") -> Callable:
    """Resolve ``federation_slug`` into ``request.federation_access`` and require ``need``.
    A federation the person may not read is 404; an anonymous visitor who needs more goes
    to the login page; a person without the role gets 403."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(
            request: HttpRequest, federation_slug: str, *args: Any, **kwargs: Any
        ) -> HttpResponse:
            access = federation_access(slug=federation_slug, user=request.user)
            if not access.can(need):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied(
                    gettext(E.NEEDS_ADMIN if need == "admin" else E.NEEDS_OFFICER)
                )
            request.federation_access = access  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
