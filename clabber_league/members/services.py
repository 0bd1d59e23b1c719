"""Members' writes: invitations, joining, the confirmation PIN, handover and disputes.

Who may confirm a result is decided in one place, ``games.services.game_confirm``; the
handover here only proves who is at the phone (their PIN) and then asks that service,
saying who confirms and how. Every refusal raises ``MemberError`` with the error list
``[{"field", "message"}]``, and nothing is written (a wrong PIN only counts the try).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core import signing
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.clubs.services import (
    ClubError,
    membership_add,
    player_create,
    player_link_user,
)
from clabber_league.core.errors import CONFLICT, FORBIDDEN, THROTTLED, ServiceError, conflict
from clabber_league.core.mail import mail_send
from clabber_league.games.models import Game
from clabber_league.games.services import GameError, game_confirm

from .models import Dispute, Invitation, MemberProfile

INVITATION_SALT = "clabber_league.members.invitation"

INVITATION_UNKNOWN = "This invitation link is not valid. Ask the club for a new one."
INVITATION_EXPIRED = "This invitation has expired. Ask the club for a new one."
INVITATION_REVOKED = "This invitation was withdrawn by the club."
INVITATION_USED = "This invitation has already been used."
INVITATION_EXPIRY_RANGE = "An invitation lasts from 1 to 90 days."
INVITATION_ROLE_ADMIN = "Only a club admin can invite a club admin."
INVITATION_PLAYER_LINKED = "{player} already has a login."
INVITATION_EMAIL_OTHER = "This invitation was sent to another email address."
INVITATION_EMAIL_UNVERIFIED = (
    "This invitation is for {email}: add that address to your account and confirm it with "
    "the link we email you, then open the invitation again."
)
INVITATION_SIGNED_UP = (
    "An account was already created with this invitation: log in with it, or ask the club "
    "for a new invitation."
)
CLAIM_NONE = "Nobody is waiting for approval on this invitation."
CLAIM_DECIDED = "This request was already decided."
CLAIM_NOT_ADMIN = "Only a club admin approves who is which player."
ALREADY_MEMBER = "You are already a member of this club."
JOIN_PLAYER_REQUIRED = "Choose which of the club's players you are, or add your name."
JOIN_PLAYER_TAKEN = "{player} is already linked to another login."
JOIN_PLAYER_OTHER = "Choose one of this club's players."
JOIN_NAME_TAKEN = "The club already has a player of this name: choose them from the list."
JOIN_NAME_BAD = "Give your name as it should appear on the score sheet (up to 120 characters)."
PIN_FORMAT = "A PIN is four to six digits."
PIN_WRONG = "Wrong PIN for {player}. {left} more tries before it locks."
PIN_LOCKED = (
    "{player}'s PIN is locked after too many wrong tries: they set a new one in their "
    "profile, or confirm from their own phone."
)
PIN_NONE = "{player} has no confirmation PIN: they confirm from their own phone."
PIN_NO_LOGIN = "{player} has no login: ask a club admin to invite them."
PIN_NOT_SEATED = "{player} did not play in this game."
PIN_SAME_SIDE = "{player} is on the scorer's own side: hand the phone to the other side."
PIN_THROTTLED = "Too many PIN tries on this game: wait a few minutes and try again."
DISPUTE_REASON = "Say what is wrong with the result (up to 1,000 characters)."
DISPUTE_OPEN = "This game is already disputed: the club admin will look at it."
DISPUTE_NOT_FINISHED = "Only a finished game that is not yet confirmed can be disputed."
DISPUTE_RESOLVED = "This dispute is already resolved."
GAME_DISPUTED = "This result is disputed: a club admin resolves it."

PIN_RE = re.compile(r"\d{4,6}")
#: Handover tries per game in ``PIN_THROTTLE_SECONDS`` (every player's tries together).
PIN_THROTTLE_TRIES = 10
PIN_THROTTLE_SECONDS = 300


class MemberError(ServiceError):
    """A refused write (``core.errors.ServiceError``); ``errors`` are ``{"field", "message"}``."""


# --- invitations ------------------------------------------------------------------------


def invitation_key(invitation: Invitation) -> str:
    """The secret part of the invitation's link: its id, signed (Django's signing; the
    same link every time it is shown)."""
    return signing.Signer(salt=INVITATION_SALT).sign(str(invitation.pk))


def invitation_url(*, invitation: Invitation, request: Any = None) -> str:
    path = reverse("members:join", kwargs={"key": invitation_key(invitation)})
    return request.build_absolute_uri(path) if request is not None else path


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    created_by: Any,
    role: str = Role.PLAYER,
    email: str = "",
    player: Player | None = None,
    note: str = "",
    days: int | None = None,
    request: Any = None,
) -> Invitation:
    """Invite one person into ``club`` with ``role``; email them the link if ``email``."""
    days = settings.MEMBER_INVITATION_DAYS if days is None else days
    errors = []
    if not 1 <= days <= 90:
        errors.append({"field": "days", "message": INVITATION_EXPIRY_RANGE})
    if role not in Role.values:
        errors.append({"field": "role", "message": f"Choose one of: {', '.join(Role.values)}."})
    if player is not None and player.club_id != club.pk:
        errors.append({"field": "player", "message": JOIN_PLAYER_OTHER})
    elif player is not None and player.user_id is not None:
        errors.append(conflict("player", INVITATION_PLAYER_LINKED.format(player=player)))
    if errors:
        raise MemberError(errors)
    invitation = Invitation.objects.create(
        club=club,
        role=role,
        email=email.strip(),
        player=player,
        note=note.strip(),
        created_by=created_by,
        expires_at=timezone.now() + dt.timedelta(days=days),
    )
    if invitation.email:
        url = invitation_url(invitation=invitation, request=request)
        transaction.on_commit(lambda: _invitation_mail(invitation, url))
    return invitation


def _invitation_mail(invitation: Invitation, url: str) -> None:
    mail_send(
        to=[invitation.email],
        subject=f"Join {invitation.club.name} on Clabber League",
        template="members/email/invitation",
        context={"invitation": invitation, "club": invitation.club, "url": url},
    )


def invitation_revoke(*, invitation: Invitation) -> Invitation:
    state = invitation.state()
    if state == Invitation.State.ACCEPTED:
        raise MemberError.one("invitation", INVITATION_USED, kind=CONFLICT)
    if state == Invitation.State.REVOKED:
        raise MemberError.one("invitation", INVITATION_REVOKED, kind=CONFLICT)
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_from_key(*, key: str) -> Invitation:
    """The invitation a link names, if it can still be used; else ``MemberError``."""
    try:
        pk = int(signing.Signer(salt=INVITATION_SALT).unsign(key))
    except (signing.BadSignature, ValueError) as exc:
        raise MemberError.one("invitation", INVITATION_UNKNOWN) from exc
    invitation = Invitation.objects.select_related("club", "player").filter(pk=pk).first()
    if invitation is None:
        raise MemberError.one("invitation", INVITATION_UNKNOWN)
    _check_open(invitation)
    return invitation


def _check_open(invitation: Invitation) -> None:
    state = invitation.state()
    message = {
        Invitation.State.ACCEPTED: INVITATION_USED,
        Invitation.State.REVOKED: INVITATION_REVOKED,
        Invitation.State.EXPIRED: INVITATION_EXPIRED,
    }.get(state)
    if message:
        raise MemberError.one("invitation", message, kind=CONFLICT)


def email_verified(*, user: Any, email: str) -> bool:
    """Whether ``user`` has confirmed ``email`` (allauth's verified addresses; any case)."""
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists()


def invitation_signup_claim(*, key: str, user: Any) -> None:
    """Record ``user`` as the one account the invitation's link created; refused when the
    link already created one (``INVITATION_SIGNED_UP``, 409): one link, one account."""
    invitation = invitation_from_key(key=key)
    claimed = Invitation.objects.filter(pk=invitation.pk, signup_user__isnull=True).update(
        signup_user=user
    )
    if not claimed:
        raise MemberError.one("invitation", INVITATION_SIGNED_UP, kind=CONFLICT)


def invitation_open_for_signup(*, key: str) -> bool:
    """Whether the link may still create an account: open, and none created with it yet."""
    try:
        invitation = invitation_from_key(key=key)
    except MemberError:
        return False
    return invitation.signup_user_id is None


def player_awaits_acceptance(player: Player) -> bool:
    """Whether ``player`` sat in a finished game that is not yet accepted (confirmed)."""
    return Game.objects.filter(seats__player=player, status=Game.Status.FINISHED).exists()


@transaction.atomic
def invitation_accept(
    *,
    key: str,
    user: Any,
    player_id: int | None = None,
    new_name: str = "",
    name_public: bool | None = None,
) -> Membership:
    """Join the invitation's club as ``user`` with the invitation's role. Used once.

    An invitation by email is accepted only by an account that verified that address.
    The player: the one the invitation names, or a new one called ``new_name``; choosing
    another existing player (``player_id``), or a player with games awaiting acceptance,
    joins without a player and asks a club admin to approve the link
    (``invitation_claim_decide``), which then gives that player ``name_public``."""
    invitation = invitation_from_key(key=key)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    _check_open(invitation)  # again, under the lock: two people racing one link
    club = invitation.club
    if Membership.objects.filter(club=club, user=user).exists():
        raise MemberError.one("invitation", ALREADY_MEMBER, kind=CONFLICT)
    if invitation.email and not email_verified(user=user, email=invitation.email):
        message = INVITATION_EMAIL_UNVERIFIED.format(email=invitation.email)
        raise MemberError.one("invitation", message)
    player, needs_approval = _join_player(club, invitation, user, player_id, new_name)
    membership = membership_add(club=club, user=user, role=invitation.role)
    fields = ["accepted_at", "accepted_by"]
    if player is not None and needs_approval:
        invitation.claimed_player = player
        invitation.claim_name_public = name_public
        fields += ["claimed_player", "claim_name_public"]
    elif player is not None:
        player_link_user(player=player, user=user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=fields)
    return membership


def _join_player(
    club: Club, invitation: Invitation, user: Any, player_id: int | None, new_name: str
) -> tuple[Player | None, bool]:
    """The player the person joins as, and whether a club admin must approve it first."""
    if Player.objects.filter(club=club, user=user).exists():
        return None, False  # already linked (an admin did it before they joined)
    if invitation.player_id is not None:
        player_id = invitation.player_id
    if player_id is not None:
        player = Player.objects.select_for_update().filter(club=club, pk=player_id).first()
        if player is None:
            raise MemberError.one("player", JOIN_PLAYER_OTHER)
        if player.user_id is not None and player.user_id != user.pk:
            raise MemberError.one("player", JOIN_PLAYER_TAKEN.format(player=player), kind=CONFLICT)
        named = player.pk == invitation.player_id
        return player, not named or player_awaits_acceptance(player)
    name = " ".join(new_name.split())
    if invitation.role == Role.VIEWER and not name:
        return None, False  # a viewer need not be a player
    if not name:
        raise MemberError.one("player", JOIN_PLAYER_REQUIRED)
    if any(ord(c) < 32 for c in new_name if c not in " \t"):  # the API's core.text does this
        raise MemberError.one("new_name", JOIN_NAME_BAD)
    try:
        return player_create(club=club, name=new_name), False  # the API's rules for a name
    except ClubError as exc:  # said to the person joining, about the field they filled
        message = JOIN_NAME_TAKEN if exc.kind == CONFLICT else JOIN_NAME_BAD
        raise MemberError.one("new_name", message, kind=exc.kind) from exc


@transaction.atomic
def invitation_claim_decide(
    *, invitation: Invitation, user: Any, access: ClubAccess, approve: bool
) -> Invitation:
    """A club admin approves (the login is linked to the claimed player) or refuses (the
    member stays without a player) a claim made on joining."""
    if not access.can_manage or access.club.pk != invitation.club_id:
        raise MemberError.one("invitation", CLAIM_NOT_ADMIN, kind=FORBIDDEN)
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.claimed_player_id is None:
        raise MemberError.one("invitation", CLAIM_NONE, kind=CONFLICT)
    if invitation.claim_decided_at is not None:
        raise MemberError.one("invitation", CLAIM_DECIDED, kind=CONFLICT)
    if approve:
        player = Player.objects.select_for_update().get(pk=invitation.claimed_player_id)
        if player.user_id is not None and player.user_id != invitation.accepted_by_id:
            message = JOIN_PLAYER_TAKEN.format(player=player)
            raise MemberError.one("player", message, kind=CONFLICT)
        try:
            player_link_user(player=player, user=invitation.accepted_by)
        except ClubError as exc:
            raise MemberError(exc.errors, kind=exc.kind) from exc
        if invitation.claim_name_public is not None:
            player.name_public = invitation.claim_name_public
            player.save(update_fields=["name_public"])
    invitation.claim_approved = approve
    invitation.claim_decided_at = timezone.now()
    invitation.claim_decided_by = user
    invitation.save(update_fields=["claim_approved", "claim_decided_at", "claim_decided_by"])
    return invitation


# --- the member's own settings -------------------------------------------------------------


def profile_for(user: Any) -> MemberProfile:
    profile, _ = MemberProfile.objects.get_or_create(user=user)
    return profile


def profile_set_pin(*, user: Any, pin: str) -> MemberProfile:
    """Set (or replace) the member's confirmation PIN; it also unlocks a locked one."""
    if not PIN_RE.fullmatch(pin or ""):
        raise MemberError.one("pin", PIN_FORMAT)
    profile = profile_for(user)
    profile.pin_hash = make_password(pin)
    profile.pin_failures = 0
    profile.pin_locked_at = None
    profile.save(update_fields=["pin_hash", "pin_failures", "pin_locked_at"])
    return profile


def profile_clear_pin(*, user: Any) -> MemberProfile:
    profile = profile_for(user)
    profile.pin_hash = ""
    profile.pin_failures = 0
    profile.pin_locked_at = None
    profile.save(update_fields=["pin_hash", "pin_failures", "pin_locked_at"])
    return profile


def profile_set_privacy(*, user: Any, name_public: bool) -> int:
    """The member's choice for every club they play in: their name on public pages, or
    only their initials. Returns how many of their players changed."""
    return Player.objects.filter(user=user).update(name_public=name_public)


def profile_name_public(*, user: Any) -> bool:
    return not Player.objects.filter(user=user, name_public=False).exists()


# --- handing the phone to the other side ----------------------------------------------------


def handover_confirm(*, game: Game, player_id: Any, pin: str, device_user: Any) -> Game:
    """The other side's player at the scorer's phone confirms the result with their PIN.

    Their PIN proves who they are; whether they may confirm is ``game_confirm``'s rule,
    asked with them as the one confirming, by PIN, on ``device_user``'s phone.
    """
    if Dispute.objects.filter(game=game, resolved_at__isnull=True).exists():
        raise MemberError.one("game", GAME_DISPUTED, kind=CONFLICT)
    player = _handover_player(game, player_id, device_user)
    if not PIN_RE.fullmatch(pin or ""):
        raise MemberError.one("pin", PIN_FORMAT)
    _throttle(game)
    _check_pin(player, pin)
    try:
        return game_confirm(game=game, player=player, how="pin", device_user=device_user)
    except GameError as exc:
        raise MemberError(exc.errors, kind=exc.kind) from exc


def _handover_player(game: Game, player_id: Any, device_user: Any) -> Player:
    try:
        pk = int(player_id)
    except (TypeError, ValueError) as exc:
        raise MemberError.one("player", "Choose who is confirming.") from exc
    seat = game.seats.select_related("player__user").filter(player_id=pk).first()
    if seat is None:
        player = Player.objects.filter(club_id=game.club_id, pk=pk).first()
        raise MemberError.one("player", PIN_NOT_SEATED.format(player=player or "This player"))
    player = seat.player
    device_sides = set(game.seats.filter(player__user=device_user).values_list("side", flat=True))
    if seat.side in device_sides:
        raise MemberError.one("player", PIN_SAME_SIDE.format(player=player))
    if player.user is None:
        raise MemberError.one("player", PIN_NO_LOGIN.format(player=player))
    return player


def _throttle(game: Game) -> None:
    key = f"members:pin-tries:{game.pk}"
    cache.add(key, 0, PIN_THROTTLE_SECONDS)
    try:
        tries = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, PIN_THROTTLE_SECONDS)
        tries = 1
    if tries > PIN_THROTTLE_TRIES:
        raise MemberError(
            [{"field": "pin", "message": PIN_THROTTLED}],
            kind=THROTTLED,
            retry_after=PIN_THROTTLE_SECONDS,
        )


