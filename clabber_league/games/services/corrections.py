"""Correcting, deleting and setting aside deals; the deleted deals' keys."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from clabber_league.core.services import retention
from clabber_league.rules import (
    RulesError,
    score_deal,
)

from .. import adapters
from ..models import Deal, DealRevision, Game
from .errors import DELETED_KEYS_KEPT, GameError
from .scoring import _check_maker_seat, _deal_input, _rows_and_index, _score, max_deals
from .state import _locked_open_game, _rescore_rows, _revision_view


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    data: Mapping[str, Any],
    maker_seat: int | None = None,
    user: Any = None,
    at_table: str = "",
) -> Deal:
    """Change a recorded deal; every deal after it is re-scored. Kept in the audit history.

    A correction that changes nothing (the same correction sent again, by a phone's outbox
    after a lost answer, say) writes nothing and adds no history line."""
    game = _locked_open_game(deal.game_id)
    rows, index = _rows_and_index(game, deal)
    row = rows[index]
    before = _revision_view(row)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    if new == row.data and maker_seat == row.maker_seat:
        return row
    datas = [r.data for r in rows]
    datas[index] = new
    answer = _score(game, datas, at=index)
    row.data = new
    row.maker = new.get("maker") or ""
    row.maker_seat = maker_seat
    row.save(update_fields=["data", "maker", "maker_seat", "updated_at"])
    _rescore_rows(game, rows, answer)
    DealRevision.objects.create(
        game=game,
        deal_number=row.number,
        action=DealRevision.Action.UPDATE,
        user=user,
        before=before,
        after=_revision_view(row),
        entered_at_table=at_table,
    )
    return row


@transaction.atomic
def deal_delete(*, deal: Deal, user: Any = None, at_table: str = "") -> None:
    """Remove a deal; the deals after it move up one and everything is re-scored."""
    game = _locked_open_game(deal.game_id)
    rows, index = _rows_and_index(game, deal)
    removed = rows.pop(index)
    before = _revision_view(removed)
    answer = _score(game, [r.data for r in rows])
    removed.delete()
    if removed.idempotency_key:
        _key_keep_deleted(game, removed)
    # Move the later deals down one number, lowest first, so no two rows ever share one.
    for row in rows[index:]:
        Deal.objects.filter(pk=row.pk).update(number=row.number - 1, updated_at=timezone.now())
        row.number -= 1
    _rescore_rows(game, rows, answer)
    DealRevision.objects.create(
        game=game,
        deal_number=removed.number,
        action=DealRevision.Action.DELETE,
        user=user,
        before=before,
        entered_at_table=at_table,
    )


def _deleted_at(entry: Any) -> dt.datetime | None:
    at = entry.get("at") if isinstance(entry, Mapping) else None
    try:
        return dt.datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        return None


def _kept_key(entry: Any, cutoff: dt.datetime | None = None) -> bool:
    """Whether a deleted deal's key is still within the keys' retention (one whose time
    cannot be read is kept: refusing a retry is the safe side)."""
    when = _deleted_at(entry)
    return when is None or when >= (cutoff or timezone.now() - retention())


def _key_keep_deleted(game: Game, removed: Deal) -> None:
    """Keep the deleted deal's key on its game (``Game.deleted_keys``) so that a retry of
    the request that recorded it is told it was deleted instead of recording it again. The
    keys past their retention go, and at most ``DELETED_KEYS_KEPT`` stay."""
    kept = {k: v for k, v in (game.deleted_keys or {}).items() if _kept_key(v)}
    kept[removed.idempotency_key] = {
        "number": removed.number,
        "at": timezone.now().isoformat(),
        "fingerprint": removed.idempotency_fingerprint,
    }
    if len(kept) > DELETED_KEYS_KEPT:
        newest = sorted(kept.items(), key=lambda item: str(item[1].get("at")))
        kept = dict(newest[-DELETED_KEYS_KEPT:])
    game.deleted_keys = kept
    Game.objects.filter(pk=game.pk).update(deleted_keys=kept)


def deleted_keys_purge(*, cutoff: dt.datetime) -> list[int]:
    """The daily clean-up's part for deleted deals' keys: forget those deleted before
    ``cutoff``; answers ``[how many]`` (a handler of ``core.hooks.idempotency_purging``)."""
    forgotten = 0
    games = Game.objects.exclude(deleted_keys={}).only("pk", "deleted_keys")
    for game in games.iterator(chunk_size=500):
        kept = {k: v for k, v in game.deleted_keys.items() if _kept_key(v, cutoff)}
        if len(kept) != len(game.deleted_keys):
            forgotten += len(game.deleted_keys) - len(kept)
            Game.objects.filter(pk=game.pk).update(deleted_keys=kept)
    return [forgotten]


SET_ASIDE_NUMBER = "number is the deal's number on the phone: a whole number from 1."


@transaction.atomic
def deal_set_aside(
    *, game: Game, number: int, data: Mapping[str, Any], maker_seat: int | None, user: Any = None
) -> DealRevision:
    """Keep in the game's history a deal that a person chose not to keep: a phone recorded
    it offline while another phone recorded that deal first, and the other phone's deals
    were kept. Nothing on the sheet changes; the history shows it as a deleted deal (with
    the score the rules give it alone, or none when they refuse it)."""
    game = _locked_open_game(game.pk)
    if not 0 < number <= max_deals():
        raise GameError.one("number", SET_ASIDE_NUMBER)
    new = _deal_input(game, data)
    try:
        answer = score_deal({**adapters.rules_input(game.rules), **new})
        outcome, score = answer["outcome"], answer["score"]
    except RulesError:
        outcome, score = "", {}
    return DealRevision.objects.create(
        game=game,
        deal_number=number,
        action=DealRevision.Action.DELETE,
        user=user,
        before={
            "number": number,
            "dealer": None,
            "maker_seat": maker_seat,
            "data": new,
            "outcome": outcome,
            "score": score,
            "set_aside": True,
        },
    )
