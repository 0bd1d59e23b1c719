"""Keys to the teams' calendar feeds: issued to a member, renewed, revoked.

A team's ``.ics`` feed (``calendar.team_calendar``) is read by calendar apps, which cannot
log in. A public club's feed needs no key. A private club's feed URL carries a key
(``FeedKey``) issued to one member for one team: the member renews theirs (the old URL
then 404s), a club admin revokes every key of a team at once, and a member removed from
the club takes their keys with them (the rows go with the membership). What a key opens
is decided in ``clubs.access.club_access(key_holder=...)``; this module only finds the
member a key belongs to and writes the keys.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Membership
from clabber_league.core.errors import FORBIDDEN, ServiceError
from clabber_league.leagues.models import Team

from .models import FeedKey

KEY_BYTES = 24  # 32 URL-safe characters
NOT_A_MEMBER = _("Only members of the club have calendar links; a public club's feed needs none.")
ADMINS_ONLY = _("Only a club admin can revoke a team's calendar links.")


# --- reads -----------------------------------------------------------------------------


def feed_key_holder(*, club_slug: str, team_pk: int, key: str) -> Membership | None:
    """The member whose key to this team's feed ``key`` is (None for no key, a wrong key,
    another team's key or a revoked one)."""
    if not key:
        return None
    found = (
        FeedKey.objects.filter(club__slug=club_slug, team_id=team_pk, key=key)
        .select_related("membership__user")
        .first()
    )
    return found.membership if found else None


def feed_key_of(*, access: ClubAccess, team: Team) -> FeedKey | None:
    """The caller's own key to ``team``'s feed, if they have one."""
    if access.membership is None or access.by_key:
        return None
    return FeedKey.objects.filter(team=team, membership=access.membership).first()


# --- writes ----------------------------------------------------------------------------


@transaction.atomic
def feed_key_issue(*, access: ClubAccess, team: Team, renew: bool = False) -> FeedKey:
    """The caller's key to ``team``'s feed: made if they have none; with ``renew``, a new
    one in place of the old, whose URL stops working at once."""
    if access.membership is None or access.by_key or team.club_id != access.club.pk:
        raise ServiceError.one("", str(NOT_A_MEMBER), kind=FORBIDDEN)
    current = (
        FeedKey.objects.select_for_update().filter(team=team, membership=access.membership).first()
    )
    if current is not None and not renew:
        return current
    if current is not None:
        current.delete()
    return FeedKey.objects.create(
        club=access.club,
        team=team,
        membership=access.membership,
        key=secrets.token_urlsafe(KEY_BYTES),
    )


def feed_keys_revoke(*, access: ClubAccess, team: Team) -> int:
    """Revoke every member's key to ``team``'s feed (a club admin's action, for example
    after a link was shared too widely). Returns how many were revoked; each member gets a
    new link from the team's page."""
    if not access.can_manage or team.club_id != access.club.pk:
        raise ServiceError.one("", str(ADMINS_ONLY), kind=FORBIDDEN)
    deleted, _ = FeedKey.objects.filter(club=access.club, team=team).delete()
    return deleted
