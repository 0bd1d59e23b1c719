"""Members' pages: invitations (with a QR code), joining, My games, the member's settings,
handing the scorer's phone to the other side, and disputes.

Views translate between the request and ``services``; the API calls the same services.
"""

from __future__ import annotations

from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clabber_league.clubs import services as club_services
from clabber_league.clubs import tokens
from clabber_league.clubs.decorators import club_view
from clabber_league.clubs.models import Player, PlayerMerge
from clabber_league.clubs.privacy import sees_names
from clabber_league.core.errors import ServiceError
from clabber_league.games import selectors as game_selectors
from clabber_league.games.models import Game
from clabber_league.games.table_links import at_table, page_grant

from . import selectors, services
from .adapters import SESSION_KEY
from .forms import (
    ApiTokenForm,
    DisputeForm,
    HandoverForm,
    InvitationForm,
    JoinForm,
    LanguageForm,
    NewPinForm,
    PinForm,
    PlayerMergeForm,
    PrivacyForm,
    ResolveForm,
    TablePinForm,
)
from .models import Dispute, Invitation

PLAYERS_PER_PAGE = 50


def _add_errors(form: Any, exc: services.MemberError) -> None:
    for error in exc.errors:
        name = error["field"] if error["field"] in form.fields else None
        form.add_error(name, error["message"])


def qr_svg(url: str, label: str) -> SafeString:
    """The link as an SVG QR code (segno), labelled for screen readers."""
    svg = segno.make(url, error="m").svg_inline(
        scale=5, border=2, dark="#000", light="#fff", svgclass="qr"
    )
    label_attr = format_html('<svg role="img" aria-label="{}" ', label)
    return mark_safe(svg.replace("<svg ", label_attr, 1))  # segno escapes the URL in its own SVG


# --- invitations (club admins) ---------------------------------------------------------------


@club_view("manage")
def invitation_list(request: HttpRequest) -> HttpResponse:
    club = request.club
    players = list(club.players.filter(user__isnull=True, active=True).order_by("name")[:500])
    form = InvitationForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        player = None
        if form.cleaned_data["player"]:
            player = club.players.filter(pk=form.cleaned_data["player"]).first()
        try:
            invitation = services.invitation_create(
                club=club,
                created_by=request.user,
                role=form.cleaned_data["role"],
                email=form.cleaned_data["email"] or "",
                player=player,
                note=form.cleaned_data["note"],
                days=form.cleaned_data["days"],
                request=request,
            )
        except services.MemberError as exc:
            _add_errors(form, exc)
        else:
            if invitation.email:
                messages.success(
                    request, _("Invitation emailed to {email}.").format(email=invitation.email)
                )
            else:
                messages.success(request, _("Invitation made: show the QR code or share the link."))
            return redirect("members:invitation", club_slug=club.slug, pk=invitation.pk)
    page = Paginator(selectors.invitation_list(club=club), 25).get_page(request.GET.get("page"))
    return render(
        request,
        "members/invitations.html",
        {"club": club, "access": request.club_access, "form": form, "page": page},
    )


def _invitation_or_404(request: HttpRequest, pk: int) -> Invitation:
    try:
        return selectors.invitation_get(club=request.club, pk=pk)
    except Invitation.DoesNotExist as exc:
        raise Http404("No such invitation.") from exc


