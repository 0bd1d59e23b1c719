"""Writing a game's state: its totals, status and running state after a change, the
deal rows and their history, the layers above told (``hooks.game_changed``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from clabber_league.core.errors import CONFLICT
from clabber_league.leagues.results import game_counts
from clabber_league.rules import winner_at_close
from clabber_league.scheduling.services.fixture_changes import fixture_result_update

from .. import adapters, store
from ..hooks import game_changed
from ..models import Deal, DealRevision, Game
from ..store import GAME_STATE_FIELDS
from .errors import GameError
from .scoring import _closed_message, _dealers, _limit_reached


def _creation(deal: Deal) -> DealRevision:
    """The audit row of a new deal."""
    return DealRevision(
        game=deal.game,
        deal_number=deal.number,
        action=DealRevision.Action.CREATE,
        user=deal.created_by,
        after=_revision_view(deal),
        entered_at_table=deal.entered_at_table,
    )


def _deal_create(
    game: Game,
    answer: Mapping[str, Any],
    index: int,
    data: dict[str, Any],
    dealer: int,
    user: Any,
    *,
    maker_seat: int | None = None,
    idempotency_key: str | None = None,
    at_table: str = "",
) -> Deal:
    """Insert deal ``index`` of the engine's answer, with its audit row."""
    return _deal_insert(
        game,
        index + 1,
        data,
        dealer,
        user,
        columns=adapters.deal_columns(answer["deals"][index], answer["running"][index]),
        maker_seat=maker_seat,
        idempotency_key=idempotency_key,
        at_table=at_table,
    )


def _deal_insert(
    game: Game,
    number: int,
    data: dict[str, Any],
    dealer: int,
    user: Any,
    *,
    columns: Mapping[str, Any],
    maker_seat: int | None = None,
    idempotency_key: str | None = None,
    at_table: str = "",
) -> Deal:
    """Insert deal ``number`` with its scored ``columns``, and its audit row."""
    deal = Deal.objects.create(
        game=game,
        number=number,
        dealer=dealer,
        maker_seat=maker_seat,
        data=data,
        maker=data.get("maker") or "",
        idempotency_key=idempotency_key or None,
        created_by=user,
        entered_at_table=at_table,
        **columns,
    )
    DealRevision.objects.create(
        game=game,
        deal_number=deal.number,
        action=DealRevision.Action.CREATE,
        user=user,
        after=_revision_view(deal),
        entered_at_table=at_table,
    )
    return deal


def _game_save(game: Game, answer: Mapping[str, Any]) -> None:
    """The game's totals, status, winner and running state from the engine's answer for
    all its deals; then :func:`_game_store`."""
    status_before = game.status
    _state_set(
        game,
        scores=answer["scores"],
        deal_count=len(answer["deals"]),
        finished=bool(answer["finished"]),
        winner=answer["winner"],
        pot=answer["pot"],
        next_dealer=_dealers(game, answer)[-1],
    )
    _game_store(game, status_before)


def _game_store(game: Game, status_before: str, *, saved: bool = False) -> None:
    """Save the game's totals, status and running state (unless the caller just ``saved``
    them); the fixture's status when the game starts or stops counting; then the layers
    above hear of it (``hooks.game_changed``: the standings)."""
    if not saved:
        game.save(update_fields=GAME_STATE_FIELDS)
    fixture = None
    if game.fixture_id and game_counts(status_before) != game_counts(game.status):
        # The fixture's status follows its result in this same transaction.
        fixture = fixture_result_update(fixture_id=game.fixture_id)
    game_changed.send(game=game, status_before=status_before, fixture=fixture)


def _state_set(
    game: Game,
    *,
    scores: Mapping[str, int],
    deal_count: int,
    finished: bool,
    winner: str | None,
    pot: int,
    next_dealer: int,
) -> None:
    game.score_a = scores.get("A", 0)
    game.score_b = scores.get("B", 0)
    game.score_c = scores.get("C")
    game.deal_count = deal_count
    game.pot = pot
    game.next_dealer = next_dealer
    if not finished and _limit_reached(game, deal_count):
        finished, winner = True, winner_at_close(scores)
    if finished:
        game.status = Game.Status.FINISHED
        game.winner = winner or ""
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.status = Game.Status.IN_PROGRESS
        game.winner = ""
        game.finished_at = None


def _revision_view(deal: Deal) -> dict[str, Any]:
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "maker_seat": deal.maker_seat,
        "data": deal.data,
        "outcome": deal.outcome,
        "score": deal.scores,
    }


# --- corrections ---------------------------------------------------------------------------


def _rescore_rows(game: Game, rows: list[Deal], answer: Mapping[str, Any]) -> None:
    """Write the engine's answer back onto every deal row and the game."""
    dealers = _dealers(game, answer)
    changed = []
    now = timezone.now()
    for index, (row, deal_answer) in enumerate(zip(rows, answer["deals"], strict=True)):
        columns = adapters.deal_columns(deal_answer, answer["running"][index])
        columns["number"] = index + 1
        columns["dealer"] = dealers[index]
        if any(getattr(row, k) != v for k, v in columns.items()):
            for k, v in columns.items():
                setattr(row, k, v)
            row.updated_at = now  # bulk_update skips auto_now: ?updated_since= must see it
            changed.append(row)
    if changed:
        Deal.objects.bulk_update(
            changed,
            [
                "number",
                "dealer",
                "outcome",
                "result",
                "score_a",
                "score_b",
                "score_c",
                "running_a",
                "running_b",
                "running_c",
                "updated_at",
            ],
        )
    _game_save(game, answer)


def _locked_open_game(game_id: int) -> Game:
    game = store.game_locked(game_id)
    if game.status in (Game.Status.CONFIRMED, Game.Status.ABANDONED):
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    return game
