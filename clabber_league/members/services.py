"""Members' writes: invitations, joining, the confirmation PIN, handover and disputes.

Who may confirm a result is decided in one place, ``games.services.game_confirm``; the
handover here only proves who is at the phone (their PIN) and then asks that service,
saying who confirms and how. Every refusal raises ``MemberError`` with the error list
``[{"field", "message"}]``, and nothing is written (a wrong PIN only counts the try).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clabber_league.clubs import names as text_names
from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.locale import club_locale
from clabber_league.clubs.models import Club, Membership, Player, Role
from clabber_league.clubs.services import (
    ClubError,
    membership_add,
    player_create,
    player_link_user,
)
from clabber_league.core.errors import CONFLICT, FORBIDDEN, THROTTLED, ServiceError, conflict
from clabber_league.core.mail import mail_send, site_url
from clabber_league.games.models import Game
from clabber_league.games.services import (
    ACCEPT_ALREADY,
    CONFIRM_SAME_SIDE,
    GAME_ALREADY_CONFIRMED,
    GameError,
    confirmation_state,
    game_confirm,
    game_confirm_refusal,
)

from .models import Dispute, Invitation, MemberProfile, PinDay, PinGuard, PlayerPerson

INVITATION_SALT = "clabber_league.members.invitation"

INVITATION_UNKNOWN = _("This invitation link is not valid. Ask the club for a new one.")
INVITATION_EXPIRED = _("This invitation has expired. Ask the club for a new one.")
INVITATION_REVOKED = _("This invitation was withdrawn by the club.")
INVITATION_USED = _("This invitation has already been used.")
INVITATION_EXPIRY_RANGE = _("An invitation lasts from 1 to 90 days.")
INVITATION_ROLE_ADMIN = _("Only a club admin can invite a club admin.")
INVITATION_PLAYER_LINKED = _("{player} already has a login.")
INVITATION_EMAIL_OTHER = _("This invitation was sent to another email address.")
INVITATION_EMAIL_UNVERIFIED = _(
    "This invitation is for {email}: add that address to your account and confirm it with "
    "the link we email you, then open the invitation again."
)
INVITATION_SIGNED_UP = _(
    "An account was already created with this invitation: log in with it, or ask the club "
    "for a new invitation."
)
CLAIM_NONE = _("Nobody is waiting for approval on this invitation.")
CLAIM_DECIDED = _("This request was already decided.")
CLAIM_NOT_ADMIN = _("Only a club admin approves who is which player.")
ALREADY_MEMBER = _("You are already a member of this club.")
JOIN_PLAYER_REQUIRED = _("Choose which of the club's players you are, or add your name.")
JOIN_PLAYER_TAKEN = _("{player} is already linked to another login.")
JOIN_PLAYER_OTHER = _("Choose one of this club's players.")
JOIN_NAME_TAKEN = _("The club already has a player of this name: choose them from the list.")
JOIN_NAME_BAD = _("Give your name as it should appear on the score sheet (up to 120 characters).")
PIN_FORMAT = _("A PIN is four to six digits (0 to 9).")
PIN_ASCII = _(
    "Type the PIN with the digits 0 to 9: digits of other scripts (such as ٤ or ४) are not "
    "accepted."
)
PIN_WRONG = _("Wrong PIN. {left} more tries on this game before it waits a while.")
ADMIN_SECRET_WRONG = _(
    "Wrong PIN or password of this club admin. {left} more tries on this game before it waits "
    "a while."
)
PIN_LOCKED = _(
    "Too many wrong PINs for this player on this game: try again in {minutes} minutes, or "
    "accept on your own phone."
)
PIN_SLOWED = _(
    "Many wrong PINs today for this player: wait a minute between tries (the right PIN is "
    "still accepted)."
)
PIN_NONE = _(
    "{player} has no confirmation PIN yet: set one with a club admin present, or accept on "
    "your own phone."
)
PIN_NOT_SEATED = _("{player} did not play in this game.")
PIN_ALREADY = _("{player} already has a PIN: a club admin can reset it if it is forgotten.")
PIN_SET_ADMIN_ONLY = _("Only a club admin's phone takes a player's new PIN.")
PIN_RESET_ADMIN_ONLY = _("Only a club admin resets a player's PIN.")
PIN_ADMIN_CHOOSE = _("Choose the club admin who approves it.")
PLAYER_CHOOSE = _("Choose who you are.")
ACCEPT_NOT_FINISHED = _(
    "This game is not finished: its result is accepted once the last deal is in."
)
PIN_SET_OWN_PHONE = "own_phone"
PIN_SET_SECRETARY = "secretary_phone"
PIN_SET_TABLE = "table_with_admin"
#: Minutes one person's acceptance of one game waits after too many wrong PINs.
PIN_LOCK_MINUTES = 15
#: Wrong PINs of one person in a day, over all games, after which each try waits.
PIN_DAILY_FAILURES = 20
PIN_SLOW_SECONDS = 60
LANGUAGE_UNKNOWN = _("Choose a language from the list.")
DISPUTE_REASON = _("Say what is wrong with the result (up to 1,000 characters).")
DISPUTE_OPEN = _("This game is already disputed: the club admin will look at it.")
DISPUTE_NOT_FINISHED = _("Only a finished game that is not yet confirmed can be disputed.")
DISPUTE_RESOLVED = _("This dispute is already resolved.")
GAME_DISPUTED = _("This result is disputed: a club admin resolves it.")

PIN_RE = re.compile(r"[0-9]{4,6}")


class MemberError(ServiceError):
    """A refused write (``core.errors.ServiceError``); ``errors`` are ``{"field", "message"}``."""


# --- invitations ------------------------------------------------------------------------


def invitation_key(invitation: Invitation) -> str:
    """The secret part of the invitation's link: its id, signed (Django's signing; the
    same link every time it is shown)."""
    return signing.Signer(salt=INVITATION_SALT).sign(str(invitation.pk))


def invitation_url(*, invitation: Invitation, request: Any = None) -> str:
    path = reverse("members:join", kwargs={"key": invitation_key(invitation)})
    return site_url(path, request=request)


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
        roles = ", ".join(Role.values)
        errors.append(
            {"field": "role", "message": gettext("Choose one of: {roles}.").format(roles=roles)}
        )
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


def recipient_language(*, email: str = "", user_id: Any = None) -> str:
    """The own language of whoever reads ``email`` (or of the user ``user_id``): their
    ``MemberProfile.language``, "" when they follow the club or the site has no account for
    the address. An email is written in it, else in the club's (``clubs.locale.club_locale``
    chooses, as for a page)."""
    if user_id is not None:
        return profile_language(user_id=user_id)
    if not email:
        return ""
    found = (
        MemberProfile.objects.filter(user__email__iexact=email)
        .exclude(language="")
        .order_by("user_id")
        .values_list("language", flat=True)
        .first()
    )
    return found or ""


def _invitation_mail(invitation: Invitation, url: str) -> None:
    club = invitation.club
    # The person invited may already have an account (another club's) and its language.
    with club_locale(club, language=recipient_language(email=invitation.email)):
        mail_send(
            to=[invitation.email],
            subject=gettext("Join {club} on Clabber League").format(club=club.name),
            template="members/email/invitation",
            context={"invitation": invitation, "club": club, "url": url},
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


# --- the confirmation PIN: the person's, with or without a login ----------------------------


def profile_for(user: Any) -> MemberProfile:
    profile, _ = MemberProfile.objects.get_or_create(user=user)
    return profile


def person_for_player(player: Player, *, create: bool = False) -> MemberProfile | None:
    """The person a club's player is, with their PIN: their login's profile, or the one
    their player links to when they have no login (None if neither, unless ``create``).
    A linked profile joins the login once the player has one (its PIN goes with it,
    unless the login has a PIN of its own)."""
    link = PlayerPerson.objects.select_related("person").filter(player=player).first()
    if player.user_id is None:
        if link is None and create:
            link = PlayerPerson.objects.create(player=player, person=MemberProfile.objects.create())
        return link.person if link is not None else None
    profile = MemberProfile.objects.filter(user_id=player.user_id).first()
    if link is not None:
        linked = link.person
        if profile is None and linked.user_id is None:
            linked.user_id = player.user_id
            linked.save(update_fields=["user"])
            profile = linked
        elif profile is not None and not profile.has_pin and linked.has_pin:
            profile.pin_hash, profile.pin_set_at = linked.pin_hash, linked.pin_set_at
            profile.pin_set_how = linked.pin_set_how
            profile.save(update_fields=["pin_hash", "pin_set_at", "pin_set_how"])
        link.delete()
    if profile is None and create:
        profile = profile_for(player.user)
    return profile


def pin_check_format(pin: Any, field: str = "pin") -> str:
    """The PIN as typed, if it is 4 to 6 ASCII digits; else the message why not."""
    pin = pin if isinstance(pin, str) else ""
    if pin and all(c.isdigit() for c in pin) and not pin.isascii():
        raise MemberError.one(field, PIN_ASCII)
    if not PIN_RE.fullmatch(pin):
        raise MemberError.one(field, PIN_FORMAT)
    return pin


def _pin_store(profile: MemberProfile, pin: str, how: str) -> MemberProfile:
    profile.pin_hash = make_password(pin)
    profile.pin_set_at = timezone.now()
    profile.pin_set_how = how
    profile.save(update_fields=["pin_hash", "pin_set_at", "pin_set_how"])
    PinGuard.objects.filter(person=profile).delete()  # a new PIN: earlier tries are moot
    return profile


def profile_set_pin(*, user: Any, pin: str) -> MemberProfile:
    """The member sets (or replaces) their own PIN on their own phone, logged in."""
    pin = pin_check_format(pin)
    return _pin_store(profile_for(user), pin, PIN_SET_OWN_PHONE)


def profile_clear_pin(*, user: Any) -> MemberProfile:
    profile = profile_for(user)
    profile.pin_hash = ""
    profile.pin_set_at = None
    profile.pin_set_how = ""
    profile.save(update_fields=["pin_hash", "pin_set_at", "pin_set_how"])
    return profile


def _club_player(club: Club, player_id: Any) -> Player:
    try:
        pk = int(player_id)
    except (TypeError, ValueError) as exc:
        raise MemberError.one("player", PLAYER_CHOOSE) from exc
    player = Player.objects.filter(club=club, pk=pk).first()
    if player is None:
        raise MemberError.one("player", JOIN_PLAYER_OTHER)
    return player


@transaction.atomic
def player_pin_set(*, access: ClubAccess, player_id: Any, pin: str) -> MemberProfile:
    """A player types their new PIN on the secretary's phone (at check-in, say): a club
    admin's phone, the field masked, never shown back. Only a player with no PIN yet: a
    PIN is replaced by its owner on their own phone, or reset by a club admin first."""
    if not access.can_manage:
        raise MemberError.one("player", PIN_SET_ADMIN_ONLY, kind=FORBIDDEN)
    player = _club_player(access.club, player_id)
    pin = pin_check_format(pin)
    profile = person_for_player(player, create=True)
    profile = MemberProfile.objects.select_for_update().get(pk=profile.pk)
    if profile.has_pin:
        raise MemberError.one("player", PIN_ALREADY.format(player=player), kind=CONFLICT)
    return _pin_store(profile, pin, PIN_SET_SECRETARY)


@transaction.atomic
def player_pin_reset(*, access: ClubAccess, player_id: Any) -> MemberProfile | None:
    """A club admin resets a player's PIN (forgotten): the person sets a new one."""
    if not access.can_manage:
        raise MemberError.one("player", PIN_RESET_ADMIN_ONLY, kind=FORBIDDEN)
    player = _club_player(access.club, player_id)
    profile = person_for_player(player)
    if profile is None or not profile.has_pin:
        return profile
    profile.pin_hash = ""
    profile.pin_set_at = None
    profile.pin_set_how = ""
    profile.save(update_fields=["pin_hash", "pin_set_at", "pin_set_how"])
    PinGuard.objects.filter(person=profile).delete()
    return profile


