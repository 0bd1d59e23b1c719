"""A federation's pages: its home (sections), a player's page, the officers' pages
(players, likely duplicates, links awaiting approval, clubs and officers), a club admin's
page of their club's links, and the person's own page (what is held about them: export,
public or private profile, erasure).

Every write goes through ``federation.services``; a refusal is shown as a message in the
reader's language, and nothing is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clabber_league.clubs.models import Club, Role
from clabber_league.core.errors import ServiceError
from clabber_league.core.i18n import translated

from . import selectors, services
from .access import access_for, manages_club
from .decorators import federation_view
from .models import Federation, FederationClub, FederationPlayer, Officer, PlayerLink, PlayerMerge
from .sections import sections_for


def _attempt(request: HttpRequest, action: Callable[[], Any], done: str) -> bool:
    """Run a service; on refusal show each message (with its field) and answer False."""
    try:
        action()
    except ServiceError as exc:
        for entry in exc.errors:
            messages.error(request, translated(entry["message"]))
        return False
    messages.success(request, done)
    return True


# --- public pages -------------------------------------------------------------------------------


def federation_list(request: HttpRequest) -> HttpResponse:
    federations = selectors.federations_for(user=request.user)
    return render(request, "federation/list.html", {"federations": federations})


@federation_view("read")
def federation_home(request: HttpRequest) -> HttpResponse:
    """The federation's home: its sections (clubs, and what other apps add), and for a
    club admin the clubs they may ask to join or whose invitation they may accept."""
    access = request.federation_access
    federation = access.federation
    joinable, invited = [], []
    if request.user.is_authenticated:
        admin_clubs = Club.objects.filter(
            memberships__user=request.user, memberships__role=Role.ADMIN
        ).order_by("name")
        rows = {r.club_id: r for r in federation.member_clubs.filter(club__in=admin_clubs)}
        for club in admin_clubs:
            row = rows.get(club.pk)
            if row is None or row.status == FederationClub.Status.LEFT:
                joinable.append(club)
            elif row.status == FederationClub.Status.INVITED:
                invited.append(row)
    if request.method == "POST":
        club = get_object_or_404(Club, slug=request.POST.get("club", ""))
        _attempt(
            request,
            lambda: services.club_request(access=access, club=club, user=request.user),
            _("Your club's request is sent: an officer of the federation decides."),
        )
        return redirect("federation:home", federation_slug=federation.slug)
    return render(
        request,
        "federation/home.html",
        {
            "federation": federation,
            "access": access,
            "sections": sections_for(access),
            "joinable": joinable if federation.is_public else [],
            "invited": invited,
            "my_clubs": _clubs_i_manage(request, federation),
        },
    )


def _clubs_i_manage(request: HttpRequest, federation: Federation) -> list[Club]:
    if not request.user.is_authenticated:
        return []
    return list(
        Club.objects.filter(
            memberships__user=request.user,
            memberships__role=Role.ADMIN,
            federations__federation=federation,
            federations__status=FederationClub.Status.MEMBER,
        ).order_by("name")
    )


@federation_view("read")
def player_page(request: HttpRequest, number: str) -> HttpResponse:
    """A player's page: shown only if the player chose a public profile (officers and the
    player themselves always see it)."""
    access = request.federation_access
    player = selectors.player_by_number(access=access, number=number)
    if player is None:
        raise Http404(_("No such player."))
    if request.method == "POST":
        if not access.can("officer"):
            raise PermissionDenied(_("Only the federation's officers may do this."))
        what = request.POST.get("action")
        if what in ("left", "back"):
            _attempt(
                request,
                lambda: services.player_mark_left(
                    access=access, player=player, left=what == "left"
                ),
                _("The player is recorded as left.")
                if what == "left"
                else _("The player is recorded as back."),
            )
        elif what == "erase":
            _attempt(
                request,
                lambda: services.player_erase(
                    access=access, player=player, confirm=request.POST.get("confirm") == "1"
                ),
                _("The player's record is erased; their results stay under an anonymous name."),
            )
        return redirect("federation:player", federation_slug=access.federation.slug, number=number)
    return render(
        request,
        "federation/player.html",
        {
            "federation": access.federation,
            "access": access,
            "player": player,
            "shown_name": selectors.shown_name(player),
            "links": selectors.player_links(player=player)
            if access.can("officer")
            else selectors.player_links(player=player).filter(status=PlayerLink.Status.APPROVED),
            "results": selectors.results_counts(player=player),
        },
    )


@federation_view("read")
@require_POST
def club_invitation(request: HttpRequest, row_id: int) -> HttpResponse:
    """A club admin accepts or declines an officer's invitation."""
    access = request.federation_access
    row = get_object_or_404(access.federation.member_clubs, pk=row_id)
    if request.POST.get("decision") == "accept":
        _attempt(
            request,
            lambda: services.club_accept(access=access, row=row),
            _("Your club is now a member of the federation."),
        )
    else:
        _attempt(
            request,
            lambda: services.club_refuse(access=access, row=row),
            _("The invitation is declined."),
        )
    return redirect("federation:home", federation_slug=access.federation.slug)


