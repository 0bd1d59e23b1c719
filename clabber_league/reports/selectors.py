"""Reports' reads: a club's reports (published ones, or every one for its admins)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clabber_league.clubs.models import Club

from .models import Report


def report_list(*, club: Club, drafts: bool = False, limit: int = 50) -> QuerySet[Report]:
    reports = Report.objects.filter(club=club)
    if not drafts:
        reports = reports.filter(status=Report.Status.PUBLISHED)
    return reports.order_by("-date", "-created_at")[:limit]


def report_get(*, club: Club, pk: Any, drafts: bool = False) -> Report | None:
    reports = Report.objects.filter(club=club, pk=pk)
    if not drafts:
        reports = reports.filter(status=Report.Status.PUBLISHED)
    return reports.first()
