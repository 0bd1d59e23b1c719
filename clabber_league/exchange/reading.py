"""The export's reads: a club's finished competitions, and one of them read into the plain
data ``exchange.building`` turns into the results file. Every read starts from the club.

A fixture, a division, a club night and a cup each say who is placed (their ``sides``) and
by what (``event.ranking``): a fixture by games won, a division by its table's match
points, a night by its own ranking method, a cup by the round each entrant reached.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.utils import timezone

import clabber_league
from clabber_league.clubs.models import Club, Player
from clabber_league.core.errors import ServiceError
from clabber_league.cups.bracket import FINAL, LOSERS, MAIN, RESET, THIRD
from clabber_league.cups.models import Cup, Tie, TieGame
from clabber_league.events import selectors as event_selectors
from clabber_league.events.models import Event, Pair
from clabber_league.federation.models import FederationClub, PlayerLink
from clabber_league.games.models import Deal, Game, GameSeat
from clabber_league.leagues.models import Division
from clabber_league.scheduling import selectors as schedule_selectors
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.selectors import standings_table

from . import building as b
from .messages import NOT_FINISHED, msg

COUNTED = (Game.Status.FINISHED, Game.Status.CONFIRMED)
NIGHT_RANKING = {
    Event.Ranking.POINTS: "points",
    Event.Ranking.SHARE: "share",
    Event.Ranking.MATCH_POINTS: "match_points_per_table",
}


# --- what can be exported -------------------------------------------------------------------


def finished_fixtures(*, club: Club) -> list[Fixture]:
    return list(
        Fixture.objects.filter(club=club, status__in=Fixture.DONE)
        .select_related("home", "away", "division__season")
        .order_by("-date", "-pk")
    )


def finished_divisions(*, club: Club) -> list[Division]:
    """Divisions whose every fixture is played or forfeited (and that have some)."""
    divisions = Division.objects.filter(club=club).select_related("season")
    open_ids = set(
        Fixture.objects.filter(club=club)
        .exclude(status__in=Fixture.DONE)
        .values_list("division_id", flat=True)
    )
    with_fixtures = set(Fixture.objects.filter(club=club).values_list("division_id", flat=True))
    return [d for d in divisions if d.pk in with_fixtures and d.pk not in open_ids]


def finished_nights(*, club: Club) -> list[Event]:
    return list(Event.objects.filter(club=club, status=Event.Status.FINISHED).order_by("-date"))


def finished_cups(*, club: Club) -> list[Cup]:
    return list(Cup.objects.filter(club=club, status=Cup.Status.FINISHED))


def exportable(*, club: Club) -> dict[str, list[Any]]:
    return {
        "fixture": finished_fixtures(club=club),
        "division": finished_divisions(club=club),
        "night": finished_nights(club=club),
        "cup": finished_cups(club=club),
    }


# --- one event ------------------------------------------------------------------------------


def _not_finished() -> ServiceError:
    return ServiceError.one("", msg(NOT_FINISHED), kind="conflict")


def export_event(*, club: Club, kind: str, pk: int, now: dt.datetime | None = None) -> dict:
    """The results file of one of the club's finished competitions (``DoesNotExist`` for
    none of the club's; a ``ServiceError`` conflict for one not finished)."""
    readers = {"fixture": _fixture, "division": _division, "night": _night, "cup": _cup}
    if kind not in readers:
        raise Fixture.DoesNotExist(kind)
    event, sides, placings, games = readers[kind](club, pk)
    player_ids = {pk for s in sides for pk in s.players} | {
        pk for g in games for pk, _side in g.seats
    }
    return b.results_file(
        sender=sender_of(club),
        event=event,
        players=players_of(club, player_ids),
        sides=sides,
        placings=placings,
        games=games,
        generated_at=now or timezone.now(),
        generator=f"clabber-league {clabber_league.__version__}",
    )


