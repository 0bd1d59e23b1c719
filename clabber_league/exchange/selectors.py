"""The federation side's reads: who is an officer, a federation's files, periods and the
rows kept of a file. Each read starts from the federation, so an officer of one federation
never reaches another's (its pages answer 404, as for a club one may not read)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from clabber_league.federation.models import Federation, FederationClub, FederationPlayer, Officer

from .models import ImportedResult, Period, ResultFile


def federation_get(*, slug: str) -> Federation:
    return Federation.objects.get(slug=slug)


def is_officer(*, federation: Federation, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Officer.objects.filter(federation=federation, user=user).exists()


def member_club(*, federation: Federation, slug: str) -> Any:
    """The club of ``slug`` if it is an active member of ``federation``, else None."""
    link = (
        FederationClub.objects.filter(federation=federation, club__slug=slug, active=True)
        .select_related("club")
        .first()
    )
    return link.club if link else None


def players_by_number(*, federation: Federation, numbers: list[str]) -> dict[str, FederationPlayer]:
    """The federation's players of these numbers (each merged one with its kept record)."""
    return {
        p.number: p
        for p in FederationPlayer.objects.filter(
            federation=federation, number__in=numbers
        ).select_related("merged_into")
    }


def result_file_list(*, federation: Federation) -> QuerySet[ResultFile]:
    return ResultFile.objects.filter(federation=federation).select_related("club")


def result_file_get(*, federation: Federation, pk: Any) -> ResultFile:
    return ResultFile.objects.select_related("club", "replaced_by").get(
        federation=federation, pk=pk
    )


def file_results(*, result_file: ResultFile) -> QuerySet[ImportedResult]:
    return result_file.results.select_related("federation_player").order_by("place", "player_ref")


def flagged_results(*, federation: Federation) -> QuerySet[ImportedResult]:
    """The results of current files whose number is unknown, inactive or merged."""
    return (
        ImportedResult.objects.filter(federation=federation)
        .exclude(flag="")
        .exclude(result_file__status=ResultFile.Status.REPLACED)
        .select_related("result_file__club")
        .order_by("-date", "player_name")
    )


def period_list(*, federation: Federation) -> QuerySet[Period]:
    return Period.objects.filter(federation=federation)


def period_get(*, federation: Federation, pk: Any) -> Period:
    return Period.objects.get(federation=federation, pk=pk)


def officer_section(access: Any) -> dict[str, int]:
    """What the federation home's results section tells an officer (two counts)."""
    federation = access.federation
    return {
        "provisional": ResultFile.objects.filter(
            federation=federation, status=ResultFile.Status.PROVISIONAL
        ).count(),
        "flagged": flagged_results(federation=federation).count(),
    }
