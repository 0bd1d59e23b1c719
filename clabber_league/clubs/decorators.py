"""Page views of a club: the club comes from the URL and is checked once."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from .access import Need, club_access

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def club_view(need: Need = "read", *, write: Need | None = None) -> Callable:
    """Resolve ``club_slug`` into ``request.club_access`` and require ``need`` (and
    ``write`` for a POST or any other unsafe method: a page anyone may read whose form only
    club admins may send is ``club_view("read", write="manage")``).

    Anonymous visitors who need more than ``read`` go to the login page; members whose
    role is too low get 403; a club they may not read is 404.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(
            request: HttpRequest, club_slug: str, *args: Any, **kwargs: Any
        ) -> HttpResponse:
            required = need
            if write is not None and request.method not in SAFE_METHODS:
                required = write
            if required != "read" and not request.user.is_authenticated:
                if write is not None:  # the page's club must be readable first: else 404
                    club_access(slug=club_slug, user=request.user)
                return redirect_to_login(request.get_full_path())
            access = club_access(slug=club_slug, user=request.user)
            if not access.can(required):
                raise PermissionDenied("Your role in this club does not allow this.")
            request.club_access = access  # type: ignore[attr-defined]
            request.club = access.club  # type: ignore[attr-defined]
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
