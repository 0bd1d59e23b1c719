"""A club's webhook subscriptions and what was sent to them.

A :class:`Subscription` is a URL a club admin chose and the kinds of event it wants
(``EventType``); its secret signs every delivery (Standard Webhooks: ``whsec_`` and the
key in base64) and is shown once, when the subscription is made. Each event makes one
:class:`Delivery` per subscription that wants it, holding the exact JSON sent; each try
to send it is an :class:`Attempt` (status code, duration, error), the log the admin sees.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club


class EventType(models.TextChoices):
    RESULT_CONFIRMED = "result.confirmed", _("A result is confirmed")
    FIXTURE_CHANGED = "fixture.changed", _("A fixture is moved, postponed or forfeited")
    DRAW_PUBLISHED = "draw.published", _("A club night's round is drawn")
    NIGHT_FINISHED = "night.finished", _("A club night is finished")
    TEST = "webhook.test", _("A test event (the button on the page)")


#: What a subscription may ask for (the test event is sent only when asked).
SUBSCRIBABLE = [c for c in EventType if c != EventType.TEST]


class Subscription(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=500)
    description = models.CharField(_("description"), max_length=120, blank=True)
    events = models.JSONField(_("events"), default=list)
    secret = models.CharField(max_length=64, editable=False)
    active = models.BooleanField(_("active"), default=True)
    #: Set when deliveries have failed for too long (``services.FAILING_FOR``): the
    #: subscription is paused with ``note`` saying why; resuming clears both.
    disabled_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    #: The first failed delivery since the last one that got through.
    failing_since = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("webhook subscription")

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENDING = "sending", _("Being sent")
        RETRYING = "retrying", _("Failed, will be tried again")
        SUCCEEDED = "succeeded", _("Delivered")
        FAILED = "failed", _("Failed, given up")

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    #: The event's id (``webhook-id``): the same for every try, so receivers can dedupe.
    event_id = models.CharField(max_length=40)
    event_type = models.CharField(max_length=40, choices=EventType.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    #: Tries since it was made or last re-sent (the log, ``Attempt``, keeps every try).
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    #: When a worker took it (status ``sending``); a claim older than the timeout is stale.
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhooks_due")]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id}"

    @property
    def payload_json(self) -> str:
        """The body as the page shows it (the one sent is compact)."""
        return json.dumps(self.payload, indent=2, ensure_ascii=False)


class Attempt(models.Model):
    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="log")
    number = models.PositiveSmallIntegerField()
    at = models.DateTimeField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["delivery", "number"]

    def __str__(self) -> str:
        return f"try {self.number}: {self.status_code or self.error}"

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300
