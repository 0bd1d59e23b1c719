"""A match's result from its games: the one definition, for every page, job and table.

Pure Python (no Django, no ORM): the callers load rows and pass plain values, so the
schedule pages (``scheduling.selectors.fixture_outcomes``), the standings
(``standings.contributions.match_contributions``), the overdue job
(``scheduling.services.jobs.fixtures_flag_overdue``), the fixture's status kept in the
game's transaction (``scheduling.services.fixture_changes.fixture_result_update``) and a
cup deciding who goes through all read the same answer.

The rules (README "How a match is decided"):

* **Which games count.** A finished or a confirmed game (:data:`COUNTED_STATUSES`); a game
  in progress counts for nothing yet.
* **When a match is decided.** Once as many games count as were planned for it (a game
  started outside the schedule is a match of one game). With two planned and one finished,
  the match is not decided: neither the schedule nor the standings show a result.
* **Who won it.** The team that won more of its counted games than any other; equal
  numbers of games won is a tied match.
* **A forfeit or walkover** decides a fixture whatever its games: the winner is credited
  with every planned game, the loser with none.
* **Match points** are the season's ``points_win`` / ``points_tie`` / ``points_loss``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: The game statuses whose games count towards a match's result, the standings and the
#: leaderboards (``games.models.Game.Status`` values).
COUNTED_STATUSES: frozenset[str] = frozenset({"finished", "confirmed"})


def game_counts(status: str) -> bool:
    """Whether a game with this status counts towards results."""
    return status in COUNTED_STATUSES


@dataclass(frozen=True)
class MatchGame:
    """One game as a match's result sees it: its status, the winning side (``"A"``,
    ``"B"``, ``"C"``, ``"tie"`` or ``""`` while in progress) and each side's team id."""

    status: str
    winner: str
    teams: Mapping[str, int | None]

    @property
    def counts(self) -> bool:
        return game_counts(self.status)

    @property
    def winner_team(self) -> int | None:
        return self.teams.get(self.winner)


@dataclass(frozen=True)
class MatchResult:
    """What a match's games have produced so far."""

    games: int  # started for it, any status
    counted: int  # finished or confirmed
    won: Mapping[int, int] = field(default_factory=dict)  # team id -> counted games won
    decided: bool = False
    winner: int | None = None  # None: undecided or tied

    @property
    def tied(self) -> bool:
        return self.decided and self.winner is None


def match_result(
    games: Iterable[MatchGame], *, planned: int = 1, teams: Iterable[int] = ()
) -> MatchResult:
    """The result of one match: decided once ``planned`` of its games count (at least one),
    won by the team with the most games won. ``teams`` are the match's teams (a fixture's
    home and away); the teams of its counted games are added."""
    games = list(games)
    counted = [g for g in games if g.counts]
    won: dict[int, int] = dict.fromkeys(teams, 0)
    for game in counted:
        for team_id in game.teams.values():
            if team_id is not None:
                won.setdefault(team_id, 0)
        winner = game.winner_team
        if winner is not None:
            won[winner] += 1
    decided = bool(counted) and len(counted) >= max(planned, 1)
    winner_id = None
    if decided and won:
        top = max(won.values())
        leaders = [t for t, n in won.items() if n == top]
        winner_id = leaders[0] if len(leaders) == 1 else None
    return MatchResult(
        games=len(games), counted=len(counted), won=won, decided=decided, winner=winner_id
    )


@dataclass(frozen=True)
class Points:
    """A season's match points."""

    win: int
    tie: int
    loss: int


@dataclass(frozen=True)
class FixtureResult:
    """A fixture's result as the schedule shows it and the standings count it."""

    games: int = 0
    counted: int = 0
    home_won: int = 0
    away_won: int = 0
    home_points: int = 0
    away_points: int = 0
    decided: bool = False
    forfeit: bool = False
    winner: int | None = None  # None: undecided or tied

    @property
    def score(self) -> str:
        return f"{self.home_won}\u2013{self.away_won}"

    @property
    def tied(self) -> bool:
        return self.decided and self.winner is None


def fixture_result(
    *,
    home_id: int,
    away_id: int,
    planned: int,
    games: Iterable[MatchGame],
    points: Points,
    forfeit_winner_id: int | None = None,
) -> FixtureResult:
    """The result of a fixture between ``home_id`` and ``away_id`` from the games started
    for it, or from its forfeit (``forfeit_winner_id``, one of the two teams)."""
    match = match_result(games, planned=planned, teams=(home_id, away_id))
    if forfeit_winner_id in (home_id, away_id):
        home_wins = forfeit_winner_id == home_id
        planned = max(planned, 1)
        return FixtureResult(
            games=match.games,
            counted=match.counted,
            home_won=planned if home_wins else 0,
            away_won=0 if home_wins else planned,
            home_points=points.win if home_wins else points.loss,
            away_points=points.loss if home_wins else points.win,
            decided=True,
            forfeit=True,
            winner=forfeit_winner_id,
        )
    home_won, away_won = match.won.get(home_id, 0), match.won.get(away_id, 0)
    home_points = away_points = 0
    if match.decided:
        if match.winner == home_id:
            home_points, away_points = points.win, points.loss
        elif match.winner == away_id:
            home_points, away_points = points.loss, points.win
        else:
            home_points = away_points = points.tie
    return FixtureResult(
        games=match.games,
        counted=match.counted,
        home_won=home_won,
        away_won=away_won,
        home_points=home_points,
        away_points=away_points,
        decided=match.decided,
        winner=match.winner if match.decided else None,
    )
