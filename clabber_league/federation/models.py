"""A federation above the clubs (issue 34): its member clubs, its officers, and one player
across clubs under a federation player number.

A club keeps its own ``clubs.Player`` rows; the federation knows a person once, as a
:class:`FederationPlayer` with a number that is stable and never reused, and each club's
player row is linked to it (:class:`PlayerLink`) once the player or an officer approves.
Duplicates are merged only with approval, and every merge is recorded
(:class:`PlayerMerge`) so that it can be undone.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player


class Federation(models.Model):
    """A body that organises clubs: a national federation, a regional league."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    country = models.CharField(_("country"), max_length=60, blank=True)
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Its clubs, competitions and ranking can be read without logging in."),
    )
    number_prefix = models.CharField(
        _("player number prefix"),
        max_length=8,
        blank=True,
        help_text=_("Put before every player number of this federation, e.g. NKU-."),
    )
    next_number = models.PositiveIntegerField(
        default=1, editable=False, help_text="The next player number to give: never reused."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class FederationClub(models.Model):
    """A club's membership of a federation; a club may belong to several.

    A club admin asks to join (``requested``) and an officer accepts, or an officer invites
    (``invited``) and the club admin accepts; a club that leaves or is removed is ``left``
    (kept: its players' numbers stay). ``active`` is true for a member, false otherwise."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Asked to join")
        INVITED = "invited", _("Invited")
        MEMBER = "member", _("Member")
        LEFT = "left", _("Left")

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="member_clubs"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federations")
    joined_on = models.DateField(_("joined on"), null=True, blank=True)
    active = models.BooleanField(_("active"), default=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.MEMBER
    )
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who asked to join or invited the club.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "club"], name="federation_club_once")
        ]

    def __str__(self) -> str:
        return f"{self.club} in {self.federation}"


class Officer(models.Model):
    """A person who runs a federation: a role of its own, apart from any club's roles."""

    class Role(models.TextChoices):
        OFFICER = "officer", _("Officer")
        ADMIN = "admin", _("Federation admin")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_roles"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.OFFICER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["federation", "user"], name="federation_officer_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) of {self.federation}"


class FederationPlayer(models.Model):
    """One person in a federation, whatever clubs they play in."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="players")
    number = models.CharField(
        _("player number"),
        max_length=20,
        help_text=_("Given once by the federation, never changed and never given again."),
    )
    name = models.CharField(_("name"), max_length=120)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    email = models.EmailField(_("email"), blank=True)
    home_club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="home_players",
        verbose_name=_("home club"),
    )
    is_public = models.BooleanField(
        _("public profile"),
        default=False,
        help_text=_("The player's choice: their name, profile and ranking on public pages."),
    )
    active = models.BooleanField(_("active"), default=True)
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_from",
        help_text="Set when this record was merged into another: its number stays retired.",
    )
    erased_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player left: the retention period runs from here.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "number"], name="federation_player_number_once"
            )
        ]
        indexes = [models.Index("federation", Lower("name"), name="federation_player_name")]

    def __str__(self) -> str:
        return f"{self.number} {self.name}"


class PlayerLink(models.Model):
    """A club's player row linked to a federation number, once approved."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Awaiting approval")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="links")
    federation_player = models.ForeignKey(
        FederationPlayer, on_delete=models.CASCADE, related_name="links"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="federation_links")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # A club's player is one person: linked to at most one number per federation.
            models.UniqueConstraint(fields=["federation", "player"], name="federation_link_once")
        ]

    def __str__(self) -> str:
        return f"{self.player} → {self.federation_player} ({self.status})"


class PlayerMerge(models.Model):
    """The record of two federation players found to be one person, kept to undo it."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="merges")
    kept = models.ForeignKey(FederationPlayer, on_delete=models.PROTECT, related_name="+")
    merged = models.ForeignKey(FederationPlayer, on_delete=models.PROTECT, related_name="+")
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    moved_links = models.JSONField(
        default=list, help_text="The PlayerLink ids moved from merged to kept, for the undo."
    )
    merged_state = models.JSONField(
        default=dict,
        blank=True,
        help_text="The merged record's fields the merge changed, as they were: the undo "
        "puts them back.",
    )
    at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.merged} into {self.kept}"
