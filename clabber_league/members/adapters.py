"""django-allauth, fitted to the club: accounts are made from invitations.

Sign-up is open to anyone while ``CLABBER_SIGNUP_OPEN`` is on (to create a club of their
own); otherwise only to someone holding an invitation link that can still be used (the
join page puts its key in the session). Everything else about accounts (passwords,
reset links, email confirmation) is allauth's.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter

SESSION_KEY = "members_invitation_key"


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: Any) -> bool:
        from django.conf import settings

        from .services import MemberError, invitation_from_key

        if settings.CLABBER_SIGNUP_OPEN:  # anyone may sign up to create a club of their own
            return True

        key = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        if not key:
            return False
        try:
            invitation_from_key(key=key)
        except MemberError:
            return False
        return True

    def get_signup_redirect_url(self, request: Any) -> str:
        return self._back_to_invitation(request) or super().get_signup_redirect_url(request)

    def _back_to_invitation(self, request: Any) -> str | None:
        from django.urls import reverse

        key = request.session.get(SESSION_KEY)
        return reverse("members:join", kwargs={"key": key}) if key else None