def table_pin_set(
    *, game: Game, player_id: Any, pin: str, admin_id: Any, admin_secret: str
) -> MemberProfile:
    """At the end of a game, on the table phone: a seated player with no PIN yet sets one,
    approved there by a club admin present, with the admin's own PIN or password (their
    wrong tries count on this game like any PIN's)."""
    player = _seated(game, player_id)
    pin = pin_check_format(pin)
    admin = _club_admin(game, admin_id)
    existing = person_for_player(player)
    if existing is not None and existing.has_pin:
        raise MemberError.one("player", PIN_ALREADY.format(player=player), kind=CONFLICT)
    _check_admin_secret(admin, game, admin_secret)
    with transaction.atomic():
        profile = person_for_player(player, create=True)
        profile = MemberProfile.objects.select_for_update().get(pk=profile.pk)
        if profile.has_pin:
            raise MemberError.one("player", PIN_ALREADY.format(player=player), kind=CONFLICT)
        return _pin_store(profile, pin, PIN_SET_TABLE)


def _club_admin(game: Game, admin_id: Any) -> Any:
    try:
        pk = int(admin_id)
    except (TypeError, ValueError) as exc:
        raise MemberError.one("admin", PIN_ADMIN_CHOOSE) from exc
    membership = (
        Membership.objects.select_related("user")
        .filter(club_id=game.club_id, user_id=pk, role=Role.ADMIN, user__is_active=True)
        .first()
    )
    if membership is None:
        raise MemberError.one("admin", PIN_ADMIN_CHOOSE)
    return membership.user


