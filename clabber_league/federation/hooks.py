"""The federation app's hooks upward (docs/ARCHITECTURE.md, "Hooks").

``players_changed``: "who counts as whom changed in a federation": a club player's link to
a number approved, a merge or its undo, a member club accepted or gone. Sent inside the
service's transaction::

    players_changed.send(federation_id=federation.pk)

Registered by the ranking (``ranking.services.ranking_players_changed``: the ranking is
replayed on commit), since the ranking sits above this app.

``player_erased``: "a player's record was erased; their results stay, under an anonymous
name". Sent inside ``privacy.player_erase``'s transaction, once per record::

    player_erased.send(federation_player=record, name=anonymous, names=(old name, email))

Registered by the exchange (``exchange.services.results_anonymise``: the imported rows and
files of the federation take the anonymous name too). The club rows and the texts of the
apps below the federation are done before it, through ``clubs.hooks.player_anonymised``;
the ranking registers nothing: its rows hold numbers and figures only, and the organiser
space's mirror rows are club rows linked to the number, renamed with the others.
"""

from __future__ import annotations

from clabber_league.core.hooks import Hook

players_changed = Hook("players_changed")
player_erased = Hook("player_erased")
