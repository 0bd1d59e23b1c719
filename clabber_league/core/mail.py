"""Email as the service sends it: one template pair, a plain-text and an HTML body.

Every email (invitations, dispute notices, reminders; allauth's own account mails use
the same convention) is rendered from ``<name>.txt`` and ``<name>.html`` and sent
through Django's email backend, so the SMTP settings of the environment apply and the
tests read ``django.core.mail.outbox``.

Links in emails are absolute (``site_url``): from the ``CLABBER_SITE_URL`` setting (the
site's public address, e.g. ``https://league.example.org``), else from the request that
caused the email. A reminder sent by celery beat has no request, so production sets
``CLABBER_SITE_URL`` (docs/production.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def site_url(path: str, *, request: Any = None) -> str:
    """``path`` as an absolute URL for an email: on ``CLABBER_SITE_URL`` when it is set
    (the address members reach from home, not a LAN address a page happened to be opened
    with), else on the request's host, else the path alone (a development laptop)."""
    if path.startswith(("http://", "https://")):
        return path
    base = (getattr(settings, "CLABBER_SITE_URL", "") or "").rstrip("/")
    if base:
        return f"{base}{path}"
    if request is not None:
        return request.build_absolute_uri(path)
    logger.warning("email link %s has no host: set CLABBER_SITE_URL", path)
    return path


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
