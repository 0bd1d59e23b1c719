"""The base of every club-scoped API view.

The club comes from the URL (``/api/clubs/<club_slug>/...``), is looked up and
checked once in ``initial()`` (read with the caller's token when one is sent:
``clubs.authentication``), and every queryset starts from it. Safe methods
need ``read``; writes need the view's ``write_need`` (``score`` or ``manage``).
A member's API token caps what the role allows by its scope (``clubs.tokens``).
"""

import contextlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import permissions, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request

from clabber_league.core.rows import MAX_ID

from . import tokens
from .access import NEED_ROLE, NOT_FOUND, ClubAccess, Need, TableGrant, club_access
from .authentication import FOUND_ATTRIBUTE
from .locale import club_locale, club_locale_stream
from .mfa import MFA_REQUIRED, admin_needs_mfa_setup

CLUB_PARAMETER = OpenApiParameter(
    "club_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's slug."
)
NEEDS_ROLE = "Your role in this club does not allow this."
NEEDS_THE_ROLE = "This needs the {role} role in this club (or a higher one); yours is {yours}."
NOT_APPROVED = "This club is waiting for the operator's approval; nothing can be changed yet."


def role_refusal(access: ClubAccess, need: Need) -> str:
    """Why ``access`` may not do what ``need`` asks: the role it takes, and the caller's."""
    role = NEED_ROLE.get(need)
    if role is None:
        return NEEDS_ROLE
    membership = access.membership
    if membership is not None and membership.has_role(role) and not access.club.is_approved:
        return NOT_APPROVED
    yours = membership.get_role_display() if membership is not None else "none (not a member)"
    return NEEDS_THE_ROLE.format(role=str(role.label).lower(), yours=str(yours).lower())


class ClubPermission(permissions.BasePermission):
    """Reads need ``read``; writes need the view's ``write_need``."""

    def has_permission(self, request: Request, view: Any) -> bool:
        access: ClubAccess = view.club_access
        need: Need = "read" if request.method in permissions.SAFE_METHODS else view.write_need
        tokens.check_scope(access, need)  # the role would; the token's scope does not
        if not access.can(need):
            if not request.user.is_authenticated:
                return False  # DRF answers 401/403 for anonymous users
            raise PermissionDenied(access.refusal(role_refusal(access, need)))
        if need == "manage" and admin_needs_mfa_setup(access, request.user):
            raise PermissionDenied(MFA_REQUIRED)
        return True


class ClubScopedMixin:
    """Resolves ``self.club`` from the URL once per request."""

    write_need: Need = "manage"
    permission_classes = [ClubPermission]
    club_access: ClubAccess
    #: A table-link check for the views of one game (``games.table_links.api_grant``):
    #: called with the view, the request and the URL's arguments, it answers the grant the
    #: request's ``Authorization: Table <token>`` carries, or None.
    table_grant: Callable[..., TableGrant | None] | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        for name, value in kwargs.items():
            # An id past any database's integer is "not found", never an overflow.
            is_id = name == "pk" or name.endswith("_id")
            if is_id and str(value).isdigit() and int(value) > MAX_ID:
                raise NotFound(NOT_FOUND)
        grant = self.table_grant(request, kwargs) if self.table_grant else None
        try:
            self.club_access = club_access(
                slug=kwargs.get("club_slug", ""),
                user=request.user,
                table=grant,
                found=getattr(request, FOUND_ATTRIBUTE, None),  # read with the token
            )
        except Http404 as exc:
            raise NotFound(NOT_FOUND) from exc
        self.club_access = tokens.scoped(self.club_access, tokens.scope_of(request))
        # The club's time zone until the response is finalized; the API keeps English
        # messages (with stable codes) whatever the club's or the caller's language.
        self._club_locale = contextlib.ExitStack()
        self._club_locale.enter_context(
            club_locale(self.club_access.club, language=settings.LANGUAGE_CODE)
        )
        super().initial(request, *args, **kwargs)  # type: ignore[misc]

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any):
        try:
            response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        finally:
            stack = self.__dict__.pop("_club_locale", None)
            if stack is not None:
                stack.close()
        if stack is not None:  # a CSV streamed after the view: in the club's zone too
            club_locale_stream(self.club_access.club, response, language=settings.LANGUAGE_CODE)
        return response

    @property
    def club(self):
        return self.club_access.club

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()  # type: ignore[misc]
        context["club"] = self.club_access.club if hasattr(self, "club_access") else None
        return context


class ClubScopedModelViewSet(ClubScopedMixin, viewsets.ModelViewSet):
    """A model viewset whose queryset is ``queryset_for_club(club)``."""

    def queryset_for_club(self, club) -> QuerySet:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no club
            return self.queryset
        return self.queryset_for_club(self.club)


class ClubScopedReadOnlyViewSet(ClubScopedMixin, viewsets.ReadOnlyModelViewSet):
    def queryset_for_club(self, club) -> QuerySet:
        raise NotImplementedError

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no club
            return self.queryset
        return self.queryset_for_club(self.club)
