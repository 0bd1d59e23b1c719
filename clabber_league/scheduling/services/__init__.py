"""Writing schedules, one module per job:

- ``generation``: a division's schedule config and generating its fixtures, the one adapter
  in front of the pure planner (``scheduling.planning``), run by a Celery task.
- ``fixture_changes``: fixtures created, changed, moved, forfeited or deleted by hand, with
  the clash checks a generated schedule meets, and a fixture's status kept in step with its
  games.
- ``jobs``: the periodic work (publishing nights, reminders, overdue flags).

Each refuses a write by raising :class:`ScheduleError`. Seasons, divisions, teams and the
venues whose tables the fixtures use are written by ``leagues.services``, for the pages
and the API alike.
"""

from __future__ import annotations

from clabber_league.core.errors import ServiceError


class ScheduleError(ServiceError):
    """A rejected schedule write (``core.errors.ServiceError``)."""
