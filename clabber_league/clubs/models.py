"""Clubs and who belongs to them.

A club is the tenant: every other row in the service belongs to exactly one
club, and every query starts from the club named in the URL. Members have one
role in a club; a player is a person at the card table, who may or may not
have a login.
"""

import zoneinfo

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    city = models.CharField(max_length=120, blank=True)
    is_public = models.BooleanField(
        default=False,
        help_text=_("Standings and score sheets can be read without logging in."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    country = models.CharField(_("country"), max_length=60, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_(
            "An IANA zone such as Europe/Amsterdam: the club's dates, nights and reminders "
            "follow it. Empty: the site's TIME_ZONE."
        ),
    )
    language = models.CharField(
        _("language"),
        max_length=12,
        blank=True,
        help_text=_("The language of the club's pages. Empty: the site's LANGUAGE_CODE."),
    )
    ruleset = models.CharField(
        _("rule set"),
        max_length=40,
        default="clabber",
        help_text=_("The built-in rule set the club plays unless a division says otherwise."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Who created the club by sign-up (none for a club the operator made)."),
    )
    is_approved = models.BooleanField(
        _("approved"),
        default=True,
        help_text=_(
            "A club created by sign-up waits for the operator's approval when "
            "CLABBER_CLUB_APPROVAL is on; until then only its members can read it and "
            "nothing can be changed."
        ),
    )
    admins_need_mfa = models.BooleanField(
        default=False,
        help_text=_(
            "Club admins must sign in with two-factor authentication (an authenticator "
            "app): an admin without it is sent to set it up before any admin action."
        ),
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The club's time zone (the site's ``TIME_ZONE`` when none is set or it is
        unknown to this machine's zone database)."""
        return club_zone(self.time_zone)

    @property
    def language_code(self) -> str:
        return self.language or settings.LANGUAGE_CODE


def club_zone(name: str) -> zoneinfo.ZoneInfo:
    """The zone of this name, else the site's ``TIME_ZONE``."""
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


class Role(models.TextChoices):
    VIEWER = "viewer", _("Viewer")
    PLAYER = "player", _("Player")
    SCORER = "scorer", _("Scorer")
    ADMIN = "admin", _("Club admin")


#: Each role can do what the roles before it can.
ROLE_RANK = {Role.VIEWER: 1, Role.PLAYER: 2, Role.SCORER: 3, Role.ADMIN: 4}


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_one_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"

    def has_role(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    active = models.BooleanField(default=True)
    name_public = models.BooleanField(
        default=True,
        help_text="The member's choice: their name on the public pages of a public club "
        "(else their initials). Members of the club always see the name.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_name_unique_in_club"),
            # "tom smith" is "Tom Smith": one person, one player, whatever the case.
            models.UniqueConstraint(
                "club", Lower("name"), name="player_name_unique_in_club_any_case"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def initials(self) -> str:
        return initials(self.name)

    def shown_name(self, *, to_member: bool) -> str:
        """The name as a page shows it: in full to the club's members, else as chosen."""
        return self.name if to_member or self.name_public else self.initials


class PlayerMerge(models.Model):
    """The record of two players found to be the same person, merged into one: the
    removed player's name and id, who merged them, when, and what moved."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_merges")
    target = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges")
    source_name = models.CharField(max_length=120)
    source_id = models.PositiveIntegerField(help_text="The removed player's id.")
    moved = models.JSONField(
        default=dict, blank=True, help_text="How many rows of each kind moved to the target."
    )
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    merged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-merged_at", "-id"]

    def __str__(self) -> str:
        return f"{self.source_name} merged into {self.target}"


def initials(name: str) -> str:
    """``"Bertha Q. Smith"`` -> ``"B. Q. S."``: how a member who keeps their name off the
    public pages is shown there."""
    parts = [p for p in name.replace(".", " ").split() if p[:1].isalnum()]
    return " ".join(f"{p[0].upper()}." for p in parts) or "?"


class ApiToken(models.Model):
    """A member's own API token, for a person's script or a club's program
    (``clubs.tokens``): named, scoped, shown once and stored as its SHA-256 only.

    Its scope caps the member's role in every club: a ``read`` token reads, a ``score``
    token scores (a scorer's or admin's) but manages nothing, an ``admin`` token does all
    the member's role allows. ``prefix`` is the key's first characters, kept in the clear
    so the member can tell their tokens apart; ``digest`` finds the token by its key."""

    class Scope(models.TextChoices):
        READ = "read", _("Read")
        SCORE = "score", _("Score")
        ADMIN = "admin", _("Admin")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    scope = models.CharField(_("scope"), max_length=5, choices=Scope.choices)
    prefix = models.CharField(max_length=12, help_text="The key's first characters.")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key (hex).")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…, {self.scope})"