def _check_admin_secret(admin: Any, game: Game, secret: str) -> None:
    secret = secret if isinstance(secret, str) else ""
    profile = profile_for(admin)
    if profile.has_pin and PIN_RE.fullmatch(secret):
        _check_secret(profile, game, lambda: check_password(secret, profile.pin_hash), "admin")
    else:
        _check_secret(profile, game, lambda: admin.check_password(secret), "admin")


def table_admins(*, game: Game) -> list[Any]:
    """The club's admins who may approve a new PIN at the table, by name."""
    return [
        m.user
        for m in Membership.objects.select_related("user")
        .filter(club_id=game.club_id, role=Role.ADMIN, user__is_active=True)
        .order_by("user__username")
    ]


def _retry_after(until: dt.datetime, now: dt.datetime) -> int:
    return max(1, int((until - now).total_seconds()) + 1)


def _check_secret(
    profile: MemberProfile, game: Game, right: Callable[[], bool], field: str = "pin"
) -> None:
    """Check one PIN (or password) try of ``profile``'s person on ``game``, counted in the
    database under the rows' locks: ``MEMBER_PIN_MAX_FAILURES`` wrong tries on a game lock
    that game's try for ``PIN_LOCK_MINUTES``; ``PIN_DAILY_FAILURES`` wrong tries in a day
    slow every further try by ``PIN_SLOW_SECONDS``. The count is kept even though the
    try is refused (this transaction commits before the refusal is raised)."""
    limit = settings.MEMBER_PIN_MAX_FAILURES
    now = timezone.now()
    with transaction.atomic():
        guard, _ = PinGuard.objects.get_or_create(person=profile, game=game)
        guard = PinGuard.objects.select_for_update().get(pk=guard.pk)
        day, _ = PinDay.objects.get_or_create(person=profile, day=timezone.localdate())
        day = PinDay.objects.select_for_update().get(pk=day.pk)
        if guard.locked_until is not None and guard.locked_until > now:
            raise MemberError(
                [{"field": field, "message": PIN_LOCKED.format(minutes=PIN_LOCK_MINUTES)}],
                kind=THROTTLED,
                retry_after=_retry_after(guard.locked_until, now),
            )
        if day.slowed_until is not None and day.slowed_until > now:
            raise MemberError(
                [{"field": field, "message": PIN_SLOWED}],
                kind=THROTTLED,
                retry_after=_retry_after(day.slowed_until, now),
            )
        if right():
            if guard.failures:
                guard.failures = 0
                guard.save(update_fields=["failures"])
            return
        guard.failures += 1
        day.failures += 1
        left = limit - guard.failures
        if guard.failures >= limit:
            guard.failures = 0
            guard.locked_until = now + dt.timedelta(minutes=PIN_LOCK_MINUTES)
        if day.failures >= PIN_DAILY_FAILURES:
            day.slowed_until = now + dt.timedelta(seconds=PIN_SLOW_SECONDS)
        guard.save(update_fields=["failures", "locked_until"])
        day.save(update_fields=["failures", "slowed_until"])
    if left <= 0:
        message = PIN_LOCKED.format(minutes=PIN_LOCK_MINUTES)
        raise MemberError(
            [{"field": field, "message": message}],
            kind=THROTTLED,
            retry_after=PIN_LOCK_MINUTES * 60,
        )
    wrong = ADMIN_SECRET_WRONG if field == "admin" else PIN_WRONG
    raise MemberError.one(field, wrong.format(left=left))


