"""The numbers a report is written from, read from the stored rows and nothing else.

Every fact here is a stored column or a ranking the apps already compute (the night's
ranking, the series, the league's standings): no score is computed here, and nothing is
said that the rows do not hold. Players are named as the club's public pages name them
(initials for a member who keeps their name off public pages), since a report is public.

* **Best deal**: the deal that gave one side the most points (``Deal.score_*``), with
  its game's players on that side; ties go to the earlier round, table and deal.
* **Biggest comeback**: the game whose winning side was furthest behind at some point
  (``Deal.running_*`` after each deal), and by how much; none when every winner led
  throughout.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

from clabber_league.clubs.models import Player
from clabber_league.cups.models import Cup, Tie, TieGame
from clabber_league.events.models import Event, Table
from clabber_league.events.selectors import event_ranking, series_view
from clabber_league.games.models import Deal, Game, GameSeat
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.selectors import fixture_outcomes
from clabber_league.standings.selectors import standings_table

AND = _("{names} and {last}")


def joined(names: Sequence[str]) -> str:
    """ "A, B and C" in the active language."""
    if len(names) < 2:
        return "".join(names)
    return str(AND.format(names=", ".join(names[:-1]), last=names[-1]))


@dataclass
class Line:
    position: int
    name: str
    points: str
    shared: bool = False


@dataclass
class BestDeal:
    points: int
    names: str  # the side's players, "A & B"
    where: str  # "round 2, table 3" or "Home \u2013 Away"
    deal: int


@dataclass
class Comeback:
    behind: int  # the winner's biggest deficit
    names: str
    where: str
    final: str  # "1612 \u2013 1490"


@dataclass
class Match:
    home: str
    away: str
    score: str  # games won, as the schedule shows it
    forfeit: bool = False
    winner: str = ""  # a cup tie's: who goes through


@dataclass
class Facts:
    kind: str
    name: str
    date: dt.date | None
    winner: Line | None = None
    #: Everyone in first place, "A and B" when they share it.
    winners: str = ""
    shared_first: bool = False
    lines: list[Line] = field(default_factory=list)
    players: int = 0
    matches: list[Match] = field(default_factory=list)
    best_deal: BestDeal | None = None
    comeback: Comeback | None = None
    series_name: str = ""
    series: list[Line] = field(default_factory=list)
    standings: list[tuple[str, list[Line]]] = field(default_factory=list)


def _names(player_ids: Iterable[int]) -> dict[int, str]:
    players = Player.objects.filter(pk__in=set(player_ids))
    return {p.pk: p.shown_name(to_member=False) for p in players}


def _sides(games: Sequence[Game]) -> dict[int, dict[str, str]]:
    """game id -> side -> "A & B" (public names, in seat order)."""
    seats = list(
        GameSeat.objects.filter(game__in=games)
        .order_by("game_id", "seat")
        .values_list("game_id", "side", "player_id")
    )
    names = _names(p for _g, _s, p in seats)
    out: dict[int, dict[str, list[str]]] = {}
    for game_id, side, player_id in seats:
        out.setdefault(game_id, {}).setdefault(side, []).append(names.get(player_id, "?"))
    return {g: {s: " & ".join(n) for s, n in sides.items()} for g, sides in out.items()}


def _side_scores(deal: Deal) -> dict[str, int]:
    return deal.scores


def _running(deal: Deal) -> dict[str, int]:
    out = {"A": deal.running_a, "B": deal.running_b}
    if deal.running_c is not None:
        out["C"] = deal.running_c
    return out


def best_and_comeback(
    games: Sequence[Game], where: dict[int, str]
) -> tuple[BestDeal | None, Comeback | None]:
    """The night's best deal and biggest comeback over ``games`` (``where``: game id ->
    how the report places it), in the order the games are given."""
    if not games:
        return None, None
    sides = _sides(games)
    order = {g.pk: i for i, g in enumerate(games)}
    deals = sorted(
        Deal.objects.filter(game__in=games).only(
            "game_id",
            "number",
            "score_a",
            "score_b",
            "score_c",
            "running_a",
            "running_b",
            "running_c",
        ),
        key=lambda d: (order[d.game_id], d.number),
    )
    best: BestDeal | None = None
    behind: dict[int, int] = {}
    winners = {g.pk: g.winner for g in games if g.winner in ("A", "B", "C")}
    for deal in deals:
        for side, points in _side_scores(deal).items():
            if points is not None and (best is None or points > best.points):
                best = BestDeal(
                    points=points,
                    names=sides.get(deal.game_id, {}).get(side, "?"),
                    where=where.get(deal.game_id, ""),
                    deal=deal.number,
                )
        winner = winners.get(deal.game_id)
        if winner:
            running = _running(deal)
            gap = max(v for s, v in running.items() if s != winner) - running[winner]
            behind[deal.game_id] = max(behind.get(deal.game_id, 0), gap)
    comeback = None
    for game in games:
        gap = behind.get(game.pk, 0)
        if gap > 0 and (comeback is None or gap > comeback.behind):
            comeback = Comeback(
                behind=gap,
                names=sides.get(game.pk, {}).get(game.winner, "?"),
                where=where.get(game.pk, ""),
                final=" \u2013 ".join(str(v) for v in game.scores.values()),
            )
    if best is not None and best.points <= 0:
        best = None
    return best, comeback


def night_facts(event: Event, *, round_label: str, top: int = 5) -> Facts:
    """A club night: its ranking (the top ``top``), best deal, comeback, series after it.
    ``round_label`` places a game: "round {round}, table {table}" in the report's words."""
    ranking = event_ranking(event, to_member=False)
    lines = [Line(x.position, x.name, str(x.points), x.shared) for x in ranking.lines]
    tables = list(
        Table.objects.filter(round__event=event, game__isnull=False)
        .select_related("game", "round")
        .order_by("round__number", "number")
    )
    games = [t.game for t in tables]
    where = {t.game_id: round_label.format(round=t.round.number, table=t.number) for t in tables}
    best, comeback = best_and_comeback(games, where)
    first = [line.name for line in lines if line.position == 1]
    facts = Facts(
        kind="night",
        name=event.name,
        date=event.date,
        winner=lines[0] if lines else None,
        winners=joined(first),
        shared_first=len(first) > 1,
        lines=lines[:top],
        players=len(lines),
        best_deal=best,
        comeback=comeback,
    )
    if event.series_id:
        view = series_view(event.series, to_member=False)
        facts.series_name = event.series.name
        facts.series = [
            Line(x.position, x.name, x.score_display, x.shared) for x in view.ranking.ranked[:top]
        ]
    return facts


