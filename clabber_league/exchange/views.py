"""The results file's pages.

A club's admins download each finished competition's results file (JSON or XML) from
``/clubs/<club>/exchange/``. A federation's officers upload files, read what was imported
(the flagged numbers, the files replaced), and open and close periods, under
``/federations/<federation>/results/``; anyone else gets 404 there.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clabber_league.clubs.decorators import club_view
from clabber_league.core.errors import ServiceError
from clabber_league.core.i18n import translated
from clabber_league.federation.models import Federation

from . import building, reading, selectors, services
from .forms import PeriodForm, UploadForm
from .models import Period, ResultFile

FORMS = {"json": "application/json", "xml": "application/xml"}


@club_view("manage")
def club_exports(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "exchange/club_exports.html",
        {"club": request.club, "exportable": reading.exportable(club=request.club)},
    )


@club_view("manage")
def club_export_file(request: HttpRequest, kind: str, pk: int, form: str) -> HttpResponse:
    if form not in FORMS or kind not in building.KINDS:
        raise Http404(_("No such finished competition in this club."))
    try:
        payload = reading.export_event(club=request.club, kind=kind, pk=pk)
    except ServiceError as exc:
        messages.error(request, translated(exc.errors[0]["message"]))
        return redirect("exchange:club-exports", club_slug=request.club.slug)
    except ObjectDoesNotExist as exc:
        raise Http404(_("No such finished competition in this club.")) from exc
    if form == "xml":
        body = building.to_xml(payload)
    else:
        body = json.dumps(payload, ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type=f"{FORMS[form]}; charset=utf-8")
    name = f"{request.club.slug}-{payload['event']['key']}.{form}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- a federation's officers -----------------------------------------------------------------


def officer_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The federation of the URL, for its officers only (404 for anyone else)."""

    @wraps(view)
    def wrapper(request: HttpRequest, federation_slug: str, *args: Any, **kwargs: Any):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            federation = selectors.federation_get(slug=federation_slug)
        except Federation.DoesNotExist as exc:
            raise Http404(_("No such federation.")) from exc
        if not selectors.is_officer(federation=federation, user=request.user):
            raise Http404(_("No such federation."))
        return view(request, federation, *args, **kwargs)

    return wrapper


def _errors(exc: ServiceError) -> list[dict[str, str]]:
    return [{"field": e["field"], "message": translated(e["message"])} for e in exc.errors]


@officer_view
def federation_results(request: HttpRequest, federation: Federation) -> HttpResponse:
    upload = UploadForm()
    period_form = PeriodForm()
    problems: list[dict[str, str]] = []
    if request.method == "POST" and "file" in request.FILES:
        upload = UploadForm(request.POST, request.FILES)
        if upload.is_valid():
            try:
                result_file, created = services.result_file_import(
                    federation=federation,
                    content=upload.cleaned_data["file"].read(services.MAX_BYTES + 1),
                    user=request.user,
                )
            except ServiceError as exc:
                problems = _errors(exc)
            else:
                if created:
                    messages.success(request, _("Results file imported."))
                else:
                    messages.info(request, _("This file was imported before: nothing changed."))
                return redirect("exchange_federation:result-file", federation.slug, result_file.pk)
    elif request.method == "POST":
        period_form = PeriodForm(request.POST)
        if period_form.is_valid():
            try:
                services.period_create(federation=federation, **period_form.cleaned_data)
            except ServiceError as exc:
                for error in exc.errors:
                    period_form.add_error(error["field"] or None, translated(error["message"]))
            else:
                messages.success(request, _("Period opened."))
                return redirect("exchange_federation:federation-results", federation.slug)
    files = Paginator(selectors.result_file_list(federation=federation), 25).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "exchange/federation_results.html",
        {
            "federation": federation,
            "upload": upload,
            "problems": problems,
            "period_form": period_form,
            "periods": selectors.period_list(federation=federation),
            "page": files,
            "flagged": selectors.flagged_results(federation=federation)[:50],
        },
        status=400 if problems else 200,
    )


@officer_view
def result_file_detail(request: HttpRequest, federation: Federation, pk: int) -> HttpResponse:
    try:
        result_file = selectors.result_file_get(federation=federation, pk=pk)
    except ResultFile.DoesNotExist as exc:
        raise Http404(_("No such results file.")) from exc
    return render(
        request,
        "exchange/result_file.html",
        {
            "federation": federation,
            "file": result_file,
            "results": selectors.file_results(result_file=result_file),
            "replaces": list(result_file.replaces.all()),
        },
    )


@require_POST
@officer_view
def period_close(request: HttpRequest, federation: Federation, pk: int) -> HttpResponse:
    try:
        period = selectors.period_get(federation=federation, pk=pk)
    except Period.DoesNotExist as exc:
        raise Http404(_("No such period.")) from exc
    try:
        count = services.period_close(period=period, user=request.user)
    except ServiceError as exc:
        messages.error(request, translated(exc.errors[0]["message"]))
    else:
        messages.success(
            request,
            ngettext(
                "Period closed: %(count)d results file is final.",
                "Period closed: %(count)d results files are final.",
                count,
            )
            % {"count": count},
        )
    return redirect("exchange_federation:federation-results", federation.slug)
