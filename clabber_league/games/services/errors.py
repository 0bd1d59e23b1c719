"""What a rejected game write says: the messages, ``GameError`` and ``DealKeyDeleted``."""

from __future__ import annotations

from clabber_league.core.errors import CONFLICT, ServiceError

GAME_FINISHED = "This game is finished: no deal can be added."
GAME_CONFIRMED = "This game is confirmed: its deals can no longer be changed."
GAME_ABANDONED = "This game was abandoned: its deals can no longer be changed."
GAME_ABANDON_CONFIRMED = "A confirmed game cannot be abandoned: its result stands."
GAME_ALREADY_ABANDONED = "This game is already abandoned."
GAME_FULL = (
    "A game takes at most {cap} deals (the CLABBER_MAX_DEALS_PER_GAME setting); "
    "this one has {count}."
)
ROWS_TOO_MANY = "At most {cap} rows at once: a game takes at most {cap} deals."
GAME_NOT_FINISHED = "Only a finished game can be confirmed."
GAME_ALREADY_CONFIRMED = "This game is already confirmed."
CONFIRM_NOT_SEATED = "Only a player of the game, or a club admin, can confirm it."
CONFIRM_SAME_SIDE = (
    "The result is confirmed by the other side: no partner of someone who recorded, "
    "corrected or deleted a deal of this game."
)
CONFIRM_TOUCHED = (
    "You recorded, corrected or deleted deals of this game: the other side, or a club admin "
    "who did not, confirms it."
)
CONFIRM_CLUB_ADMIN_ONLY = "Only a club admin confirms a result in the name of the club."
ACCEPT_ALREADY = "This side has already accepted the result: the other side accepts now."
SEATS_COUNT = "{ruleset} is played by {players} players; {given} seats were given."
SEAT_TWICE = "A player can sit only once at a table."
SEAT_OTHER_SIDE = "{player} plays for {team}, the other side: they cannot sit for {side_team}."
FIRST_DEALER_NOT_SEATED = "The first dealer must be one of the players at the table."
FIRST_DEALER_DISAGREE = (
    "first_dealer (seat {seat}) and first_dealer_player (seat {player_seat}) name "
    "different seats: give one of them."
)
PLAYER_OTHER_CLUB = "This player is not a member of the club."
TEAM_OTHER_CLUB = "This team is not one of the club's."
RULES_MISSING = "A game outside a league division needs its rules: a rule set or house rules."
RULES_WITH_DIVISION = "A game of a division plays the division's rules: give one or the other."
RULES_UNKNOWN = "Unknown rules: give a rule set's slug or house rules (base and options)."
DEAL_LIMIT_RANGE = "A game's deal limit is 1 to {cap} deals."
GAME_CLOSE_NOT_OPEN = "Only a game in progress can be closed."
TEAM_OTHER_DIVISION = "This team does not play in the division."
SIDES_MISSING = "Give a team for every side ({sides})."
FIRST_DEALER_RANGE = "The first dealer must be one of the seats 0 to {last}."
MAKER_SEAT_SIDE = "The player who named trump sits on side {seat_side}, not on side {maker}."
MAKER_SEAT_RANGE = "No such seat at this table."
LAST_DEAL_ONLY = "Only the game's deals can be corrected here."
FIXTURE_OTHER_DIVISION = "This fixture is not one of the division's."
FIXTURE_HAS_RESULT = "This fixture already has its result (played or forfeit)."
FIXTURE_DECIDED = (
    "This fixture is already decided: its {planned} planned game(s) have been played "
    "({played} finished). A result is corrected on its score sheet, not by playing again."
)
FIXTURE_UNDER_WAY = (
    "This fixture's {planned} planned game(s) are already started ({live} in progress, "
    "{played} finished): a fixture is not played twice. Go on with the game in progress, or "
    "abandon it first if it was started by mistake."
)
TEAM_WITHDRAWN = "{team} withdrew on {on:%d %b %Y}: it plays no more games."
MERGE_SAME_GAME = "{source} and {target} both sat at game {game}: one person cannot take two seats."
FIXTURE_TEAMS = "A game of this fixture is {home} (side A) v {away} (side B)."
DEAL_NUMBER_TAKEN = (
    "Deal {number} is already recorded: the game has {count} deals (another phone or page "
    "recorded them first)."
)
DEAL_KEY_DELETED = (
    "This request recorded deal {number}, which was deleted since: it is not recorded again. "
    "If the deal should stand, enter it anew."
)
#: The most deleted deals' keys a game keeps (the newest; older ones also go after the
#: keys' retention): it bounds the game row however often deals are deleted.
DELETED_KEYS_KEPT = 1000
DEAL_NUMBER_AHEAD = "The game has {count} deals: the next one is deal {next}, not deal {number}."


class GameError(ServiceError):
    """A rejected game write (``core.errors.ServiceError``)."""


class DealKeyDeleted(GameError):
    """A deal's retry whose deal was deleted since (409). ``fingerprint``: the request's
    that recorded it (``""`` when not kept), so the API tells another request (422)."""

    def __init__(self, errors: list[dict[str, str]], *, fingerprint: str = "") -> None:
        super().__init__(errors, kind=CONFLICT)
        self.fingerprint = fingerprint
