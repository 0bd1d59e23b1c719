"""Scoring one deal (RULES.md 3.1): totals, the maker test, renege, pass, hung pots.

Each side's *total* is its card points, 10 for the last trick, its melds if
its best meld won the comparison (:mod:`~clabber_league.rules.melds`) and the
bell (always, for the side holding it).  The maker's side *makes* when its
total is strictly greater than every other side's; otherwise it is *set*:

* Clabber (every Clabber rule set): the maker scores 0, every other side its
  own total.
* Klaberjass family with two sides: on a tie the maker scores 0 and the
  opponent its own total; when the maker has less, the opponent scores its
  own total plus the maker's.  Three-handed: the maker 0, each opponent its
  own total.

``tie_hangs``: when the maker's total equals the best opponent's, nobody
scores (``hung``) and the totals of every side go into a *pot* that the
winner of the next scored deal (the side scoring most in it) adds to its
score; passed-out, redealt and further hung deals carry the pot on, and so
does a scored deal in which the sides share the highest score (RULES.md 3.1).
A pot still hanging when the game ends is lost (:mod:`~clabber_league.rules.game`).

``no_trick_no_meld`` (with ``tricks`` given): a side that won no trick
scores no meld; if its meld won the comparison, nobody scores melds.

Renege: the non-offending sides each score ``renege_penalty`` (162, 130 at
no trumps) plus their own melds and bell, with no comparison, so
``meld_winner`` is null; offenders score 0.  Every side reneging is a
redeal.  Passed out: no score.

``winning_melds`` end the game only for a side that scores them: its meld won
the comparison (or, in a renege, it did not renege), and it was not set.
"""

from __future__ import annotations

from .cards import LAST_TRICK_BONUS, NO_TRUMPS
from .deal import Deal, DealResult, Outcome
from .errors import RulesBug
from .melds import meld_total, meld_winner
from .rulesets import Family, RuleSet


def _zeros(ruleset: RuleSet) -> dict[str, int]:
    return dict.fromkeys(ruleset.sides, 0)


def _top(score: dict[str, int]) -> str | None:
    """The side that scored most, if exactly one did."""
    best = max(score.values())
    leaders = [s for s, v in score.items() if v == best]
    return leaders[0] if len(leaders) == 1 and best > 0 else None


def score(ruleset: RuleSet, deal: Deal, pot: int = 0) -> DealResult:
    """Score a checked deal; ``pot`` is a hanging pot carried in from earlier deals."""
    if ruleset.is_klaverjas:
        from .klaverjas import score_klaverjas

        return score_klaverjas(ruleset, deal)
    if deal.passed:
        zeros = _zeros(ruleset)
        return DealResult(Outcome.PASSED, zeros, dict(zeros), None, dict(zeros), pot=pot)
    melds = deal.melds or {}
    if deal.renege:
        return _renege(ruleset, deal, pot)
    if deal.points is None or deal.maker is None:
        raise RulesBug("a played deal reached scoring without points or maker")

    winner = meld_winner(ruleset, melds)
    if (
        winner is not None
        and ruleset.no_trick_no_meld
        and deal.tricks is not None
        and deal.tricks[winner] == 0
    ):
        winner = None
    totals: dict[str, int] = {}
    meld_points: dict[str, int] = {}
    for side in ruleset.sides:
        own = meld_total(melds.get(side, ())) if side == winner else 0
        if deal.bell == side:
            own += ruleset.bell_value
        meld_points[side] = own
        totals[side] = (
            deal.points[side] + own + (LAST_TRICK_BONUS if deal.last_trick == side else 0)
        )

    maker = deal.maker
    mine = totals[maker]
    best_other = max(v for s, v in totals.items() if s != maker)
    if mine > best_other:
        outcome = Outcome.MADE
        result = dict(totals)
    elif mine == best_other and ruleset.tie_hangs:
        return DealResult(
            Outcome.HUNG,
            _zeros(ruleset),
            totals,
            winner,
            meld_points,
            pot=pot + sum(totals.values()),
        )
    else:
        outcome = Outcome.SET
        result = dict(totals)
        result[maker] = 0
        if ruleset.family is Family.KLABERJASS and len(ruleset.sides) == 2 and mine < best_other:
            other = next(s for s in ruleset.sides if s != maker)
            result[other] += mine
    game_won_by = None
    if (
        winner is not None
        and result[winner] > 0
        and ruleset.winning_melds
        and any(m.kind in ruleset.winning_melds for m in melds.get(winner, ()))
    ):
        game_won_by = winner
    return _settle_pot(outcome, result, totals, winner, meld_points, pot, game_won_by)


def _settle_pot(
    outcome: Outcome,
    result: dict[str, int],
    totals: dict[str, int],
    winner: str | None,
    meld_points: dict[str, int],
    pot: int,
    game_won_by: str | None,
) -> DealResult:
    top = _top(result)
    taken_by = None
    if pot and top is not None:
        result[top] += pot
        taken_by, pot = top, 0
    return DealResult(
        outcome,
        result,
        totals,
        winner,
        meld_points,
        pot=pot,
        pot_taken_by=taken_by,
        winner=top,
        game_won_by=game_won_by,
    )


def _renege(ruleset: RuleSet, deal: Deal, pot: int) -> DealResult:
    offenders = set(deal.renege)
    if len(offenders) == len(ruleset.sides):
        zeros = _zeros(ruleset)
        return DealResult(Outcome.REDEAL, zeros, dict(zeros), None, dict(zeros), pot=pot)
    melds = deal.melds or {}
    penalty = ruleset.renege_points(deal.trump == NO_TRUMPS)
    result: dict[str, int] = {}
    meld_points: dict[str, int] = {}
    game_won_by = None
    for side in ruleset.sides:
        if side in offenders:
            result[side] = meld_points[side] = 0
            continue
        own = meld_total(melds.get(side, ()))
        if ruleset.winning_melds and any(
            m.kind in ruleset.winning_melds for m in melds.get(side, ())
        ):
            game_won_by = side
        if deal.bell == side:
            own += ruleset.bell_value
        meld_points[side] = own
        result[side] = penalty + own
    # No comparison is made in a renege: no side's melds "won" it (RULES.md section 6).
    return _settle_pot(Outcome.RENEGE, result, dict(result), None, meld_points, pot, game_won_by)
