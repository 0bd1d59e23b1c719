"""django-allauth, fitted to the club: accounts are made from invitations.

Sign-up is open to anyone while ``CLABBER_SIGNUP_OPEN`` is on (to create a club of their
own); otherwise only to someone holding an invitation link that can still be used (the
join page puts its key in the session). An invitation link creates at most one account
(claimed in the same transaction as the new account, so two sign-ups racing one link make
one account). Everything else about accounts (passwords,
reset links, email confirmation) is allauth's.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.mfa.adapter import DefaultMFAAdapter

SESSION_KEY = "members_invitation_key"


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: Any) -> bool:
        from django.conf import settings

        from .services import invitation_open_for_signup

        if settings.CLABBER_SIGNUP_OPEN:  # anyone may sign up to create a club of their own
            return True

        key = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        if not key:
            return False
        return invitation_open_for_signup(key=key)

    def save_user(self, request: Any, user: Any, form: Any, commit: bool = True) -> Any:
        """The new account, recorded on the invitation whose link made it; refused (and not
        made) when that link already made one."""
        from allauth.core.exceptions import ImmediateHttpResponse
        from django.db import transaction
        from django.shortcuts import render

        from .services import MemberError, invitation_signup_claim

        key = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        if not commit or not key:
            return super().save_user(request, user, form, commit=commit)
        try:
            with transaction.atomic():
                saved = super().save_user(request, user, form, commit=True)
                invitation_signup_claim(key=key, user=saved)
        except MemberError as exc:
            request.session.pop(SESSION_KEY, None)
            message = exc.errors[0]["message"]
            response = render(request, "members/join_refused.html", {"message": message})
            response.status_code = 409
            raise ImmediateHttpResponse(response) from exc
        return saved

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """allauth's emails (confirm your address, reset your password) in the reader's
        own language when they chose one (``MemberProfile.language``), as the site's other
        emails are; else in the page's, which chose the club's or the browser's."""
        from django.utils import translation

        from .services import recipient_language

        language = recipient_language(email=email)
        if not language:
            return super().send_mail(template_prefix, email, context)
        with translation.override(language):
            return super().send_mail(template_prefix, email, context)

    def get_signup_redirect_url(self, request: Any) -> str:
        return self._back_to_invitation(request) or super().get_signup_redirect_url(request)

    def _back_to_invitation(self, request: Any) -> str | None:
        from django.urls import reverse

        key = request.session.get(SESSION_KEY)
        return reverse("members:join", kwargs={"key": key}) if key else None


class MFAAdapter(DefaultMFAAdapter):
    """allauth's two-factor sign-in, its QR code drawn by segno (the site's QR library)."""

    def build_totp_svg(self, url: str) -> str:
        """A standalone SVG (allauth shows it as an ``img`` of a data URI)."""
        import io

        import segno

        out = io.BytesIO()
        segno.make(url, error="m").save(
            out, kind="svg", xmldecl=False, scale=4, border=2, dark="#000", light="#fff"
        )
        return out.getvalue().decode("utf-8")
