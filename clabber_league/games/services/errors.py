"""What a rejected game write says: the messages, ``GameError`` and ``DealKeyDeleted``."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clabber_league.core.errors import CONFLICT, ServiceError

GAME_FINISHED = gettext_noop("This game is finished: no deal can be added.")
GAME_CONFIRMED = gettext_noop("This game is confirmed: its deals can no longer be changed.")
GAME_ABANDONED = gettext_noop("This game was abandoned: its deals can no longer be changed.")
GAME_ABANDON_CONFIRMED = gettext_noop("A confirmed game cannot be abandoned: its result stands.")
GAME_ALREADY_ABANDONED = gettext_noop("This game is already abandoned.")
GAME_FULL = gettext_noop(
    "A game takes at most {cap} deals (the CLABBER_MAX_DEALS_PER_GAME setting); "
    "this one has {count}."
)
ROWS_TOO_MANY = gettext_noop("At most {cap} rows at once: a game takes at most {cap} deals.")
GAME_NOT_FINISHED = gettext_noop("Only a finished game can be confirmed.")
GAME_ALREADY_CONFIRMED = gettext_noop("This game is already confirmed.")
CONFIRM_NOT_SEATED = gettext_noop("Only a player of the game, or a club admin, can confirm it.")
CONFIRM_SAME_SIDE = gettext_noop(
    "The result is confirmed by the other side: no partner of someone who recorded, "
    "corrected or deleted a deal of this game."
)
CONFIRM_TOUCHED = gettext_noop(
    "You recorded, corrected or deleted deals of this game: the other side, or a club admin "
    "who did not, confirms it."
)
CONFIRM_CLUB_ADMIN_ONLY = gettext_noop(
    "Only a club admin confirms a result in the name of the club."
)
ACCEPT_ALREADY = gettext_noop(
    "This side has already accepted the result: the other side accepts now."
)
SEATS_COUNT = gettext_noop("{ruleset} is played by {players} players; {given} seats were given.")
SEAT_TWICE = gettext_noop("A player can sit only once at a table.")
SEAT_OTHER_SIDE = gettext_noop(
    "{player} plays for {team}, the other side: they cannot sit for {side_team}."
)
FIRST_DEALER_NOT_SEATED = gettext_noop("The first dealer must be one of the players at the table.")
FIRST_DEALER_DISAGREE = gettext_noop(
    "first_dealer (seat {seat}) and first_dealer_player (seat {player_seat}) name "
    "different seats: give one of them."
)
PLAYER_OTHER_CLUB = gettext_noop("This player is not a member of the club.")
TEAM_OTHER_CLUB = gettext_noop("This team is not one of the club's.")
RULES_MISSING = gettext_noop(
    "A game outside a league division needs its rules: a rule set or house rules."
)
RULES_WITH_DIVISION = gettext_noop(
    "A game of a division plays the division's rules: give one or the other."
)
RULES_UNKNOWN = gettext_noop(
    "Unknown rules: give a rule set's slug or house rules (base and options)."
)
DEAL_LIMIT_RANGE = gettext_noop("A game's deal limit is 1 to {cap} deals.")
GAME_CLOSE_NOT_OPEN = gettext_noop("Only a game in progress can be closed.")
TEAM_OTHER_DIVISION = gettext_noop("This team does not play in the division.")
SIDES_MISSING = gettext_noop("Give a team for every side ({sides}).")
FIRST_DEALER_RANGE = gettext_noop("The first dealer must be one of the seats 0 to {last}.")
MAKER_SEAT_SIDE = gettext_noop(
    "The player who named trump sits on side {seat_side}, not on side {maker}."
)
MAKER_SEAT_RANGE = gettext_noop("No such seat at this table.")
LAST_DEAL_ONLY = gettext_noop("Only the game's deals can be corrected here.")
FIXTURE_OTHER_DIVISION = gettext_noop("This fixture is not one of the division's.")
FIXTURE_HAS_RESULT = gettext_noop("This fixture already has its result (played or forfeit).")
FIXTURE_DECIDED = gettext_noop(
    "This fixture is already decided: its {planned} planned game(s) have been played "
    "({played} finished). A result is corrected on its score sheet, not by playing again."
)
FIXTURE_UNDER_WAY = gettext_noop(
    "This fixture's {planned} planned game(s) are already started ({live} in progress, "
    "{played} finished): a fixture is not played twice. Go on with the game in progress, or "
    "abandon it first if it was started by mistake."
)
TEAM_WITHDRAWN = gettext_noop("{team} withdrew on {on:%d %b %Y}: it plays no more games.")
MERGE_SAME_GAME = gettext_noop(
    "{source} and {target} both sat at game {game}: one person cannot take two seats."
)
FIXTURE_TEAMS = gettext_noop("A game of this fixture is {home} (side A) v {away} (side B).")
DEAL_NUMBER_TAKEN = gettext_noop(
    "Deal {number} is already recorded: the game has {count} deals (another phone or page "
    "recorded them first)."
)
DEAL_KEY_DELETED = gettext_noop(
    "This request recorded deal {number}, which was deleted since: it is not recorded again. "
    "If the deal should stand, enter it anew."
)
#: The most deleted deals' keys a game keeps (the newest; older ones also go after the
#: keys' retention): it bounds the game row however often deals are deleted.
DELETED_KEYS_KEPT = 1000
DEAL_NUMBER_AHEAD = gettext_noop(
    "The game has {count} deals: the next one is deal {next}, not deal {number}."
)


class GameError(ServiceError):
    """A rejected game write (``core.errors.ServiceError``)."""


class DealKeyDeleted(GameError):
    """A deal's retry whose deal was deleted since (409). ``fingerprint``: the request's
    that recorded it (``""`` when not kept), so the API tells another request (422)."""

    def __init__(self, errors: list[dict[str, str]], *, fingerprint: str = "") -> None:
        super().__init__(errors, kind=CONFLICT)
        self.fingerprint = fingerprint
