"""The club's venues: a name and a number of tables (writes)."""

from __future__ import annotations

from clabber_league.clubs.models import Club
from clabber_league.core.errors import conflict

from ..models import Venue
from . import ScheduleError

VENUE_OTHER_CLUB = "This venue is not one of the club's."
VENUE_NAME_TAKEN = "The club already has a venue of this name."
TABLES_RANGE = "A venue has 1 to 500 tables."


def _venue_errors(club_id: int, name: str, tables: int, venue: Venue | None = None) -> list:
    errors = []
    clash = Venue.objects.filter(club_id=club_id, name=name)
    if venue is not None:
        clash = clash.exclude(pk=venue.pk)
    if clash.exists():
        errors.append(conflict("name", VENUE_NAME_TAKEN))
    if not 1 <= tables <= 500:
        errors.append({"field": "tables", "message": TABLES_RANGE})
    return errors


def venue_create(*, club: Club, name: str, tables: int = 4) -> Venue:
    """A venue of the club with ``tables`` tables (1 to 500; 4 unless said)."""
    errors = _venue_errors(club.pk, name, tables)
    if errors:
        raise ScheduleError(errors)
    return Venue.objects.create(club=club, name=name, tables=tables)


def venue_update(*, venue: Venue, name: str | None = None, tables: int | None = None) -> Venue:
    """Rename a venue or change its number of tables; what is not given stays."""
    name = venue.name if name is None else name
    tables = venue.tables if tables is None else tables
    errors = _venue_errors(venue.club_id, name, tables, venue)
    if errors:
        raise ScheduleError(errors)
    venue.name, venue.tables = name, tables
    venue.save(update_fields=["name", "tables"])
    return venue
