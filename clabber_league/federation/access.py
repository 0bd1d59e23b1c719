"""Who may do what in a federation: the one place pages, the API and services ask.

A federation comes from the URL (``/federations/<slug>/``, ``/api/federations/<slug>/``)
and is checked once per request, as a club is (``clubs.access``). The officer role is a
role of its own, held in :class:`~clabber_league.federation.models.Officer`; it gives
nothing in any club, and no club role gives anything in a federation.

| need | who |
|---|---|
| ``read`` | anybody when the federation is public; else its officers (and site staff) |
| ``officer`` | the federation's officers and federation admins, site staff |
| ``admin`` | the federation's admins (appoint officers) and site staff |

Besides the needs, three questions about one person or one club:

- a **club admin** (``clubs.access``: ``manage`` in that club) asks for their club to join,
  accepts an officer's invitation, and proposes links for the club's players
  (:func:`manages_club`);
- the **player** is the user of a club ``Player`` linked (approved) to a federation player:
  they see everything held about themselves, approve a link proposed for them, choose a
  public or private profile, export and erase (:func:`is_the_player`);
- a **federation player's record** is shown to others only when the player chose a public
  profile; officers see every record of their own federation (:meth:`FederationAccess.
  sees_player`), never another federation's.

A federation that a person may not read answers 404, as if it did not exist; an officer of
one federation is nobody in another.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from django.http import Http404

from clabber_league.clubs.access import access_for as club_access_for
from clabber_league.clubs.models import Club

from .models import Federation, FederationPlayer, Officer, PlayerLink

Need = Literal["read", "officer", "admin"]

NOT_FOUND = "No such federation."


@dataclass(frozen=True)
class FederationAccess:
    """A federation and what the person asking may do in it."""

    federation: Federation
    officer: Officer | None
    user: Any = None
    is_staff: bool = False

    @property
    def role(self) -> str | None:
        if self.officer is not None:
            return self.officer.role
        return "staff" if self.is_staff else None

    @property
    def is_officer(self) -> bool:
        return self.can("officer")

    @property
    def is_admin(self) -> bool:
        return self.can("admin")

    def can(self, need: Need) -> bool:
        if self.is_staff:
            return True
        if need == "read":
            return self.federation.is_public or self.officer is not None
        if self.officer is None:
            return False
        if need == "officer":
            return True
        return self.officer.role == Officer.Role.ADMIN

    def sees_player(self, player: FederationPlayer) -> bool:
        """Whether this person may see this record: officers of its federation, the player
        themselves, everybody when the player chose a public profile (never an erased or
        merged record's details, which are not there to see)."""
        if player.federation_id != self.federation.pk:
            return False
        if self.can("officer"):
            return True
        if player.is_public and player.erased_at is None and self.can("read"):
            return True
        return is_the_player(user=self.user, player=player)


def access_for(*, federation: Federation, user: Any) -> FederationAccess:
    """What ``user`` may do in ``federation`` (no 404: for services and tests)."""
    officer = None
    authenticated = user is not None and user.is_authenticated
    if authenticated:
        officer = Officer.objects.filter(federation=federation, user=user).first()
    return FederationAccess(
        federation=federation,
        officer=officer,
        user=user if authenticated else None,
        is_staff=bool(authenticated and user.is_staff),
    )


def federation_access(*, slug: str, user: Any) -> FederationAccess:
    """The federation of the URL with the person's role in it; 404 when they may not read
    it."""
    federation = Federation.objects.filter(slug=slug).first()
    if federation is None:
        raise Http404(NOT_FOUND)
    access = access_for(federation=federation, user=user)
    if not access.can("read"):
        raise Http404(NOT_FOUND)
    return access


def manages_club(*, user: Any, club: Club) -> bool:
    """Whether ``user`` is an admin of ``club`` (``clubs.access``: ``manage``)."""
    if user is None or not user.is_authenticated:
        return False
    return club_access_for(club=club, user=user).can("manage")


def is_the_player(*, user: Any, player: FederationPlayer) -> bool:
    """Whether ``user`` is this federation player: the login of a club's player whose link
    to the record is approved."""
    if user is None or not user.is_authenticated:
        return False
    return PlayerLink.objects.filter(
        federation_player=player, status=PlayerLink.Status.APPROVED, player__user=user
    ).exists()


def may_decide_link(*, user: Any, link: PlayerLink, access: FederationAccess) -> bool:
    """Whether ``user`` may approve or refuse ``link``: an officer of its federation, or the
    person the club's player is (the login linked to it)."""
    if link.federation_id != access.federation.pk:
        return False
    if access.can("officer"):
        return True
    return user is not None and user.is_authenticated and link.player.user_id == user.pk
