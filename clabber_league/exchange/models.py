"""A federation's imported results files and the rows kept of them (issue 34).

A :class:`ResultFile` is one file as it came (its payload, its SHA-256, who sent it); the
rows the national ranking reads are :class:`ImportedResult` (a player's placing in an
event) and :class:`ImportedGame` (who played whom at one game, for the ratings), written
from the file when it is imported. A file stays ``provisional`` until an officer closes the
:class:`Period` its event falls in; a corrected file for the same event makes the earlier
one ``replaced`` (kept, with its rows, as history). ``docs/exchange.md`` says how the
ranking is meant to read them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club
from clabber_league.federation.models import Federation, FederationPlayer


class Period(models.Model):
    """A stretch of dates whose results an officer closes: then they are final."""

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="exchange_periods"
    )
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.CheckConstraint(condition=Q(end__gte=models.F("start")), name="period_dates")
        ]

    def __str__(self) -> str:
        return f"{self.federation} {self.start} to {self.end}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class ResultFile(models.Model):
    class Kind(models.TextChoices):
        FIXTURE = "fixture", _("League fixture")
        DIVISION = "division", _("Season (a division)")
        NIGHT = "night", _("Club night")
        CUP = "cup", _("Cup")

    class Status(models.TextChoices):
        PROVISIONAL = "provisional", _("Provisional")
        FINAL = "final", _("Final")
        REPLACED = "replaced", _("Replaced")

    class Via(models.TextChoices):
        UPLOAD = "upload", _("Uploaded by an officer")
        API = "api", _("Sent through the API")

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="result_files"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="result_files")
    event_key = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=200)
    date_from = models.DateField()
    date_to = models.DateField()
    sha256 = models.CharField(max_length=64, help_text="Of the canonical JSON (docs/exchange.md).")
    version = models.PositiveSmallIntegerField(default=1, help_text="The file format's version.")
    generated_at = models.DateTimeField(null=True, blank=True)
    sender_site = models.CharField(max_length=200, blank=True)
    payload = models.JSONField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PROVISIONAL)
    flags = models.JSONField(
        default=list,
        blank=True,
        help_text='Players whose number is unknown or inactive: [{"player", "name", "number", '
        '"flag"}].',
    )
    replaced_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replaces"
    )
    via = models.CharField(max_length=8, choices=Via.choices, default=Via.UPLOAD)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finalised_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date_to", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "sha256"], name="result_file_once"),
            models.UniqueConstraint(
                fields=["federation", "club", "event_key"],
                condition=~Q(status="replaced"),
                name="result_file_one_current_per_event",
            ),
        ]
        indexes = [models.Index(fields=["federation", "status", "date_to"])]

    def __str__(self) -> str:
        return f"{self.club} {self.event_key} ({self.status})"


class Flag(models.TextChoices):
    NONE = "", _("None")
    UNKNOWN = "unknown", _("Unknown number")
    INACTIVE = "inactive", _("Inactive number")
    MERGED = "merged", _("Number merged into another")


class ImportedResult(models.Model):
    """One player's placing in one imported event: what the national ranking reads."""

    result_file = models.ForeignKey(ResultFile, on_delete=models.CASCADE, related_name="results")
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    federation_player = models.ForeignKey(
        FederationPlayer,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imported_results",
        help_text="The number's player (the kept one of a merge); none: unknown or not linked.",
    )
    number = models.CharField(max_length=20, blank=True, help_text="As the file gives it.")
    player_ref = models.CharField(max_length=40, help_text="The file's (club-local) player id.")
    player_name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=ResultFile.Kind.choices)
    date = models.DateField(help_text="The event's last day.")
    side = models.CharField(max_length=40, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    places = models.PositiveIntegerField(default=0, help_text="How many were placed.")
    score = models.FloatField(null=True, blank=True, help_text="The placing's score.")
    score_share = models.FloatField(
        null=True,
        blank=True,
        help_text="Points taken over points available at the player's tables (0..1).",
    )
    games = models.PositiveIntegerField(default=0)
    rules = models.JSONField(help_text='{"base", "name", "options"} of the event.')
    flag = models.CharField(max_length=10, choices=Flag.choices, blank=True, default="")

    class Meta:
        ordering = ["result_file", "place", "player_ref"]
        indexes = [
            models.Index(fields=["federation", "federation_player", "date"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_name} {self.place} in {self.result_file}"


class ImportedGame(models.Model):
    """One game of an imported event, its sides by federation player (for the ratings)."""

    result_file = models.ForeignKey(ResultFile, on_delete=models.CASCADE, related_name="games")
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    game_ref = models.CharField(max_length=40)
    date = models.DateField()
    rules = models.JSONField()
    sides = models.JSONField(
        help_text='[{"side", "players": [federation player id or null], "refs", "score", "rank"}]'
    )

    class Meta:
        ordering = ["result_file", "date", "game_ref"]

    def __str__(self) -> str:
        return f"{self.game_ref} of {self.result_file}"
