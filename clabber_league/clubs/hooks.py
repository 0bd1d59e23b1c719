"""The clubs app's hooks upward: "two players are being merged into one", "a player was
anonymised", "a player's membership began or ended".

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
instead of losing rows.

``player_anonymised(player=..., names=(...), name=...)``: a person was erased (a
federation's erasure, ``clubs.services.player_anonymise``): the club's player row is
renamed ``name`` (an anonymous name) and unlinked from its login. Sent inside the
erasure's transaction; each app above replaces every old name in ``names`` with ``name``
in the texts it stored about the club's games (``clubs.names``: a cup's entrant and
walkover notes, a game's confirmation record, the club's notifications and reports, the
webhook deliveries' payloads, the invitations made for the player). A text the
handler misses is a name kept after an erasure: ``tests/federation/test_erasure.py``
searches every text column for it.

``player_active_changed(players=[...], active=bool)``: the membership of these club
players began (``active=True``: a player made active again, their login made a member
again) or ended (a player made inactive, their login removed from the club). Sent inside
the service's transaction. Registered by the federation
(``federation.services.privacy.players_active_changed``: a person whose last membership
in the federation's clubs ended has left, and the retention period runs; one who comes
back has not).

See ``core/hooks.py`` and ``docs/ARCHITECTURE.md``.
"""

from clabber_league.core.hooks import Hook

player_merging = Hook("player_merging")
player_merged = Hook("player_merged")
player_anonymised = Hook("player_anonymised")
player_active_changed = Hook("player_active_changed")
