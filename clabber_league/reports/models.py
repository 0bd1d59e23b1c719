"""The night's report as it is stored: one per club night, league night or cup round.

``generated`` is what the writer made from the numbers (kept, so the secretary can go back
to it); ``title`` and ``body`` are what is published, edited or not. A club whose
``ReportSettings.needs_approval`` is on publishes nothing until its secretary approves.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club


class ReportSettings(models.Model):
    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="report_settings")
    needs_approval = models.BooleanField(
        _("reports wait for the secretary's approval"),
        default=False,
        help_text=_("On: a report is published only once a club admin approves it."),
    )

    def __str__(self) -> str:
        return f"Report settings of {self.club}"


class Report(models.Model):
    class Kind(models.TextChoices):
        NIGHT = "night", _("Club night")
        LEAGUE = "league", _("League night")
        CUP = "cup", _("Cup round")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Awaiting approval")
        PUBLISHED = "published", _("Published")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    #: What it reports on, once: "night:<event id>", "league:<date>", "cup:<cup id>:<round>".
    key = models.CharField(max_length=60)
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    date = models.DateField(null=True, blank=True)
    language = models.CharField(max_length=12, blank=True)
    title = models.CharField(max_length=200)
    body = models.TextField(max_length=20000)
    generated_title = models.CharField(max_length=200)
    generated = models.TextField(max_length=20000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["club", "key"], name="report_once")]
        indexes = [models.Index(fields=["club", "status", "-published_at"])]

    def __str__(self) -> str:
        return self.title

    @property
    def published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    @property
    def edited(self) -> bool:
        return self.body != self.generated or self.title != self.generated_title