def sender_of(club: Club) -> b.SenderIn:
    federations = FederationClub.objects.filter(club=club, active=True).values_list(
        "federation__slug", "federation__name"
    )
    return b.SenderIn(
        club_slug=club.slug,
        club_name=club.name,
        federations=list(federations),
        site=settings.CLABBER_SITE_URL or None,
    )


def players_of(club: Club, ids: Iterable[int]) -> list[b.PlayerIn]:
    """The players, each with the federation numbers their approved links give."""
    ids = set(ids)
    numbers: dict[int, list[tuple[str, str]]] = defaultdict(list)
    links = PlayerLink.objects.filter(
        player_id__in=ids, player__club=club, status=PlayerLink.Status.APPROVED
    ).values_list("player_id", "federation__slug", "federation_player__number")
    for player_id, slug, number in links:
        numbers[player_id].append((slug, number))
    return [
        b.PlayerIn(id=p.pk, name=p.name, numbers=numbers[p.pk])
        for p in Player.objects.filter(club=club, pk__in=ids)
    ]


def games_of(
    games: Sequence[Game],
    *,
    entrants: dict[int, dict[str, str]] | None = None,
    where: dict[int, tuple[int | None, str | None]] | None = None,
) -> list[b.GameIn]:
    """``games`` (with seats, sides and deals prefetched) as the file's games; ``entrants``
    names the placed side each game side plays for, ``where`` its round and table."""
    out = []
    for game in games:
        team_sides = {s.side: f"t{s.team_id}" for s in game.sides.all() if s.team_id}
        round_, table = (where or {}).get(game.pk, (None, None))
        out.append(
            b.GameIn(
                id=game.pk,
                status=game.status,
                winner=game.winner,
                rules=game.rules,
                seats=[(s.player_id, s.side) for s in game.seats.all()],
                scores=game.scores,
                entrants=(entrants or {}).get(game.pk, team_sides),
                date=game.played_on or timezone.localdate(game.created_at, game.club.zone),
                round=round_,
                table=table,
                deals=[
                    b.DealIn(
                        number=d.number,
                        dealer=d.dealer,
                        outcome=d.outcome,
                        maker=d.maker,
                        data=d.data,
                        scores=d.scores,
                    )
                    for d in game.deals.all()
                ],
            )
        )
    return out