@club_view("manage")
def invitation_detail(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = _invitation_or_404(request, pk)
    url = services.invitation_url(invitation=invitation, request=request)
    is_open = invitation.state() == Invitation.State.OPEN
    return render(
        request,
        "members/invitation.html",
        {
            "club": request.club,
            "access": request.club_access,
            "invitation": invitation,
            "url": url if is_open else "",
            "qr": qr_svg(
                url, _("QR code: invitation to join {club}").format(club=request.club.name)
            )
            if is_open
            else "",
            "days_left": selectors.days_left(invitation),
        },
    )


@require_POST
@club_view("manage")
def invitation_claim(request: HttpRequest, pk: int) -> HttpResponse:
    """A club admin approves or refuses that the person who joined is the player they
    chose."""
    invitation = _invitation_or_404(request, pk)
    approve = request.POST.get("decision") == "approve"
    try:
        services.invitation_claim_decide(
            invitation=invitation, user=request.user, access=request.club_access, approve=approve
        )
    except services.MemberError as exc:
        messages.error(request, str(exc.errors[0]["message"]))
    else:
        if approve:
            messages.success(request, _("Approved: the login is linked to the player."))
        else:
            messages.success(request, _("Refused: the member has no player of the club."))
    return redirect("members:invitation", club_slug=request.club.slug, pk=invitation.pk)


@require_POST
@club_view("manage")
def invitation_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    invitation = _invitation_or_404(request, pk)
    try:
        services.invitation_revoke(invitation=invitation)
    except services.MemberError as exc:
        messages.error(request, str(exc.errors[0]["message"]))
    else:
        messages.success(request, _("Invitation withdrawn: its link no longer works."))
    return redirect("members:invitation", club_slug=request.club.slug, pk=invitation.pk)


# --- the club's sign-in rules (club admins) ------------------------------------------------


@club_view("manage")
def club_security(request: HttpRequest) -> HttpResponse:
    """Whether the club requires two-factor sign-in of its admins."""
    from clabber_league.clubs.mfa import club_admins_need_mfa_set, user_has_totp

    if request.method == "POST":
        required = request.POST.get("admins_need_mfa") == "on"
        try:
            club_admins_need_mfa_set(
                access=request.club_access, user=request.user, required=required
            )
        except ServiceError as exc:
            messages.error(request, str(exc.errors[0]["message"]))
        else:
            messages.success(request, _("Saved."))
            return redirect("members:security", club_slug=request.club.slug)
    return render(
        request,
        "members/security.html",
        {
            "club": request.club,
            "access": request.club_access,
            "has_totp": user_has_totp(request.user),
        },
    )


# --- joining ---------------------------------------------------------------------------------


def join(request: HttpRequest, key: str) -> HttpResponse:
    """The invitation's link: sign up or log in, say which player you are, and join."""
    try:
        invitation = services.invitation_from_key(key=key)
    except services.MemberError as exc:
        request.session.pop(SESSION_KEY, None)
        return render(
            request, "members/join_refused.html", {"message": exc.errors[0]["message"]}, status=410
        )
    request.session[SESSION_KEY] = key
    club = invitation.club
    if not request.user.is_authenticated:
        return render(
            request,
            "members/join_start.html",
            {"invitation": invitation, "invited_club": club, "next": request.get_full_path()},
        )
    players = []
    if invitation.player is None:
        players = list(club.players.filter(user__isnull=True, active=True).order_by("name")[:500])
    form = JoinForm(request.POST or None, players=players)
    unverified = bool(invitation.email) and not services.email_verified(
        user=request.user, email=invitation.email
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.invitation_accept(
                key=key,
                user=request.user,
                player_id=form.cleaned_data["player"],
                new_name=form.cleaned_data["new_name"],
                name_public=form.cleaned_data["name_public"],
            )
        except services.MemberError as exc:
            _add_errors(form, exc)
        else:
            services.profile_set_privacy(
                user=request.user, name_public=form.cleaned_data["name_public"]
            )
            request.session.pop(SESSION_KEY, None)
            invitation.refresh_from_db()
            if invitation.claim_pending:
                messages.success(
                    request,
                    _(
                        "Welcome to %(club)s! A club admin checks that you are %(player)s "
                        "before your login is linked to that player."
                    )
                    % {"club": club.name, "player": invitation.claimed_player.name},
                )
            else:
                messages.success(
                    request,
                    _(
                        "Welcome to {club}! Set your confirmation PIN so you can confirm "
                        "results on the scorer's phone."
                    ).format(club=club.name),
                )
            return redirect("members:settings")
    return render(
        request,
        "members/join.html",
        {"invitation": invitation, "invited_club": club, "form": form, "unverified": unverified},
    )


# --- the member's own pages --------------------------------------------------------------------


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    players = selectors.my_players(user=request.user)
    stats = selectors.my_stats(players=players)
    return render(
        request,
        "members/my_games.html",
        {
            "players": [(p, stats[p.pk]) for p in players],
            "games": selectors.my_games(user=request.user),
            "fixtures": selectors.my_fixtures(user=request.user),
            "profile": services.profile_for(request.user),
        },
    )


TOKEN_CREATED = gettext_lazy("Token “{name}” created. Copy it now: it is not shown again.")
TOKEN_REVOKED = gettext_lazy("Token “{name}” revoked: it no longer works.")


@login_required
def member_settings(request: HttpRequest) -> HttpResponse:
    profile = services.profile_for(request.user)
    pin_form = PinForm(prefix="pin")
    privacy_form = PrivacyForm(
        prefix="privacy",
        initial={"name_public": services.profile_name_public(user=request.user)},
    )
    token_form = ApiTokenForm(prefix="token")
    language_form = LanguageForm(prefix="language", initial={"language": profile.language})
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "language":
            language_form = LanguageForm(request.POST, prefix="language")
            if language_form.is_valid():
                services.profile_set_language(
                    user=request.user, language=language_form.cleaned_data["language"]
                )
                messages.success(request, _("Saved."))
                response = redirect("members:settings")
                # An older choice from the switcher would outlast this one once logged out.
                response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
                return response
        elif action == "pin":
            pin_form = PinForm(request.POST, prefix="pin")
            if pin_form.is_valid():
                try:
                    services.profile_set_pin(user=request.user, pin=pin_form.cleaned_data["pin"])
                except services.MemberError as exc:
                    _add_errors(pin_form, exc)
                else:
                    messages.success(request, _("Your PIN is set."))
                    return redirect("members:settings")
        elif action == "clear-pin":
            services.profile_clear_pin(user=request.user)
            messages.success(
                request, _("Your PIN is removed: confirm results from your own phone.")
            )
            return redirect("members:settings")
        elif action == "privacy":
            privacy_form = PrivacyForm(request.POST, prefix="privacy")
            if privacy_form.is_valid():
                services.profile_set_privacy(
                    user=request.user, name_public=privacy_form.cleaned_data["name_public"]
                )
                messages.success(request, _("Saved."))
                return redirect("members:settings")
        elif action == "token-create":
            token_form = ApiTokenForm(request.POST, prefix="token")
            if token_form.is_valid():
                try:
                    token, new_key = tokens.token_create(
                        user=request.user, **token_form.cleaned_data
                    )
                except tokens.TokenError as exc:
                    _add_errors(token_form, exc)
                else:
                    # Shown on this answer only (no redirect: the key is kept nowhere).
                    messages.success(request, TOKEN_CREATED.format(name=token.name))
                    token_form = ApiTokenForm(prefix="token")
        elif action == "token-revoke":
            token_id = request.POST.get("token", "")
            own = tokens.tokens_of(user=request.user)
            token = own.filter(pk=token_id).first() if token_id.isdigit() else None
            if token is not None:
                tokens.token_revoke(user=request.user, token_id=token.pk)
                messages.success(request, TOKEN_REVOKED.format(name=token.name))
            return redirect(reverse("members:settings") + "#api-tokens")
    return render(
        request,
        "members/settings.html",
        {
            "profile": profile,
            "pin_form": pin_form,
            "privacy_form": privacy_form,
            "language_form": language_form,
            "token_form": token_form,
            "api_tokens": tokens.tokens_of(user=request.user),
            "new_key": new_key,
        },
    )


# --- the acceptance screen: the table phone (or the scorer's) at the end of a game -----------

ACCEPTED = gettext_lazy("{side} accepted the result. Thank you!")
CONFIRMED = gettext_lazy("Result confirmed: every side has accepted.")
DISPUTED = gettext_lazy("Result disputed: the club admin has been told.")
PIN_SET = gettext_lazy("{player}'s PIN is set. Nobody else saw it.")
PIN_RESET = gettext_lazy("{player}'s PIN is reset: they set a new one.")


def _game_or_404(request: HttpRequest, pk: int) -> Game:
    try:
        return game_selectors.game_get(club=request.club, pk=pk)
    except Game.DoesNotExist as exc:
        raise Http404("No such game in this club.") from exc


def _device(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _handover_page(
    request: HttpRequest,
    game: Game,
    forms: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The final sheet (names, never side letters), per side whether it entered the result,
    accepted it or is still to accept, and for each side still to accept: pick your name,
    type your PIN, Accept (or Dispute, with a reason)."""
    sheet = selectors.acceptance_sheet(game=game, to_member=sees_names(request.club_access))
    forms = forms or {}
    return render(
        request,
        "members/handover.html",
        {
            "club": request.club,
            "access": request.club_access,
            "game": game,
            **sheet,
            "player_names": {p.pk: n for s in sheet["sides"] for p, n, _pin in s.players},
            "winner": next((s for s in sheet["sides"] if s.side == game.winner), None),
            "dispute": selectors.open_dispute(game=game),
            "form_side": forms.get("side"),
            "handover_form": forms.get("accept") or HandoverForm(),
            "dispute_form": forms.get("dispute") or DisputeForm(),
        },
        status=status,
    )


def _side_of(game: Game, player_id: Any) -> str | None:
    try:
        return game.seats.filter(player_id=int(player_id)).values_list("side", flat=True).first()
    except (TypeError, ValueError):
        return None


@club_view("score", table=page_grant)
def handover(request: HttpRequest, pk: int) -> HttpResponse:
    """Each side that did not enter the result accepts it here, with the PIN of one of its
    players (``services.handover_confirm``: the one rule decides who may)."""
    game = _game_or_404(request, pk)
    if request.method != "POST":
        return _handover_page(request, game)
    form = HandoverForm(request.POST)
    if form.is_valid():
        try:
            game = services.handover_confirm(
                game=game,
                player_id=form.cleaned_data["player"],
                pin=form.cleaned_data["pin"],
                device_user=_device(request),
                at_table=at_table(request.club_access, request.user),
            )
        except services.MemberError as exc:
            _add_errors(form, exc)
        else:
            if game.status == Game.Status.CONFIRMED:
                messages.success(request, str(CONFIRMED))
                if request.club_access.table is not None:
                    # Shown here: a confirmed game's table link opens no page any more.
                    return _handover_page(request, _game_or_404(request, game.pk))
                return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
            sheet = selectors.acceptance_sheet(game=game, to_member=True)
            side = next(
                (s for s in sheet["sides"] if s.side == _side_of(game, request.POST["player"])),
                None,
            )
            messages.success(request, ACCEPTED.format(side=side.name if side else ""))
            return redirect("members:handover", club_slug=request.club.slug, pk=game.pk)
    forms = {"accept": form, "side": _side_of(game, request.POST.get("player"))}
    return _handover_page(request, game, forms, status=400)


@require_POST
@club_view("score", table=page_grant)
def handover_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game_or_404(request, pk)
    form = DisputeForm(request.POST)
    if form.is_valid():
        try:
            services.dispute_raise(
                game=game,
                reason=form.cleaned_data["reason"],
                player_id=form.cleaned_data["player"] or None,
                pin=form.cleaned_data["pin"] or None,
                device_user=_device(request),
                request=request,
            )
        except services.MemberError as exc:
            _add_errors(form, exc)
        else:
            messages.warning(request, str(DISPUTED))
            return redirect("games:detail", club_slug=request.club.slug, pk=game.pk)
    forms = {"dispute": form, "side": _side_of(game, request.POST.get("player"))}
    return _handover_page(request, game, forms, status=400)


@club_view("score", table=page_grant)
def table_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """A seated player with no PIN yet sets one on the table phone, approved there by a
    club admin present with the admin's own PIN or password."""
    game = _game_or_404(request, pk)
    sheet = selectors.acceptance_sheet(game=game, to_member=sees_names(request.club_access))
    without_pin = [
        (p, name) for s in sheet["sides"] for p, name, has_pin in s.players if not has_pin
    ]
    form = TablePinForm(request.POST or None, initial={"player": request.GET.get("player")})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.table_pin_set(
                    game=game,
                    player_id=form.cleaned_data["player"],
                    pin=form.cleaned_data["pin"],
                    admin_id=form.cleaned_data["admin"],
                    admin_secret=form.cleaned_data["admin_secret"],
                )
            except services.MemberError as exc:
                _add_errors(form, exc)
            else:
                name = dict((str(p.pk), n) for p, n in without_pin).get(
                    form.cleaned_data["player"], ""
                )
                messages.success(request, PIN_SET.format(player=name))
                return redirect("members:handover", club_slug=request.club.slug, pk=game.pk)
    return render(
        request,
        "members/table_pin.html",
        {
            "club": request.club,
            "access": request.club_access,
            "game": game,
            "form": form,
            "without_pin": without_pin,
            "admins": services.table_admins(game=game),
        },
        status=status,
    )


# --- PINs on the secretary's phone (club admins) ---------------------------------------------


@club_view("manage")
def player_pins(request: HttpRequest) -> HttpResponse:
    """The club's players and whether each has a confirmation PIN: a player types a new one
    on this phone (at check-in), or a club admin resets a forgotten one."""
    players = list(request.club.players.filter(active=True).order_by("name")[:500])
    with_pin = selectors.players_with_pin(players)
    return render(
        request,
        "members/player_pins.html",
        {
            "club": request.club,
            "access": request.club_access,
            "players": [(p, p.pk in with_pin) for p in players],
        },
    )


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return None


@club_view("manage")
def player_pin(request: HttpRequest, pk: int) -> HttpResponse:
    """Hand the secretary's phone to the player: they type their new PIN twice (masked,
    never shown back); or a club admin resets it."""
    player = get_object_or_404(Player, club=request.club, pk=pk)
    has_pin = pk in selectors.players_with_pin([player])
    form = NewPinForm(request.POST or None, initial={"player": player.pk})
    status = 200
    if request.method == "POST" and request.POST.get("action") == "reset":
        services.player_pin_reset(access=request.club_access, player_id=player.pk)
        messages.success(request, PIN_RESET.format(player=player.name))
        return redirect(_safe_next(request) or reverse("members:pins", args=[request.club.slug]))
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.player_pin_set(
                    access=request.club_access, player_id=player.pk, pin=form.cleaned_data["pin"]
                )
            except services.MemberError as exc:
                _add_errors(form, exc)
            else:
                messages.success(request, PIN_SET.format(player=player.name))
                target = _safe_next(request) or reverse("members:pins", args=[request.club.slug])
                return redirect(target)
    return render(
        request,
        "members/player_pin.html",
        {
            "club": request.club,
            "access": request.club_access,
            "player": player,
            "has_pin": has_pin,
            "form": form,
            "next": _safe_next(request) or "",
        },
        status=status,
    )


# --- disputes (club admins) ----------------------------------------------------------------------


@club_view("manage")
def dispute_list(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.dispute_list(club=request.club), 25).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "members/disputes.html",
        {"club": request.club, "access": request.club_access, "page": page},
    )


@club_view("manage")
def dispute_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        dispute = selectors.dispute_get(club=request.club, pk=pk)
    except Dispute.DoesNotExist as exc:
        raise Http404("No such dispute.") from exc
    form = ResolveForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.dispute_resolve(
                dispute=dispute,
                user=request.user,
                access=request.club_access,
                resolution=form.cleaned_data["resolution"],
            )
        except services.MemberError as exc:
            _add_errors(form, exc)
            status = 400
        else:
            messages.success(request, _("Resolved: the result is confirmed in the club's name."))
            return redirect("members:disputes", club_slug=request.club.slug)
    return render(
        request,
        "members/dispute.html",
        {"club": request.club, "access": request.club_access, "dispute": dispute, "form": form},
        status=status,
    )


# --- which login is which player (club admins) --------------------------------------------------


@club_view("manage")
def player_logins(request: HttpRequest) -> HttpResponse:
    club = request.club
    if request.method == "POST":
        player_id = request.POST.get("player") or ""
        player = club.players.filter(pk=player_id).first() if player_id.isdigit() else None
        if player is None:
            messages.error(request, _("Choose one of this club's players."))
            return redirect(reverse("members:players", kwargs={"club_slug": club.slug}))
        username = (request.POST.get("username") or "").strip()
        user = None
        if username:
            user = get_user_model().objects.filter(username=username).first()
        try:
            if username and user is None:
                raise club_services.ClubError.one("user", club_services.PLAYER_LOGIN_NOT_MEMBER)
            club_services.player_link_user(player=player, user=user)
        except club_services.ClubError as exc:
            messages.error(
                request,
                _("{player}: {message}").format(
                    player=player.name, message=exc.errors[0]["message"]
                ),
            )
        else:
            messages.success(
                request,
                _("{player} is linked to {username}.").format(player=player.name, username=username)
                if user
                else _("{player} unlinked.").format(player=player.name),
            )
        return redirect(reverse("members:players", kwargs={"club_slug": club.slug}))
    players = Player.objects.filter(club=club).select_related("user").order_by("name")
    page = Paginator(players, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    merges = PlayerMerge.objects.filter(club=club).select_related("target", "merged_by")[:10]
    return render(
        request,
        "members/players.html",
        {"club": club, "access": request.club_access, "page": page, "merges": merges},
    )


#: How many players with a like name the merge page offers to tap.
MERGE_SUGGESTIONS = 8


def _like_named(player: Player) -> list[Player]:
    """The club's other players who may be the same person: the same surname, or the
    same first word (``T. Smith``, ``Tom Smith``, ``tom smith-jones``)."""
    words = player.name.split()
    others = Player.objects.filter(club_id=player.club_id).exclude(pk=player.pk)
    if not words:
        return []
    like = others.filter(name__iendswith=words[-1]) | others.filter(name__istartswith=words[0])
    return list(like.order_by("name")[:MERGE_SUGGESTIONS])


@club_view("manage")
def player_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge a player into another who is the same person (``clubs.services.player_merge``,
    the service the API's ``players/{id}/merge/`` calls)."""
    club = request.club
    source = get_object_or_404(Player, club=club, pk=pk)
    form = PlayerMergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["into"]
        target = club_services.player_named(club=club, name=name)
        try:
            if target is None:
                message = club_services.MERGE_NO_SUCH_PLAYER.format(name=name)
                raise club_services.ClubError.one("into", message)
            merge = club_services.player_merge(source=source, target=target, user=request.user)
        except ServiceError as exc:
            for error in exc.errors:
                form.add_error("into", error["message"])
        else:
            messages.success(
                request,
                _("{source} is now {target}.").format(
                    source=merge.source_name, target=merge.target.name
                ),
            )
            return redirect(reverse("members:players", kwargs={"club_slug": club.slug}))
    teams = list(source.team_memberships.select_related("team__division__season"))
    return render(
        request,
        "members/player_merge.html",
        {
            "club": club,
            "access": request.club_access,
            "player": source,
            "form": form,
            "suggestions": _like_named(source),
            "games": source.seats.count(),
            "teams": teams,
            # One value for the sentence that lists them (a translation keeps it whole).
            "team_names": ", ".join(f"{m.team.name} ({m.team.division.name})" for m in teams),
        },
        status=400 if form.errors else 200,
    )
