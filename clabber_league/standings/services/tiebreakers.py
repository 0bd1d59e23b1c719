"""A division's tiebreakers (writes)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import Division

from ..models import TIEBREAKERS, TiebreakerRules
from . import StandingsError

TIEBREAKER_UNKNOWN = _("Unknown tiebreaker {name!r}: choose from {known}.")
TIEBREAKER_TWICE = _("Each tiebreaker can be chosen once.")
DIVISION_OTHER_CLUB = _("This division is not one of the club's.")


def tiebreakers_set(*, club: Club, division: Division, tiebreakers: list[str]) -> TiebreakerRules:
    """Choose a division's tiebreakers, in order."""
    if division.club_id != club.pk:
        raise StandingsError([{"field": "division", "message": str(DIVISION_OTHER_CLUB)}])
    errors = []
    for index, name in enumerate(tiebreakers):
        if name not in TIEBREAKERS:
            errors.append(
                {
                    "field": f"tiebreakers[{index}]",
                    "message": str(TIEBREAKER_UNKNOWN).format(
                        name=name, known=", ".join(TIEBREAKERS)
                    ),
                }
            )
    if len(set(tiebreakers)) != len(tiebreakers):
        errors.append({"field": "tiebreakers", "message": str(TIEBREAKER_TWICE)})
    if errors:
        raise StandingsError(errors)
    rules, _ = TiebreakerRules.objects.update_or_create(
        division=division, defaults={"club": club, "tiebreakers": list(tiebreakers)}
    )
    return rules
