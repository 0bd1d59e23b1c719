"""Keeping the standings (writes), one module per job:

- ``write_through``: the handlers of ``games.hooks.game_changed`` and
  ``scheduling.hooks.fixture_changed``; they keep the stored rows up to date inside the
  transaction of every game or forfeit written.
- ``rebuild``: recompute everything from the deals and the forfeits, to check the stored
  rows (``standings_differences``) or replace them (``standings_rebuild``);
  ``manage.py standings_check`` uses them.
- ``matches``: what a match gives each team and player, loaded from the games; both of the
  above compute with it, so the rows kept and the rows rebuilt cannot differ.
- ``tiebreakers``: a division's choice of tiebreakers.
"""

from __future__ import annotations

from clabber_league.core.errors import ServiceError


class StandingsError(ServiceError):
    """A rejected standings write (``core.errors.ServiceError``)."""
