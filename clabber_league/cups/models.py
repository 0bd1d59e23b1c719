"""Cups and play-offs as they are stored.

A **cup** is a knockout competition of the club: its entrants are teams (partnerships,
from any of the club's divisions) or players (two- and three-handed rule sets), played
single or double elimination, each tie one game or the best of N. A three-handed rule set's
tie is a table of three players whose winner goes on (``Cup.sides`` 3: single elimination,
``cups.bracket`` "Tables of three"). It is seeded (from a league
stage's standings, from the players' ratings, at random from a seed that is shown, or in
the order given) and drawn by the pure planner ``cups.bracket``.

A cup has **stages**: a play-off is a league stage (one or more divisions of a season,
whose top N go through, per division or overall) followed by the knockout stage; a cup
on its own has only the knockout stage. The knockout of a play-off is built when the
league stage is complete, by a Celery task (``cups.tasks.build_knockout``), and the
seeding is explained entrant by entrant (``Entrant.note``, ``Stage.notes``).

A **tie** is one meeting of the bracket (``key``: the planner's match key). Its sides
are filled as earlier ties are decided (``home_from``/``away_from`` name where they come
from: ``W:<key>`` the winner, ``L:<key>`` the loser of that tie). Its games are
division-less games (``games.Game`` with no division, counted in no league table),
listed by ``TieGame``; the tie is decided when a side has won enough *confirmed* games,
or by a walkover.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player
from clabber_league.leagues.models import Division, Team, Venue

#: SQLite (no heartbeat): a build that started this long ago and is not done lost its worker.
BUILD_STALE_WITHOUT_BEATS = dt.timedelta(minutes=5)


class Cup(models.Model):
    class Kind(models.TextChoices):
        TEAMS = "teams", _("Teams (partnerships)")
        PLAYERS = "players", _("Players (two- and three-handed games)")

    class Format(models.TextChoices):
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")

    class Seeding(models.TextChoices):
        STANDINGS = "standings", _("From the league stage's standings")
        RATINGS = "ratings", _("From the players' ratings")
        RANDOM = "random", _("A random draw (its seed is shown)")
        LIST = "list", _("In the order given")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the league stage")
        SEEDED = "seeded", _("Seeded")
        DRAWN = "drawn", _("Drawn")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="cups")
    name = models.CharField(max_length=120)
    entrant_kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.TEAMS)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.SINGLE)
    best_of = models.PositiveSmallIntegerField(
        default=1, help_text="Games a tie is played over: 1, 3, 5 or 7 (first to win most)."
    )
    third_place = models.BooleanField(default=False, help_text="The semi-finals' losers meet.")
    plate = models.BooleanField(
        default=False, help_text="The first round's losers play a knockout of their own."
    )
    final_reset = models.BooleanField(
        default=False,
        help_text="Double elimination: a second final when the losers' bracket's winner wins "
        "the first, so that the champion is the one entrant who never lost twice.",
    )
    seeding = models.CharField(max_length=10, choices=Seeding.choices, default=Seeding.LIST)
    seed_text = models.CharField(
        max_length=40,
        blank=True,
        help_text="The seed of a random draw, chosen by the server (never typed), shown so "
        "anyone can redo it; a play-off's is shown only as its SHA-256 until its entrants "
        "are drawn. Seeding again reuses it.",
    )
    seed_nonce = models.CharField(
        max_length=40,
        blank=True,
        help_text="A play-off's committed seed while it waits for its league stage, as a "
        "nonce: the seed is worked out from it with the server's secret key "
        "(core.commitments), so it stays secret, in a backup too, until the entrants are "
        "drawn; then it is seed_text.",
    )
    draw_algorithm = models.CharField(
        max_length=40,
        blank=True,
        help_text="The version of the random seeding (cups.bracket.ALGORITHM) it was drawn by.",
    )
    rules = models.JSONField(
        help_text="The rule set the ties are played by (a slug, or house-rules data)."
    )
    sides = models.PositiveSmallIntegerField(
        default=2,
        help_text="Sides at a tie, from the rule set: 2, or 3 (a table of three players, "
        "the winner goes on).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEEDED)
    champion = models.ForeignKey(
        "Entrant", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="cup_name_unique_in_club"),
            models.CheckConstraint(condition=Q(best_of__in=[1, 3, 5, 7]), name="cup_best_of_odd"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def wins_needed(self) -> int:
        return self.best_of // 2 + 1


class Stage(models.Model):
    """One stage of a cup: a league stage (divisions whose top N go through) or the
    knockout. ``build_*`` is the state of the task that builds the knockout from the
    league stage once it is complete."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("League or Swiss stage")
        KNOCKOUT = "knockout", _("Knockout")

    class Per(models.TextChoices):
        DIVISION = "division", _("Top N of each division")
        OVERALL = "overall", _("Top N overall")

    class TieRule(models.TextChoices):
        LOT = "lot", _("Drawn by lot (from the cup's shown seed)")
        ALL = "all", _("All of them go through")

    class Build(models.TextChoices):
        WAITING = "waiting", _("Waiting for the stage to finish")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    ACTIVE = (Build.QUEUED, Build.RUNNING)

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(default=1)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    divisions = models.ManyToManyField(Division, related_name="cup_stages", blank=True)
    top = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="League stage: how many go through."
    )
    per = models.CharField(max_length=8, choices=Per.choices, default=Per.DIVISION)
    tie_rule = models.CharField(max_length=4, choices=TieRule.choices, default=TieRule.LOT)
    build = models.CharField(max_length=8, choices=Build.choices, default=Build.WAITING)
    message = models.CharField(max_length=300, blank=True)
    message_data = models.JSONField(
        default=dict,
        blank=True,
        help_text="The build's message as its sentences' templates and values, for a page to "
        "show it in its reader's language (core.messages.message_data); message keeps the "
        "English (the API's).",
    )
    notes = models.JSONField(
        default=list, blank=True, help_text="How the seeding was made, line by line (English)."
    )
    notes_data = models.JSONField(
        default=list,
        blank=True,
        help_text="The notes as stored sentences (core.messages.part), one per line of notes, "
        "for a page to show them in its reader's language.",
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The knockout's build: when it was queued, then its worker's last beat.",
    )

    class Meta:
        ordering = ["cup", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "number"], name="cup_stage_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.cup} · stage {self.number} ({self.kind})"

    @property
    def message_shown(self) -> str:
        """The build's message in the active language."""
        from clabber_league.core.messages import stored_message

        return stored_message(self.message_data, self.message)

    @property
    def notes_shown(self) -> list[str]:
        """How the seeding was made, in the active language: each note from its stored
        sentence; a note of a row written before they were kept (English text only) as it
        is, translated when the catalog has that very text."""
        from clabber_league.core.i18n import translated
        from clabber_league.core.messages import shown

        data = self.notes_data or []
        if len(data) == len(self.notes):
            return [shown(part) for part in data]
        return [translated(note) if note else "" for note in self.notes]

    @property
    def build_stalled(self) -> bool:
        """A build whose worker stopped (no heartbeat for 30 s on PostgreSQL; queued a
        minute ago and never started): building again is allowed."""
        from clabber_league.core.heartbeat import stopped

        if self.build not in self.ACTIVE:
            return False
        return stopped(
            started=self.build == self.Build.RUNNING,
            last_sign=self.heartbeat_at,
            without_beats=BUILD_STALE_WITHOUT_BEATS,
        )


