"""The club's own pages: its home (seasons and divisions, games in progress, recent
results; for a member who plays, their next fixture and the games waiting for their
confirmation; for a club admin, the guide to a first season and a first club night), and
a club of one's own: creating it, its settings, adding members in one go, the club's
backup and deleting the club."""

from __future__ import annotations

import tempfile
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clabber_league.backup.services import club_delete, club_export
from clabber_league.core.errors import ServiceError
from clabber_league.games.selectors import game_list
from clabber_league.leagues.services import house_rules_save
from clabber_league.members.roster import roster_import, roster_parse, roster_text_from_file
from clabber_league.members.selectors import games_to_confirm, my_next_fixture

from .decorators import club_view
from .forms import ClubDeleteForm, ClubForm, HouseRulesChoice, RosterForm
from .models import Club
from .services import club_create, club_delete_check, club_update, user_email_verified


@club_view("read")
def club_home(request: HttpRequest) -> HttpResponse:
    club = request.club
    games = game_list(club=club).order_by("-created_at")
    guide = setup_guide(club) if request.club_access.can_manage else None
    return render(
        request,
        "clubs/home.html",
        {
            "club": club,
            "access": request.club_access,
            "divisions": club.divisions.select_related("season").order_by(
                "-season__start_date", "name"
            ),
            "in_progress": games.filter(status="in_progress")[:20],
            "recent": games.exclude(status="in_progress")[:20],
            "next_fixture": my_next_fixture(club=club, user=request.user),
            "to_confirm": games_to_confirm(access=request.club_access, user=request.user),
            "guide": guide,
            "show_guide": guide is not None
            and (not all(s["done"] for s in guide) or request.GET.get("guide") == "1"),
        },
    )


def setup_guide(club: Club) -> list[dict[str, Any]]:
    """A new club's way to its first season and first club night: each step, whether it is
    done, and the page that does it (the club's existing pages)."""
    slug = club.slug
    season = club.seasons.order_by("-start_date", "-pk").first()
    division = club.divisions.order_by("-season__start_date", "name").first()
    players = club.players.count()
    teams = club.teams.count()
    steps = [
        {
            "key": "members",
            "title": _("Add your members"),
            "hint": _("Paste a list of names or upload a CSV file."),
            "done": players >= 2,
            "url": reverse("club-members-add", args=[slug]),
            "count": players,
        },
        {
            "key": "season",
            "title": _("Create a season"),
            "hint": _("Its dates and the points for a win, a tie and a loss."),
            "done": season is not None,
            "url": reverse("scheduling:index", args=[slug]),
        },
        {
            "key": "division",
            "title": _("Add a division"),
            "hint": _("The group of teams that play each other, and its rule set."),
            "done": division is not None,
            "url": reverse("scheduling:season", args=[slug, season.slug])
            if season
            else reverse("scheduling:index", args=[slug]),
        },
        {
            "key": "teams",
            "title": _("Make teams from your players"),
            "hint": _("Name each team and its players, in seating order."),
            "done": teams >= 2,
            "url": reverse("scheduling:setup", args=[slug, division.pk]) if division else "",
        },
        {
            "key": "schedule",
            "title": _("Make the schedule"),
            "hint": _("Choose the weekday and venues, then generate the fixtures."),
            "done": club.fixtures.exists(),
            "url": reverse("scheduling:setup", args=[slug, division.pk]) if division else "",
        },
        {
            "key": "night",
            "title": _("Plan your first club night"),
            "hint": _("Check players in on the night, draw the tables, print the cards."),
            "done": club.events.exists(),
            "url": reverse("events:new", args=[slug]),
        },
    ]
    for step in steps:
        step["ready"] = bool(step["url"])  # a step needing a division waits for one
    return steps


