"""Who may do what in a club: the one place pages and the API ask.

The club comes from the URL and is checked once per request (pretix's
``api/auth/permission.py`` does the same for organizers); every queryset then
starts from that club, so one club can never see or change another's rows by id.

| need | who |
|---|---|
| ``read`` | any member; anybody, logged in or not, when the club is public |
| ``member`` | any member, whatever the role (their own calendar links) |
| ``play`` | players, scorers and club admins (confirm a game they played in) |
| ``score`` | scorers and club admins (start games, record and correct deals) |
| ``manage`` | club admins (players, teams, seasons, divisions, members) |

A club that a person may not read answers 404, as if it did not exist.

Calendar apps cannot log in: a team's feed URL carries a member's key
(``scheduling.models.FeedKey``). ``club_access(..., key_holder=m)`` decides what such a key
opens: read access, as the member it was issued to, while that membership exists (a member
removed from the club takes their keys with them) and their account is active; nothing
else (``ClubAccess.by_key``: reading only, whatever the member's role).

A phone at a table cannot log in either: a game's table link (``games.table_links``) carries
a signed token for that one game. The games app checks the token and hands the result here
as a :class:`TableGrant` (this module may not import games: the grant is plain data);
``club_access(..., table=grant)`` checks that the grant is for this club and lets the
caller read the club's pages of that game and score it (``ClubAccess.table``): the views
that take a grant are only those of the granted game, so "score" means "score this game".
"""

from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404
from django.utils.translation import gettext_noop

from . import store
from .models import Club, Membership, Role

Need = Literal["read", "member", "play", "score", "manage"]

NEED_ROLE: dict[str, Role] = {
    "member": Role.VIEWER,
    "play": Role.PLAYER,
    "score": Role.SCORER,
    "manage": Role.ADMIN,
}

NOT_FOUND = gettext_noop("No such club.")
CLUB_PENDING = gettext_noop(
    "This club waits for the operator's approval: nothing in it can change yet."
)


@dataclass(frozen=True)
class TableGrant:
    """What a valid table link opens: scoring one game of one club, without an account."""

    club_id: int
    game_id: int
    table_label: str = ""
    link_id: int | None = None
    #: Set for a link that no longer works (revoked, expired, its game confirmed): the
    #: grant then opens nothing, and a request it cannot serve is refused with this.
    refusal: str = ""


@dataclass(frozen=True)
class ClubAccess:
    """A club and what the person asking may do in it."""

    club: Club
    membership: Membership | None
    by_key: bool = False  # a calendar app with a member's feed key: reading only
    #: A table link's grant: reading and scoring its one game (only views of that game
    #: accept a grant), on top of whatever the caller's membership allows.
    table: TableGrant | None = None

    @property
    def role(self) -> str | None:
        return self.membership.role if self.membership else None

    def refusal(self, default: str) -> str:
        """Why a need is refused: a club waiting for approval says so."""
        return default if self.club.is_approved else CLUB_PENDING

    @property
    def can_play(self) -> bool:
        return self.can("play")

    @property
    def can_score(self) -> bool:
        return self.can("score")

    @property
    def can_manage(self) -> bool:
        return self.can("manage")

    def can(self, need: Need) -> bool:
        if not self.club.is_approved and need not in ("read", "member"):
            return False  # waiting for the operator's approval: nothing changes yet
        if self.by_key:
            return need == "read"
        if self.table is not None and need in ("read", "score"):
            return True
        if need == "read":
            return self.membership is not None or self.club.is_public
        if self.membership is None:
            return False
        return self.membership.has_role(NEED_ROLE[need])


@dataclass(frozen=True)
class ClubFound:
    """The club of a URL and a user's membership in it, as a query that had to run anyway
    read them (the API's token authentication reads them with the token: one query for all
    three, ``clubs.authentication``). :func:`club_access` takes them instead of reading
    them again, for that slug and that user only."""

    slug: str
    user_id: int
    club: Club | None
    membership: Membership | None


def access_for(*, club: Club, user: AbstractBaseUser | AnonymousUser | None) -> ClubAccess:
    """What ``user`` may do in ``club`` (no 404: for services called outside a request,
    a command or a test; a page or the API passes the access it resolved instead)."""
    membership = None
    if user is not None and user.is_authenticated:
        membership = Membership.objects.filter(club=club, user=user).first()
    return ClubAccess(club=club, membership=membership)


def club_access(
    *,
    slug: str,
    user: AbstractBaseUser | AnonymousUser,
    key_holder: Membership | None = None,
    table: TableGrant | None = None,
    found: ClubFound | None = None,
) -> ClubAccess:
    """The club of the URL with the person's membership; 404 when they may not read it.

    One hand-written query for both, on every page and API request (a fifth of what the
    ORM took to build it): the club joined with the person's membership row, if any; none
    at all when ``found`` brings them.

    ``key_holder`` is the member whose feed key the URL carries (looked up by the feed's
    app, for that one feed): it lets a caller who may not read the club read it as that
    member, if the member still belongs to this club and their account is active.

    ``table`` is a table link's grant (checked by the games app): it counts only for the
    club it was issued in; for another club's URL it opens nothing (404 as ever).

    ``found``: the club and membership already read for this request (with the caller's
    token), used instead of the query when they are for this slug and this user."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    if found is not None and user_id is not None and (found.slug, found.user_id) == (slug, user_id):
        club, membership = found.club, found.membership
    else:
        club, membership = _club_with_membership(slug, user_id)
    if club is None:
        raise Http404(NOT_FOUND)
    access = ClubAccess(club=club, membership=membership)
    holder_valid = (
        key_holder is not None and key_holder.club_id == club.pk and key_holder.user.is_active
    )
    if not access.can("read") and holder_valid:
        access = ClubAccess(club=club, membership=key_holder, by_key=True)
    if table is not None and not table.refusal and table.club_id == club.pk:
        access = ClubAccess(club=club, membership=membership, table=table)
    if not access.can("read"):
        raise Http404(NOT_FOUND)
    return access


def _club_with_membership(slug: str, user_id: int | None) -> tuple[Club | None, Membership | None]:
    return store.club_with_membership(slug=slug, user_id=user_id)
