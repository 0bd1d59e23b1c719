"""Abandoning a game, and calling time on one."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.results import game_counts
from clabber_league.scheduling.services.fixture_changes import fixture_result_update

from .. import store
from ..hooks import game_changed
from ..models import DealRevision, Game
from .errors import GAME_ABANDON_CONFIRMED, GAME_ALREADY_ABANDONED, GAME_CLOSE_NOT_OPEN, GameError
from .scoring import _limit_reached
from .state import _game_store, _state_set


@transaction.atomic
def game_abandon(*, game: Game, user: Any = None) -> Game:
    """Set aside a game started by mistake, with the permission rules of deleting a deal
    (a scorer; not once the result is confirmed). The game keeps its deals and its
    history, gains an "abandoned" entry, and counts nowhere: not for its fixture (which
    can be played again), the standings, the leaderboards or the ratings."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status == Game.Status.ABANDONED:
        raise GameError.one("game", GAME_ALREADY_ABANDONED, kind=CONFLICT)
    if game.status == Game.Status.CONFIRMED:
        raise GameError.one("game", GAME_ABANDON_CONFIRMED, kind=CONFLICT)
    status_before = game.status
    before = {
        "status": status_before,
        "winner": game.winner,
        "score": game.scores,
        "deal_count": game.deal_count,
        "fixture": game.fixture_id,
    }
    game.status = Game.Status.ABANDONED
    game.winner = ""
    game.save(update_fields=["status", "winner", "updated_at"])
    fixture = None
    if game.fixture_id and game_counts(status_before):
        fixture = fixture_result_update(fixture_id=game.fixture_id)
    DealRevision.objects.create(
        game=game, action=DealRevision.Action.ABANDON, user=user, before=before
    )
    game_changed.send(game=game, status_before=status_before, fixture=fixture)
    return game


@transaction.atomic
def game_close(*, game: Game, after_deal_in_progress: bool = True, user: Any = None) -> Game:
    """Time is called on a game in progress: it ends after the deal in progress (its deal
    limit becomes the next deal), or at once (``after_deal_in_progress=False``: no deal is
    in progress). A game closed short of the target is won by the side ahead
    (``rules.winner_at_close``), and a deal correction or deletion keeps to the limit. The
    history records who called time."""
    game = store.game_locked(game.pk)
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", GAME_CLOSE_NOT_OPEN, kind=CONFLICT)
    limit = game.deal_count + (1 if after_deal_in_progress else 0)
    if game.deal_limit is not None:
        limit = min(limit, game.deal_limit)
    game.deal_limit = limit
    game.save(update_fields=["deal_limit", "updated_at"])
    DealRevision.objects.create(
        game=game, action=DealRevision.Action.CLOSE, user=user, after={"deal_limit": limit}
    )
    if _limit_reached(game, game.deal_count):
        status_before = game.status
        _state_set(
            game,
            scores=game.scores,
            deal_count=game.deal_count,
            finished=False,
            winner=None,
            pot=game.pot,
            next_dealer=game.next_dealer if game.next_dealer is not None else game.first_dealer,
        )
        _game_store(game, status_before)
    return game


#: How a result was accepted, as the history says it (``Acceptance.How``).
