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


def report_players(report: Report) -> list[int]:
    """The ids of the players a report is about: a club night's entries, a league night's
    teams' members, a cup round's entrants (players, or their teams' members)."""
    from clabber_league.cups.models import Tie
    from clabber_league.events.models import Entry
    from clabber_league.leagues.models import TeamMember
    from clabber_league.scheduling.models import Fixture

    if report.kind == Report.Kind.NIGHT and report.event_id:
        return list(
            Entry.objects.filter(event_id=report.event_id).values_list("player_id", flat=True)
        )
    if report.kind == Report.Kind.LEAGUE and report.date:
        fixtures = Fixture.objects.filter(club=report.club, date=report.date)
        teams = set(fixtures.values_list("home_id", flat=True)) | set(
            fixtures.values_list("away_id", flat=True)
        )
        return sorted(
            set(TeamMember.objects.filter(team_id__in=teams).values_list("player_id", flat=True))
        )
    if report.kind == Report.Kind.CUP:
        _cup, cup_id, bracket, round_ = report.key.split(":")
        ties = Tie.objects.filter(cup_id=cup_id, bracket=bracket, round=int(round_))
        players: set[int] = set()
        teams: set[int] = set()
        for tie in ties.select_related("home", "away"):
            for entrant in (tie.home, tie.away):
                if entrant is None:
                    continue
                if entrant.player_id:
                    players.add(entrant.player_id)
                if entrant.team_id:
                    teams.add(entrant.team_id)
        players |= set(
            TeamMember.objects.filter(team_id__in=teams).values_list("player_id", flat=True)
        )
        return sorted(players)
    return []