def _check_pin(player: Player, pin: str) -> None:
    """Check the PIN under the profile's row lock; a wrong one counts (and may lock) even
    though the confirmation is refused."""
    limit = settings.MEMBER_PIN_MAX_FAILURES
    with transaction.atomic():
        profile = MemberProfile.objects.select_for_update().filter(user=player.user).first()
        if profile is None or not profile.pin_hash:
            raise MemberError.one("player", PIN_NONE.format(player=player))
        if profile.pin_locked_at is not None:  # locked before this try: a state, 409
            raise MemberError.one("pin", PIN_LOCKED.format(player=player), kind=CONFLICT)
        if check_password(pin, profile.pin_hash):
            if profile.pin_failures:
                profile.pin_failures = 0
                profile.save(update_fields=["pin_failures"])
            return
        profile.pin_failures += 1
        if profile.pin_failures >= limit:
            profile.pin_locked_at = timezone.now()
        profile.save(update_fields=["pin_failures", "pin_locked_at"])
    if profile.pin_locked_at is not None:
        raise MemberError.one("pin", PIN_LOCKED.format(player=player))
    raise MemberError.one("pin", PIN_WRONG.format(player=player, left=limit - profile.pin_failures))


# --- disputes -----------------------------------------------------------------------------------


def dispute_raise(
    *, game: Game, reason: str, device_user: Any, player_id: Any = None, request: Any = None
) -> Dispute:
    """The other side disputes the result instead of confirming it: the game is flagged for
    the club admins (emailed), and nobody confirms it until an admin resolves it."""
    reason = (reason or "").strip()
    if not reason or len(reason) > 1000:
        raise MemberError.one("reason", DISPUTE_REASON)
    player = None
    if player_id not in (None, ""):
        seat = game.seats.select_related("player__user").filter(player_id=player_id).first()
        if seat is None:
            raise MemberError.one("player", PIN_NOT_SEATED.format(player="This player"))
        device_sides = set(
            game.seats.filter(player__user=device_user).values_list("side", flat=True)
        )
        if seat.side in device_sides:
            raise MemberError.one("player", PIN_SAME_SIDE.format(player=seat.player))
        player = seat.player
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status != Game.Status.FINISHED:
            raise MemberError.one("game", DISPUTE_NOT_FINISHED, kind=CONFLICT)
        if Dispute.objects.filter(game=locked, resolved_at__isnull=True).exists():
            raise MemberError.one("game", DISPUTE_OPEN, kind=CONFLICT)
        try:
            with transaction.atomic():
                dispute = Dispute.objects.create(
                    club_id=locked.club_id,
                    game=locked,
                    player=player,
                    reason=reason,
                    raised_by=device_user,
                )
        except IntegrityError as exc:  # a second dispute raced this one
            raise MemberError.one("game", DISPUTE_OPEN, kind=CONFLICT) from exc
        url = reverse("members:dispute", kwargs={"club_slug": locked.club.slug, "pk": dispute.pk})
        if request is not None:
            url = request.build_absolute_uri(url)
        transaction.on_commit(lambda: _dispute_mail(dispute, url))
    return dispute


