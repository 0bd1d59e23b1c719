"""Email as the service sends it: one template pair, a plain-text and an HTML body.

Every email (invitations, dispute notices, reminders; allauth's own account mails use
the same convention) is rendered from ``<name>.txt`` and ``<name>.html`` and sent
through Django's email backend, so the SMTP settings of the environment apply and the
tests read ``django.core.mail.outbox``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.template.loader import render_to_string


def mail_send(
    *,
    to: Sequence[str],
    subject: str,
    template: str,
    context: dict[str, Any],
    connection: BaseEmailBackend | None = None,
) -> int:
    """Send one email to ``to``: ``template``.txt as the text, ``template``.html beside it.

    ``connection`` lets a batch (a night's reminders) share one open SMTP connection."""
    recipients = [address for address in to if address]
    if not recipients:
        return 0
    text = render_to_string(f"{template}.txt", context)
    html = render_to_string(f"{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject.replace("\r", " ").replace("\n", " "),
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=recipients,
        connection=connection,
    )
    message.attach_alternative(html, "text/html")
    return message.send(fail_silently=False)
