"""Recording games: start a game, record, correct and delete deals, confirm the result.

A package along its seams; every public name is importable from here, as callers did when
it was one module:

- ``errors``: what a rejected write says (``GameError``, ``DealKeyDeleted``, the messages);
- ``scoring``: the rules engine asked, nothing written (limits, previews, next dealer);
- ``start``: a game's seats, sides and fixture checked and its rows created;
- ``deals``: the next deal recorded (``deal_record``), rows of a paper sheet, a re-score;
- ``corrections``: a deal corrected, deleted or set aside, deleted deals' keys;
- ``closing``: a game abandoned, or time called on it;
- ``confirmation``: who accepts a finished game's result, and when it is confirmed;
- ``merging``: a merged player's seats;
- ``state``: the game's state after a change written, the layers above told.

Every write runs in one transaction with the game's row locked (``SELECT ... FOR
UPDATE``, ``store.game_locked``), so two scorers at one table are served one after the
other: neither deal is lost and none is recorded twice. The unique ``(game, number)``
constraint and the per-game idempotency key back that up in the database itself. The SQL
is all in ``games.store``; here are none of it and no cursor.
"""

from __future__ import annotations

from .closing import (
    game_abandon,
    game_close,
)
from .confirmation import (
    CONFIRM_HOLDS,
    CONFIRM_HOW,
    ConfirmationState,
    acceptance_refusal,
    confirm_hold_register,
    confirmation_state,
    confirmation_states,
    game_confirm,
    game_confirm_refusal,
    game_touchers,
)
from .corrections import (
    SET_ASIDE_NUMBER,
    deal_correct,
    deal_delete,
    deal_set_aside,
    deleted_keys_purge,
)
from .deals import (
    Recorded,
    deal_record,
    game_rescore,
    sheet_rows_record,
)
from .errors import (
    ACCEPT_ALREADY,
    CONFIRM_CLUB_ADMIN_ONLY,
    CONFIRM_NOT_SEATED,
    CONFIRM_SAME_SIDE,
    CONFIRM_TOUCHED,
    DEAL_KEY_DELETED,
    DEAL_LIMIT_RANGE,
    DEAL_NUMBER_AHEAD,
    DEAL_NUMBER_TAKEN,
    DELETED_KEYS_KEPT,
    FIRST_DEALER_DISAGREE,
    FIRST_DEALER_NOT_SEATED,
    FIRST_DEALER_RANGE,
    FIXTURE_DECIDED,
    FIXTURE_HAS_RESULT,
    FIXTURE_OTHER_DIVISION,
    FIXTURE_TEAMS,
    FIXTURE_UNDER_WAY,
    GAME_ABANDON_CONFIRMED,
    GAME_ABANDONED,
    GAME_ALREADY_ABANDONED,
    GAME_ALREADY_CONFIRMED,
    GAME_CLOSE_NOT_OPEN,
    GAME_CONFIRMED,
    GAME_FINISHED,
    GAME_FULL,
    GAME_NOT_FINISHED,
    LAST_DEAL_ONLY,
    MAKER_SEAT_RANGE,
    MAKER_SEAT_SIDE,
    MERGE_SAME_GAME,
    PLAYER_OTHER_CLUB,
    ROWS_TOO_MANY,
    RULES_MISSING,
    RULES_UNKNOWN,
    RULES_WITH_DIVISION,
    SEAT_OTHER_SIDE,
    SEAT_TWICE,
    SEATS_COUNT,
    SIDES_MISSING,
    TEAM_OTHER_CLUB,
    TEAM_OTHER_DIVISION,
    TEAM_WITHDRAWN,
    DealKeyDeleted,
    GameError,
)
from .merging import seats_player_merging
from .scoring import (
    Preview,
    check_rows_count,
    deal_correct_preview,
    deal_preview,
    deal_same_as_first,
    max_deals,
    next_dealer_seat,
)
from .start import fixture_rules_spec, game_start

__all__ = [
    "ACCEPT_ALREADY",
    "CONFIRM_CLUB_ADMIN_ONLY",
    "CONFIRM_HOLDS",
    "CONFIRM_HOW",
    "CONFIRM_NOT_SEATED",
    "CONFIRM_SAME_SIDE",
    "CONFIRM_TOUCHED",
    "DEAL_KEY_DELETED",
    "DEAL_LIMIT_RANGE",
    "DEAL_NUMBER_AHEAD",
    "DEAL_NUMBER_TAKEN",
    "DELETED_KEYS_KEPT",
    "FIRST_DEALER_DISAGREE",
    "FIRST_DEALER_NOT_SEATED",
    "FIRST_DEALER_RANGE",
    "FIXTURE_DECIDED",
    "FIXTURE_HAS_RESULT",
    "FIXTURE_OTHER_DIVISION",
    "FIXTURE_TEAMS",
    "FIXTURE_UNDER_WAY",
    "GAME_ABANDONED",
    "GAME_ABANDON_CONFIRMED",
    "GAME_ALREADY_ABANDONED",
    "GAME_ALREADY_CONFIRMED",
    "GAME_CLOSE_NOT_OPEN",
    "GAME_CONFIRMED",
    "GAME_FINISHED",
    "GAME_FULL",
    "GAME_NOT_FINISHED",
    "LAST_DEAL_ONLY",
    "MAKER_SEAT_RANGE",
    "MAKER_SEAT_SIDE",
    "MERGE_SAME_GAME",
    "PLAYER_OTHER_CLUB",
    "ROWS_TOO_MANY",
    "RULES_MISSING",
    "RULES_UNKNOWN",
    "RULES_WITH_DIVISION",
    "SEATS_COUNT",
    "SEAT_OTHER_SIDE",
    "SEAT_TWICE",
    "SET_ASIDE_NUMBER",
    "SIDES_MISSING",
    "TEAM_OTHER_CLUB",
    "TEAM_OTHER_DIVISION",
    "TEAM_WITHDRAWN",
    "ConfirmationState",
    "DealKeyDeleted",
    "GameError",
    "Preview",
    "Recorded",
    "acceptance_refusal",
    "check_rows_count",
    "confirm_hold_register",
    "confirmation_state",
    "confirmation_states",
    "deal_correct",
    "deal_correct_preview",
    "deal_delete",
    "deal_preview",
    "deal_record",
    "deal_same_as_first",
    "deal_set_aside",
    "deleted_keys_purge",
    "fixture_rules_spec",
    "game_abandon",
    "game_close",
    "game_confirm",
    "game_confirm_refusal",
    "game_rescore",
    "game_start",
    "game_touchers",
    "max_deals",
    "next_dealer_seat",
    "seats_player_merging",
    "sheet_rows_record",
]
