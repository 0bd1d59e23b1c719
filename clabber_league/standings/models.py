"""Standings, the numbers behind the leaderboards, and player ratings, kept as aggregates.

Which games count (said on every standings page too): a game counts as soon as the
rules engine has closed it at the target (``finished``) and goes on counting once it is
confirmed; a game still at the table counts for nothing here (its running score is shown
live beside the table instead), so half a game never moves points or sets. A finished
game that nobody has confirmed yet is counted and marked as provisional.

A *match* is a fixture (all the games two teams play on one night), or a game played
outside the schedule. Fixtures won, tied and lost compare the games each team won in
the fixture; a fixture's result counts once all its planned games count. Match points
are the season's ``points_win`` / ``points_tie`` / ``points_loss`` for each match result;
they are computed when read, so a season whose points change needs no rebuild. A fixture
lost by forfeit or walkover is a match won, with every planned game won, by the other
team, and a match lost, with every planned game lost, by the team that forfeited; it gives
no points for or against and no sets.

How the numbers are kept: ``StandingContribution`` holds what one match gives one team;
``TeamStanding`` is the sum of a team's contributions. Both change in the same
transaction as the deal, correction or confirmation that changes them
(``services.standings_game_changed``), and ``manage.py standings_check`` proves they still
equal a full recomputation from the deals.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player
from clabber_league.games.models import Game
from clabber_league.leagues.models import Division, Season, Team
from clabber_league.scheduling.models import Fixture

#: What a league may break ties on after match points, and how each reads on the page.
TIEBREAKERS: dict[str, str] = {
    "head_to_head": _("match points in the matches between the teams that are level"),
    "game_difference": _("games won minus games lost"),
    "games_won": _("more games won"),
    "points_difference": _("points scored minus points conceded"),
    "points_for": _("more points scored"),
    "sets_inflicted": _(
        "more sets inflicted (deals in which the opponents named trump and were set, XX)"
    ),
    "sets_difference": _("sets inflicted minus sets suffered"),
    "fewest_sets_suffered": _(
        "fewer sets suffered (deals in which the team named trump and was set)"
    ),
}
DEFAULT_TIEBREAKERS = ["head_to_head", "game_difference", "points_difference", "sets_inflicted"]


def default_tiebreakers() -> list[str]:
    return list(DEFAULT_TIEBREAKERS)


class TiebreakerRules(models.Model):
    """The tiebreakers a division uses, in the order the league chose."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    division = models.OneToOneField(
        Division, on_delete=models.CASCADE, related_name="tiebreaker_rules"
    )
    tiebreakers = models.JSONField(
        default=default_tiebreakers,
        help_text="Ordered list of: " + ", ".join(TIEBREAKERS),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "tiebreaker rules"

    def __str__(self) -> str:
        return f"Tiebreakers of {self.division}"


class Counters(models.Model):
    """What the standings add up, for one team: over one match, or over the season."""

    matches_played = models.IntegerField(default=0)
    matches_won = models.IntegerField(default=0)
    matches_tied = models.IntegerField(default=0)
    matches_lost = models.IntegerField(default=0)
    games_played = models.IntegerField(default=0)
    games_won = models.IntegerField(default=0)
    games_tied = models.IntegerField(default=0)
    games_lost = models.IntegerField(default=0)
    games_unconfirmed = models.IntegerField(default=0)
    points_for = models.IntegerField(default=0)
    points_against = models.IntegerField(default=0)
    sets_inflicted = models.IntegerField(default=0)
    sets_suffered = models.IntegerField(default=0)
    deals = models.IntegerField(default=0)

    COUNTERS = (
        "matches_played",
        "matches_won",
        "matches_tied",
        "matches_lost",
        "games_played",
        "games_won",
        "games_tied",
        "games_lost",
        "games_unconfirmed",
        "points_for",
        "points_against",
        "sets_inflicted",
        "sets_suffered",
        "deals",
    )

    class Meta:
        abstract = True

    def counters(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.COUNTERS}


class TeamStanding(Counters):
    """A team's line in its division's table: the sum of its contributions."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="standing")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["division"])]

    def __str__(self) -> str:
        return f"Standing of {self.team_id}"


class StandingContribution(Counters):
    """What one match (a fixture, or a game outside the schedule) gives one team."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="contributions")
    match_key = models.CharField(
        max_length=24, db_index=True, help_text="f<fixture id> or g<game id>"
    )
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opponent = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The other team, in a match of two teams (head-to-head).",
    )
    round_number = models.PositiveIntegerField(null=True, blank=True)
    played_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "match_key"], name="contribution_once")
        ]
        indexes = [models.Index(fields=["division", "team", "opponent"])]

    def __str__(self) -> str:
        return f"{self.match_key} for team {self.team_id}"