# --- a club admin's links -----------------------------------------------------------------------


@federation_view("read")
def club_links(request: HttpRequest, member_slug: str) -> HttpResponse:
    """A club admin's page: the club's players, the number each is linked to (or awaits),
    and a form to propose a link to a number or to a new number."""
    access = request.federation_access
    federation = access.federation
    club = get_object_or_404(Club, slug=member_slug)
    if (
        not manages_club(user=request.user, club=club)
        or not federation.member_clubs.filter(
            club=club, status=FederationClub.Status.MEMBER
        ).exists()
    ):
        raise Http404(_("No such club in this federation."))
    if request.method == "POST":
        player = get_object_or_404(club.players, pk=request.POST.get("player") or 0)
        _attempt(
            request,
            lambda: services.link_propose(
                access=access,
                player=player,
                number=request.POST.get("number", ""),
                birth_year=request.POST.get("birth_year") or None,
                email=request.POST.get("email", ""),
            ),
            _("The link is proposed: the player or an officer approves it."),
        )
        return redirect(
            "federation:club-links", federation_slug=federation.slug, member_slug=club.slug
        )
    links = {
        link.player_id: link
        for link in federation.links.filter(player__club=club).select_related("federation_player")
    }
    players = [(p, links.get(p.pk)) for p in club.players.order_by("name")]
    unlinked = [
        p for p, link in players if link is None or link.status == PlayerLink.Status.REFUSED
    ]
    return render(
        request,
        "federation/club_links.html",
        {
            "federation": federation,
            "club": club,
            "players": players,
            "unlinked": unlinked,
        },
    )


# --- officers' pages ----------------------------------------------------------------------------


@federation_view("officer")
def officer_players(request: HttpRequest) -> HttpResponse:
    access = request.federation_access
    federation = access.federation
    if request.method == "POST":
        home = federation.member_clubs.filter(
            club__slug=request.POST.get("home_club", ""), status=FederationClub.Status.MEMBER
        ).first()
        _attempt(
            request,
            lambda: services.player_create(
                access=access,
                name=request.POST.get("name", ""),
                birth_year=request.POST.get("birth_year") or None,
                email=request.POST.get("email", ""),
                home_club=home.club if home else None,
            ),
            _("The player has a number."),
        )
        return redirect("federation:officer-players", federation_slug=federation.slug)
    search = request.GET.get("q", "")
    players = selectors.players_visible(access=access, search=search)[:200]
    return render(
        request,
        "federation/officer_players.html",
        {
            "federation": federation,
            "access": access,
            "players": [(p, selectors.shown_name(p)) for p in players],
            "search": search,
            "clubs": selectors.member_clubs(federation=federation),
        },
    )


@federation_view("officer")
def officer_duplicates(request: HttpRequest) -> HttpResponse:
    """Likely duplicates, each with a merge form; the merges done, each with its undo."""
    access = request.federation_access
    federation = access.federation
    if request.method == "POST":
        if request.POST.get("undo"):
            merge = get_object_or_404(PlayerMerge, pk=request.POST["undo"], federation=federation)
            _attempt(
                request,
                lambda: services.player_unmerge(access=access, merge=merge),
                _("The merge is undone."),
            )
        else:
            kept = get_object_or_404(federation.players, pk=request.POST.get("kept") or 0)
            merged = get_object_or_404(federation.players, pk=request.POST.get("merged") or 0)
            _attempt(
                request,
                lambda: services.player_merge(
                    access=access, kept=kept, merged=merged, reason=request.POST.get("reason", "")
                ),
                _("The players are merged."),
            )
        return redirect("federation:officer-duplicates", federation_slug=federation.slug)
    reasons = {
        selectors.SAME_NAME: _("same name"),
        selectors.SAME_EMAIL: _("same email"),
        selectors.SAME_BIRTH_YEAR: _("same birth year"),
    }
    candidates = [
        (c, [reasons[r] for r in c.reasons]) for c in selectors.duplicate_candidates(access=access)
    ]
    return render(
        request,
        "federation/officer_duplicates.html",
        {
            "federation": federation,
            "candidates": candidates,
            "merges": selectors.merges(access=access)[:50],
        },
    )


