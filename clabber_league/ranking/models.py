"""The national ranking of a federation (issue 34) and its inter-club competitions.

The ranking is recomputed whole from the results (``services.ranking_recompute``): the
ratings (:class:`NationalRating`), the events rated (:class:`RankedEvent`) and each
player's history (:class:`RatingStep`, one row per player and event, before and after)
are derived rows, thrown away and written again, never edited by hand. What is kept is the
federation's choice of how the ranking is shown and what a placing is worth
(:class:`RankingSettings`).

Inter-club competitions live in the federation's organiser club space
(:class:`OrganiserSpace`: a ``clubs.Club`` row the federation owns) and name each team's
home club (:class:`InterclubTeam`); see ``interclub.py``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club
from clabber_league.cups.models import Cup, Entrant
from clabber_league.events.models import Event, Series
from clabber_league.federation.models import Federation, FederationPlayer
from clabber_league.leagues.models import HouseRules, Team, Venue


class RankingSettings(models.Model):
    """How a federation shows its ranking and what a placing is worth."""

    class Private(models.TextChoices):
        ANONYMISE = "anonymise", _("Shown without their name")
        HIDE = "hide", _("Left out of the public list")

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, related_name="ranking_settings"
    )
    private_players = models.CharField(
        _("players who keep their profile private"),
        max_length=10,
        choices=Private.choices,
        default=Private.ANONYMISE,
    )
    placing_points = models.JSONField(
        _("points per placing by event category"),
        default=dict,
        blank=True,
        help_text=_(
            "Points for the 1st, 2nd, ... placing of each kind of event, e.g. "
            '{"night": [5, 3, 2, 1], "league": [2, 1]}. Empty: no placing points.'
        ),
    )
    dirty_since = models.DateField(
        null=True,
        blank=True,
        editable=False,
        help_text="The earliest date of a result changed since the last recomputation "
        "started: the next one replays from there.",
    )
    dirty_all = models.BooleanField(
        default=False, editable=False, help_text="The next recomputation replays everything."
    )
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When a recomputation was queued and has not started yet: a burst of "
        "changes queues it once.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"ranking settings of {self.federation}"


class NationalRating(models.Model):
    """A player's rating in the federation's ranking, after every event rated."""

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="national_ratings"
    )
    player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, related_name="national_ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    #: The conservative rating shown and ranked by: mu - 3 sigma, as the clubs' ratings.
    ordinal = models.FloatField()
    events = models.PositiveIntegerField(default=0)
    points = models.PositiveIntegerField(default=0, help_text="Placing points, all events.")
    last_event_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "player"], name="national_rating_once")
        ]
        indexes = [
            models.Index(fields=["federation", "-ordinal", "id"], name="national_rating_order")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f}"


class RankedEvent(models.Model):
    """One event rated: a game, a fixture or a club night, local or imported."""

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="ranked_events"
    )
    key = models.CharField(max_length=120, help_text="The source's stable key of the event.")
    date = models.DateField()
    category = models.CharField(max_length=20)
    rules = models.CharField(max_length=120, blank=True)
    target = models.PositiveIntegerField(null=True, blank=True)
    sides = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "key"], name="ranked_event_once")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.date})"


class RatingStep(models.Model):
    """A player's rating before and after one event: their history, one row an event."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, related_name="rating_steps"
    )
    event = models.ForeignKey(RankedEvent, on_delete=models.CASCADE, related_name="steps")
    placing = models.PositiveSmallIntegerField()
    share = models.FloatField(help_text="The side's normalised score: its share of the points.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    points = models.PositiveIntegerField(default=0)
    #: The player's events and placing points so far, this one included: a recomputation
    #: from a date restarts from each player's last step before it.
    events_after = models.PositiveIntegerField(default=0)
    points_after = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["player", "-id"], name="rating_step_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.event_id}: {self.mu_before:.1f} → {self.mu:.1f}"

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class OrganiserSpace(models.Model):
    """The club space a federation organises its inter-club competitions in: a ``Club``
    row owned by the federation, holding the seasons, divisions and cups of competitions
    whose teams come from member clubs."""

    federation = models.OneToOneField(
        Federation, on_delete=models.CASCADE, related_name="organiser_space"
    )
    club = models.OneToOneField(Club, on_delete=models.PROTECT, related_name="organised_by")

    def __str__(self) -> str:
        return f"{self.club} (organiser space of {self.federation})"


class InterclubTeam(models.Model):
    """A team of an inter-club competition and the member club it comes from: it plays
    its home fixtures at that club's venue and by that club's rules, and that club's
    scorers may enter its fixtures' games."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="interclub")
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    home_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    venue = models.ForeignKey(
        Venue,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("home venue"),
        help_text=_("A venue of the home club; empty: where the schedule places it."),
    )
    house_rules = models.ForeignKey(
        HouseRules,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("home club's house rules"),
    )
    ruleset = models.CharField(
        _("rule set"),
        max_length=40,
        blank=True,
        help_text=_(
            "A built-in rule set, unless house rules are set; both empty: the division's rules."
        ),
    )

    def __str__(self) -> str:
        return f"{self.team} of {self.home_club}"

    def rules_spec(self) -> str | dict[str, object] | None:
        """The rules its home fixtures are played by, or None: the division's."""
        if self.house_rules_id:
            return self.house_rules.as_rules_data()
        return self.ruleset or None


class Qualifier(models.Model):
    """A championship's qualifier, feeding a final (a cup of the organiser space): a
    member club's cup, whose winner goes through; or one of its finished club nights, or a
    series of nights, whose top ``places`` players go through (``championship.py``)."""

    final = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="qualifiers")
    cup = models.OneToOneField(
        Cup, null=True, blank=True, on_delete=models.CASCADE, related_name="qualifies_for"
    )
    event = models.OneToOneField(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="qualifies_for"
    )
    series = models.OneToOneField(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="qualifies_for"
    )
    places = models.PositiveSmallIntegerField(
        default=1, help_text="How many go through: the top N of the night or series."
    )
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["order", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(cup__isnull=False, event__isnull=True, series__isnull=True)
                    | Q(cup__isnull=True, event__isnull=False, series__isnull=True)
                    | Q(cup__isnull=True, event__isnull=True, series__isnull=False)
                ),
                name="qualifier_one_source",
            )
        ]

    def __str__(self) -> str:
        return f"qualifier {self.order + 1} of final {self.final_id}"

    @property
    def source(self) -> Cup | Event | Series:
        return self.cup or self.event or self.series


class QualifiedEntrant(models.Model):
    """An entrant of a championship final and where it qualified from: its qualifier and
    its place there (1 for a cup's winner)."""

    qualifier = models.ForeignKey(Qualifier, on_delete=models.CASCADE, related_name="entrants")
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="qualified_from")
    place = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["entrant__seed"]

    def __str__(self) -> str:
        return f"{self.entrant} from {self.qualifier}"