def _games(club: Club, **filters: Any) -> list[Game]:
    return list(
        Game.objects.filter(club=club, status__in=COUNTED, **filters)
        .select_related("club")
        .prefetch_related(
            "sides",
            Prefetch("seats", queryset=GameSeat.objects.order_by("seat")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
        .order_by("pk")
    )


def _team_sides(teams: Iterable[Any]) -> list[b.SideIn]:
    return [
        b.SideIn(
            key=f"t{team.pk}",
            name=team.name,
            players=[m.player_id for m in team.members.order_by("position")],
        )
        for team in teams
    ]


def _fixture(club: Club, pk: int):
    fixture = (
        Fixture.objects.select_related("division__season", "division__house_rules", "home", "away")
        .filter(club=club)
        .get(pk=pk)
    )
    if fixture.status not in Fixture.DONE:
        raise _not_finished()
    division = fixture.division
    result = schedule_selectors.fixture_result_of(
        fixture,
        schedule_selectors.fixture_games(fixture=fixture),
        schedule_selectors.season_points(division.season),
    )
    home, away = f"t{fixture.home_id}", f"t{fixture.away_id}"
    if result.winner == fixture.home_id:
        places = {home: 1, away: 2}
    elif result.winner == fixture.away_id:
        places = {home: 2, away: 1}
    else:
        places = {home: 1, away: 1}
    placings = [
        b.PlacingIn(home, places[home], result.home_won),
        b.PlacingIn(away, places[away], result.away_won),
    ]
    date = fixture.date or timezone.localdate(fixture.updated_at, club.zone)
    played = _games(club, fixture=fixture)
    event = b.EventIn(
        kind="fixture",
        key=f"fixture-{fixture.pk}",
        name=f"{fixture.home.name} v {fixture.away.name}",
        date_from=date,
        date_to=date,
        # The rules its games were played by (an inter-club fixture: the home club's), as
        # each game records them; the division's for a fixture won by forfeit.
        rules=played[0].rules if played else division.rules_spec(),
        ranking="games_won",
        season=division.season.name,
        division=division.name,
    )
    games = games_of(played, where={})
    return event, _team_sides([fixture.home, fixture.away]), placings, games


def _division(club: Club, pk: int):
    division = Division.objects.select_related("season", "house_rules").get(club=club, pk=pk)
    if division not in finished_divisions(club=club):
        raise _not_finished()
    table = standings_table(division=division)
    placings = [
        b.PlacingIn(f"t{line.team_id}", line.position, line.match_points) for line in table.lines
    ]
    teams = list(division.teams.order_by("name"))
    games = games_of(_games(club, division=division))
    dates = [g.date for g in games if g.date] or [division.season.start_date]
    season = division.season
    event = b.EventIn(
        kind="division",
        key=f"division-{division.pk}",
        name=f"{season.name} · {division.name}",
        date_from=min(dates),
        date_to=max(dates),
        rules=division.rules_spec(),
        ranking="match_points",
        season=season.name,
        division=division.name,
    )
    return event, _team_sides(teams), placings, games


def _night(club: Club, pk: int):
    night = Event.objects.get(club=club, pk=pk)
    if night.status != Event.Status.FINISHED:
        raise _not_finished()
    data = event_selectors.night_data(night)
    ranking = event_selectors.event_ranking(night, to_member=True, data=data)
    pairs = night.format == Event.Format.PAIRS
    if pairs:
        members = {
            pair.pk: (pair.number, pair.player_1_id, pair.player_2_id)
            for pair in Pair.objects.filter(event=night)
        }
        sides = [
            b.SideIn(key=f"r{pk}", name=f"Pair {number}", players=[one, two])
            for pk, (number, one, two) in sorted(members.items(), key=lambda kv: kv[1][0])
        ]
        key = "r"
    else:
        names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
        sides = [
            b.SideIn(key=f"p{line.player}", name=names.get(line.player, "?"), players=[line.player])
            for line in ranking.lines
        ]
        key = "p"
    placings = [
        b.PlacingIn(f"{key}{line.player}", line.position, line.points) for line in ranking.lines
    ]
    where = {t.game_id: (t.round.number, str(t.number)) for t in data.tables if t.game_id}
    game_rows = _games(club, pk__in=list(where))
    entrants: dict[int, dict[str, str]] = {}
    if pairs:
        pair_of = {p: f"r{pk}" for pk, (_n, one, two) in members.items() for p in (one, two)}
        for game in game_rows:
            entrants[game.pk] = {s.side: pair_of.get(s.player_id) for s in game.seats.all()}
    else:
        entrants = {game.pk: {} for game in game_rows}
    event = b.EventIn(
        kind="night",
        key=f"night-{night.pk}",
        name=night.name,
        date_from=night.date,
        date_to=night.date,
        rules=night.rules,
        ranking=NIGHT_RANKING.get(night.ranking, "points"),
    )
    return event, sides, placings, games_of(game_rows, entrants=entrants, where=where)


def _cup(club: Club, pk: int):
    cup = Cup.objects.get(club=club, pk=pk)
    if cup.status != Cup.Status.FINISHED:
        raise _not_finished()
    entrants = list(cup.entrants.select_related("team").order_by("seed"))
    sides = []
    for entrant in entrants:
        if entrant.team_id:
            players = [m.player_id for m in entrant.team.members.order_by("position")]
        else:
            players = [entrant.player_id] if entrant.player_id else []
        sides.append(b.SideIn(key=f"e{entrant.pk}", name=entrant.name, players=players))
    ties = list(Tie.objects.filter(cup=cup).exclude(status=Tie.Status.VOID))
    placings = [
        b.PlacingIn(f"e{pk}", place)
        for pk, place in cup_places(
            [e.pk for e in entrants],
            champion=cup.champion_id,
            ties=[
                (t.bracket, t.round, t.home_id, t.away_id, t.third_id, t.winner_id) for t in ties
            ],
        ).items()
    ]
    tie_games = TieGame.objects.filter(tie__cup=cup).select_related("tie")
    entrant_of: dict[int, dict[str, str]] = {}
    where: dict[int, tuple[int | None, str | None]] = {}
    for tg in tie_games:
        ids = {"home": tg.tie.home_id, "away": tg.tie.away_id, "third": tg.tie.third_id}
        entrant_of[tg.game_id] = {
            letter: f"e{ids[side]}"
            for letter in "ABC"
            if (side := tg.side_of(letter)) and ids.get(side)
        }
        where[tg.game_id] = (tg.tie.round, None)
    games = games_of(_games(club, pk__in=list(where)), entrants=entrant_of, where=where)
    dates = [g.date for g in games if g.date] or [timezone.localdate(cup.created_at, club.zone)]
    event = b.EventIn(
        kind="cup",
        key=f"cup-{cup.pk}",
        name=cup.name,
        date_from=min(dates),
        date_to=max(dates),
        rules=cup.rules,
        ranking="knockout",
    )
    return event, sides, placings, games


def cup_places(
    entrants: Sequence[int],
    *,
    champion: int | None,
    ties: Iterable[tuple[Any, ...]],
) -> dict[int, int]:
    """Each entrant's place in a cup, level entrants sharing it. ``ties`` are the played
    ties as ``(bracket, round, home, away, third[, winner])`` (``cups.bracket``'s names).

    * **Single elimination**: the champion first, then by the furthest round of the main
      bracket reached (the final's loser 2nd, the semi-finals' losers 3rd); a third-place
      match puts its winner 3rd and its loser 4th. A plate changes no place.
    * **Double elimination** (the cup has a losers' bracket or a grand final): the
      champion first, the grand final's loser 2nd (of the second final, when it was
      played), then by the losers' bracket round each was knocked out in, the latest
      first: the losers' bracket final's loser 3rd, the two knocked out the round before
      4th, and so on. An entrant that never reached the losers' bracket (a walkover in
      the main bracket) comes after, by the main round reached.
    """
    rows = [tuple(t) + (None,) * (6 - len(t)) for t in ties]
    double = any(row[0] in (LOSERS, FINAL, RESET) for row in rows)
    main: dict[int, int] = dict.fromkeys(entrants, 0)
    losers: dict[int, int] = dict.fromkeys(entrants, 0)
    finalist: set[int] = set()
    third_winner: set[int] = set()
    for bracket, round_, home, away, third, winner in rows:
        for pk in (home, away, third):
            if pk not in main:
                continue
            if bracket == MAIN:
                main[pk] = max(main[pk], round_)
            elif bracket == LOSERS:
                losers[pk] = max(losers[pk], round_)
            elif bracket in (FINAL, RESET):
                finalist.add(pk)
            elif bracket == THIRD and pk == winner:
                third_winner.add(pk)

    def key(pk: int) -> tuple[int, ...]:
        if double:
            # Knocked out in losers' round k: level with everyone else knocked out there.
            return (pk == champion, pk in finalist, losers[pk], 0 if losers[pk] else main[pk])
        return (pk == champion, 0, 0, main[pk], pk in third_winner)

    keys = {pk: key(pk) for pk in entrants}
    ordered = sorted(entrants, key=lambda pk: keys[pk], reverse=True)
    places: dict[int, int] = {}
    for index, pk in enumerate(ordered):
        if index and keys[ordered[index - 1]] == keys[pk]:
            places[pk] = places[ordered[index - 1]]
        else:
            places[pk] = index + 1
    return places
