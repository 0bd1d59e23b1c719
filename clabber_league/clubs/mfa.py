"""A club that requires two-factor sign-in of its admins (``Club.admins_need_mfa``): an
admin of it without an authenticator app (allauth.mfa's TOTP) is sent to set one up before
any admin action, on the pages (``club_view``) and in the API (``ClubPermission``, 403)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from .access import ClubAccess
from .models import Role

MFA_REQUIRED = gettext_noop(
    "This club requires its admins to sign in with two-factor authentication: set up an "
    "authenticator app on your account first."
)


def admin_needs_mfa_setup(access: ClubAccess, user: Any) -> bool:
    """Whether ``user``, an admin of a club that requires two-factor sign-in of its admins,
    has not set up an authenticator app yet (then no admin action is allowed)."""
    if not access.club.admins_need_mfa or access.by_key:
        return False
    if access.membership is None or access.membership.role != Role.ADMIN:
        return False
    return not user_has_totp(user)


MFA_SELF_FIRST = gettext_noop(
    "Set up two-factor sign-in on your own account first: then require it of the club's admins."
)
MFA_NOT_ADMIN = gettext_noop("Only a club admin changes this.")


def user_has_totp(user: Any) -> bool:
    from allauth.mfa.models import Authenticator

    return Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()


def club_admins_need_mfa_set(*, access: ClubAccess, user: Any, required: bool) -> Any:
    """Require (or stop requiring) two-factor sign-in of the club's admins. The admin who
    turns it on must have it already (else the club's admin pages would send them away)."""
    from clabber_league.core.errors import FORBIDDEN, ServiceError

    if access.membership is None or access.membership.role != Role.ADMIN:
        raise ServiceError.one("admins_need_mfa", MFA_NOT_ADMIN, kind=FORBIDDEN)
    if required and not user_has_totp(user):
        raise ServiceError.one("admins_need_mfa", MFA_SELF_FIRST)
    club = access.club
    club.admins_need_mfa = required
    club.save(update_fields=["admins_need_mfa"])
    return club