def _dispute_mail(dispute: Dispute, url: str) -> None:
    admins = Membership.objects.filter(club_id=dispute.club_id, role=Role.ADMIN).exclude(
        user__email=""
    )
    for email in sorted(set(admins.values_list("user__email", flat=True))):
        mail_send(
            to=[email],
            subject=f"Game {dispute.game_id} is disputed",
            template="members/email/dispute",
            context={"dispute": dispute, "club": dispute.club, "url": url},
        )


def dispute_resolve(
    *, dispute: Dispute, user: Any, access: ClubAccess | None = None, resolution: str = ""
) -> Dispute:
    """A club admin resolves a dispute: after any corrections, the result is confirmed in
    the name of the club (``game_confirm`` with ``how="club"``, refused unless the caller's
    ``access`` is a club admin's), and the dispute closed."""
    resolution = (resolution or "").strip()
    if len(resolution) > 1000:
        raise MemberError.one("resolution", "Up to 1,000 characters.")
    with transaction.atomic():
        dispute = Dispute.objects.select_for_update().get(pk=dispute.pk)
        if dispute.resolved_at is not None:
            raise MemberError.one("dispute", DISPUTE_RESOLVED, kind=CONFLICT)
        if dispute.game.status != Game.Status.CONFIRMED:
            try:
                game_confirm(game=dispute.game, user=user, access=access, how="club")
            except GameError as exc:
                raise MemberError(exc.errors, kind=exc.kind) from exc
        dispute.resolved_at = timezone.now()
        dispute.resolved_by = user
        dispute.resolution = resolution
        dispute.save(update_fields=["resolved_at", "resolved_by", "resolution"])
    return dispute


# --- two players merged into one -----------------------------------------------------------


def member_rows_player_merging(*, source: Player, target: Player) -> None:
    """``clubs.hooks.player_merging``: invitations and disputes naming ``source`` name
    ``target``."""
    Invitation.objects.filter(player=source).update(player=target)
    Dispute.objects.filter(player=source).update(player=target)
