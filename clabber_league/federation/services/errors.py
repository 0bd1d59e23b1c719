"""The federation's refusals: one error type, and every message a constant.

Messages are English (the API keeps them so) and marked for the catalogs; a page shows
them through ``core.i18n.translated``. A message with values is built with
``rules.errors.msg`` so that its template is translated, not the filled-in text.
"""

from __future__ import annotations

from clabber_league.core.errors import ServiceError
from clabber_league.rules.errors import gettext_noop


class FederationError(ServiceError):
    """A federation's write refused: nothing was written."""


# Who may (kind "forbidden")
NEEDS_OFFICER = gettext_noop("Only the federation's officers may do this.")
NEEDS_ADMIN = gettext_noop("Only the federation's admins may do this.")
NEEDS_CLUB_ADMIN = gettext_noop("Only an admin of this club may do this.")
NEEDS_STAFF = gettext_noop("Only the site's staff may create a federation.")
NEEDS_PLAYER_OR_OFFICER = gettext_noop(
    "Only the player (the login linked to the club's player) or an officer may decide this."
)
NEEDS_THE_PLAYER = gettext_noop("Only the player may choose this.")
NEEDS_PLAYER_OR_OFFICER_ERASE = gettext_noop(
    "Only the player themselves or an officer may erase a player."
)

# Federations, clubs, officers
NAME_EMPTY = gettext_noop("Give the federation's name.")
SLUG_BAD = gettext_noop(
    "The short name is made of lower-case letters, digits and hyphens (at most 60)."
)
SLUG_TAKEN = gettext_noop("Another federation has this short name.")
PREFIX_BAD = gettext_noop(
    "The number prefix is at most 8 letters, digits or hyphens (for example NKU-)."
)
NOT_A_USER = gettext_noop("No account has this username.")
ROLE_BAD = gettext_noop("Choose a role: officer or federation admin.")
ALREADY_OFFICER = gettext_noop("This person is already an officer of the federation.")
LAST_ADMIN = gettext_noop(
    "A federation keeps at least one federation admin: appoint another one first."
)
OTHER_FEDERATION = gettext_noop("This belongs to another federation.")
CLUB_ALREADY_MEMBER = gettext_noop("This club is already a member of the federation.")
CLUB_ALREADY_ASKED = gettext_noop("This club has already asked to join: an officer decides.")
CLUB_ALREADY_INVITED = gettext_noop(
    "This club is already invited: one of its admins accepts the invitation."
)
NOTHING_TO_ACCEPT = gettext_noop("There is no request or invitation to accept.")
CLUB_NOT_MEMBER = gettext_noop("This club is not a member of the federation.")
PRIVATE_FEDERATION = gettext_noop(
    "This federation is not public: ask its officers to invite your club."
)

# Players and links
PLAYER_NAME_EMPTY = gettext_noop("Give the player's name.")
PLAYER_NAME_LONG = gettext_noop("A player's name is at most 120 characters.")
BIRTH_YEAR_BAD = gettext_noop("Give a birth year between 1900 and this year, or none.")
EMAIL_BAD = gettext_noop("Give a valid email address, or none.")
NO_SUCH_NUMBER = gettext_noop("The federation has no player with number {number}.")
NUMBER_ERASED = gettext_noop("The player with this number was erased: it cannot be linked.")
LINK_EXISTS = gettext_noop(
    "This club's player is already linked to number {number} in this federation."
)
LINK_PENDING = gettext_noop(
    "A link of this club's player to number {number} already awaits approval."
)
LINK_DECIDED = gettext_noop("This link was already decided.")
PLAYER_OTHER_CLUB = gettext_noop("This player is not one of the club's.")

# Merges
MERGE_SAME = gettext_noop("A player cannot be merged with themselves.")
MERGE_ALREADY_MERGED = gettext_noop(
    "Number {number} was already merged into another: merge into that one instead."
)
MERGE_ERASED = gettext_noop("An erased player cannot be merged.")
UNMERGE_DONE = gettext_noop("This merge was already undone.")
UNMERGE_LATER = gettext_noop("Number {number} was merged again since: undo that later merge first.")
UNMERGE_ERASED = gettext_noop("The player was erased since: the merge cannot be undone.")

# Privacy
ALREADY_ERASED = gettext_noop("This player was already erased.")
CONFIRM_ERASE = gettext_noop("Tick the box to confirm: erasing cannot be undone.")
