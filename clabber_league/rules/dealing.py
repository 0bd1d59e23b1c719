"""Rules a game's record needs beside the scoring: who won a deal, who dealt each deal of a
game, and the card points one side leaves to the other.

Pure functions over the engine's answers (``score_game``'s ``deals``) and rule sets, so the
games app, the pages and the API never work these out themselves:

* :func:`deal_winner` the side that scored most in a deal (None on a tie or a nil deal);
* :func:`dealer_sequence` the dealer of every deal of a game and of the next one
  (``next_dealer`` deal after deal: to the left, or the deal's winner two-handed);
* :func:`complete_points` when every card is played, a deal whose card points are given
  for all sides but one gives that side the rest of the pack ("the other side gets the rest
  of the card points"), as a scorer writes it on paper.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import LAST_TRICK_BONUS, NO_TRUMPS
from .game import next_dealer
from .rulesets import RuleSet


def deal_winner(score: Mapping[str, int]) -> str | None:
    """The side that scored most in one deal; None when no side scored or two tie."""
    if not score:
        return None
    best = max(score.values())
    leaders = [side for side, points in score.items() if points == best]
    if len(leaders) != 1 or best == 0:
        return None
    return leaders[0]


def deal_winner_seat(ruleset: RuleSet, score: Mapping[str, int]) -> int | None:
    """The seat of the deal's winner where one player is a side (two-handed play); None
    otherwise, on a tie or a nil deal."""
    if ruleset.players_per_side != 1:
        return None
    winner = deal_winner(score)
    return None if winner is None else list(ruleset.sides).index(winner)


def dealer_sequence(
    ruleset: RuleSet, first_dealer: int, deals: Iterable[Mapping[str, Any]]
) -> list[int]:
    """The dealer of each of ``deals`` (the engine's answers: ``outcome`` and ``score``)
    and, last, of the next deal: one more seat than there are deals."""
    seats = list(range(ruleset.players))
    dealers = [first_dealer]
    for deal in deals:
        dealers.append(
            next_dealer(
                ruleset,
                dealers[-1],
                seats,
                outcome=deal["outcome"],
                winner=deal_winner_seat(ruleset, deal["score"]),
            )
        )
    return dealers


def complete_points(
    ruleset: RuleSet,
    points: Mapping[str, Any],
    *,
    trump: str | None = None,
    with_last: bool = False,
) -> dict[str, Any]:
    """``points`` with the one side left out (or given as None) credited with the rest of
    the pack's card points, where every card is played; unchanged otherwise (the engine then
    says what is missing or wrong). ``with_last``: the numbers include the last trick's 10,
    as a klaverjas tally sheet writes them (``points_with_last``: 162 in all)."""
    given = {side: value for side, value in points.items() if value is not None}
    missing = [side for side in ruleset.sides if side not in given]
    if (
        len(missing) != 1
        or not ruleset.all_cards_played
        or set(given) - set(ruleset.sides)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in given.values())
    ):
        return dict(points) if len(given) == len(points) else given
    total = ruleset.card_points_total(trump == NO_TRUMPS) + (LAST_TRICK_BONUS if with_last else 0)
    return {**given, missing[0]: total - sum(given.values())}
