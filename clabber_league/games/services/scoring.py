"""Scoring a game's deals with the rules engine, without writing: the limits, the preview
of a deal or a correction, who deals next."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from clabber_league.core.errors import CONFLICT
from clabber_league.rules import (
    RulesError,
    play_next,
    score_game_with_pot,
    winner_at_close,
)
from clabber_league.rules.dealing import complete_points, dealer_sequence
from clabber_league.rules.errors import msg

from .. import adapters
from ..models import Deal, DealRevision, Game
from .errors import (
    GAME_ABANDONED,
    GAME_CONFIRMED,
    GAME_FINISHED,
    GAME_FULL,
    LAST_DEAL_ONLY,
    MAKER_SEAT_RANGE,
    MAKER_SEAT_SIDE,
    ROWS_TOO_MANY,
    GameError,
)


@dataclass(frozen=True)
class Preview:
    """What a deal would put on the sheet, before it is saved."""

    number: int
    dealer: int
    answer: dict[str, Any]
    running: dict[str, int]
    finished: bool
    winner: str | None
    next_dealer: int | None
    #: The game's totals after its last deal (for a correction: after every later deal).
    totals: dict[str, int] = field(default_factory=dict)


# --- limits ----------------------------------------------------------------------------------


def max_deals() -> int:
    """The most deals one game takes (setting ``CLABBER_MAX_DEALS_PER_GAME``, default 200)."""
    return settings.CLABBER_MAX_DEALS_PER_GAME


def check_rows_count(count: int) -> None:
    """Refuse a request carrying more rows than any game can take, before any work."""
    if count > max_deals():
        raise GameError.one("rows", msg(ROWS_TOO_MANY, cap=max_deals()))


def _check_room(game: Game, adding: int, field_name: str) -> None:
    if game.deal_count + adding > max_deals():
        message = msg(GAME_FULL, cap=max_deals(), count=game.deal_count)
        raise GameError.one(field_name, message, kind=CONFLICT)


# --- scoring a game's deals -----------------------------------------------------------------


def _score(
    game: Game, datas: list[dict[str, Any]], *, at: int | None = None, rows_from: int | None = None
) -> dict[str, Any]:
    """The engine's answer for the whole game (with the ``pot`` left hanging), or GameError.

    Errors on deal ``at`` lose their ``deals[i].`` prefix, so that they name the fields of
    the deal being entered; with ``rows_from`` the deals from there on are named
    ``rows[k]``, the rows of a paper sheet being copied.
    """
    try:
        answer, pot = score_game_with_pot(adapters.game_input(game, datas))
    except RulesError as exc:
        raise GameError(
            [
                {"field": _field_name(e["field"], at, rows_from), "message": e["message"]}
                for e in exc.errors
            ]
        ) from exc
    return {**answer, "pot": pot}  # the pot hanging after the last deal, for the game row


def _field_name(name: str, at: int | None, rows_from: int | None) -> str:
    head, dot, rest = name.partition(".")
    if not (head.startswith("deals[") and head[6:-1].isdigit()):
        return name
    index = int(head[6:-1])
    if index == at:
        return rest or "deal"
    if rows_from is not None:
        return f"rows[{index - rows_from}]{dot}{rest}"
    return name


def _dealers(game: Game, answer: Mapping[str, Any]) -> list[int]:
    """The dealer of every deal and of the next one (``rules.dealing.dealer_sequence``)."""
    return dealer_sequence(adapters.game_ruleset(game), game.first_dealer, answer["deals"])


def _deal_input(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    """A deal as stored and scored: the game-level keys dropped and, where every card is
    played, one side's missing card points completed (``rules.dealing.complete_points``),
    so the API takes one side's points as the page does."""
    new = adapters.deal_data(data)
    points = new.get("points")
    if isinstance(points, Mapping):
        new["points"] = complete_points(adapters.game_ruleset(game), points, trump=new.get("trump"))
    return new


def _check_maker_seat(game: Game, data: Mapping[str, Any], maker_seat: int | None) -> None:
    """The player who named trump must sit on the maker's side."""
    if maker_seat is None:
        return
    if not 0 <= maker_seat < adapters.game_ruleset(game).players:
        raise GameError.one("maker_seat", MAKER_SEAT_RANGE)
    seat_side = adapters.seat_side(maker_seat, len(game.scores))
    maker = data.get("maker")
    if maker is not None and maker != seat_side:
        raise GameError.one("maker_seat", msg(MAKER_SEAT_SIDE, seat_side=seat_side, maker=maker))


def _preview_from(game: Game, answer: Mapping[str, Any], index: int) -> Preview:
    dealers = _dealers(game, answer)
    last = index == len(answer["deals"]) - 1
    finished, winner = bool(answer["finished"]), answer["winner"]
    if not finished and _limit_reached(game, len(answer["deals"])):
        finished, winner = True, winner_at_close(answer["scores"])
    return Preview(
        number=index + 1,
        dealer=dealers[index],
        answer=dict(answer["deals"][index]),
        running=dict(answer["running"][index]),
        finished=finished and last,
        winner=winner if last else None,
        next_dealer=None if finished else dealers[-1],
        totals=dict(answer["scores"]),
    )


