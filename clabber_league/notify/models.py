"""Notifications as they are stored: what each member chose, their devices, and what was sent.

* ``NotifySettings``: one row per member with a login (made when they first save): per
  kind of notification the channels they want (``push``, ``email``), and their quiet hours.
  A member with no row has the defaults (:data:`DEFAULT_CHANNELS`).
* ``PushSubscription``: one browser or phone that agreed to receive web push (its
  endpoint and keys, as the browser's Push API gives them). An endpoint answering 404 or
  410 is gone and its row is deleted.
* ``Notification``: one message to one member, written in their language when it is
  recorded, sent by a task once the write that caused it commits (``services``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club


class Kind(models.TextChoices):
    TABLE = "table", _("Your table and seat for the next round")
    ACCEPTANCE = "acceptance", _("A result awaiting your acceptance")
    FIXTURE = "fixture", _("Your fixture moved")
    DRAW = "draw", _("The draw is out")
    RESULTS = "results", _("The night's results")


class Channel(models.TextChoices):
    PUSH = "push", _("Push")
    EMAIL = "email", _("Email")


#: What a member who never saved their choices gets: push for everything (nothing arrives
#: until they turn push on for a device), email only for a moved fixture.
DEFAULT_CHANNELS: dict[str, list[str]] = {
    Kind.TABLE: [Channel.PUSH],
    Kind.ACCEPTANCE: [Channel.PUSH],
    Kind.FIXTURE: [Channel.PUSH, Channel.EMAIL],
    Kind.DRAW: [Channel.PUSH],
    Kind.RESULTS: [Channel.PUSH],
}

#: Inside quiet hours these kinds are dropped (by morning the round is long over); the
#: others wait until the quiet hours end.
DROPPED_WHEN_QUIET = frozenset({Kind.TABLE, Kind.DRAW})


class NotifySettings(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_settings"
    )
    #: kind -> the channels chosen for it ("push", "email"); a kind missing: its default.
    channels = models.JSONField(default=dict)
    #: Quiet hours in the club's time zone of each notification; both empty: none. A start
    #: after the end spans midnight (22:00 to 07:00).
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "notify settings"

    def __str__(self) -> str:
        return f"Notification settings of {self.user}"

    def chosen(self, kind: str) -> list[str]:
        if kind in (self.channels or {}):
            return list(self.channels[kind])
        return list(DEFAULT_CHANNELS.get(kind, []))


class PushSubscription(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    #: A name the member recognises the device by (its browser's, shortened).
    label = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"Push device {self.pk} of {self.user}"

    def info(self) -> dict:
        """As pywebpush takes it (the Push API's ``PushSubscription.toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Notification(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        HELD = "held", "Held for the end of quiet hours"
        DROPPED = "dropped", "Dropped (quiet hours)"
        NOTHING = "nothing", "Nothing to send (no channel chosen or reachable)"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    #: The club it is about (None: a test from the settings page).
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    #: One of ``Kind``, or "test" (the settings page's button: push only, never quiet).
    kind = models.CharField(max_length=12)
    #: Written in the member's language when recorded.
    title = models.CharField(max_length=200)
    body = models.TextField(max_length=2000)
    url = models.CharField(max_length=500, blank=True)
    language = models.CharField(max_length=12, blank=True)
    #: What one cause sends once: a repeated hook (a draw published again) sends nothing new.
    key = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    due_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    #: What went out: {"push": n devices reached, "email": 0/1, "removed": n gone devices}.
    outcome = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once_per_cause")
        ]
        indexes = [models.Index(fields=["status", "due_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user}: {self.title}"
