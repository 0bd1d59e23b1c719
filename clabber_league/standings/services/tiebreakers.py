"""A division's tiebreakers (writes)."""

from __future__ import annotations

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import Division

from ..models import TIEBREAKERS, TiebreakerRules
from . import StandingsError

TIEBREAKER_UNKNOWN = "Unknown tiebreaker {name!r}: choose from {known}."
TIEBREAKER_TWICE = "Each tiebreaker can be chosen once."
DIVISION_OTHER_CLUB = "This division is not one of the club's."


def tiebreakers_set(*, club: Club, division: Division, tiebreakers: list[str]) -> TiebreakerRules:
    """Choose a division's tiebreakers, in order."""
    if division.club_id != club.pk:
        raise StandingsError([{"field": "division", "message": DIVISION_OTHER_CLUB}])
    errors = []
    for index, name in enumerate(tiebreakers):
        if name not in TIEBREAKERS:
            errors.append(
                {
                    "field": f"tiebreakers[{index}]",
                    "message": TIEBREAKER_UNKNOWN.format(name=name, known=", ".join(TIEBREAKERS)),
                }
            )
    if len(set(tiebreakers)) != len(tiebreakers):
        errors.append({"field": "tiebreakers", "message": TIEBREAKER_TWICE})
    if errors:
        raise StandingsError(errors)
    rules, _ = TiebreakerRules.objects.update_or_create(
        division=division, defaults={"club": club, "tiebreakers": list(tiebreakers)}
    )
    return rules
