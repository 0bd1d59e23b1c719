"""The federation's writes (services), one module per kind; every public name is
importable from here.

- ``federations``: a federation, its member clubs (asked for or invited, accepted,
  removed), its officers;
- ``players``: player numbers (never reused), a club's player linked to a number and the
  link approved or refused;
- ``merges``: two records of one person merged with an officer's approval, and undone;
- ``privacy``: the player's choice of a public profile, erasure, the retention of players
  who left.
"""

from .errors import FederationError
from .federations import (
    club_accept,
    club_invite,
    club_refuse,
    club_remove,
    club_request,
    federation_create,
    officer_appoint,
    officer_remove,
)
from .merges import player_merge, player_unmerge
from .players import link_decide, link_propose, number_allocate, player_create
from .privacy import departed_erase, player_erase, player_mark_left, player_set_public

__all__ = [
    "FederationError",
    "club_accept",
    "club_invite",
    "club_refuse",
    "club_remove",
    "club_request",
    "departed_erase",
    "federation_create",
    "link_decide",
    "link_propose",
    "number_allocate",
    "officer_appoint",
    "officer_remove",
    "player_create",
    "player_erase",
    "player_mark_left",
    "player_merge",
    "player_set_public",
    "player_unmerge",
]
