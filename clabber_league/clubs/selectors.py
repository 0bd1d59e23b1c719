"""Reading clubs and memberships; every other app asks here who may see what."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from .models import Club, Membership


def clubs_for_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club]:
    """The clubs a person may look at: their own, and every public club."""
    if user.is_authenticated:
        return Club.objects.filter(Q(memberships__user=user) | Q(is_public=True)).distinct()
    return Club.objects.filter(is_public=True)


def clubs_of_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Club]:
    """The clubs a person belongs to (none for a visitor)."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user).distinct()


def public_clubs(*, search: str = "") -> QuerySet[Club]:
    """Public clubs, by name, optionally those whose name or city contains ``search``."""
    clubs = Club.objects.filter(is_public=True)
    if search:
        clubs = clubs.filter(Q(name__icontains=search) | Q(city__icontains=search))
    return clubs.order_by("name")


def membership_get(*, club: Club, user: AbstractBaseUser | AnonymousUser) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def clubs_exist() -> bool:
    """Whether the site has any club yet (a fresh install starts with "create your club")."""
    return Club.objects.exists()
