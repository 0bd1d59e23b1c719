"""Reading games: lists, one game with everything its sheet needs, the audit history, and
what the New game page offers (a division's fixtures a round at a time, a team's players)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import F, Max, Min, Prefetch, Q, QuerySet
from django.utils import timezone

from clabber_league.clubs.models import Club, Player
from clabber_league.leagues.models import Division, Team
from clabber_league.scheduling.models import Fixture

from . import store
from .models import Deal, DealRevision, Game, GameSeat, GameSide


def game_list(*, club: Club) -> QuerySet[Game]:
    return (
        Game.objects.filter(club=club)
        .select_related("division", "division__season")
        .prefetch_related(
            Prefetch("sides", queryset=GameSide.objects.select_related("team")),
            Prefetch("seats", queryset=GameSeat.objects.select_related("player")),
        )
    )


def game_get(*, club: Club, pk: int) -> Game:
    """One game of the club, with sides, seats and deals loaded; DoesNotExist otherwise."""
    return (
        game_list(club=club)
        .prefetch_related(Prefetch("deals", queryset=Deal.objects.order_by("number")))
        .get(pk=pk)
    )


def deal_list(*, club: Club, game_id: int) -> QuerySet[Deal]:
    return Deal.objects.filter(game__club=club, game_id=game_id).order_by("number")


def revision_list(*, club: Club, game_id: int) -> QuerySet[DealRevision]:
    return (
        DealRevision.objects.filter(game__club=club, game_id=game_id)
        .select_related("user")
        .order_by("-at", "-id")
    )


# --- starting a game: a division's fixtures and teams, a page at a time ----------------------

#: Fixtures listed at once on the New game page: a round of a 500-team division has 250.
START_FIXTURES_PER_PAGE = 25


@dataclass
class FixturePick:
    """One page of a division's fixtures still to be played, for starting a game: one round
    (``round_number``, with the open rounds before and after it), or those of teams whose
    name contains ``search``. Its size never grows with the division or the club."""

    page: Page
    round_number: int | None
    previous_round: int | None
    next_round: int | None
    search: str


def fixtures_to_start(
    *, division: Division, round_number: int | None = None, search: str = "", page: Any = 1
) -> FixturePick:
    """The division's fixtures without a result yet, a round (by default the round of the
    next fixture from today on, else the last open one) or a team's name at a time."""
    open_fixtures = Fixture.objects.filter(club_id=division.club_id, division=division).exclude(
        status__in=Fixture.DONE
    )
    previous = following = None
    search = search.strip()
    if search:
        # The division's teams whose name contains it first (the first 25: a search that
        # finds more is too vague to page through), then their fixtures by the indexed team
        # columns, instead of joining every fixture of the division to its teams' names.
        teams = list(
            Team.objects.filter(
                club_id=division.club_id, division=division, name__icontains=search
            ).values_list("pk", flat=True)[:START_FIXTURES_PER_PAGE]
        )
        fixtures = open_fixtures.filter(Q(home_id__in=teams) | Q(away_id__in=teams))
        round_number = None
    else:
        if round_number is None:
            round_number = _current_round(open_fixtures)
        fixtures = open_fixtures.filter(round_number=round_number)
        if round_number is not None:
            previous = open_fixtures.filter(round_number__lt=round_number).aggregate(
                r=Max("round_number")
            )["r"]
            following = open_fixtures.filter(round_number__gt=round_number).aggregate(
                r=Min("round_number")
            )["r"]
    fixtures = fixtures.select_related("home", "away", "venue").order_by(
        F("date").asc(nulls_last=True), "round_number", "table", "id"
    )
    return FixturePick(
        page=Paginator(fixtures, START_FIXTURES_PER_PAGE).get_page(page),
        round_number=round_number,
        previous_round=previous,
        next_round=following,
        search=search,
    )


def _current_round(open_fixtures: QuerySet[Fixture]) -> int | None:
    today = timezone.localdate()
    coming = open_fixtures.filter(date__gte=today).order_by("date", "round_number").first()
    if coming is not None:
        return coming.round_number
    return open_fixtures.aggregate(r=Max("round_number"))["r"]


def division_for_start(*, club: Club, pk: Any) -> Division | None:
    """A division of the club to start a game in, or None."""
    if not str(pk or "").isdigit():
        return None
    return Division.objects.filter(club=club, pk=int(pk)).select_related("season").first()


def start_divisions(*, club: Club) -> QuerySet[Division]:
    return (
        Division.objects.filter(club=club)
        .select_related("season")
        .order_by("-season__start_date", "season__name", "name")
    )


def start_fixture(*, division: Division, pk: Any) -> Fixture | None:
    """A fixture of the division (whatever its status: the service says if it can be
    played), with its teams and their players, or None."""
    if not str(pk or "").isdigit():
        return None
    return (
        Fixture.objects.filter(club_id=division.club_id, division=division, pk=int(pk))
        .select_related("home", "away", "venue")
        .first()
    )


def start_rows(
    *,
    club: Club,
    divisions: Iterable[int] = (),
    fixtures: Iterable[int] = (),
    teams: Iterable[int] = (),
    players: Iterable[int] = (),
) -> dict[type, dict[int, Any]]:
    """The rows a request to start a game names, of ``club`` only, by model and id
    (``store.start_rows``: one statement per model, written once)."""
    return store.start_rows(
        club=club, divisions=divisions, fixtures=fixtures, teams=teams, players=players
    )


def team_roster(*, team: Team) -> list[Player]:
    """The team's players in their order."""
    return [m.player for m in team.members.select_related("player").order_by("position", "id")]