# --- accepting a result with a PIN: the table phone or the scorer's phone ------------------


def _seated(game: Game, player_id: Any) -> Player:
    try:
        pk = int(player_id)
    except (TypeError, ValueError) as exc:
        raise MemberError.one("player", PLAYER_CHOOSE) from exc
    seat = game.seats.select_related("player").filter(player_id=pk).first()
    if seat is None:
        player = Player.objects.filter(club_id=game.club_id, pk=pk).first()
        raise MemberError.one("player", PIN_NOT_SEATED.format(player=player or "This player"))
    return seat.player


def _check_player_pin(game: Game, player: Player, pin: str) -> None:
    profile = person_for_player(player)
    if profile is None or not profile.has_pin:
        raise MemberError.one("player", PIN_NONE.format(player=player))
    _check_secret(profile, game, lambda: check_password(pin, profile.pin_hash))


def handover_confirm(
    *, game: Game, player_id: Any, pin: str, device_user: Any = None, at_table: str = ""
) -> Game:
    """A seated player accepts the result for their side with their PIN, on a phone that is
    not theirs (the table link's, or the scorer's: ``device_user``).

    Nothing is recorded unless every check passes, in this order: the game is finished and
    not disputed, the player sits at it, the one rule lets their side accept
    (``games.services.game_confirm_refusal``: asked before the PIN, so a PIN of the side
    that entered the deals is never even tried), the PIN is 4-6 ASCII digits, and it is
    theirs (a wrong one counts as a try). Then ``game_confirm`` records the acceptance and
    confirms the game once every side that must has accepted."""
    game.refresh_from_db(fields=["status"])
    if game.status == Game.Status.CONFIRMED:
        raise MemberError.one("game", GAME_ALREADY_CONFIRMED, kind=CONFLICT)
    if game.status != Game.Status.FINISHED:
        raise MemberError.one("game", ACCEPT_NOT_FINISHED, kind=CONFLICT)
    player = _seated(game, player_id)
    refusal = game_confirm_refusal(game=game, player=player)
    if refusal is not None:
        kind = CONFLICT if refusal in (GAME_DISPUTED, ACCEPT_ALREADY) else FORBIDDEN
        raise MemberError.one("game", refusal, kind=kind)
    pin = pin_check_format(pin)
    _check_player_pin(game, player, pin)
    try:
        return game_confirm(
            game=game, player=player, how="pin", device_user=device_user, at_table=at_table
        )
    except GameError as exc:
        raise MemberError(exc.errors, kind=exc.kind) from exc


