"""Reading league setup: a club's house rules, seasons, divisions, teams and venues.

Every function starts from the club, so one club never sees another's rows."""

from __future__ import annotations

from django.db.models import QuerySet

from clabber_league.clubs.models import Club

from .models import Division, HouseRules, Season, Team, Venue


def house_rules_list(*, club: Club) -> QuerySet[HouseRules]:
    return HouseRules.objects.filter(club=club).order_by("name")


def season_list(*, club: Club) -> QuerySet[Season]:
    return Season.objects.filter(club=club).order_by("-start_date", "name")


def division_list(*, club: Club) -> QuerySet[Division]:
    return (
        Division.objects.filter(club=club)
        .select_related("season", "house_rules")
        .order_by("-season__start_date", "season__name", "name")
    )


def team_list(*, club: Club) -> QuerySet[Team]:
    return Team.objects.filter(club=club).prefetch_related("members").order_by("name")


def team_players(*, team: Team) -> list[int]:
    """The ids of a team's players, in seating order."""
    return [m.player_id for m in sorted(team.members.all(), key=lambda m: m.position)]


def venue_list(*, club: Club) -> QuerySet[Venue]:
    return Venue.objects.filter(club=club).order_by("name")
