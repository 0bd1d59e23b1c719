"""Games and deals as they are stored.

A game is played by two or three sides (``A``, ``B``, ``C``) of seated players.
A deal row keeps what was recorded at the table (``data``: the rules engine's
deal JSON, without the rule set) and what the engine made of it (outcome, the
sheet's numbers, running totals), so that score sheets and standings read
plain columns. The engine is the only code that computes those numbers; this
module only stores them.

Every create, change or delete of a deal leaves a ``DealRevision`` (who, when,
before, after), shown on the game's page.
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player
from clabber_league.leagues.models import Division, Team
from clabber_league.leagues.results import COUNTED_STATUSES
from clabber_league.scheduling.models import Fixture

SIDES = ("A", "B", "C")
#: ``entered_at_table`` of a write made through a table link that names no table.
UNNAMED_TABLE = "-"


def table_words(label: str) -> str:
    """How the history names a write made through a table link ("" for none)."""
    if not label:
        return ""
    if label == UNNAMED_TABLE:
        return gettext("entered through the table link")
    return gettext("entered at table %(table)s (table link)") % {"table": label}


def per_side(a: int, b: int, c: int | None) -> dict[str, int]:
    """Side columns as ``{"A": .., "B": ..}``, with ``"C"`` only in three-sided games."""
    out = {"A": a, "B": b}
    if c is not None:
        out["C"] = c
    return out


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        CONFIRMED = "confirmed", _("Confirmed")
        #: Started by mistake and set aside: kept with its deals and history, counted
        #: nowhere (not in ``COUNTED_STATUSES``), its fixture playable again.
        ABANDONED = "abandoned", _("Abandoned")

    #: The statuses whose result counts (for the fixture, the standings, the schedule):
    #: the one definition is ``leagues.results.COUNTED_STATUSES``.
    COUNTED = tuple(sorted(COUNTED_STATUSES))

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    #: The league division the game is played in; ``None`` for a game outside any league
    #: (a club night's table, a cup tie): it counts in no league standings, but its players'
    #: ratings move as from any game.
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    number = models.PositiveSmallIntegerField(default=1, help_text="Game number in the fixture.")
    rules = models.JSONField(
        help_text="The rule set this game is scored by, fixed when it starts "
        "(a slug, or house-rules data)."
    )
    first_dealer = models.PositiveSmallIntegerField(default=0)
    #: The game ends after this many deals even short of the target (a club night's round of
    #: N deals; a round whose time was called: the deal in progress is the last). The side
    #: ahead then wins (``rules.game.winner_at_close``). ``None``: played to the target.
    deal_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.IN_PROGRESS, db_index=True
    )
    winner = models.CharField(max_length=4, blank=True, help_text="A, B, C or tie")
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    score_c = models.IntegerField(null=True, blank=True)
    deal_count = models.PositiveIntegerField(default=0)
    # The running state the rules engine goes on from (``rules.score_next``), so that a
    # deal is recorded without reading the game's earlier deals: the pot left hanging by
    # tied deals and the seat that deals next. ``next_dealer`` null: not known (a game
    # stored before it was kept); the next write works both out from the deals.
    pot = models.IntegerField(default=0)
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    played_on = models.DateField(null=True, blank=True)
    #: The ``Idempotency-Key`` of each deal deleted from this game, kept for the keys'
    #: retention (``IDEMPOTENCY_RETENTION_HOURS``): a phone that retries a lost answer after
    #: its deal was deleted is told so (409), not given a new deal. ``{stored key: {"number",
    #: "at", "fingerprint"}}``; read with the game's locked row, so the check costs nothing.
    deleted_keys = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the game's row last changed (a deal recorded, corrected or deleted, the game
    #: confirmed, abandoned or closed): the API's ``?updated_since=`` and ordering read it.
    #: ``auto_now``: a ``save(update_fields=...)`` sets it only when it is in the list; a
    #: row inserted by hand-written SQL gets the database's clock (``db_default``).
    updated_at = models.DateTimeField(auto_now=True, db_default=Now())
    finished_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["club", "status"]),
            models.Index(fields=["club", "updated_at"], name="game_club_updated_at"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk}"

    @property
    def scores(self) -> dict[str, int]:
        return per_side(self.score_a, self.score_b, self.score_c)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.IN_PROGRESS


class GameSide(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sides")
    side = models.CharField(max_length=1, choices=[(s, s) for s in SIDES])
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="game_sides"
    )

    class Meta:
        ordering = ["game", "side"]
        constraints = [models.UniqueConstraint(fields=["game", "side"], name="game_side_once")]

    def __str__(self) -> str:
        return f"{self.side}: {self.team}"


class GameSeat(models.Model):
    """A player at the table (who actually sat there: a substitute too). Seats are numbered
    clockwise from 0; the side is fixed by seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=1, choices=[(s, s) for s in SIDES])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    substitute = models.BooleanField(
        default=False,
        help_text="The player sat in for the side's team without being one of its players "
        "when the game started.",
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_seat_once"),
            models.UniqueConstraint(fields=["game", "player"], name="game_player_once"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} ({self.side}): {self.player}"


class Deal(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField(help_text="Seat of the dealer.")
    maker_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(help_text="The deal as recorded, in the rules engine's JSON.")
    outcome = models.CharField(max_length=8)
    maker = models.CharField(max_length=1, blank=True)
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    score_c = models.IntegerField(null=True, blank=True)
    running_a = models.IntegerField(default=0)
    running_b = models.IntegerField(default=0)
    running_c = models.IntegerField(null=True, blank=True)
    result = models.JSONField(default=dict, help_text="The rules engine's answer for this deal.")
    # NULL means "no key": the partial unique index below then ignores the row. The API's
    # Idempotency-Key of a logged-in caller is kept here as ``u<user id>:<key>`` (each caller's
    # keys their own), a table phone's as it sent it: the index is the replay check.
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001
    #: SHA-256 of the request that recorded the deal under its key (method, path, body), so a
    #: reused key with another body is refused (422); blank when there is none to compare.
    idempotency_fingerprint = models.CharField(max_length=64, blank=True, default="", db_default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: The table whose link recorded the deal ("3": "entered at table 3 (table link)");
    #: blank when it was entered by a person logged in.
    entered_at_table = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_once"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="deal_idempotency_key_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}"

    @property
    def scores(self) -> dict[str, int]:
        return per_side(self.score_a, self.score_b, self.score_c)

    @property
    def running(self) -> dict[str, int]:
        return per_side(self.running_a, self.running_b, self.running_c)

    @property
    def table_words(self) -> str:
        return table_words(self.entered_at_table)


class DealRevision(models.Model):
    """The audit history: every change to a game's deals, kept even after a delete."""

    class Action(models.TextChoices):
        CREATE = "create", _("Recorded")
        UPDATE = "update", _("Corrected")
        DELETE = "delete", _("Deleted")
        CONFIRM = "confirm", _("Confirmed")
        ABANDON = "abandon", _("Abandoned the game")
        CLOSE = "close", _("Called time")

    #: The actions that change a game's deals: whoever took one may not confirm the game.
    TOUCHING = (Action.CREATE, Action.UPDATE, Action.DELETE)

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="revisions")
    deal_number = models.PositiveIntegerField(null=True, blank=True)
    action = models.CharField(max_length=8, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    #: The table whose link made the change (blank: a person logged in made it).
    entered_at_table = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["game", "at", "id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} deal {self.deal_number} of game {self.game_id}"

    @property
    def table_words(self) -> str:
        return table_words(self.entered_at_table)


class TableLink(models.Model):
    """A game's table link: the signed URL (and its QR code) that lets the phone at the
    table score that one game without an account (``games.table_links``).

    The token in the URL is ``<id>.<nonce>`` signed with the site's key, so a link can be
    printed again at any time and a tampered one is refused without a query. It stops
    working when revoked, when it expires, or when its game is confirmed or abandoned. A
    game has at most one link that is not revoked."""

    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="table_links"
    )
    #: A fixture's link, printed before its game starts: scanned, it starts that fixture's
    #: game (``game`` is empty until then) and goes on as that game's link.
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.CASCADE, related_name="table_links"
    )
    nonce = models.CharField(max_length=24)
    table_label = models.CharField(
        max_length=40, blank=True, help_text='The table, as the history names it ("3").'
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["game", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(revoked_at__isnull=True),
                name="table_link_one_live_per_game",
            ),
            models.UniqueConstraint(
                fields=["fixture"],
                condition=Q(revoked_at__isnull=True, game__isnull=True),
                name="table_link_one_waiting_per_fixture",
            ),
            models.CheckConstraint(
                condition=Q(game__isnull=False) | Q(fixture__isnull=False),
                name="table_link_of_a_game_or_a_fixture",
            ),
        ]

    def __str__(self) -> str:
        if self.game_id is None:
            return f"Table link {self.pk} of fixture {self.fixture_id}"
        return f"Table link {self.pk} of game {self.game_id}"


class CorrectionKey(models.Model):
    """The first answer to a deal correction (``PUT .../deals/<id>/``) sent with an
    ``Idempotency-Key``, kept with its game (``games.replay``).

    A phone's outbox sends each correction with its own key and sends it again when the
    answer was lost: the retry gets this answer back and writes nothing; the same key with
    another correction is refused (422). ``caller`` is whose key it is: ``user:<id>`` for a
    logged-in caller, ``table`` for the phone of the game's table link (as a deal's key is
    kept with the deal, per game)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    caller = models.CharField(max_length=24)
    key = models.CharField(max_length=80)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    status = models.PositiveSmallIntegerField()
    body = models.JSONField(encoder=DjangoJSONEncoder, null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "caller", "key"], name="correction_key_once_per_caller"
            )
        ]

    def __str__(self) -> str:
        return f"Correction key {self.key} of game {self.game_id}"


class Acceptance(models.Model):
    """One side's acceptance of a finished game's result, or a club admin's for the whole
    game (``side`` blank): who, how and when (``games.services.game_confirm``).

    A result counts as confirmed only when every side that did not enter it has accepted
    (``services.confirmation_state``). An acceptance covers the deals as they were when it
    was given: ``after_revision`` is the game's last change to its deals then, and a later
    correction leaves it in the history without counting any more."""

    class How(models.TextChoices):
        OWN_PHONE = "own_phone", _("on their own phone")
        PIN = "pin", _("with their PIN on the table phone")
        ADMIN = "admin", _("by a club admin who entered nothing, for the whole game")
        CLUB = "club", _("in the name of the club (a club admin's ruling)")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="acceptances")
    side = models.CharField(max_length=1, blank=True, help_text="Blank: the whole game.")
    how = models.CharField(max_length=10, choices=How.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="acceptances"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The account that accepted (the player's own, or the club admin's).",
    )
    device_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Whose phone the PIN was typed on, when it was someone's account.",
    )
    at_table = models.CharField(
        max_length=40, blank=True, default="", help_text="The table link's table, if any."
    )
    after_revision = models.PositiveIntegerField(
        default=0, help_text="The game's last change to its deals when it was given."
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "at", "id"]
        indexes = [models.Index(fields=["game", "side"])]

    def __str__(self) -> str:
        return f"Acceptance of game {self.game_id} by side {self.side or '(all)'}"
