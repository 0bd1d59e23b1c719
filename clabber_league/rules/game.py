"""A game (RULES.md 3.2): running totals, the target, the winner, who deals next.

After every scored deal the scores are added to the running totals.  When at
least one side has reached the target the game is over and the highest total
wins; equal highest totals make a tied game (``tie_at_target: tie``) or the
game goes on (``play_on``) until one side leads.  A meld kind listed in
``winning_melds`` wins the game outright for the side that scores it.  No deal
can be added to a finished game.

A hanging pot (``tie_hangs``) is carried from deal to deal; one still hanging
when the game ends is not scored.

Dealing passes to the left (clockwise); in two-handed ``klaberjass`` the
winner of a deal deals the next; after a redeal (every side reneged) or, with
``passout_redeal``, a passed-out deal, the same dealer deals again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, TypeVar

from .deal import SCORED_OUTCOMES, DealResult, Outcome
from .errors import RulesError, gettext_noop, msg
from .rulesets import DealerRotation, RuleSet

MAX_DEALS: Final = 200
"""At most this many deals in one game (RULES.md section 5): a real game to 500 takes a
few dozen; the Django side uses it as the upper bound of its per-game setting."""
GAME_FINISHED: Final = gettext_noop(
    "The game is already over (deal {deal} ended it, winner {winner}); "
    "no deal can be added after it."
)
GAME_DEALS_DONE: Final = gettext_noop(
    "The game is over: its last deal (deal {count}) has been played, winner {winner}; "
    "deal {deal} is beyond it."
)
DEALER_UNKNOWN: Final = gettext_noop("Dealer {dealer!r} is not one of the seats {seats}.")
TIE: Final = "tie"

Seat = TypeVar("Seat")


class GameState:
    """Running totals of one game, fed one scored deal at a time."""

    __slots__ = ("deals", "ended_at", "finished", "pot", "ruleset", "totals", "winner")

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.totals: dict[str, int] = dict.fromkeys(ruleset.sides, 0)
        self.pot = 0
        self.finished = False
        self.winner: str | None = None
        self.deals = 0
        self.ended_at: int | None = None

    def check_open(self) -> None:
        """Raise RulesError if the game is finished (field set by the caller)."""
        limit = self.ruleset.deals_per_game
        if limit is not None and self.deals >= limit:
            winner = self.winner or winner_at_close(self.totals)
            raise RulesError(msg(GAME_DEALS_DONE, count=limit, winner=winner, deal=self.deals + 1))
        if self.finished:
            raise RulesError(msg(GAME_FINISHED, deal=(self.ended_at or 0) + 1, winner=self.winner))

    def add(self, result: DealResult) -> dict[str, int]:
        """Add a scored deal; returns the running totals after it."""
        self.check_open()
        self.pot = result.pot
        if result.outcome in SCORED_OUTCOMES:
            for side, points in result.score.items():
                self.totals[side] += points
            self._check_end(result)
        self.deals += 1
        limit = self.ruleset.deals_per_game
        if not self.finished and limit is not None and self.deals >= limit:
            self.finished = True
            self.winner = winner_at_close(self.totals)
            self.ended_at = self.deals - 1
        return dict(self.totals)

    def _check_end(self, result: DealResult) -> None:
        if result.game_won_by is not None:
            self._end(result.game_won_by)
            return
        best = max(self.totals.values())
        if self.ruleset.target is None or best < self.ruleset.target:
            return
        leaders = [s for s, v in self.totals.items() if v == best]
        if len(leaders) == 1:
            self._end(leaders[0])
        elif self.ruleset.tie_at_target == TIE:
            self._end(TIE)

    def _end(self, winner: str) -> None:
        self.finished = True
        self.winner = winner
        self.ended_at = self.deals


def winner_at_close(totals: Mapping[str, int]) -> str:
    """Who wins a game closed before any side reached the target (a round of a fixed number
    of deals, or a round whose time was called): the side with the highest total; equal
    highest totals make a tied game."""
    best = max(totals.values())
    leaders = [side for side, value in totals.items() if value == best]
    return leaders[0] if len(leaders) == 1 else TIE


def next_dealer(
    ruleset: RuleSet,
    dealer: Seat,
    seats: Sequence[Seat],
    *,
    outcome: Outcome | str | None = None,
    winner: Seat | None = None,
) -> Seat:
    """Who deals the next deal.

    ``seats`` in clockwise order; ``outcome`` of the deal just played; ``winner``
    the seat (or side, two-handed) that scored most in it, for the rule sets
    where the winner deals.
    """
    if dealer not in seats:
        raise RulesError(msg(DEALER_UNKNOWN, dealer=dealer, seats=list(seats)), "dealer")
    if outcome == Outcome.REDEAL or (outcome == Outcome.PASSED and ruleset.passout_redeal):
        return dealer
    if (
        ruleset.dealer_rotation is DealerRotation.WINNER
        and winner is not None
        and winner in seats
        and outcome in SCORED_OUTCOMES
    ):
        return winner
    return seats[(list(seats).index(dealer) + 1) % len(seats)]