def deal_preview(*, game: Game, data: Mapping[str, Any], maker_seat: int | None = None) -> Preview:
    """Score a deal as the next one of the game without saving anything (from the game as
    the caller read it: the page and the API read it for this request)."""
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    return _next_step(game, new).preview


@dataclass
class _Step:
    """The next deal scored, and the game's running state after it."""

    preview: Preview  # its ``totals`` are the game's totals after the deal
    pot: int
    next_dealer: int  # who would deal next, even after the game's last deal


def _next_step(game: Game, new: dict[str, Any]) -> _Step:
    """Score ``new`` as the game's next deal from the running state on the game row
    (``rules.play_next``, asked once: no earlier deal is read); from all its deals when that
    state is not known yet."""
    if game.next_dealer is None:
        datas = list(game.deals.order_by("number").values_list("data", flat=True))
        answer = _score(game, [*datas, new], at=len(datas))
        preview = _preview_from(game, answer, len(datas))
        return _Step(preview, answer["pot"], _dealers(game, answer)[-1])
    try:  # one question to the engine: the deal, the next dealer, the game's end
        step = play_next(
            adapters.rules_input(game.rules),
            new,
            totals=game.scores,
            pot=game.pot,
            deals_before=game.deal_count,
            dealer=game.next_dealer,
            deal_limit=game.deal_limit,
        )
    except RulesError as exc:
        raise GameError(exc.errors) from exc
    finished = bool(step["finished"])
    preview = Preview(
        number=game.deal_count + 1,
        dealer=step["dealer"],
        answer=step["deal"],
        running=step["running"],
        finished=finished,
        winner=step["winner"],
        next_dealer=None if finished else step["next_dealer"],
        totals=step["scores"],
    )
    return _Step(preview, step["pot"], step["next_dealer"])


def deal_correct_preview(
    *, deal: Deal, data: Mapping[str, Any], maker_seat: int | None = None
) -> Preview:
    """Score a correction of ``deal`` without saving anything: that deal's number, its
    score and the running totals after it, with every deal before it as recorded (and the
    game's totals once the later deals are re-scored too)."""
    game = deal.game
    if game.status in (Game.Status.CONFIRMED, Game.Status.ABANDONED):
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    rows, index = _rows_and_index(game, deal)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    datas = [r.data for r in rows]
    datas[index] = new
    answer = _score(game, datas, at=index)
    return _preview_from(game, answer, index)


def _limit_reached(game: Game, deal_count: int) -> bool:
    """Whether the game's deal limit (a round of N deals, or time called) ends it now."""
    return game.deal_limit is not None and deal_count >= game.deal_limit


def _closed_message(game: Game) -> str:
    """Why no deal can be added to a game that is not in progress."""
    if game.status == Game.Status.ABANDONED:
        return GAME_ABANDONED
    return GAME_CONFIRMED if game.confirmed_at else GAME_FINISHED


def _rows_and_index(game: Game, deal: Deal) -> tuple[list[Deal], int]:
    """The game's deals in order, and where ``deal`` stands among them."""
    rows = list(game.deals.order_by("number"))
    index = next((i for i, r in enumerate(rows) if r.pk == deal.pk), None)
    if index is None:
        raise GameError.one("deal", LAST_DEAL_ONLY)
    return rows, index


def next_dealer_seat(*, game: Game) -> int | None:
    """Who deals the game's next deal (None once it is finished), from the game as the
    caller read it."""
    if game.status != Game.Status.IN_PROGRESS:
        return None
    if game.next_dealer is not None:  # kept on the game row by every write
        return game.next_dealer
    datas = list(game.deals.order_by("number").values_list("data", flat=True))
    answer = _score(game, datas)
    return _dealers(game, answer)[-1]


def deal_same_as_first(*, deal: Deal, data: Mapping[str, Any], maker_seat: int | None) -> bool:
    """Whether ``data`` and ``maker_seat`` are what recorded ``deal`` (its first version,
    from the history when it was corrected since): a retry of the same request with its
    Idempotency-Key, not another deal sent with a key already used (422)."""
    try:
        new = _deal_input(deal.game, data)
    except (GameError, TypeError, ValueError, AttributeError):
        return False
    if new == deal.data and maker_seat == deal.maker_seat:
        return True
    first = (
        DealRevision.objects.filter(
            game_id=deal.game_id, action=DealRevision.Action.CREATE, at__gte=deal.created_at
        )
        .order_by("at", "id")
        .values_list("after", flat=True)
        .first()
    )
    return (
        isinstance(first, Mapping)
        and first.get("data") == new
        and first.get("maker_seat") == maker_seat
    )
