"""Recording deals: the next deal of a game (``deal_record``), rows of an old paper sheet,
a game re-scored.

Every write runs in one transaction with the game's row locked (``SELECT ... FOR
UPDATE``, ``store.game_locked``), so two scorers at one table are served one after the
other: neither deal is lost and none is recorded twice. The unique ``(game, number)``
constraint and the per-game idempotency key back that up in the database itself.

The next deal is scored from the running state kept on the game row, with one question
to the rules engine (``rules.play_next``); a correction re-scores the whole game from its
deals (``corrections``), so running totals, the finish and the winner never drift from
the deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from clabber_league.clubs.models import Club
from clabber_league.core.errors import CONFLICT
from clabber_league.core.store import in_transaction
from clabber_league.rules.errors import msg

from .. import adapters, store
from ..models import Deal, Game
from .corrections import _kept_key
from .errors import (
    DEAL_KEY_DELETED,
    DEAL_NUMBER_AHEAD,
    DEAL_NUMBER_TAKEN,
    DealKeyDeleted,
    GameError,
)
from .scoring import (
    Preview,
    _check_maker_seat,
    _check_room,
    _closed_message,
    _deal_input,
    _dealers,
    _next_step,
    _score,
    check_rows_count,
)
from .state import _creation, _deal_create, _game_save, _game_store, _rescore_rows, _state_set


@dataclass
class Recorded:
    deal: Deal
    created: bool
    preview: Preview | None = field(default=None)


@dataclass(frozen=True)
class _DealRequest:
    """What a caller asks ``deal_record`` to record (its keyword arguments, held once)."""

    game_id: int
    club: Club | None
    data: Mapping[str, Any]
    maker_seat: int | None
    number: int | None
    user: Any
    at_table: str
    key: str | None
    fingerprint: str


def deal_record(
    *,
    game_id: int,
    data: Mapping[str, Any],
    club: Club | None = None,
    maker_seat: int | None = None,
    number: int | None = None,
    user: Any = None,
    at_table: str = "",
    idempotency_key: str | None = None,
    idempotency_fingerprint: str = "",
) -> Recorded:
    """Record the next deal of game ``game_id``, whole or not at all. Every page, API
    call, table phone, offline sync, club night and cup records a deal through here.

    The game is read once, locked (``store.game_locked``), and only if it is ``club``'s when
    one is given (the API passes the club of its URL: ``Game.DoesNotExist`` otherwise).

    ``number``: the deal's number as the sender counted it (a phone that recorded deals
    offline). When the game's next deal has another number, another phone or page got
    there first: a 409 conflict, nothing recorded, for a person to resolve.

    With an ``idempotency_key`` a retried request returns the deal the first one
    recorded (``created=False``) instead of recording it twice. The deal's unique
    ``(game, idempotency_key)`` index is the check, so a first request reads nothing more:
    a retry fails on it (or is refused, the first request having finished the game, say),
    is rolled back, and only then is the deal with its key read. ``idempotency_fingerprint``
    is kept with the key (the API compares a replay's request with it).

    ``at_table``: the table whose link records the deal (``games.table_links``), kept on
    the deal and in the history ("entered at table 3 (table link)").
    """
    request = _DealRequest(
        game_id=int(game_id),
        club=club,
        data=data,
        maker_seat=maker_seat,
        number=number,
        user=user,
        at_table=at_table,
        key=idempotency_key or None,
        fingerprint=idempotency_fingerprint if idempotency_key else "",
    )
    if in_transaction() and not request.key:
        # Inside the caller's transaction: every check comes before the first write, so a
        # refused deal leaves that transaction as it was, and no savepoint is needed.
        return _deal_record(request)
    try:
        with transaction.atomic():
            return _deal_record(request)
    except (IntegrityError, GameError):
        # With a key: a retry (the lock serialises it after the first request) fails on the
        # key's unique index, or is refused now that the first one finished the game or
        # took its number. Its work is rolled back; hand back the deal the first recorded.
        if request.key:
            existing = Deal.objects.filter(game_id=request.game_id, idempotency_key=request.key)
            if (found := existing.first()) is not None:
                return Recorded(deal=found, created=False)
        raise


def _deal_record(request: _DealRequest) -> Recorded:
    """The deal path: read the game's state (locked), ask the engine once
    (``rules.play_next``), write through the store (``store.deal_game_write``)."""
    key, number, maker_seat = request.key, request.number, request.maker_seat
    game = store.game_locked(request.game_id, club=request.club)
    deleted = game.deleted_keys.get(key) if key and game.deleted_keys else None
    if deleted is not None and _kept_key(deleted):
        message = msg(DEAL_KEY_DELETED, number=deleted.get("number", "?"))
        raise DealKeyDeleted(
            [{"field": "Idempotency-Key", "message": message}],
            fingerprint=str(deleted.get("fingerprint") or ""),
        )
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    if number is not None and number != game.deal_count + 1:
        message = DEAL_NUMBER_TAKEN if number <= game.deal_count else DEAL_NUMBER_AHEAD
        count, next_number = game.deal_count, game.deal_count + 1
        raise GameError.one(
            "number",
            msg(message, number=number, count=count, next=next_number),
            kind=CONFLICT,
        )
    _check_room(game, 1, "game")
    new = _deal_input(game, request.data)
    _check_maker_seat(game, new, maker_seat)
    step = _next_step(game, new)
    preview = step.preview
    deal = Deal(
        game=game,
        number=preview.number,
        dealer=preview.dealer,
        maker_seat=maker_seat,
        data=new,
        maker=new.get("maker") or "",
        idempotency_key=key,
        idempotency_fingerprint=request.fingerprint,
        created_by=request.user,
        entered_at_table=request.at_table,
        **adapters.deal_columns(preview.answer, preview.running),
    )
    status_before = game.status
    _state_set(
        game,
        scores=preview.totals,
        deal_count=preview.number,
        finished=preview.finished,
        winner=preview.winner,
        pot=step.pot,
        next_dealer=step.next_dealer,
    )
    store.deal_game_write(deal, _creation(deal), game)
    _game_store(game, status_before, saved=True)
    return Recorded(deal=deal, created=True, preview=preview)


@transaction.atomic
def game_rescore(*, game_id: int) -> Game:
    """Re-score every deal of a game from its recorded data (after an engine fix, say)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    rows = list(game.deals.order_by("number"))
    answer = _score(game, [r.data for r in rows])
    _rescore_rows(game, rows, answer)
    return game


@transaction.atomic
def sheet_rows_record(
    *, game: Game, rows: Sequence[Mapping[str, Any]], user: Any = None, at_table: str = ""
) -> list[Deal]:
    """Copy rows of an old paper sheet into a game, all of them or none.

    Each row is ``{"sheet": {"A": n, "B": m}, "maker": side, "mark": made|set|renege}`` or
    ``{"passed": true}``. The rules engine checks that some legal deal could give each row;
    errors name the row: ``rows[2].sheet.B``.
    """
    check_rows_count(len(rows))
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    _check_room(game, len(rows), "rows")
    existing = list(game.deals.order_by("number").values_list("data", flat=True))
    news = [adapters.deal_data(row) for row in rows]
    answer = _score(game, [*existing, *news], rows_from=len(existing))
    dealers = _dealers(game, answer)
    deals = [
        _deal_create(game, answer, index, data, dealers[index], user, at_table=at_table)
        for index, data in enumerate(news, start=len(existing))
    ]
    _game_save(game, answer)
    return deals
