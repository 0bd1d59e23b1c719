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
    roem: Mapping[str, int] | None = None
    """Klaverjas: each side's roem (its claims summed), checked (KLAVERJAS.md 7.3)."""
    dealer: int | None = None
    """Klaverjas: the dealer's seat (0-3, side A on seats 0 and 2), when given."""


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
    klaverjas: bool = False
    """A klaverjas deal: the answer also carries ``pit`` and ``sheet``."""
    pit: str | None = None
    """Klaverjas: the side that took all eight tricks, or None."""
    sheet: Mapping[str, Mapping[str, int]] | None = None
    """Klaverjas: the tally sheet's two columns, ``{"points": {..}, "roem": {..}}``."""

    def to_data(self) -> dict[str, Any]:
        """The calculator answer: outcome, score, totals, meld_winner, meld_points (and, in
        klaverjas, pit and sheet)."""
        data: dict[str, Any] = {
            "outcome": self.outcome.value,
            "score": dict(self.score),
            "totals": dict(self.totals),
            "meld_winner": self.meld_winner,
            "meld_points": dict(self.meld_points),
        }
        if self.klaverjas:
            data["pit"] = self.pit
            sheet = self.sheet or {}
            data["sheet"] = {k: dict(v) for k, v in sheet.items()}
        return data
