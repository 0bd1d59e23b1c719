"""Club nights and one-day open tournaments, as they are stored.

An **event** is one night (or one day) of a club: individuals check in, are drawn to
tables round after round, and are ranked on the night. Its rules are a rules spec as a
game stores it (a built-in rule set's slug, or house-rules data); its format is
*individual* (partners and opponents drawn afresh every round) or *fixed pairs* (pairs
entered together, moving between tables). A round is one game to the target, a fixed
number of deals, or a time limit after which the deal in progress is finished.

* ``Entry``: a player at the event: checked in or not, from which round they play (a late
  arrival joins from the next round) and after which they left (a leaver is dropped from
  the next round), whether they paid the entry fee.
* ``Pair``: two entries playing together all night (fixed-pairs format only).
* ``Round``: one round of the event, its draw's seed, what the draw read and the planner's
  version (so that anyone can draw it again), its status and, while a large draw runs as a
  Celery task, its progress.
* ``Table``: one table of a round: who sits where (player ids, clockwise from seat 0, as
  ``games.GameSeat`` numbers them), who deals first, and the game played there (a game
  outside any league: ``Game.division`` is ``None``).
* ``SitOut``: a player without a table in a round (counts not a multiple of the table
  size, and no three-hand form), and the score the event's rule gives them.
* ``Series``: a season of nights, ranked over its events by total, average, or best N
  nights, with a minimum attendance.

Every row carries (or reaches through its event) the club: every query starts from it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player
from clabber_league.games.models import Game

#: SQLite (no heartbeat): a draw that started this long ago and is not done lost its worker.
DRAW_STALE_WITHOUT_BEATS = dt.timedelta(minutes=5)

#: At most this many rounds in one event, and players checked in (a page and a draw's
#: size never grow without bound).
MAX_ROUNDS = 30
MAX_ENTRIES = 400


class Series(models.Model):
    """A season of nights: the events that belong to it are ranked together."""

    class Method(models.TextChoices):
        TOTAL = "total", _("Total of all nights")
        AVERAGE = "average", _("Average per night played")
        BEST = "best", _("Best N nights")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="event_series")
    name = models.CharField(max_length=120)
    method = models.CharField(max_length=8, choices=Method.choices, default=Method.TOTAL)
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="N of the best N nights (method 'best')."
    )
    min_attendance = models.PositiveSmallIntegerField(
        default=0, help_text="Nights a player must play to be ranked."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="event_series_name_once")
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    class Kind(models.TextChoices):
        NIGHT = "night", _("Club night")
        OPEN = "open", _("Open tournament")

    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("Individual, partners drawn every round")
        PAIRS = "pairs", _("Fixed pairs, moving between tables")

    class RoundKind(models.TextChoices):
        GAME = "game", _("One game to the target")
        DEALS = "deals", _("A fixed number of deals")
        TIME = "time", _("A time limit (the deal in progress is finished)")

    class SitOutRule(models.TextChoices):
        AVERAGE = "average", _("The player's average on the night")
        FIXED = "fixed", _("A fixed score")

    class PrizeRule(models.TextChoices):
        NONE = "none", _("No prizes")
        PER_FOUR = "per_four", _("One prize per four players")
        TOP_QUARTER = "top_quarter", _("The top quarter of the field")
        SHARES = "shares", _("A fixed list of shares of the fund")
        EVERY_FOURTH = "every_fourth", _("Places 1 to 4, then every fourth place")
        FOURTH_LAST = (
            "fourth_last",
            _("Places 1 to 4, then every fourth place, and the last place"),
        )

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.NIGHT)
    date = models.DateField()
    rules = models.JSONField(
        help_text="The rules every game of the event is played by: a rule set's slug, or "
        "house-rules data (base and options), as a game stores it."
    )
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.INDIVIDUAL)

    class Movement(models.TextChoices):
        MITCHELL = "mitchell", _("Mitchell: North-South stay, East-West move up a table")
        SWISS = "swiss", _("Swiss: pairs meet the nearest on the night's scores")

    movement = models.CharField(
        max_length=8,
        choices=Movement.choices,
        default=Movement.MITCHELL,
        help_text="How fixed pairs move between rounds (format 'pairs').",
    )
    rounds = models.PositiveSmallIntegerField(default=4)
    round_kind = models.CharField(max_length=8, choices=RoundKind.choices, default=RoundKind.GAME)
    round_deals = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Deals in a round (round kind 'deals')."
    )
    round_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Minutes in a round (round kind 'time')."
    )

    class TablePlan(models.TextChoices):
        MIXED = "mixed", _("Tables of four, the rest at tables of three")
        FOURS = "fours", _("Tables of four only, the rest sit out")
        THREES = "threes", _("Tables of three only, the rest sit out")

    class Ranking(models.TextChoices):
        POINTS = "points", _("Total of the points scored")
        SHARE = "share", _("Share of the table's points (fair across table sizes)")
        MATCH_POINTS = "match_points", _("Match points per table (fair across table sizes)")

    table_plan = models.CharField(
        max_length=8,
        choices=TablePlan.choices,
        default=TablePlan.MIXED,
        help_text="How a four-hand game with a three-hand form seats a count that is not a "
        "multiple of four (the draw of each round reads it).",
    )
    ranking = models.CharField(
        max_length=12,
        choices=Ranking.choices,
        default=Ranking.POINTS,
        help_text="How a round at a table scores in the night's ranking (the default "
        "depends on the rules: see events.services.events.default_ranking).",
    )
    sit_out_rule = models.CharField(
        max_length=8, choices=SitOutRule.choices, default=SitOutRule.AVERAGE
    )
    sit_out_score = models.IntegerField(
        default=0, help_text="The score of a round sat out (sit-out rule 'fixed')."
    )
    entry_fee_cents = models.PositiveIntegerField(default=0)
    prize_rule = models.CharField(max_length=12, choices=PrizeRule.choices, default=PrizeRule.NONE)
    prize_shares = models.JSONField(
        default=list,
        blank=True,
        help_text="Prize rule 'shares': whole percentages of the fund, best place first "
        "(50, 30, 20); what they leave over is not paid out.",
    )
    hick_stake_cents = models.PositiveIntegerField(
        default=0,
        help_text="The side stake on a hick paid into the night's pot (0: no pot).",
    )
    seed = models.CharField(
        max_length=40,
        help_text="The nonce of the next round's committed seed, chosen by the server: the "
        "seed is worked out from it with the server's secret key (core.commitments), so "
        "it stays secret, in a backup too, until the round is drawn (its SHA-256 is shown "
        "before); a fresh nonce is chosen for the round after.",
    )
    keep_apart = models.JSONField(
        default=list,
        blank=True,
        help_text="Pairs of player ids the draw never seats at one table if it can help it.",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLANNED)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d %b %Y})"


class Entry(models.Model):
    """A player at an event. ``checked_in`` once they are in the room; they play from round
    ``joins_from_round`` and, once they left, no round after ``left_after_round``."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="event_entries")
    checked_in = models.BooleanField(default=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    joins_from_round = models.PositiveSmallIntegerField(default=1)
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    paid = models.BooleanField(default=False)

    class Meta:
        ordering = ["event", "player__name", "id"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="event_entry_once")]

    def __str__(self) -> str:
        return f"{self.player} at {self.event_id}"

    def plays_in(self, round_number: int) -> bool:
        """Whether this entry is drawn for round ``round_number``."""
        return (
            self.checked_in
            and self.joins_from_round <= round_number
            and (self.left_after_round is None or round_number <= self.left_after_round)
        )


