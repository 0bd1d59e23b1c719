"""Reading schedules: a division's rounds, a team's or a venue's fixtures, a night's list,
and which fixtures already have a result.

**Which games belong to a fixture.** Exactly the games started for it (``Game.fixture``,
chosen on the "New game" page or sent to the API, which check that the sides are the
fixture's home and away teams). A game started without a fixture is a match of its own,
for the schedule as for the standings: it is never guessed into a fixture. Only finished
and confirmed games count towards a result; any game at all makes a fixture "played or
being played", which schedule re-generation keeps.

**Results.** ``leagues.results.fixture_result`` decides them, the same function the
standings and the jobs use: a fixture is decided once its planned games count, won by the
team that won more of them, and scores the season's ``points_win`` / ``points_tie`` /
``points_loss``. A forfeit or walkover gives the winner ``points_win`` and every planned
game; the loser ``points_loss`` and none.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from clabber_league.clubs.models import Club
from clabber_league.leagues.models import Division, Season, Team, Venue
from clabber_league.leagues.results import (
    FixtureResult,
    MatchGame,
    Points,
    fixture_result,
)

from . import store
from .models import Fixture, LeagueNight, ScheduleConfig, ScheduleRun, SkipDate


@dataclass(frozen=True)
class GameRow:
    id: int
    fixture_id: int | None
    status: str
    winner: str
    played_on: dt.date | None
    teams: dict[str, int]  # side -> team id


def _game_rows(games: QuerySet) -> list[GameRow]:
    """Rows of ``games``, a queryset reached through a reverse relation (``division.games``,
    ``fixture.games``): scheduling sits below the games app and never imports it."""
    sides: dict[int, dict[str, int]] = defaultdict(dict)
    for game_id, side, team_id in games.filter(sides__team__isnull=False).values_list(
        "id", "sides__side", "sides__team_id"
    ):
        sides[game_id][side] = team_id
    return [
        GameRow(pk, fixture_id, status, winner, played_on, sides.get(pk, {}))
        for pk, fixture_id, status, winner, played_on in games.values_list(
            "id", "fixture_id", "status", "winner", "played_on"
        )
    ]


def division_games(*, division: Division) -> list[GameRow]:
    return _game_rows(division.games.all())


def games_by_fixture(*, division: Division) -> dict[int, list[GameRow]]:
    """Every game of the division started for a fixture, under that fixture."""
    out: dict[int, list[GameRow]] = defaultdict(list)
    for game in division_games(division=division):
        if game.fixture_id is not None:
            out[game.fixture_id].append(game)
    return out


def fixture_outcomes(
    *, division: Division, fixtures: Iterable[Fixture], season: Season | None = None
) -> dict[int, FixtureResult]:
    """The result so far of each of ``fixtures`` (all of one division)."""
    season = season or division.season
    points = season_points(season)
    by_fixture = games_by_fixture(division=division)
    return {
        fixture.pk: fixture_result_of(fixture, by_fixture.get(fixture.pk, []), points)
        for fixture in fixtures
    }


def season_points(season: Season) -> Points:
    return Points(win=season.points_win, tie=season.points_tie, loss=season.points_loss)


def fixture_result_of(fixture: Fixture, games: Iterable[GameRow], points: Points) -> FixtureResult:
    """``leagues.results.fixture_result`` for a fixture row and its game rows."""
    forfeit = fixture.status == Fixture.Status.FORFEIT
    return fixture_result(
        home_id=fixture.home_id,
        away_id=fixture.away_id,
        planned=fixture.games_planned,
        games=[MatchGame(status=g.status, winner=g.winner, teams=g.teams) for g in games],
        points=points,
        forfeit_winner_id=fixture.forfeit_winner_id if forfeit else None,
    )


def fixture_games(*, fixture: Fixture) -> list[GameRow]:
    """The games started for one fixture, in the order they were started: one statement,
    of the store (``store.fixture_game_rows``; it runs on every deal that finishes a
    fixture's game), each game joined to its sides that have a team."""
    games: dict[int, GameRow] = {}
    for pk, fixture_id, status, winner, played_on, side, team_id in store.fixture_game_rows(
        fixture_id=fixture.pk
    ):
        if pk not in games:
            games[pk] = GameRow(pk, fixture_id, status, winner, played_on, {})
        if side is not None:
            games[pk].teams[side] = team_id
    return list(games.values())


def kept_fixture_ids(*, division: Division) -> set[int]:
    """Fixtures that are results or have games: re-generation never touches them."""
    done = set(
        Fixture.objects.filter(division=division, status__in=Fixture.DONE).values_list(
            "id", flat=True
        )
    )
    return done | {pk for pk, games in games_by_fixture(division=division).items() if games}


# --- pages ----------------------------------------------------------------------------------


def config_get(*, division: Division) -> ScheduleConfig | None:
    return (
        ScheduleConfig.objects.filter(division=division)
        .prefetch_related("skip_dates", "schedule_venues__venue")
        .first()
    )


def division_list(*, club: Club) -> QuerySet[Division]:
    return (
        Division.objects.filter(club=club)
        .select_related("season")
        .order_by("-season__start_date", "season__name", "name")
    )


def fixture_list(*, club: Club) -> QuerySet[Fixture]:
    return Fixture.objects.filter(club=club).select_related(
        "home", "away", "venue", "division", "forfeit_winner"
    )


def division_fixtures(
    *, division: Division, rounds: Iterable[int] | None = None
) -> QuerySet[Fixture]:
    qs = fixture_list(club=division.club).filter(division=division)
    if rounds is not None:
        qs = qs.filter(round_number__in=list(rounds))
    return qs.order_by("round_number", "date", "venue__name", "table", "id")


def round_numbers(*, division: Division) -> list[int]:
    return list(
        Fixture.objects.filter(division=division)
        .order_by("round_number")
        .values_list("round_number", flat=True)
        .distinct()
    )


def team_fixtures(*, team: Team) -> QuerySet[Fixture]:
    return (
        fixture_list(club=team.club)
        .filter(Q(home=team) | Q(away=team))
        .order_by("date", "round_number", "id")
    )


def venue_fixtures(*, venue: Venue, since: dt.date | None = None) -> QuerySet[Fixture]:
    qs = fixture_list(club=venue.club).filter(venue=venue)
    if since is not None:
        qs = qs.filter(date__gte=since)
    return qs.order_by("date", "table", "id")


def night_fixtures(*, club: Club, date: dt.date) -> QuerySet[Fixture]:
    return (
        fixture_list(club=club)
        .filter(date=date)
        .select_related("division__season")
        .order_by("venue__name", "table", "division__name", "id")
    )


def published_nights(*, club: Club, limit: int = 8) -> QuerySet[LeagueNight]:
    return LeagueNight.objects.filter(club=club, published_at__isnull=False).order_by("-date")[
        :limit
    ]


def no_play_night(*, division: Division, date: dt.date) -> SkipDate | None:
    """The division's skip date (a night it does not play) on ``date``, or None."""
    return SkipDate.objects.filter(
        config__division=division, config__club_id=division.club_id, date=date
    ).first()


def no_play_dates(*, division: Division) -> set[dt.date]:
    """The nights the division does not play (its schedule's skip dates)."""
    return set(
        SkipDate.objects.filter(
            config__division=division, config__club_id=division.club_id
        ).values_list("date", flat=True)
    )


def latest_run(*, division: Division) -> ScheduleRun | None:
    return ScheduleRun.objects.filter(division=division).order_by("-created_at", "-id").first()


def latest_done_run(*, division: Division) -> ScheduleRun | None:
    return (
        ScheduleRun.objects.filter(division=division, state=ScheduleRun.State.DONE)
        .order_by("-created_at", "-id")
        .first()
    )


def byes_by_round(*, division: Division, fixtures: Iterable[Fixture]) -> dict[int, list[Team]]:
    """Teams of the division without a fixture in each round shown (a team that withdrew
    by the round's first night has no bye in it)."""
    teams = list(division.teams.order_by("name"))
    playing: dict[int, set[int]] = defaultdict(set)
    first_night: dict[int, dt.date] = {}
    for f in fixtures:
        playing[f.round_number].update((f.home_id, f.away_id))
        if f.date is not None and (
            f.round_number not in first_night or f.date < first_night[f.round_number]
        ):
            first_night[f.round_number] = f.date

    def still_in(team: Team, number: int) -> bool:
        night = first_night.get(number)
        return team.withdrawn_on is None or night is None or team.withdrawn_on > night

    return {
        number: [t for t in teams if t.pk not in ids and still_in(t, number)]
        for number, ids in sorted(playing.items())
    }


def withdrawn_fixtures(*, team: Team, on: dt.date):
    """The fixtures a team withdrawing on ``on`` will not play: from that day (or not yet
    dated), without a result and without a game started. Earlier ones, and any with games,
    stay as they are (finish or forfeit them by hand)."""
    return (
        Fixture.objects.filter(division_id=team.division_id)
        .filter(Q(home=team) | Q(away=team))
        .filter(Q(date__gte=on) | Q(date__isnull=True))
        .exclude(status__in=Fixture.DONE)
        .filter(games__isnull=True)
        .select_related("home", "away")
        .order_by("date", "round_number", "pk")
    )


@dataclass
class NightDivision:
    """One division on a league night's sheet: when play starts, its fixtures, its byes."""

    division: Division
    start_time: dt.time | None
    fixtures: list[Fixture]
    byes: list[Team]


def night_sheet(*, club: Club, date: dt.date) -> list[NightDivision]:
    """A club's league night, division by division (the earliest start first): the
    fixtures by venue and table, and the teams of the division without one that night (a
    team withdrawn by then has no bye)."""
    by_division: dict[int, list[Fixture]] = defaultdict(list)
    divisions: dict[int, Division] = {}
    for fixture in night_fixtures(club=club, date=date):
        by_division[fixture.division_id].append(fixture)
        divisions[fixture.division_id] = fixture.division
    starts = dict(
        ScheduleConfig.objects.filter(division_id__in=list(divisions)).values_list(
            "division_id", "start_time"
        )
    )
    teams: dict[int, list[Team]] = defaultdict(list)
    still_in = Q(withdrawn_on__isnull=True) | Q(withdrawn_on__gt=date)
    for team in Team.objects.filter(still_in, division_id__in=list(divisions)).order_by("name"):
        teams[team.division_id].append(team)
    out = []
    for pk, division in divisions.items():
        playing = {t for f in by_division[pk] for t in (f.home_id, f.away_id)}
        byes = [t for t in teams[pk] if t.pk not in playing]
        out.append(NightDivision(division, starts.get(pk), by_division[pk], byes))
    return sorted(out, key=lambda n: (n.start_time or dt.time.max, n.division.name))
