"""The club's reports: the list (published ones for everyone who may read the club; drafts,
the approval setting and "write a league night's report" for club admins), a report's
page and its plain text, and the secretary's editor (save, approve and publish, take off
the page, back to the generated text)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clabber_league.clubs.decorators import club_view

from . import selectors, services
from .forms import LeagueNightForm, ReportForm, ReportSettingsForm
from .models import Report


def _get(request: HttpRequest, pk: int) -> Report:
    manage = request.club_access.can("manage")
    report = selectors.report_get(club=request.club, pk=pk, drafts=manage)
    if report is None:
        raise Http404
    return report


@club_view("read", write="manage")
def report_list(request: HttpRequest) -> HttpResponse:
    club = request.club
    manage = request.club_access.can("manage")
    settings_form = ReportSettingsForm(
        prefix="settings", initial={"needs_approval": services.needs_approval(club)}
    )
    league_form = LeagueNightForm(prefix="league")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "settings":
            settings_form = ReportSettingsForm(request.POST, prefix="settings")
            if settings_form.is_valid():
                services.report_settings_save(
                    club=club, needs_approval=settings_form.cleaned_data["needs_approval"]
                )
                messages.success(request, _("Saved."))
                return redirect("reports:list", club.slug)
        elif action == "league":
            league_form = LeagueNightForm(request.POST, prefix="league")
            if league_form.is_valid():
                try:
                    report = services.report_for_league_night(
                        club=club, date=league_form.cleaned_data["date"]
                    )
                except services.ReportError as exc:
                    league_form.add_service_errors(exc.errors)
                else:
                    return redirect("reports:edit", club.slug, report.pk)
    return render(
        request,
        "reports/list.html",
        {
            "club": club,
            "manage": manage,
            "reports": selectors.report_list(club=club, drafts=manage),
            "settings_form": settings_form,
            "league_form": league_form,
        },
    )


@club_view("read")
def report_detail(request: HttpRequest, pk: int) -> HttpResponse:
    report = _get(request, pk)
    return render(
        request,
        "reports/detail.html",
        {"club": request.club, "report": report, "manage": request.club_access.can("manage")},
    )


@club_view("read")
def report_text(request: HttpRequest, pk: int) -> HttpResponse:
    """The report as plain text, for a newsletter or a local paper."""
    report = _get(request, pk)
    response = HttpResponse(
        f"{report.title}\n\n{report.body}", content_type="text/plain; charset=utf-8"
    )
    response["Content-Language"] = report.language or request.LANGUAGE_CODE
    return response


@club_view("manage")
def report_edit(request: HttpRequest, pk: int) -> HttpResponse:
    report = _get(request, pk)
    club = request.club
    form = ReportForm(initial={"title": report.title, "body": report.body})
    if request.method == "POST":
        action = request.POST.get("action", "save")
        if action == "reset":
            services.report_reset(report=report, user=request.user)
            messages.success(request, _("Back to the text written from the numbers."))
            return redirect("reports:edit", club.slug, report.pk)
        if action == "unpublish":
            services.report_unpublish(report=report)
            messages.success(request, _("Taken off the club's page: it waits for approval."))
            return redirect("reports:edit", club.slug, report.pk)
        form = ReportForm(request.POST)
        if form.is_valid():
            try:
                report = services.report_update(
                    report=report,
                    title=form.cleaned_data["title"],
                    body=form.cleaned_data["body"],
                    user=request.user,
                )
                if action == "publish" and not report.published:
                    report = services.report_approve(report=report, user=request.user)
                    messages.success(request, _("Approved and published on the club's page."))
                else:
                    messages.success(request, _("Saved."))
            except services.ReportError as exc:
                form.add_service_errors(exc.errors)
            else:
                return redirect("reports:edit", club.slug, report.pk)
    return render(request, "reports/edit.html", {"club": club, "report": report, "form": form})