@federation_view("officer")
def officer_links(request: HttpRequest) -> HttpResponse:
    access = request.federation_access
    federation = access.federation
    if request.method == "POST":
        link = get_object_or_404(federation.links, pk=request.POST.get("link") or 0)
        approve = request.POST.get("decision") == "approve"
        _attempt(
            request,
            lambda: services.link_decide(access=access, link=link, approve=approve),
            _("The link is approved.") if approve else _("The link is refused."),
        )
        return redirect("federation:officer-links", federation_slug=federation.slug)
    return render(
        request,
        "federation/officer_links.html",
        {"federation": federation, "links": selectors.pending_links(access=access)},
    )


@federation_view("officer")
def officer_clubs(request: HttpRequest) -> HttpResponse:
    """The clubs (members, requests, invitations, clubs that left) and the officers."""
    access = request.federation_access
    federation = access.federation
    if request.method == "POST":
        what = request.POST.get("action", "")
        if what == "invite":
            club = Club.objects.filter(slug=request.POST.get("club", "").strip()).first()
            if club is None:
                messages.error(request, _("No club has this short name."))
            else:
                _attempt(
                    request,
                    lambda: services.club_invite(access=access, club=club),
                    _("The club is invited: one of its admins accepts."),
                )
        elif what == "appoint":
            _attempt(
                request,
                lambda: services.officer_appoint(
                    access=access,
                    username=request.POST.get("username", "").strip(),
                    role=request.POST.get("role", Officer.Role.OFFICER),
                ),
                _("The officer is appointed."),
            )
        elif what == "dismiss":
            officer = get_object_or_404(federation.officers, pk=request.POST.get("officer") or 0)
            _attempt(
                request,
                lambda: services.officer_remove(access=access, officer=officer),
                _("The officer is removed."),
            )
        else:
            row = get_object_or_404(federation.member_clubs, pk=request.POST.get("row") or 0)
            action = {
                "accept": (services.club_accept, _("The club is now a member.")),
                "refuse": (services.club_refuse, _("The request is refused.")),
                "remove": (services.club_remove, _("The club is removed from the federation.")),
            }.get(what)
            if action is not None:
                _attempt(request, lambda: action[0](access=access, row=row), action[1])
        return redirect("federation:officer-clubs", federation_slug=federation.slug)
    return render(
        request,
        "federation/officer_clubs.html",
        {
            "federation": federation,
            "access": access,
            "rows": selectors.club_rows(access=access),
            "officers": selectors.officers(federation=federation),
            "roles": Officer.Role.choices,
        },
    )


# --- the person's own data ----------------------------------------------------------------------


@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    """What the federations hold about me: my records (public or private, erase), the links
    awaiting my approval, and the export."""
    records = [
        (r, selectors.results_counts(player=r)) for r in selectors.my_records(user=request.user)
    ]
    return render(
        request,
        "federation/me.html",
        {
            "records": records,
            "awaiting": selectors.links_awaiting(user=request.user),
            # The stated retention (docs/federation.md, "Retention").
            "retention_days": settings.CLABBER_FEDERATION_RETENTION_DAYS,
        },
    )


@login_required
def my_export(request: HttpRequest) -> HttpResponse:
    data = selectors.export_for(user=request.user)
    body = json.dumps(data, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = f"my-federation-data-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _my_record(request: HttpRequest, pk: int) -> FederationPlayer:
    record = selectors.my_records(user=request.user).filter(pk=pk).first()
    if record is None:
        raise Http404(_("No such player."))
    return record


@login_required
@require_POST
def my_profile(request: HttpRequest, pk: int) -> HttpResponse:
    record = _my_record(request, pk)
    access = access_for(federation=record.federation, user=request.user)
    public = request.POST.get("is_public") == "1"
    _attempt(
        request,
        lambda: services.player_set_public(access=access, player=record, is_public=public),
        _("Your profile is public.") if public else _("Your profile is private."),
    )
    return redirect("federation:me")


@login_required
def my_erase(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then erase: results stay under an anonymous name."""
    record = _my_record(request, pk)
    if request.method == "POST":
        access = access_for(federation=record.federation, user=request.user)
        if _attempt(
            request,
            lambda: services.player_erase(
                access=access, player=record, confirm=request.POST.get("confirm") == "1"
            ),
            _("Your record is erased; your results stay under an anonymous name."),
        ):
            return redirect("federation:me")
    return render(request, "federation/erase.html", {"record": record})


@login_required
@require_POST
def my_link(request: HttpRequest, pk: int) -> HttpResponse:
    """The player approves or refuses a link proposed for them."""
    link = get_object_or_404(
        PlayerLink.objects.select_related("federation", "player"),
        Q(pk=pk) & Q(player__user=request.user),
    )
    access = access_for(federation=link.federation, user=request.user)
    approve = request.POST.get("decision") == "approve"
    _attempt(
        request,
        lambda: services.link_decide(access=access, link=link, approve=approve),
        _("The link is approved.") if approve else _("The link is refused."),
    )
    return redirect("federation:me")
