"""The import's refusals, in English with their templates kept (``rules.errors.msg``): the
API answers the English text, a page shows it through ``core.i18n.translated``."""

from clabber_league.rules.errors import gettext_noop, msg

__all__ = ["msg"]

NOT_JSON = gettext_noop("The file is neither JSON nor the XML form of a results file: {reason}")
SCHEMA = gettext_noop("{problem}")
DATES_BACKWARDS = gettext_noop("The event ends before it starts.")
PLAYER_TWICE = gettext_noop("The player {player} is listed twice.")
PLAYER_NUMBER_TWICE = gettext_noop(
    "The player number {number} is given to {player} and to {other}: one player is repeated "
    "in this event."
)
SIDE_TWICE = gettext_noop("The side {side} is listed twice.")
UNKNOWN_PLAYER = gettext_noop("No player {player} in the file's list of players.")
PLAYER_IN_TWO_SIDES = gettext_noop(
    "The player {player} is in the side {side} already: a player is in one side of an event."
)
UNKNOWN_SIDE = gettext_noop("No side {side} in the file's list of sides.")
SIDE_PLACED_TWICE = gettext_noop("The side {side} is placed twice.")
PLAYER_TWICE_AT_TABLE = gettext_noop("The player {player} sits twice at this game.")
PLACE_SCORE_HIGHER = gettext_noop(
    "{side} is placed {place} with {score}, below {other} placed {other_place} with less "
    "({other_score}): the placings contradict the scores."
)
PLACE_SCORE_SHARED = gettext_noop(
    "{side} shares place {place} with {other} but not their score: the placings contradict "
    "the scores."
)
NOT_A_MEMBER = gettext_noop(
    "The club {club} is not a member of this federation: its results are not taken here."
)
NOT_YOUR_CLUB = gettext_noop(
    "The file is the club {club}'s: a club sends its own results (or an officer uploads them)."
)
PERIOD_CLOSED = gettext_noop(
    "The period {start} to {end} is closed: its results are final and take no more files."
)
OLDER_FILE = gettext_noop(
    "This file was made at {made}, before the one imported for this event ({current}): only "
    "a newer file replaces it."
)
PERIOD_DATES = gettext_noop("The period ends before it starts.")
PERIOD_OVERLAPS = gettext_noop("The period overlaps the period {start} to {end}.")
PERIOD_ALREADY_CLOSED = gettext_noop("This period is closed already.")
NOT_FINISHED = gettext_noop("This competition is not finished yet: export it once it is.")
