"""Fixtures: which teams meet, in which round, on which night, at which table."""

from django.db import models

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import Division, Team


class Venue(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="venues")
    name = models.CharField(max_length=120)
    tables = models.PositiveSmallIntegerField(default=4)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="venue_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYED = "played", "Played"
        POSTPONED = "postponed", "Postponed"
        FORFEIT = "forfeit", "Forfeit"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    round_number = models.PositiveIntegerField()
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_fixtures")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_fixtures")
    date = models.DateField(null=True, blank=True)
    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.SET_NULL, related_name="fixtures"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    games_planned = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)

    class Meta:
        ordering = ["division", "round_number", "table", "id"]
        indexes = [models.Index(fields=["division", "round_number"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="fixture_not_against_itself"
            )
        ]

    def __str__(self) -> str:
        return f"R{self.round_number}: {self.home} v {self.away}"
