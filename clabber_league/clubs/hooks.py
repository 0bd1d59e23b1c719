"""The clubs app's hooks upward: "two players are being merged into one".

A player's rows live in the apps above clubs (team places, seats at a game, ratings,
invitations), which clubs may not import. ``clubs.services.player_merge`` therefore sends
two hooks, inside its transaction, with both player rows locked:

* ``player_merging(source=..., target=...)``: each app moves its own rows from ``source``
  to ``target`` (or refuses, raising a ``ServiceError``, when the two cannot be one person:
  both at the same table, both in one team). Nothing derived is recomputed yet.
* ``player_merged(target=..., source_id=...)``: sent once every app has moved its rows, so
  a handler that keeps numbers derived from them (the standings' player statistics and
  the ratings) recomputes them from the merged rows.

After the hooks, ``player_merge`` checks that no row anywhere still points at ``source``
before deleting it: an app that keeps players and connects no handler fails loudly
instead of losing rows. See ``core/hooks.py`` and ``docs/ARCHITECTURE.md``.
"""

from clabber_league.core.hooks import Hook

player_merging = Hook("player_merging")
player_merged = Hook("player_merged")