class Entrant(models.Model):
    """A team or a player in the knockout, with its seed (1 is the best) and why."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="entrants")
    seed = models.PositiveSmallIntegerField()
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="cup_entries"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="cup_entries"
    )
    name = models.CharField(max_length=120)
    note = models.CharField(
        max_length=200, blank=True, help_text="Why this seed (1st in Division A, 14 points)."
    )
    note_data = models.JSONField(
        default=list,
        blank=True,
        help_text="The note as stored sentences (core.messages.part), for a page to show it "
        "in its reader's language; note keeps the English (the API's).",
    )

    class Meta:
        ordering = ["cup", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "seed"], name="cup_entrant_seed_once"),
            models.UniqueConstraint(
                fields=["cup", "team"], condition=Q(team__isnull=False), name="cup_team_once"
            ),
            models.UniqueConstraint(
                fields=["cup", "player"],
                condition=Q(player__isnull=False),
                name="cup_player_once",
            ),
        ]

    def __str__(self) -> str:
        return f"({self.seed}) {self.name}"

    @property
    def note_shown(self) -> str:
        """Why this seed, in the active language (a row written before the note kept its
        sentences: the English text as it is)."""
        from clabber_league.core.messages import shown

        if self.note_data:
            return "; ".join(shown(part) for part in self.note_data)
        return self.note


class Tie(models.Model):
    """One meeting of the bracket, its sides, result and place."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for its sides")
        READY = "ready", _("Ready to play")
        PLAYING = "playing", _("Being played")
        DECIDED = "decided", _("Decided")
        BYE = "bye", _("A bye")
        WALKOVER = "walkover", _("A walkover")
        VOID = "void", _("Not needed")

    #: A tie in one of these states has its result: the winner has gone on.
    DONE = (Status.DECIDED, Status.BYE, Status.WALKOVER, Status.VOID)

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="ties")
    key = models.CharField(max_length=24, help_text="The planner's match key.")
    bracket = models.CharField(max_length=8, default="main")
    round = models.PositiveSmallIntegerField()
    order = models.PositiveIntegerField(default=0, help_text="Its place in the planner's list.")
    home = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    away = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    third = models.ForeignKey(
        Entrant,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="A table of three: its third side.",
    )
    home_from = models.CharField(max_length=30, blank=True)
    away_from = models.CharField(max_length=30, blank=True)
    third_from = models.CharField(max_length=30, blank=True)
    absent = models.CharField(
        max_length=20,
        blank=True,
        help_text="A table of three: the side that did not turn up (the other two play heads-up).",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    loser = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    note_data = models.JSONField(
        default=dict,
        blank=True,
        help_text="A note the server wrote (a walkover, a level game) as its template and "
        "values (core.messages.part), for a page to show it in its reader's language; empty "
        "for a note the secretary typed, shown as typed.",
    )
    date = models.DateField(null=True, blank=True)
    venue = models.ForeignKey(
        Venue, null=True, blank=True, on_delete=models.SET_NULL, related_name="cup_ties"
    )
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["cup", "order"]
        constraints = [models.UniqueConstraint(fields=["cup", "key"], name="cup_tie_key_once")]
        indexes = [models.Index(fields=["venue", "date"])]

    def __str__(self) -> str:
        return f"{self.cup} {self.key}"

    @property
    def note_shown(self) -> str:
        """The tie's note in the active language: a note the server wrote from its
        template; one the secretary typed (or one written before notes kept their
        template) as it is."""
        from clabber_league.core.messages import shown

        if self.note_data.get("template"):
            return shown(self.note_data)
        return self.note

    @property
    def is_done(self) -> bool:
        return self.status in self.DONE

    SIDES = ("home", "away", "third")

    def side_names(self) -> tuple[str, ...]:
        """The tie's sides: home and away, and third at a table of three."""
        return self.SIDES if self.cup.sides == 3 else self.SIDES[:2]

    def present(self) -> list[tuple[str, Entrant]]:
        """The sides that play: known entrants (not byes), not marked absent."""
        absent = set(self.absent.split(",")) if self.absent else set()
        return [
            (name, getattr(self, name))
            for name in self.side_names()
            if getattr(self, f"{name}_id") is not None and name not in absent
        ]


class TieGame(models.Model):
    """A game played for a tie (a division-less game, counted in no league table). Side A
    of the game is the tie's home entrant, side B its away one."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="tie_games")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="cup_tie")
    number = models.PositiveSmallIntegerField(default=1)
    sides = models.CharField(
        max_length=20,
        blank=True,
        help_text="The tie's sides playing the game's sides A, B(, C) in order "
        "('home,away,third'; blank: home and away).",
    )

    class Meta:
        ordering = ["tie", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tie", "number"], name="cup_tie_game_number_once")
        ]

    def __str__(self) -> str:
        return f"{self.tie} game {self.number}"

    def side_of(self, letter: str) -> str | None:
        """The tie's side (home, away, third) that played the game's side ``letter``."""
        order = self.sides.split(",") if self.sides else ["home", "away"]
        index = "ABC".find(letter) if len(letter) == 1 else -1
        return order[index] if 0 <= index < len(order) else None
