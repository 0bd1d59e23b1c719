"""What a live page shows: the board of a club night, a league night or a cup.

A board is every table's running score (its sides, their names and points, its deals,
playing or finished) and the night's top five, built in a fixed number of queries. The
same board is the page, the fragment the page fetches when a table appears or finishes,
the polling JSON (``as_json``) and the overlay.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from clabber_league.clubs.models import Club
from clabber_league.clubs.privacy import shown
from clabber_league.cups.models import Cup, TieGame
from clabber_league.events import selectors as events
from clabber_league.events.models import Event
from clabber_league.games.models import Game, GameSeat, GameSide
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture

from . import streams
from .models import LiveSetting

TOP = 5


@dataclass
class BoardSide:
    side: str
    name: str
    score: int


@dataclass
class BoardTable:
    number: int  # its place on the board, from 1 (a club night: the table's number)
    label: str
    game: int | None
    sides: list[BoardSide]
    deals: int
    status: str  # waiting | playing | finished


@dataclass
class TopLine:
    place: str
    name: str
    points: int


@dataclass
class Board:
    kind: str
    stream: str
    title: str
    subtitle: str
    heading: str  # what the tables are: "Round 2 of 4", "Quarter-finals", ...
    tables: list[BoardTable] = field(default_factory=list)
    top: list[TopLine] = field(default_factory=list)
    top_title: str = ""
    over: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "stream": self.stream,
            "title": self.title,
            "heading": self.heading,
            "over": self.over,
            "tables": [
                {
                    "number": t.number,
                    "label": t.label,
                    "game": t.game,
                    "deals": t.deals,
                    "status": t.status,
                    "sides": [{"side": s.side, "name": s.name, "score": s.score} for s in t.sides],
                }
                for t in self.tables
            ],
            "top": [{"place": x.place, "name": x.name, "points": x.points} for x in self.top],
        }

    def as_json(self) -> str:
        return json.dumps(self.as_dict(), separators=(",", ":"), ensure_ascii=False)

    def etag(self) -> str:
        return '"' + hashlib.sha256(self.as_json().encode()).hexdigest()[:32] + '"'

    def table(self, number: int) -> BoardTable | None:
        return next((t for t in self.tables if t.number == number), None)


def audience(club: Club) -> str:
    row = LiveSetting.objects.filter(club=club).values_list("audience", flat=True).first()
    return row or LiveSetting.Audience.CLUB


def _status(game: Game | None) -> str:
    if game is None:
        return "waiting"
    if game.status != Game.Status.IN_PROGRESS:
        return "finished"
    return "playing" if game.deal_count else "waiting"


def _top_of_tables(tables: list[BoardTable]) -> list[TopLine]:
    sides = sorted(
        ((s.score, s.name) for t in tables for s in t.sides if t.game is not None),
        key=lambda pair: (-pair[0], pair[1].casefold()),
    )
    return [TopLine(str(i), name, score) for i, (score, name) in enumerate(sides[:TOP], start=1)]


def _game_sides(games: list[Game], *, to_member: bool) -> dict[int, list[BoardSide]]:
    """Each game's sides: the team's name, else its players' names, with the score."""
    ids = [g.pk for g in games]
    teams: dict[tuple[int, str], str] = {}
    for game_id, side, name in GameSide.objects.filter(
        game_id__in=ids, team__isnull=False
    ).values_list("game_id", "side", "team__name"):
        teams[(game_id, side)] = name
    players: dict[tuple[int, str], list[str]] = {}
    for game_id, side, name, public in (
        GameSeat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "side", "player__name", "player__name_public")
    ):
        players.setdefault((game_id, side), []).append(shown(name, public, to_member=to_member))
    out: dict[int, list[BoardSide]] = {}
    for game in games:
        out[game.pk] = [
            BoardSide(
                side,
                teams.get((game.pk, side)) or " & ".join(players.get((game.pk, side), [])) or side,
                score,
            )
            for side, score in game.scores.items()
        ]
    return out


def night_board(club: Club, event_id: int, *, to_member: bool) -> Board:
    """A club night: its current round's tables and the night's ranking's top five."""
    event = Event.objects.filter(club=club, pk=event_id).first()
    if event is None:
        raise Http404("No such club night.")
    state = events.display_state(event, to_member=to_member)
    tables: list[BoardTable] = []
    heading = _("The first round has not been drawn yet.")
    if state.current is not None:
        view = state.current
        heading = _("Round %(number)s of %(rounds)s") % {
            "number": view.round.number,
            "rounds": event.rounds,
        }
        for t in view.tables:
            sides = [
                BoardSide(s["side"], " & ".join(seat["name"] for seat in s["seats"]), s["score"])
                for s in t.sides
            ]
            tables.append(
                BoardTable(
                    t.table.number,
                    _("Table %(number)s") % {"number": t.table.number},
                    t.game.pk if t.game is not None else None,
                    sides,
                    t.deals,
                    t.status,
                )
            )
    top = [
        TopLine(f"{line.position}=" if line.shared else str(line.position), line.name, line.points)
        for line in state.ranking.lines[:TOP]
    ]
    return Board(
        kind="night",
        stream=streams.night(event.pk),
        title=event.name,
        subtitle=club.name,
        heading=heading,
        tables=tables,
        top=top,
        top_title=_("The night's top five"),
        over=event.status == Event.Status.FINISHED,
    )


