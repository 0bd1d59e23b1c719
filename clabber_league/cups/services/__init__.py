"""Writing cups: one module per kind of write.

* ``setup``: create a cup (from a list of entrants, or a play-off after divisions), seed
  it (standings, ratings, a random draw with a shown seed, the order given) and draw it;
* ``progress``: play a tie (start its game, a walkover), and the bracket moving on as
  results are confirmed (the handler of ``games.hooks.game_changed``);
* ``build``: the Celery task's work that builds a play-off's knockout from its league stage;
* ``placing``: a round's ties put on league nights and tables, with the league's checks.

Every refusal is a :class:`CupError` (``core.errors.ServiceError``); its messages are
module constants that the tests assert on.
"""

from clabber_league.core.errors import ServiceError


class CupError(ServiceError):
    """A rejected cup write (``core.errors.ServiceError``)."""
