"""Fixtures: which teams meet, in which round, on which night, at which table.

A division's ``ScheduleConfig`` says how its season is played: the format (round robin,
single or double, or a Swiss over a set number of rounds), the league night (a weekday
from a start date, skipping listed dates) and the venues whose tables are used, in order.
A ``ScheduleRun`` is one generation of the schedule by a Celery task: its state and
progress are what the progress bar polls. A ``LeagueNight`` records that a night's
fixture list has been published (by the periodic task, once per club and date).

Points for a win, a tie and a loss are the season's (``Season.points_win/tie/loss``); a
forfeit or walkover gives the winner ``points_win`` and the loser ``points_loss``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import Division, Team, Venue

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYED = "played", _("Played")
        POSTPONED = "postponed", _("Postponed")
        FORFEIT = "forfeit", _("Forfeit")

    #: A fixture in one of these states is a result: re-generation never touches it.
    DONE = (Status.PLAYED, Status.FORFEIT)

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
    original_date = models.DateField(
        null=True, blank=True, help_text="The night it was first scheduled for, once moved."
    )
    forfeit_winner = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="forfeit_wins"
    )
    note = models.CharField(max_length=200, blank=True, help_text="Why it was moved or forfeited.")
    reminded_at = models.DateTimeField(null=True, blank=True)
    flagged_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when its date passed without a result."
    )
    #: When the fixture last changed (moved, its result decided or undone, forfeited): the
    #: API's ``?updated_since=`` reads it. ``auto_now``: writes with ``update_fields`` list it;
    #: a row inserted by ``COPY`` (``bulk.py``) gets the database's clock (``db_default``).
    updated_at = models.DateTimeField(auto_now=True, db_default=Now())

    class Meta:
        ordering = ["division", "round_number", "table", "id"]
        indexes = [
            models.Index(fields=["division", "round_number"]),
            models.Index(fields=["club", "date"]),
            models.Index(fields=["club", "updated_at"], name="fixture_club_updated_at"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(home=models.F("away")), name="fixture_not_against_itself"
            )
        ]

    def __str__(self) -> str:
        return f"R{self.round_number}: {self.home} v {self.away}"

    @property
    def is_done(self) -> bool:
        return self.status in self.DONE


class ScheduleConfig(models.Model):
    """How a division's season is scheduled. One per division."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss (open club nights)")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="schedule_configs")
    division = models.OneToOneField(
        Division, on_delete=models.CASCADE, related_name="schedule_config"
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.ROUND_ROBIN)
    cycles = models.PositiveSmallIntegerField(
        default=1, help_text="Round robin: 1 (single) or 2 (double, home and away)."
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        default=5, help_text="Swiss: how many rounds are paired, one at a time."
    )
    weekday = models.PositiveSmallIntegerField(choices=WEEKDAYS, default=0)
    start_date = models.DateField(help_text="League nights start on the first weekday from here.")
    start_time = models.TimeField(null=True, blank=True, help_text="When play starts.")
    venues = models.ManyToManyField(
        Venue, through="ScheduleVenue", related_name="schedule_configs", blank=True
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(cycles__in=[1, 2]), name="schedule_cycles_1_or_2"),
            models.CheckConstraint(condition=Q(weekday__lte=6), name="schedule_weekday_0_6"),
        ]

    def __str__(self) -> str:
        return f"Schedule of {self.division}"

    def ordered_venues(self) -> list[Venue]:
        rows = self.schedule_venues.select_related("venue").order_by("position")
        return [row.venue for row in rows]


class ScheduleVenue(models.Model):
    """A venue used by a schedule; tables fill in ``position`` order (overflow goes on)."""

    config = models.ForeignKey(
        ScheduleConfig, on_delete=models.CASCADE, related_name="schedule_venues"
    )
    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["config", "position"]
        constraints = [
            models.UniqueConstraint(fields=["config", "venue"], name="schedule_venue_once")
        ]

    def __str__(self) -> str:
        return f"{self.venue} (#{self.position + 1})"


class SkipDate(models.Model):
    """A night without league play (a holiday, the hall booked for a wedding)."""

    config = models.ForeignKey(ScheduleConfig, on_delete=models.CASCADE, related_name="skip_dates")
    date = models.DateField()
    reason = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["config", "date"]
        constraints = [models.UniqueConstraint(fields=["config", "date"], name="skip_date_once")]

    def __str__(self) -> str:
        return f"{self.date} ({self.reason})" if self.reason else str(self.date)


class ScheduleRun(models.Model):
    """One generation of a division's schedule, as the progress bar sees it."""

    class State(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("schedule run", "Queued")
        RUNNING = "running", pgettext_lazy("schedule run", "Running")
        DONE = "done", pgettext_lazy("schedule run", "Done")
        FAILED = "failed", pgettext_lazy("schedule run", "Failed")

    ACTIVE = (State.QUEUED, State.RUNNING)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="schedule_runs")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="schedule_runs")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="Percent done, 0 to 100.")
    message = models.CharField(max_length=300, blank=True)
    #: The message as templates and values (``{"parts": [{"template", "params"}]}``), so a
    #: page shows it in its reader's language (``core.messages``); ``message`` keeps
    #: the English text for the API. Empty for a message with no values (its text is then
    #: its own catalog message) and for runs written before it.
    message_data = models.JSONField(default=dict, blank=True)
    notes = models.JSONField(
        default=list, blank=True, help_text="What the page says: overflows, byes, warnings."
    )
    fixtures_created = models.PositiveIntegerField(default=0)
    fixtures_kept = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One generation at a time per division, enforced by the database itself.
            models.UniqueConstraint(
                fields=["division"],
                condition=Q(state__in=["queued", "running"]),
                name="schedule_run_one_active_per_division",
            )
        ]

    def __str__(self) -> str:
        return f"Schedule run {self.pk} of {self.division} ({self.state})"

    @property
    def is_active(self) -> bool:
        return self.state in self.ACTIVE


class LeagueNight(models.Model):
    """A club's league night whose fixture list has been published."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="league_nights")
    date = models.DateField()
    published_at = models.DateTimeField(null=True, blank=True)
    fixture_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date"]
        constraints = [models.UniqueConstraint(fields=["club", "date"], name="league_night_once")]

    def __str__(self) -> str:
        return f"{self.club} · {self.date}"


class FeedKey(models.Model):
    """A member's key to one team's calendar feed (``teams/<pk>/calendar.ics?key=...``).

    Calendar apps cannot log in, so the feed's URL carries this key. It is per member and
    per team: it dies with the membership (a member removed from the club), opens nothing
    for a deactivated account (``clubs.access``), is renewed by its member (the old URL
    then 404s) and revoked for everyone at once by a club admin. Keys are kept in club
    backups with their team, so a restored club's subscriptions go on working."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="feed_keys")
    membership = models.ForeignKey(
        "clubs.Membership", on_delete=models.CASCADE, related_name="feed_keys"
    )
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "membership"], name="feed_key_one_per_member")
        ]

    def __str__(self) -> str:
        return f"calendar key of {self.membership} for {self.team}"
