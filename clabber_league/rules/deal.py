"""A deal as the score sheet records it, and what it scores.

:class:`Deal` is the checked form of the JSON of RULES.md section 6 (made by
:func:`~clabber_league.rules.validation.parse_deal`); :class:`DealResult` is
what :func:`~clabber_league.rules.scoring.score` makes of it.  Both are plain
frozen dataclasses: no parsing, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .melds import Meld


class Outcome(StrEnum):
    MADE = "made"
    SET = "set"
    RENEGE = "renege"
    PASSED = "passed"
    REDEAL = "redeal"
    HUNG = "hung"


SCORED_OUTCOMES = frozenset({Outcome.MADE, Outcome.SET, Outcome.RENEGE})
"""Outcomes that put numbers on the sheet (and take a hanging pot)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One checked deal."""

    passed: bool = False
    maker: str | None = None
    trump: str | None = None
    """A suit, ``"none"`` for no trumps, or None (passed-out / redealt deals)."""
    points: Mapping[str, int] | None = None
    last_trick: str | None = None
    tricks: Mapping[str, int] | None = None
    melds: Mapping[str, tuple[Meld, ...]] | None = None
    bell: str | None = None
    renege: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one deal scores (RULES.md 3.1), plus what a game needs to go on."""

    outcome: Outcome
    score: dict[str, int]
    totals: dict[str, int]
    meld_winner: str | None
    meld_points: dict[str, int]
    pot: int = 0
    """The hanging pot after this deal (``tie_hangs``)."""
    pot_taken_by: str | None = None
    winner: str | None = None
    """The side that scored most in this deal, if one did (dealer rotation, the pot)."""
    game_won_by: str | None = None
    """A side whose scored melds include one of ``winning_melds``."""

    def to_data(self) -> dict[str, Any]:
        """The calculator answer: exactly outcome, score, totals, meld_winner, meld_points."""
        return {
            "outcome": self.outcome.value,
            "score": dict(self.score),
            "totals": dict(self.totals),
            "meld_winner": self.meld_winner,
            "meld_points": dict(self.meld_points),
        }
