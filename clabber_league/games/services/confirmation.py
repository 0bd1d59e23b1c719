"""Confirming a finished game's result: who may accept it, for which side, and when the
game is confirmed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Player
from clabber_league.core.errors import CONFLICT, FORBIDDEN

from .. import store
from ..hooks import game_changed
from ..models import Acceptance, Deal, DealRevision, Game, GameSeat
from .errors import (
    ACCEPT_ALREADY,
    CONFIRM_CLUB_ADMIN_ONLY,
    CONFIRM_NOT_SEATED,
    CONFIRM_SAME_SIDE,
    CONFIRM_TOUCHED,
    GAME_ALREADY_CONFIRMED,
    GAME_NOT_FINISHED,
    GameError,
)

CONFIRM_HOW = {how.value: str(how.label) for how in Acceptance.How}


@dataclass(frozen=True)
class ConfirmationState:
    """What a finished game's confirmation waits for, read once (``confirmation_states``).

    ``entered``: the sides whose seated account recorded, corrected or deleted the deals,
    with nothing changed after their last change through a phone of no known side: their
    word is given, and they never accept. ``unknown``: something was entered through a
    table link, an account not seated at the table (a shared phone) or by nobody recorded.
    ``needed``: every other side, each of which must accept with a credential of its own."""

    game_id: int
    sides: tuple[str, ...]
    #: (side, player id, account id or None) per seat, in seat order.
    seats: tuple[tuple[str, int, int | None], ...]
    touchers: frozenset[int]
    entered: frozenset[str]
    unknown: bool
    #: side -> the acceptance that counts (given after the deals' last change).
    accepted: Mapping[str, Acceptance]
    last_revision: int

    @property
    def needed(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s not in self.entered)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(s for s in self.needed if s not in self.accepted)

    @property
    def complete(self) -> bool:
        return bool(self.needed) and not self.waiting

    def side_of(self, *, player_id: int | None = None, account_id: int | None = None) -> str | None:
        for side, player, account in self.seats:
            if (player_id is not None and player == player_id) or (
                player_id is None and account_id is not None and account == account_id
            ):
                return side
        return None


def confirmation_states(games: Sequence[Game]) -> dict[int, ConfirmationState]:
    """The confirmation state of each game, read for all of them at once (four queries)."""
    ids = [g.pk for g in games]
    if not ids:
        return {}
    seats: dict[int, list[tuple[str, int, int | None]]] = {pk: [] for pk in ids}
    for game_id, side, player_id, account in (
        GameSeat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "side", "player_id", "player__user_id")
    ):
        seats[game_id].append((side, player_id, account))
    touches: dict[int, list[tuple[int, int | None, str]]] = {pk: [] for pk in ids}
    for game_id, rev_id, account, table in (
        DealRevision.objects.filter(game_id__in=ids, action__in=DealRevision.TOUCHING)
        .order_by("id")
        .values_list("game_id", "id", "user_id", "entered_at_table")
    ):
        touches[game_id].append((rev_id, account, table))
    recorders: dict[int, set[int]] = {pk: set() for pk in ids}
    for game_id, account in Deal.objects.filter(game_id__in=ids).values_list(
        "game_id", "created_by_id"
    ):
        if account is not None:
            recorders[game_id].add(account)
    acceptances: dict[int, list[Acceptance]] = {pk: [] for pk in ids}
    for acceptance in Acceptance.objects.filter(game_id__in=ids).exclude(side="").order_by("id"):
        acceptances[acceptance.game_id].append(acceptance)
    return {pk: _state(pk, seats[pk], touches[pk], recorders[pk], acceptances[pk]) for pk in ids}


def _state(
    game_id: int,
    seats: list[tuple[str, int, int | None]],
    touches: list[tuple[int, int | None, str]],
    recorders: set[int],
    acceptances: list[Acceptance],
) -> ConfirmationState:
    side_of_account = {}
    for side, _player, account in seats:
        if account is not None:
            side_of_account.setdefault(account, side)
    last_known: dict[str, int] = {}
    last_unknown = 0
    touchers: set[int] = set(recorders)
    for rev_id, account, table in touches:
        if account is not None:
            touchers.add(account)
        side = side_of_account.get(account) if account is not None and not table else None
        if side is None:
            last_unknown = rev_id
        else:
            last_known[side] = rev_id
    # A deal whose recorder the history does not name (rows from before the history): the
    # recorder's side is known when they sit at the table.
    unnamed = not touches and bool(recorders)
    entered = {side for side, rev in last_known.items() if rev > last_unknown}
    entered |= {side_of_account[a] for a in recorders if a in side_of_account and unnamed}
    unknown = bool(last_unknown) or any(a not in side_of_account for a in recorders)
    last_revision = max([rev for rev, _a, _t in touches], default=0)
    accepted = {
        a.side: a
        for a in acceptances
        if a.after_revision >= last_revision and a.side in {s for s, _p, _a in seats}
    }
    return ConfirmationState(
        game_id=game_id,
        sides=tuple(sorted({s for s, _p, _a in seats})),
        seats=tuple(seats),
        touchers=frozenset(touchers),
        entered=frozenset(entered),
        unknown=unknown,
        accepted=accepted,
        last_revision=last_revision,
    )


def confirmation_state(*, game: Game) -> ConfirmationState:
    return confirmation_states([game])[game.pk]


def acceptance_refusal(
    state: ConfirmationState,
    *,
    account_id: int | None = None,
    player_id: int | None = None,
    is_admin: bool = False,
) -> tuple[str | None, str]:
    """THE rule of who may accept a finished game's result: ``(refusal, side)``, the
    refusal None when they may, ``side`` the side they accept for ("" the whole game).

    The one accepting is a seated player (``player_id``: their PIN proved it) or an account
    (``account_id``, a club admin when ``is_admin``). Nobody who recorded, corrected or
    deleted a deal accepts, nor their side while its word covers the deals (``entered``);
    each other side accepts once; a club admin who touched nothing and sits at no side may
    accept the whole game. Pure: every confirmation, one game or a list, asks this."""
    if player_id is not None:
        account_id = next((a for _s, p, a in state.seats if p == player_id), None)
        side = state.side_of(player_id=player_id)
    else:
        side = state.side_of(account_id=account_id)
    if account_id is not None and account_id in state.touchers:
        return CONFIRM_TOUCHED, ""
    if side is None:
        if is_admin and player_id is None and account_id is not None:
            return None, ""
        return CONFIRM_NOT_SEATED, ""
    if side in state.entered:
        return CONFIRM_SAME_SIDE, side
    if side in state.accepted:
        return ACCEPT_ALREADY, side
    return None, side


#: The one hook by which a layer above holds a finished game back from being confirmed
#: (members: an open dispute, which a club admin resolves). Each takes the game and says
#: why not, or None. ``game_confirm_refusal`` asks them; a confirmation in the name of the
#: club (``how="club"``) does not. Registered once, in the app's ``ready()``.
CONFIRM_HOLDS: list[Callable[[Game], str | None]] = []


def confirm_hold_register(hook: Callable[[Game], str | None]) -> None:
    if hook not in CONFIRM_HOLDS:
        CONFIRM_HOLDS.append(hook)


def game_touchers(*, game: Game) -> set[int]:
    """The accounts that recorded, corrected or deleted any deal of ``game``."""
    return set(confirmation_state(game=game).touchers)


def game_confirm_refusal(
    *,
    game: Game,
    user: Any = None,
    player: Player | None = None,
    access: ClubAccess | None = None,
) -> str | None:
    """Why the confirmer may not accept ``game``'s result now, or None when they may:
    the confirm holds (an open dispute), then ``acceptance_refusal``. ``access`` is the
    account's access to the club as the page or the API resolved it (roles are decided
    there; without it the account is no club admin)."""
    for hold in CONFIRM_HOLDS:
        reason = hold(game)
        if reason:
            return reason
    refusal, _side = _refusal(game, confirmation_state(game=game), user, player, access)
    return refusal


def _refusal(
    game: Game,
    state: ConfirmationState,
    user: Any,
    player: Player | None,
    access: ClubAccess | None,
) -> tuple[str | None, str]:
    if player is not None:
        return acceptance_refusal(state, player_id=player.pk)
    account_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    return acceptance_refusal(
        state, account_id=account_id, is_admin=bool(account_id) and _manages(access, game)
    )


def _manages(access: ClubAccess | None, game: Game) -> bool:
    """Whether the caller's ``access`` makes them an admin of the game's club."""
    return access is not None and access.club.pk == game.club_id and access.can_manage


@transaction.atomic
def game_confirm(
    *,
    game: Game,
    user: Any = None,
    player: Player | None = None,
    access: ClubAccess | None = None,
    how: str | None = None,
    device_user: Any = None,
    at_table: str = "",
) -> Game:
    """Accept a finished game's result for the confirmer's side; the game is confirmed
    (then no deal can be changed) once every side that did not enter it has accepted.

    Every page, API call, table phone, club night and cup confirms through here; who may
    is ``acceptance_refusal``'s rule. ``player`` is a seated player whose PIN was checked
    (on the phone of ``device_user``, or a table link's phone: ``at_table``); ``user`` the
    account that accepts otherwise, with its ``access`` to the club. An unseated club
    admin who touched nothing accepts the whole game ("admin"). ``how="club"`` is a club
    admin's ruling (a dispute resolved): the whole game, even after correcting deals. The
    acceptances are the history: who, how, when."""
    if how is not None and how not in CONFIRM_HOW:
        raise ValueError(f"unknown way of confirming: {how!r}")
    game = store.game_locked(game.pk)
    if game.status == Game.Status.CONFIRMED:
        raise GameError.one("game", GAME_ALREADY_CONFIRMED, kind=CONFLICT)
    if game.status != Game.Status.FINISHED:
        raise GameError.one("game", GAME_NOT_FINISHED, kind=CONFLICT)
    state = confirmation_state(game=game)
    if how == Acceptance.How.CLUB:
        if not _manages(access, game):
            raise GameError.one("game", CONFIRM_CLUB_ADMIN_ONLY, kind=FORBIDDEN)
        side = ""
    else:
        refusal = next((r for r in (hold(game) for hold in CONFIRM_HOLDS) if r), None)
        if refusal is None:
            refusal, side = _refusal(game, state, user, player, access)
        if refusal is not None:
            kind = CONFLICT if refusal == ACCEPT_ALREADY else FORBIDDEN  # who may: 403
            raise GameError.one("game", refusal, kind=kind)
        if side == "":
            how = Acceptance.How.ADMIN
        elif how is None or how == Acceptance.How.ADMIN:
            how = Acceptance.How.PIN if player is not None else Acceptance.How.OWN_PHONE
    account = player.user if player is not None else user
    account = account if getattr(account, "is_authenticated", False) else None
    device = device_user if getattr(device_user, "is_authenticated", False) else None
    acceptance = Acceptance.objects.create(
        game=game,
        side=side,
        how=how,
        player=player,
        user=account,
        device_user=device,
        at_table=at_table,
        after_revision=state.last_revision,
    )
    if side and not confirmation_state(game=game).complete:
        return game  # waiting for the other side(s)
    game.status = Game.Status.CONFIRMED
    game.confirmed_at = acceptance.at
    game.confirmed_by = account
    game.save(update_fields=["status", "confirmed_at", "confirmed_by", "updated_at"])
    how_recorded: dict[str, Any] = {"how": how}
    if player is not None:
        how_recorded.update(player=player.pk, name=player.name)
    if device is not None:
        how_recorded["device_user"] = device.pk
    DealRevision.objects.create(
        game=game,
        action=DealRevision.Action.CONFIRM,
        user=account,
        after=how_recorded,
        entered_at_table=at_table,
    )
    game_changed.send(game=game, status_before=Game.Status.FINISHED, fixture=None)
    return game
