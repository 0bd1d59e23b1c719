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
"""

from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import F, FilteredRelation, Q
from django.http import Http404

from .models import Club, Membership, Role

Need = Literal["read", "member", "play", "score", "manage"]

NEED_ROLE: dict[str, Role] = {
    "member": Role.VIEWER,
    "play": Role.PLAYER,
    "score": Role.SCORER,
    "manage": Role.ADMIN,
}

NOT_FOUND = "No such club."


@dataclass(frozen=True)
class ClubAccess:
    """A club and what the person asking may do in it."""

    club: Club
    membership: Membership | None
    by_key: bool = False  # a calendar app with a member's feed key: reading only

    @property
    def role(self) -> str | None:
        return self.membership.role if self.membership else None

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
        if self.by_key:
            return need == "read"
        if need == "read":
            return self.membership is not None or self.club.is_public
        if self.membership is None:
            return False
        return self.membership.has_role(NEED_ROLE[need])


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
) -> ClubAccess:
    """The club of the URL with the person's membership; 404 when they may not read it.

    One query for both, on every page and API request: the club joined with the person's
    membership row (if any), whose columns come back beside the club's.

    ``key_holder`` is the member whose feed key the URL carries (looked up by the feed's
    app, for that one feed): it lets a caller who may not read the club read it as that
    member, if the member still belongs to this club and their account is active."""
    clubs = Club.objects.filter(slug=slug)
    membership = None
    if user is None or not user.is_authenticated:
        club = clubs.first()
    else:
        fields = [f.attname for f in Membership._meta.concrete_fields]
        club = clubs.annotate(
            mine=FilteredRelation("memberships", condition=Q(memberships__user=user.pk)),
            **{f"mine_{name}": F(f"mine__{name}") for name in fields},
        ).first()
        if club is not None and club.mine_id is not None:
            membership = Membership(**{name: getattr(club, f"mine_{name}") for name in fields})
            membership.club = club  # already here: no query to reach it
    if club is None:
        raise Http404(NOT_FOUND)
    access = ClubAccess(club=club, membership=membership)
    holder_valid = (
        key_holder is not None and key_holder.club_id == club.pk and key_holder.user.is_active
    )
    if not access.can("read") and holder_valid:
        access = ClubAccess(club=club, membership=key_holder, by_key=True)
    if not access.can("read"):
        raise Http404(NOT_FOUND)
    return access