class Pair(models.Model):
    """Two players entered together for a fixed-pairs event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairs")
    number = models.PositiveSmallIntegerField()
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_pair_number_once")
        ]

    def __str__(self) -> str:
        return f"Pair {self.number}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAWING = "drawing", _("Being drawn")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Draw failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(
        max_length=40,
        blank=True,
        help_text="The seed this round's draw used (committed before the round's entrants "
        "were final); stored, and shown, once the round is drawn.",
    )
    draw_algorithm = models.CharField(
        max_length=40,
        blank=True,
        help_text="The version of the draw's planner (events.draw.ALGORITHM) that drew it.",
    )
    draw_input = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the draw read besides the seed: the ids drawn, the table size, "
        "three-hand tables, keep-apart, the movement, and the rounds of its history; with "
        "the seed and the algorithm's version anyone can draw the round again.",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAWING)
    progress = models.PositiveSmallIntegerField(
        default=0, help_text="Percent of the draw done, 0 to 100 (a draw run as a task)."
    )
    message = models.CharField(max_length=300, blank=True)
    message_data = models.JSONField(
        default=dict,
        blank=True,
        help_text="The message's sentences with their templates and values, for a page to "
        "show it in its reader's language (core.messages).",
    )
    notes = models.JSONField(
        default=list,
        blank=True,
        help_text="What the draw says: repeats it could not avoid (each a stored sentence, "
        "core.messages.part).",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A draw run as a task: when its worker claimed it, then its last beat.",
    )
    time_called_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="event_round_once"),
            # One round being drawn or played at a time per event, in the database itself.
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(status__in=["drawing", "playing"]),
                name="event_one_open_round",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.event_id}"

    @property
    def message_shown(self) -> str:
        """The draw's progress or failure in the active language."""
        from clabber_league.core.messages import stored_message

        return stored_message(self.message_data, self.message)

    @property
    def notes_shown(self) -> list[str]:
        """The draw's notes in the active language."""
        from clabber_league.core.i18n import translated
        from clabber_league.core.messages import shown

        return [shown(n) if isinstance(n, dict) else translated(n) for n in self.notes]

    @property
    def draw_stalled(self) -> bool:
        """A draw whose worker stopped (no heartbeat for 30 s on PostgreSQL; queued a
        minute ago and never started): drawing the round again is allowed."""
        from clabber_league.core.heartbeat import stopped

        if self.status != self.Status.DRAWING:
            return False
        started = self.heartbeat_at is not None
        return stopped(
            started=started,
            last_sign=self.heartbeat_at if started else self.created_at,
            without_beats=DRAW_STALE_WITHOUT_BEATS,
        )


class Table(models.Model):
    """One table of a round. ``seats`` are player ids clockwise from seat 0 (partners sit
    opposite: seats 0 and 2 are side A); ``first_dealer`` is a seat."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    seats = models.JSONField(help_text="Player ids in seat order, clockwise from seat 0.")
    first_dealer = models.PositiveSmallIntegerField(default=0)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="event_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="event_table_once")]

    def __str__(self) -> str:
        return f"Table {self.number} of round {self.round_id}"


class SitOut(models.Model):
    """A player who sits a round out, and the score the event's sit-out rule gives them
    (``score`` is None until it can be worked out: an average needs the round's games)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["round", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="event_sit_out_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out round {self.round_id}"