def league_board(club: Club, division_id: int, date: dt.date, *, to_member: bool) -> Board:
    """A league night: every game of a division's fixtures on one date."""
    division = Division.objects.filter(club=club, pk=division_id).first()
    if division is None:
        raise Http404("No such division.")
    fixtures = list(
        Fixture.objects.filter(division=division, date=date)
        .select_related("home", "away")
        .order_by("pk")
    )
    games = list(Game.objects.filter(fixture__in=fixtures).order_by("fixture_id", "number", "pk"))
    sides = _game_sides(games, to_member=to_member)
    by_fixture: dict[int, list[Game]] = {}
    for game in games:
        by_fixture.setdefault(game.fixture_id, []).append(game)
    tables: list[BoardTable] = []
    for fixture in fixtures:
        played = by_fixture.get(fixture.pk, [])
        match = _("%(home)s v %(away)s") % {"home": fixture.home.name, "away": fixture.away.name}
        if not played:
            tables.append(BoardTable(len(tables) + 1, match, None, [], 0, "waiting"))
        for game in played:
            label = match
            if len(played) > 1:
                label = _("%(match)s, game %(number)s") % {"match": match, "number": game.number}
            tables.append(
                BoardTable(
                    len(tables) + 1, label, game.pk, sides[game.pk], game.deal_count, _status(game)
                )
            )
    return Board(
        kind="league",
        stream=streams.league(division.pk, date),
        title=division.name,
        subtitle=club.name,
        heading=_("League night"),
        tables=tables,
        top=_top_of_tables(tables),
        top_title=_("Top five scores tonight"),
        over=bool(tables) and all(t.status == "finished" for t in tables),
    )


def cup_board(club: Club, cup_id: int, *, to_member: bool) -> Board:
    """A cup: the games of the round being played (else the last round played)."""
    cup = Cup.objects.filter(club=club, pk=cup_id).first()
    if cup is None:
        raise Http404("No such cup.")
    links = list(
        TieGame.objects.filter(tie__cup=cup)
        .select_related("tie", "game")
        .order_by("tie__round", "tie__order", "number")
    )
    playing = [x.tie.round for x in links if x.game.status == Game.Status.IN_PROGRESS]
    rounds = [x.tie.round for x in links]
    current = (max(playing) if playing else max(rounds)) if rounds else None
    shown_links = [x for x in links if x.tie.round == current]
    games = [x.game for x in shown_links]
    sides = _game_sides(games, to_member=to_member)
    tables = []
    for link in shown_links:
        game = link.game
        names = [s.name for s in sides[game.pk]]
        label = _(" v ").join(names)
        tables.append(
            BoardTable(
                len(tables) + 1, label, game.pk, sides[game.pk], game.deal_count, _status(game)
            )
        )
    heading = (
        _("Round %(number)s") % {"number": current}
        if current is not None
        else _("No tie has been played yet.")
    )
    return Board(
        kind="cup",
        stream=streams.cup(cup.pk),
        title=cup.name,
        subtitle=club.name,
        heading=heading,
        tables=tables,
        top=_top_of_tables(tables),
        top_title=_("Top five scores of the round"),
        over=cup.status == Cup.Status.FINISHED,
    )


def board(club: Club, kind: str, ref: str, *, to_member: bool) -> Board:
    """The board a URL names: ``night/<id>``, ``league/<division id>/<date>`` (``ref`` is
    ``"<id>/<date>"``), ``cup/<id>``."""
    if kind == "night":
        return night_board(club, int(ref), to_member=to_member)
    if kind == "cup":
        return cup_board(club, int(ref), to_member=to_member)
    if kind == "league":
        division, _sep, day = ref.partition("/")
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            raise Http404("No such date.") from None
        return league_board(club, int(division), date, to_member=to_member)
    raise Http404("No such live page.")


def stream_of(club: Club, kind: str, ref: str) -> str:
    """The stream a URL names, checked to be the club's (404 otherwise), in one query."""
    if kind == "night" and Event.objects.filter(club=club, pk=int(ref)).exists():
        return streams.night(int(ref))
    if kind == "cup" and Cup.objects.filter(club=club, pk=int(ref)).exists():
        return streams.cup(int(ref))
    if kind == "league":
        division, _sep, day = ref.partition("/")
        try:
            date = dt.date.fromisoformat(day)
        except ValueError:
            raise Http404("No such date.") from None
        if Division.objects.filter(club=club, pk=int(division)).exists():
            return streams.league(int(division), date)
    raise Http404("No such live page.")


@dataclass
class Tonight:
    nights: list[Event]
    leagues: list[tuple[Division, dt.date, str]]  # the division, the date, the URL's ref
    cups: list[Cup]


def tonight(club: Club, today: dt.date) -> Tonight:
    """What the club's live index offers: club nights of this week not yet over, the
    divisions with fixtures today, the cups not finished."""
    nights = list(
        Event.objects.filter(club=club, date__gte=today - dt.timedelta(days=1))
        .exclude(status=Event.Status.FINISHED)
        .order_by("date", "pk")[:20]
    )
    nights += list(
        Event.objects.filter(club=club, date=today, status=Event.Status.FINISHED).order_by("pk")
    )
    division_ids = set(
        Fixture.objects.filter(club=club, date=today).values_list("division_id", flat=True)
    )
    divisions = Division.objects.filter(pk__in=division_ids).order_by("name")
    cups = list(Cup.objects.filter(club=club).exclude(status=Cup.Status.FINISHED).order_by("name"))
    return Tonight(
        nights=nights,
        leagues=[(d, today, f"{d.pk}/{today.isoformat()}") for d in divisions],
        cups=cups[:20],
    )