class GameStat(models.Model):
    """One counted game from one player's or one partnership's chair (leaderboards)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    side = models.CharField(max_length=1)
    played_on = models.DateField(null=True, blank=True)
    won = models.IntegerField(default=0)
    tied = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    deals = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    calls = models.IntegerField(default=0, help_text="Deals in which they named trump.")
    calls_made = models.IntegerField(default=0)
    calls_set = models.IntegerField(default=0)
    melds = models.IntegerField(default=0, help_text="Melds shown.")
    meld_deals = models.IntegerField(default=0, help_text="Deals in which their melds scored.")
    best_meld = models.IntegerField(default=0)
    reneges = models.IntegerField(default=0)

    STATS = (
        "won",
        "tied",
        "lost",
        "deals",
        "points",
        "calls",
        "calls_made",
        "calls_set",
        "melds",
        "meld_deals",
        "best_meld",
        "reneges",
    )

    class Meta:
        abstract = True


class PlayerGameStat(GameStat):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="player_game_stat_once")
        ]
        indexes = [models.Index(fields=["club", "season"])]

    def __str__(self) -> str:
        return f"player {self.player_id} in game {self.game_id}"


class PartnershipGameStat(GameStat):
    """A side of two or three players; ``key`` is their player ids, sorted, joined by '-'."""

    key = models.CharField(max_length=64)
    player_1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_3 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "side"], name="partnership_game_stat_once")
        ]
        indexes = [models.Index(fields=["club", "season"])]

    def __str__(self) -> str:
        return f"partnership {self.key} in game {self.game_id}"


class PlayerRating(models.Model):
    """A player's OpenSkill rating (Plackett-Luce) from every confirmed game of the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-mu"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def ordinal(self) -> float:
        """The conservative rating shown on the pages: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """One confirmed game's effect on one player's rating: the rating history."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    at = models.DateTimeField(default=timezone.now, help_text="When the game was confirmed.")

    class Meta:
        ordering = ["player", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_change_once")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def change(self) -> float:
        return self.ordinal - self.ordinal_before


class LeaderboardTotal(models.Model):
    """A player's or a partnership's sums over their counted games in one division (one
    season): the leaderboards read these (a row per division a player played in, a season's
    board one or two rows each) instead of adding up every game's line. The write-through
    adds the difference between a game's old and new lines in the transaction that changes
    them (``services.totals``); a rebuild or an import recomputes a division's rows from its
    lines, and deleting a division deletes its rows with its lines. Players and
    partnerships share the table so that a finishing game's totals are one statement
    however many boards it moves.

    ``board`` is ``players`` (``key`` the player's id, ``player_1`` the player) or
    ``partnerships`` (``key`` as ``PartnershipGameStat.key``, its two or three players).
    ``games`` counts the lines; ``best_meld`` is the best of them, the others their sums.
    A row whose lines are all gone is deleted."""

    class Board(models.TextChoices):
        PLAYERS = "players"
        PARTNERSHIPS = "partnerships"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+")
    board = models.CharField(max_length=12, choices=Board.choices)
    key = models.CharField(max_length=64)
    player_1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player_3 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    games = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    tied = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    deals = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    calls = models.IntegerField(default=0)
    calls_made = models.IntegerField(default=0)
    calls_set = models.IntegerField(default=0)
    melds = models.IntegerField(default=0)
    meld_deals = models.IntegerField(default=0)
    best_meld = models.IntegerField(default=0)
    reneges = models.IntegerField(default=0)

    #: The columns added up from the lines (``best_meld`` is their maximum).
    SUMS = ("games", *(name for name in GameStat.STATS if name != "best_meld"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["division", "board", "key"], name="leaderboard_total_once_a_division"
            )
        ]
        indexes = [models.Index(fields=["club", "board", "season"])]

    def __str__(self) -> str:
        return f"{self.board} {self.key} in division {self.division_id}"