def league_facts(*, club_id: int, date: dt.date, name: str, top: int = 5) -> Facts:
    """A league night: its fixtures' results, best deal, comeback, and each division's
    standings after the night (top ``top``)."""
    fixtures = list(
        Fixture.objects.filter(club_id=club_id, date=date)
        .select_related("home", "away", "division")
        .order_by("division__name", "id")
    )
    games = list(
        Game.objects.filter(fixture__in=fixtures)
        .exclude(status=Game.Status.IN_PROGRESS)
        .order_by("fixture_id", "id")
    )
    where = {}
    for game in games:
        fixture = next(f for f in fixtures if f.pk == game.fixture_id)
        where[game.pk] = f"{fixture.home.name} \u2013 {fixture.away.name}"
    divisions = {f.division_id: f.division for f in fixtures}
    results = {}
    for division_id, division in divisions.items():
        mine = [f for f in fixtures if f.division_id == division_id]
        results.update(fixture_outcomes(division=division, fixtures=mine))
    matches = [
        Match(f.home.name, f.away.name, results[f.pk].score, results[f.pk].forfeit)
        for f in fixtures
    ]
    best, comeback = best_and_comeback(games, where)
    standings = []
    for division in divisions.values():
        table = standings_table(division=division)
        standings.append(
            (
                division.name,
                [Line(i + 1, x.name, str(x.match_points)) for i, x in enumerate(table.lines[:top])],
            )
        )
    return Facts(
        kind="league",
        name=name,
        date=date,
        matches=matches,
        best_deal=best,
        comeback=comeback,
        standings=standings,
    )


def cup_facts(*, cup: Cup, bracket: str, round_: int, name: str) -> Facts:
    """A cup round: each tie's games won and who goes through (a walkover said so; byes and
    ties not needed left out), the round's best deal and comeback."""
    ties = list(
        Tie.objects.filter(cup=cup, bracket=bracket, round=round_)
        .exclude(status__in=[Tie.Status.BYE, Tie.Status.VOID])
        .select_related("home", "away", "winner")
        .order_by("order", "id")
    )
    links = list(
        TieGame.objects.filter(tie__in=ties).select_related("game").order_by("tie_id", "number")
    )
    roles = {"home": 0, "away": 1}
    won: dict[int, list[int]] = {t.pk: [0, 0] for t in ties}
    where = {}
    names = {t.pk: (t.home.name if t.home else "?", t.away.name if t.away else "?") for t in ties}
    for link in links:
        game = link.game
        where[game.pk] = " \u2013 ".join(names[link.tie_id])
        order = (link.sides or "home,away").split(",")
        side_role = dict(zip("ABC", order, strict=False))
        role = side_role.get(game.winner or "")
        if role in roles and game.status != Game.Status.IN_PROGRESS:
            won[link.tie_id][roles[role]] += 1
    matches = [
        Match(
            names[t.pk][0],
            names[t.pk][1],
            f"{won[t.pk][0]}\u2013{won[t.pk][1]}",
            forfeit=t.status == Tie.Status.WALKOVER,
            winner=t.winner.name if t.winner else "",
        )
        for t in ties
    ]
    games = [link.game for link in links if link.game.status != Game.Status.IN_PROGRESS]
    best, comeback = best_and_comeback(games, where)
    return Facts(
        kind="cup", name=name, date=None, matches=matches, best_deal=best, comeback=comeback
    )
