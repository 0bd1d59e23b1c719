"""Members: invitations into a club, a member's own settings, and disputed results.

This app sits above the game and standings apps: it reads games and players and calls
their services (the one confirmation rule is ``games.services.game_confirm``), and none of
them imports it.

- An ``Invitation`` lets one person join one club with the role it names, by email or by
  a link (shown as a QR code at the club). It is used once, expires, and can be revoked.
  Its link carries the invitation's id signed with Django's signing (no token is stored).
  An invitation by email is accepted only by an account that has verified that address;
  one link creates at most one account (``signup_user``); joining as an existing player
  the invitation does not name (or one with games awaiting acceptance) is a claim
  (``claimed_player``) that a club admin approves or refuses.
- A ``MemberProfile`` is a person, with a login or not: their confirmation PIN (hashed
  with Django's password hashers); a player without a login links to theirs
  (``PlayerPerson``). Wrong tries are counted per game and per day (``PinGuard``,
  ``PinDay``): a limit slows the tries, it never locks the person out of every game.
  Whether their name is shown on the public pages of a public club is the player's
  ``name_public`` (clubs), which the member sets here.
- A ``Dispute`` is raised at the table instead of confirming; a club admin resolves it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Club, Player, Role
from clabber_league.games.models import Game


class Invitation(models.Model):
    class State(models.TextChoices):
        OPEN = "open", _("Open")
        ACCEPTED = "accepted", _("Accepted")
        REVOKED = "revoked", _("Revoked")
        EXPIRED = "expired", _("Expired")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(blank=True, help_text="Empty for an invitation by link or QR code.")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations",
        help_text="The club's player this person is; else they choose when they join.",
    )
    note = models.CharField(max_length=120, blank=True, help_text="Who it is for, for the admin.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    signup_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The account created through this invitation's link (at most one).",
    )
    claimed_player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The existing player the person who joined says they are, awaiting a club "
        "admin's approval (a player the invitation does not name, or one with games "
        "awaiting acceptance).",
    )
    claim_decided_at = models.DateTimeField(null=True, blank=True)
    claim_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    claim_approved = models.BooleanField(null=True, blank=True)
    claim_name_public = models.BooleanField(
        null=True,
        blank=True,
        help_text="The joiner's choice to show their name on public pages, given to the "
        "claimed player once approved.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at"])]

    def __str__(self) -> str:
        return f"Invitation {self.pk} to {self.club} ({self.role})"

    def state(self, now: dt.datetime | None = None) -> str:
        if self.accepted_at:
            return self.State.ACCEPTED
        if self.revoked_at:
            return self.State.REVOKED
        if self.expires_at <= (now or timezone.now()):
            return self.State.EXPIRED
        return self.State.OPEN

    @property
    def state_label(self) -> str:
        return self.State(self.state()).label

    @property
    def claim_pending(self) -> bool:
        """A claim to be an existing player that no club admin has decided yet."""
        return self.claimed_player_id is not None and self.claim_decided_at is None


class MemberProfile(models.Model):
    """A person (with a login or not): their confirmation PIN.

    The PIN belongs to the person, not to one club's player: a person with a login has one
    profile (``user``), whichever clubs they play in; a person with no login has a profile
    that their club's player links to (``PlayerPerson``), and it joins their login when
    they get one (``services.person_for_player``). Hashed with Django's password hashers.
    Wrong tries are counted per game (``PinGuard``) and per day (``PinDay``), never as a
    lock on the person."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="member_profile",
    )
    pin_hash = models.CharField(max_length=256, blank=True)
    pin_set_at = models.DateTimeField(null=True, blank=True)
    pin_set_how = models.CharField(max_length=20, blank=True, help_text="Where it was set.")
    # The member's own language for the pages (one of LANGUAGES); empty: follow the club's,
    # else the browser's (site.locale.LanguageMiddleware).
    language = models.CharField(max_length=12, blank=True, default="")

    def __str__(self) -> str:
        return f"Profile of {self.user}" if self.user_id else f"Person {self.pk}"

    @property
    def has_pin(self) -> bool:
        return bool(self.pin_hash)


class PlayerPerson(models.Model):
    """A club's player without a login, and the person (with their PIN) they are."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="person_link")
    person = models.ForeignKey(MemberProfile, on_delete=models.CASCADE, related_name="player_links")

    def __str__(self) -> str:
        return f"{self.player} is person {self.person_id}"


class PinGuard(models.Model):
    """Wrong PIN tries of one person on one game: after ``MEMBER_PIN_MAX_FAILURES`` the
    person's acceptance of that game waits ``PIN_LOCK_MINUTES``; other games are not
    touched."""

    person = models.ForeignKey(MemberProfile, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    failures = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["person", "game"], name="pin_guard_once_per_game")
        ]

    def __str__(self) -> str:
        return f"PIN tries of person {self.person_id} on game {self.game_id}"


class PinDay(models.Model):
    """Wrong PIN tries of one person in one day, over all games: past
    ``PIN_DAILY_FAILURES`` each further try waits ``PIN_SLOW_SECONDS`` (slowed, never
    locked: a right PIN after the wait is accepted)."""

    person = models.ForeignKey(MemberProfile, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    failures = models.PositiveIntegerField(default=0)
    slowed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["person", "day"], name="pin_day_once_per_day")
        ]

    def __str__(self) -> str:
        return f"PIN tries of person {self.person_id} on {self.day}"


class Dispute(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="disputes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="disputes",
        help_text="The player of the other side who disputes the result.",
    )
    reason = models.TextField(max_length=1000)
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Whose phone it was raised on.",
    )
    raised_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolution = models.TextField(max_length=1000, blank=True)

    class Meta:
        ordering = ["-raised_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(resolved_at__isnull=True), name="dispute_one_open"
            )
        ]
        indexes = [models.Index(fields=["club", "resolved_at"])]

    def __str__(self) -> str:
        return f"Dispute of game {self.game_id}"

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
