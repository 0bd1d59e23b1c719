"""Checking a club night's draw: each drawn round drawn again from its published seed and
what the draw read (``Round.draw_input``: the ids drawn, the table size, three-hand tables,
keep-apart, the movement and the rounds of its history), compared with the tables and
sit-outs stored. ``manage.py draw_check`` and the night's API (``rounds/<n>/check/``) use
it; anyone with the code of the named ``draw_algorithm`` can do the same by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from clabber_league.core.commitments import seed_hash

from . import draw
from .models import Round

ALGORITHM_OTHER = gettext_lazy(
    "Drawn by {stored}; this server runs {current}: check it with that version."
)
NOT_DRAWN = gettext_lazy("Round {number} is not drawn yet: its seed is still secret.")
NO_RECORD = gettext_lazy("Round {number} was drawn before draws recorded what they read.")
DIFFERENT = gettext_lazy("Drawn again from its seed, round {number} comes out differently.")


@dataclass(frozen=True)
class DrawCheck:
    """One round's check: ``ok`` when drawing it again gives its stored tables."""

    number: int
    seed: str | None
    seed_hash: str
    algorithm: str
    ok: bool
    message: str = ""


def _stored(round_: Round) -> tuple[list[list[int]], list[int]]:
    """The round's tables (seats and first dealer) and sit-outs as the planner gives them
    (fixed pairs: the pairs' ids)."""
    tables = [
        [list(t.seats), t.first_dealer]
        for t in round_.tables.order_by("number").only("seats", "first_dealer")
    ]
    sat = sorted(round_.sit_outs.values_list("player_id", flat=True))
    return tables, sat


def _planned(round_: Round, planned: draw.RoundDraw) -> tuple[list[list[int]], list[int]]:
    inputs = round_.draw_input
    if inputs.get("kind") != "pairs":
        return [[list(t.seats), t.first_dealer] for t in planned.tables], sorted(planned.sit_outs)
    pairs = {int(k): v for k, v in inputs["pairs"].items()}
    tables = []
    for t in planned.tables:
        (ns1, ns2), (ew1, ew2) = pairs[t.seats[0]], pairs[t.seats[1]]
        # games.game_start keeps the seat's side's first dealer: the pair's first player.
        tables.append([[ns1, ew1, ns2, ew2], t.first_dealer % 2])
    sat = sorted(p for pair in planned.sit_outs for p in pairs[pair])
    return tables, sat


def round_check(round_: Round) -> DrawCheck:
    """Draw ``round_`` again from its seed and record, and compare with what is stored."""
    from .services.rounds import plan_from

    number = round_.number
    digest = seed_hash(round_.seed)
    if round_.status not in (Round.Status.PLAYING, Round.Status.FINISHED):
        return DrawCheck(number, None, digest, "", False, NOT_DRAWN.format(number=number))
    base = DrawCheck(number, round_.seed, digest, round_.draw_algorithm, False)
    if not round_.draw_input or not round_.draw_algorithm:
        return _with(base, NO_RECORD.format(number=number))
    if round_.draw_algorithm != draw.ALGORITHM:
        message = ALGORITHM_OTHER.format(stored=round_.draw_algorithm, current=draw.ALGORITHM)
        return _with(base, message)
    planned = plan_from(
        club_id=round_.event.club_id, number=number, seed=round_.seed, **round_.draw_input
    )
    if _planned(round_, planned) != _stored(round_):
        return _with(base, DIFFERENT.format(number=number))
    return DrawCheck(number, round_.seed, digest, round_.draw_algorithm, True)


def _with(check: DrawCheck, message: str) -> DrawCheck:
    return DrawCheck(check.number, check.seed, check.seed_hash, check.algorithm, False, message)