# --- the member's own settings -------------------------------------------------------------


def profile_set_privacy(*, user: Any, name_public: bool) -> int:
    """The member's choice for every club they play in: their name on public pages, or
    only their initials. Returns how many of their players changed."""
    return Player.objects.filter(user=user).update(name_public=name_public)


def profile_name_public(*, user: Any) -> bool:
    return not Player.objects.filter(user=user, name_public=False).exists()


def profile_set_language(*, user: Any, language: str) -> MemberProfile:
    """The member's own language for every page (one of ``LANGUAGES``), or "" to follow
    each club's (and elsewhere the browser's)."""
    if language and language not in {code for code, _name in settings.LANGUAGES}:
        raise MemberError.one("language", LANGUAGE_UNKNOWN)
    profile = profile_for(user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
    return profile


def profile_language(*, user_id: Any) -> str:
    """The member's own language, "" when they follow the club's (or have no profile)."""
    found = MemberProfile.objects.filter(user_id=user_id).values_list("language", flat=True)
    return next(iter(found), "")


# --- disputes -----------------------------------------------------------------------------------


def dispute_raise(
    *,
    game: Game,
    reason: str,
    device_user: Any,
    player_id: Any = None,
    request: Any = None,
    pin: str | None = None,
) -> Dispute:
    """A side that did not enter the result disputes it instead of accepting: the game is
    flagged for the club admins (emailed), and nobody confirms it until an admin resolves
    it. On a phone with no account (the table link's) the player proves who they are with
    their PIN, as to accept."""
    reason = (reason or "").strip()
    if not reason or len(reason) > 1000:
        raise MemberError.one("reason", DISPUTE_REASON)
    anonymous = not getattr(device_user, "is_authenticated", False)
    if anonymous and player_id in (None, ""):
        raise MemberError.one("player", PLAYER_CHOOSE)
    player = None
    if player_id not in (None, ""):
        player = _seated(game, player_id)
        state = confirmation_state(game=game)
        if state.side_of(player_id=player.pk) in state.entered:
            raise MemberError.one("player", CONFIRM_SAME_SIDE)
        if anonymous or pin not in (None, ""):
            _check_player_pin(game, player, pin_check_format(pin))
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
        url = site_url(url, request=request)
        transaction.on_commit(lambda: _dispute_mail(dispute, url))
    return dispute


def _dispute_mail(dispute: Dispute, url: str) -> None:
    admins = Membership.objects.filter(club_id=dispute.club_id, role=Role.ADMIN).exclude(
        user__email=""
    )
    languages: dict[str, str] = {}
    for email, language in admins.values_list("user__email", "user__member_profile__language"):
        languages[email] = languages.get(email) or language or ""
    for email in sorted(languages):
        # Each admin reads it in their own language, else the club's.
        with club_locale(dispute.club, language=languages[email]):
            mail_send(
                to=[email],
                subject=gettext("Game {game} is disputed").format(game=dispute.game_id),
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


def members_player_anonymised(
    *, player: Player, names: tuple[str, ...], name: str, **_: Any
) -> None:
    """``clubs.hooks.player_anonymised``: a person erased. The invitations made for the
    player lose the email address and the admin's note of who it was for; the row is no
    longer the person with a PIN (``PlayerPerson``); the club's disputes name them no
    more."""
    Invitation.objects.filter(player=player).update(email="", note="")
    PlayerPerson.objects.filter(player=player).delete()
    invitations, disputes = ["note"], ["reason", "resolution"]
    text_names.names_replaced(
        Invitation.objects.filter(club_id=player.club_id),
        invitations,
        names,
        name,
        look_in=invitations,
    )
    text_names.names_replaced(
        Dispute.objects.filter(club_id=player.club_id), disputes, names, name, look_in=disputes
    )
