"""Seasons, divisions and the teams that play in them, and the venues they play at.

A division plays one rule set: a built-in one (by its slug) or the club's own
house rules, stored as plain data (a base rule set plus options) that the rules
engine reads. A team is a partnership of two for four-handed play, three for
six-handed play, or a single player for two- and three-handed games.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player


class HouseRules(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="house_rules")
    name = models.CharField(max_length=80)
    base = models.CharField(
        max_length=40, help_text="Slug of the built-in rule set it starts from."
    )
    options = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "house rules"
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="house_rules_name_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def as_rules_data(self) -> dict[str, object]:
        return {"name": self.name, "base": self.base, "options": dict(self.options)}


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    start_date = models.DateField()
    end_date = models.DateField(null=True, blank=True)
    points_win = models.PositiveSmallIntegerField(default=2)
    points_tie = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class Division(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="divisions")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    ruleset = models.CharField(
        max_length=40, default="clabber", help_text="Built-in rule set, unless house rules are set."
    )
    house_rules = models.ForeignKey(
        HouseRules, null=True, blank=True, on_delete=models.PROTECT, related_name="divisions"
    )
    games_per_fixture = models.PositiveSmallIntegerField(default=1)

    class Withdrawal(models.TextChoices):
        WALKOVER = "walkover", _("Their later fixtures become walkovers to the opponents")
        REMOVE = "remove", _("Their later fixtures are removed")

    withdrawal_policy = models.CharField(
        max_length=10,
        choices=Withdrawal.choices,
        default=Withdrawal.WALKOVER,
        help_text="What becomes of a withdrawn team's fixtures after it withdraws.",
    )

    class Meta:
        ordering = ["season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "slug"], name="division_slug_unique")
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.name}"

    def rules_spec(self) -> str | dict[str, object]:
        """What the rules engine needs to know which rule set this division plays."""
        if self.house_rules_id:
            return self.house_rules.as_rules_data()
        return self.ruleset


class Team(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="teams")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)
    players = models.ManyToManyField(Player, through="TeamMember", related_name="teams")
    withdrawn_on = models.DateField(
        null=True,
        blank=True,
        help_text="The day it withdrew from the division; its fixtures from then on are "
        "walkovers or removed, as the division chooses. Its earlier results stand.",
    )
    carried_points = models.IntegerField(
        default=0,
        help_text="Match points carried over from before the club's results were entered "
        "here (a season already under way), or deducted (negative); added to the table's.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["division", "name"], name="team_name_unique")
        ]

    def __str__(self) -> str:
        return self.name


class Venue(models.Model):
    """A place the club plays, with its numbered tables. Fixtures (``scheduling``) are
    placed at a venue's table; the table is still called ``scheduling_venue``, where the
    model was first."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="venues")
    name = models.CharField(max_length=120)
    tables = models.PositiveSmallIntegerField(default=4)

    class Meta:
        db_table = "scheduling_venue"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="venue_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="team_memberships")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "player"], name="team_member_once"),
            models.UniqueConstraint(fields=["team", "position"], name="team_member_position"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"