# --- a club of one's own ------------------------------------------------------------------


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    """Create a club: the person creating it becomes its club admin."""
    verified = user_email_verified(request.user)
    form = ClubForm(request.POST or None)
    rules_form = HouseRulesChoice(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid() and rules_form.is_valid():
        c = form.cleaned_data
        try:
            with transaction.atomic():
                club = club_create(
                    user=request.user,
                    name=c["name"],
                    country=c["country"],
                    time_zone=c["time_zone"],
                    language=c["language"],
                    ruleset=c["ruleset"],
                )
                if rules_form.cleaned_data["house_rules"]:
                    house_rules_save(
                        club=club, name=rules_form.cleaned_data["house_rules"], base=c["ruleset"]
                    )
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
        else:
            if club.is_approved:
                messages.success(
                    request, _("%(club)s is yours: add its members next.") % {"club": club.name}
                )
            else:
                messages.info(
                    request,
                    _("%(club)s waits for the operator's approval: you can set it up then.")
                    % {"club": club.name},
                )
            return redirect("club-home", club_slug=club.slug)
    if request.method == "POST":
        status = 400
    return render(
        request,
        "clubs/new.html",
        {"form": form, "rules_form": rules_form, "verified": verified},
        status=status,
    )


@club_view("manage")
def club_settings(request: HttpRequest) -> HttpResponse:
    """The club's name, country, time zone, language and rule set; its backup; deleting it."""
    club = request.club
    initial = {
        "name": club.name,
        "country": club.country,
        "time_zone": club.time_zone or club.zone.key,
        "language": club.language,
        "ruleset": club.ruleset,
    }
    form = ClubForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                club_update(club=club, **form.cleaned_data)
            except ServiceError as exc:
                form.add_service_errors(exc.errors)
            else:
                messages.success(request, _("The club's settings are saved."))
                return redirect("club-settings", club_slug=club.slug)
    return render(
        request,
        "clubs/settings.html",
        {"club": club, "access": request.club_access, "form": form},
        status=status,
    )


@club_view("manage")
def club_backup(request: HttpRequest) -> HttpResponse:
    """The whole club as the operator's ``export_club`` writes it, without the accounts'
    password hashes: the club's data is the club's."""
    club = request.club
    spool = tempfile.SpooledTemporaryFile(max_size=8 * 1024 * 1024, mode="w+b")  # noqa: SIM115
    text = _TextOut(spool)
    club_export(club=club, out=text, passwords=False)
    spool.seek(0)
    name = f"{club.slug}-{timezone.localdate():%Y-%m-%d}.jsonl"
    response = FileResponse(
        spool, as_attachment=True, filename=name, content_type="application/jsonl"
    )
    response["Cache-Control"] = "no-store"
    return response


class _TextOut:
    """A text stream onto a binary file (the export writes text, one line at a time)."""

    def __init__(self, binary: Any) -> None:
        self.binary = binary

    def write(self, text: str) -> int:
        self.binary.write(text.encode("utf-8"))
        return len(text)


@club_view("manage")
def club_delete_page(request: HttpRequest) -> HttpResponse:
    """Delete the club and all its rows, once its name is typed to confirm."""
    club = request.club
    form = ClubDeleteForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                club_delete_check(club=club, typed_name=form.cleaned_data["name"])
            except ServiceError as exc:
                form.add_service_errors(exc.errors)
            else:
                name = club.name
                club_delete(club=club)
                messages.success(
                    request, _("%(club)s and all its data are deleted.") % {"club": name}
                )
                return redirect("home")
    return render(
        request,
        "clubs/delete.html",
        {"club": club, "access": request.club_access, "form": form},
        status=status,
    )


@club_view("manage")
def members_add(request: HttpRequest) -> HttpResponse:
    """Members by a pasted list or a CSV file: a preview with an error per line first;
    nothing is written until the admin confirms it."""
    club = request.club
    form = RosterForm(request.POST or None, request.FILES or None)
    rows = None
    status = 200
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"] or ""
        upload = form.cleaned_data["file"]
        try:
            if upload is not None:
                text = roster_text_from_file(upload.read(256 * 1024 + 1))
            if request.POST.get("action") == "confirm":
                result = roster_import(club=club, text=text, user=request.user, request=request)
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player added.", "%(count)d players added.", len(result.players)
                    )
                    % {"count": len(result.players)}
                    + " "
                    + ngettext(
                        "%(count)d invitation emailed.",
                        "%(count)d invitations emailed.",
                        len(result.invitations),
                    )
                    % {"count": len(result.invitations)},
                )
                return redirect("club-home", club_slug=club.slug)
            rows = roster_parse(club=club, text=text)
        except ServiceError as exc:
            form.add_service_errors(exc.errors)
            status = 400
            if request.POST.get("action") == "confirm":
                rows = _rows_or_none(club, text)
        form = RosterForm(initial={"text": text}) if rows is not None else form
    return render(
        request,
        "clubs/members_add.html",
        {
            "club": club,
            "access": request.club_access,
            "form": form,
            "rows": rows,
            "errors": sum(1 for r in rows if r.error) if rows else 0,
            "adding": sum(1 for r in rows if r.adds) if rows else 0,
        },
        status=status,
    )


def _rows_or_none(club: Club, text: str) -> list | None:
    try:
        return roster_parse(club=club, text=text)
    except ServiceError:
        return None
