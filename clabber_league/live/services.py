"""The live app's one write: who may follow a club's live pages."""

from __future__ import annotations

from django.utils.translation import gettext_noop

from clabber_league.clubs.models import Club
from clabber_league.core.errors import ServiceError

from .models import LiveSetting

AUDIENCE_UNKNOWN = gettext_noop("Choose who may follow the live pages.")


def audience_set(*, club: Club, audience: str) -> LiveSetting:
    """The club's choice (``LiveSetting.Audience``): as the club's pages, or members only."""
    if audience not in LiveSetting.Audience.values:
        raise ServiceError.one("audience", AUDIENCE_UNKNOWN)
    setting, _created = LiveSetting.objects.update_or_create(
        club=club, defaults={"audience": audience}
    )
    return setting
