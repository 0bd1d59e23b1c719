"""A federation, its member clubs and its officers."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clabber_league.clubs.models import Club
from clabber_league.core.errors import CONFLICT, FORBIDDEN

from ..access import FederationAccess, manages_club
from ..hooks import players_changed
from ..models import Federation, FederationClub, Officer
from . import errors as E
from .errors import FederationError

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
#: Paths of ``/federations/`` that are not a federation's.
RESERVED_SLUGS = {"me"}
PREFIX = re.compile(r"^[A-Za-z0-9-]{0,8}$")


def require(access: FederationAccess, need: str) -> None:
    """Refuse (403) unless ``access`` may do ``need`` in its federation."""
    if not access.can(need):  # type: ignore[arg-type]
        message = E.NEEDS_ADMIN if need == "admin" else E.NEEDS_OFFICER
        raise FederationError.one("", message, kind=FORBIDDEN)


@transaction.atomic
def federation_create(
    *,
    name: str,
    slug: str,
    number_prefix: str = "",
    country: str = "",
    is_public: bool = True,
    admin: Any = None,
    by: Any = None,
) -> Federation:
    """A new federation, by site staff (``by``; None for a management command), with
    ``admin`` (a user) as its first federation admin."""
    if by is not None and not by.is_staff:
        raise FederationError.one("", E.NEEDS_STAFF, kind=FORBIDDEN)
    name = " ".join((name or "").split())
    slug = (slug or "").strip()
    errors = []
    if not name:
        errors.append({"field": "name", "message": E.NAME_EMPTY})
    if not SLUG.match(slug) or slug in RESERVED_SLUGS:
        errors.append({"field": "slug", "message": E.SLUG_BAD})
    elif Federation.objects.filter(slug=slug).exists():
        errors.append({"field": "slug", "message": E.SLUG_TAKEN, "kind": CONFLICT})
    if not PREFIX.match(number_prefix or ""):
        errors.append({"field": "number_prefix", "message": E.PREFIX_BAD})
    if errors:
        raise FederationError(errors)
    federation = Federation.objects.create(
        name=name,
        slug=slug,
        number_prefix=number_prefix or "",
        country=" ".join((country or "").split()),
        is_public=is_public,
    )
    if admin is not None:
        Officer.objects.create(federation=federation, user=admin, role=Officer.Role.ADMIN)
    return federation


# --- officers ---------------------------------------------------------------------------------


def officer_appoint(
    *, access: FederationAccess, username: str, role: str = Officer.Role.OFFICER
) -> Officer:
    """A federation admin makes a person an officer (or another federation admin)."""
    require(access, "admin")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise FederationError.one("username", E.NOT_A_USER)
    if role not in Officer.Role.values:
        raise FederationError.one("role", E.ROLE_BAD)
    if Officer.objects.filter(federation=access.federation, user=user).exists():
        raise FederationError.one("username", E.ALREADY_OFFICER, kind=CONFLICT)
    return Officer.objects.create(federation=access.federation, user=user, role=role)


@transaction.atomic
def officer_remove(*, access: FederationAccess, officer: Officer) -> None:
    """A federation admin removes an officer; the last federation admin stays."""
    require(access, "admin")
    if officer.federation_id != access.federation.pk:
        raise FederationError.one("officer", E.OTHER_FEDERATION, kind="not_found")
    admins = Officer.objects.select_for_update().filter(
        federation=access.federation, role=Officer.Role.ADMIN
    )
    if officer.role == Officer.Role.ADMIN and admins.count() <= 1:
        raise FederationError.one("officer", E.LAST_ADMIN, kind=CONFLICT)
    officer.delete()


# --- member clubs -----------------------------------------------------------------------------


def _membership(federation: Federation, club: Club) -> FederationClub | None:
    return (
        FederationClub.objects.select_for_update().filter(federation=federation, club=club).first()
    )


def _make_member(row: FederationClub) -> FederationClub:
    row.status = FederationClub.Status.MEMBER
    row.active = True
    row.joined_on = timezone.localdate()
    row.save(update_fields=["status", "active", "joined_on"])
    players_changed.send(federation_id=row.federation_id)
    _club_players_moved(row, active=True)
    return row


def _club_players_moved(row: FederationClub, *, active: bool) -> None:
    """A club in or out: its players' records may have left the federation with it (no
    other member club holds them), or come back with it (``privacy.players_active_changed``
    decides, as when one player's membership ends or begins)."""
    from clabber_league.clubs.models import Player

    from .privacy import players_active_changed

    players = list(Player.objects.filter(club_id=row.club_id, federation_links__isnull=False))
    if players:
        players_active_changed(players=players, active=active)


@transaction.atomic
def club_request(*, access: FederationAccess, club: Club, user: Any) -> FederationClub:
    """A club's admin asks for the club to join (an officer accepts); a club that was
    invited joins at once."""
    if not manages_club(user=user, club=club):
        raise FederationError.one("club", E.NEEDS_CLUB_ADMIN, kind=FORBIDDEN)
    row = _membership(access.federation, club)
    if row is not None and row.status == FederationClub.Status.INVITED:
        return _make_member(row)
    if not access.federation.is_public and not access.can("officer"):
        raise FederationError.one("club", E.PRIVATE_FEDERATION, kind=FORBIDDEN)
    if row is not None and row.status == FederationClub.Status.MEMBER:
        raise FederationError.one("club", E.CLUB_ALREADY_MEMBER, kind=CONFLICT)
    if row is not None and row.status == FederationClub.Status.REQUESTED:
        raise FederationError.one("club", E.CLUB_ALREADY_ASKED, kind=CONFLICT)
    if row is None:
        row = FederationClub(federation=access.federation, club=club)
    row.status = FederationClub.Status.REQUESTED
    row.active = False
    row.asked_by = user
    row.save()
    return row


@transaction.atomic
def club_invite(*, access: FederationAccess, club: Club) -> FederationClub:
    """An officer invites a club (one of its admins accepts); a club that asked to join
    joins at once."""
    require(access, "officer")
    row = _membership(access.federation, club)
    if row is not None and row.status == FederationClub.Status.REQUESTED:
        return _make_member(row)
    if row is not None and row.status == FederationClub.Status.MEMBER:
        raise FederationError.one("club", E.CLUB_ALREADY_MEMBER, kind=CONFLICT)
    if row is not None and row.status == FederationClub.Status.INVITED:
        raise FederationError.one("club", E.CLUB_ALREADY_INVITED, kind=CONFLICT)
    if row is None:
        row = FederationClub(federation=access.federation, club=club)
    row.status = FederationClub.Status.INVITED
    row.active = False
    row.asked_by = access.user
    row.save()
    return row


@transaction.atomic
def club_accept(*, access: FederationAccess, row: FederationClub) -> FederationClub:
    """An officer accepts a club's request; a club admin accepts an officer's invitation."""
    _own(access, row)
    row = FederationClub.objects.select_for_update().get(pk=row.pk)
    if row.status == FederationClub.Status.REQUESTED:
        require(access, "officer")
        return _make_member(row)
    if row.status == FederationClub.Status.INVITED:
        if not manages_club(user=access.user, club=row.club):
            raise FederationError.one("club", E.NEEDS_CLUB_ADMIN, kind=FORBIDDEN)
        return _make_member(row)
    raise FederationError.one("club", E.NOTHING_TO_ACCEPT, kind=CONFLICT)


@transaction.atomic
def club_refuse(*, access: FederationAccess, row: FederationClub) -> None:
    """A request refused (by an officer) or an invitation declined (by the club's admin,
    or withdrawn by an officer): the pending row goes."""
    _own(access, row)
    row = FederationClub.objects.select_for_update().get(pk=row.pk)
    if row.status not in (FederationClub.Status.REQUESTED, FederationClub.Status.INVITED):
        raise FederationError.one("club", E.NOTHING_TO_ACCEPT, kind=CONFLICT)
    if not (access.can("officer") or manages_club(user=access.user, club=row.club)):
        raise FederationError.one("club", E.NEEDS_OFFICER, kind=FORBIDDEN)
    row.delete()


@transaction.atomic
def club_remove(*, access: FederationAccess, row: FederationClub) -> FederationClub:
    """A member club removed by an officer, or leaving by its admin's choice. The row stays
    (``left``): its players keep their numbers and links."""
    _own(access, row)
    if not (access.can("officer") or manages_club(user=access.user, club=row.club)):
        raise FederationError.one("club", E.NEEDS_OFFICER, kind=FORBIDDEN)
    row = FederationClub.objects.select_for_update().get(pk=row.pk)
    if row.status != FederationClub.Status.MEMBER:
        raise FederationError.one("club", E.CLUB_NOT_MEMBER, kind=CONFLICT)
    row.status = FederationClub.Status.LEFT
    row.active = False
    row.save(update_fields=["status", "active"])
    players_changed.send(federation_id=row.federation_id)
    _club_players_moved(row, active=False)
    return row


def _own(access: FederationAccess, row: FederationClub) -> None:
    if row.federation_id != access.federation.pk:
        raise FederationError.one("club", E.OTHER_FEDERATION, kind="not_found")
