"""Who may follow a club's live pages: the club's setting (issue 35)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club


class LiveSetting(models.Model):
    """A club's choice of audience for its live pages and overlays. A club without a row
    follows its own privacy: a public club's live pages are public, a private club's are
    its members' (``clubs.access``: visitors get a 404 there, as on every page)."""

    class Audience(models.TextChoices):
        CLUB = "club", _("As the club's pages: everyone when the club is public")
        MEMBERS = "members", _("Members only")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="live_setting")
    audience = models.CharField(
        _("who may follow the live pages"),
        max_length=8,
        choices=Audience.choices,
        default=Audience.CLUB,
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Live pages of {self.club}: {self.audience}"
