"""Reads of club nights: the night's rows, its ranking, money, room display and seasons.

Every function starts from the club (or from an event already read from it) and reads a
fixed number of queries whatever the size of the night: the rounds, tables and games of
one or many events in one query, their seats in one, sit-outs in one, names in one.
The ranking, prizes and series rules themselves are the pure modules
(:mod:`.ranking`, :mod:`.prizes`, :mod:`.series`); this module only turns rows into
their inputs.

A night's rows (:func:`night_rows`): each player at a table scores their side's points of
that table's game (while the game is in progress its points so far: the *live*
ranking); a round is won when the game counts (finished or confirmed) and their side won
it. A sit-out scores its stored score, or the event's fixed score, or (``None``) the
player's average, which the ranking works out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy

from clabber_league.clubs.models import Club, Player
from clabber_league.clubs.privacy import shown
from clabber_league.games.models import Deal, Game, GameSeat
from clabber_league.leagues.results import COUNTED_STATUSES

from . import prizes as prize_rules
from .models import Entry, Event, Round, Series, SitOut, Table
from .ranking import RankedPlayer, RoundRow, night_ranking
from .series import NightResult, SeriesRanking, series_ranking

NO_SUCH_EVENT = gettext_lazy("No such event in this club.")
NO_SUCH_SERIES = gettext_lazy("No such series in this club.")
NO_SUCH_ROUND = gettext_lazy("No such round of this event.")
NO_SUCH_PLAYER = gettext_lazy("No such player in this club.")

#: A series page ranks at most this many nights (its newest), a player's page lists at
#: most this many nights a page.
MAX_SERIES_NIGHTS = 200
PLAYER_NIGHTS_PAGE = 20


def event_list(*, club: Club) -> QuerySet[Event]:
    return club.events.select_related("series").order_by("-date", "-id")


def event_get(*, club: Club, pk: Any) -> Event:
    event = club.events.select_related("series", "club").filter(pk=pk).first()
    if event is None:
        raise Http404(NO_SUCH_EVENT)
    return event


def series_list(*, club: Club) -> QuerySet[Series]:
    return club.event_series.annotate(nights=Count("events")).order_by("-created_at", "-id")


def series_get(*, club: Club, pk: Any) -> Series:
    series = club.event_series.filter(pk=pk).first()
    if series is None:
        raise Http404(NO_SUCH_SERIES)
    return series


def round_get(*, event: Event, number: Any) -> Round:
    found = event.round_set.filter(number=number).first()
    if found is None:
        raise Http404(NO_SUCH_ROUND)
    return found


def player_get(*, club: Club, pk: Any) -> Player:
    player = Player.objects.filter(club=club, pk=pk).first()
    if player is None:
        raise Http404(NO_SUCH_PLAYER)
    return player


# --- seats and sides ----------------------------------------------------------------------


def seat_side(seat: int, seats: int) -> str:
    """The side of a seat at a table of ``seats`` players, as ``game_start`` seats them:
    partners sit opposite (seats 0 and 2 are side A at four; A, B, A, B, A, B at six);
    at a table of two or three each player is a side of their own."""
    if seats <= 3:
        return "ABC"[seat]
    return "AB"[seat % 2]


def _names(player_ids: Iterable[int], *, to_member: bool) -> dict[int, str]:
    rows = Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "name", "name_public")
    return {pk: shown(name, public, to_member=to_member) for pk, name, public in rows}


def _side_points(game: Game | None, side: str) -> int:
    if game is None:
        return 0
    return {"A": game.score_a, "B": game.score_b, "C": game.score_c or 0}.get(side, 0)


@dataclass
class NightData:
    """What one event's ranking is made of, read once."""

    event: Event
    rows: list[RoundRow] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)  # with .round and .game


def _tables(event_ids: Sequence[int]) -> list[Table]:
    return list(
        Table.objects.filter(round__event_id__in=event_ids)
        .exclude(round__status=Round.Status.FAILED)
        .select_related("round", "game")
        .order_by("round__event_id", "round__number", "number")
    )


def _seat_sides(tables: Sequence[Table]) -> dict[int, list[tuple[int, str]]]:
    """Each started game's seats as the game stores them (player, side), by game id."""
    game_ids = [t.game_id for t in tables if t.game_id]
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    if not game_ids:
        return seats
    rows = (
        GameSeat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "player_id", "side")
    )
    for game_id, player_id, side in rows:
        seats[game_id].append((player_id, side))
    return seats


def table_players(
    table: Table, seat_sides: dict[int, list[tuple[int, str]]]
) -> list[tuple[int, str]]:
    """``(player id, side)`` of a table, from its game once started, else from the draw."""
    if table.game_id and seat_sides.get(table.game_id):
        return seat_sides[table.game_id]
    seats = list(table.seats or [])
    return [(player, seat_side(index, len(seats))) for index, player in enumerate(seats)]


def nights_data(events: Sequence[Event]) -> dict[int, NightData]:
    """The round rows of several events at once (four queries whatever their number)."""
    data = {event.pk: NightData(event) for event in events}
    if not data:
        return data
    tables = _tables(list(data))
    seat_sides = _seat_sides(tables)
    for table in tables:
        night = data[table.round.event_id]
        night.tables.append(table)
        game = table.game
        counts = game is not None and game.status in COUNTED_STATUSES
        for player, side in table_players(table, seat_sides):
            night.rows.append(
                RoundRow(
                    player=player,
                    round=table.round.number,
                    points=_side_points(game, side),
                    won=counts and game.winner == side,
                    table=table.number,
                    side=side,
                )
            )
    sit_outs = (
        SitOut.objects.filter(round__event_id__in=list(data))
        .exclude(round__status=Round.Status.FAILED)
        .values_list("round__event_id", "round__number", "player_id", "score")
    )
    for event_id, number, player, score in sit_outs:
        event = data[event_id].event
        if score is None and event.sit_out_rule == Event.SitOutRule.FIXED:
            score = event.sit_out_score
        data[event_id].rows.append(RoundRow(player, number, score, sat_out=True))
    return data


def night_data(event: Event) -> NightData:
    return nights_data([event])[event.pk]


# --- the night's ranking ------------------------------------------------------------------


def _pair_rows(event: Event, rows: Sequence[RoundRow]) -> tuple[list[RoundRow], dict[int, str]]:
    """A fixed-pairs night ranks its pairs: one row per pair and round (the pair's id)."""
    pairs = list(event.pairs.values_list("pk", "number", "player_1_id", "player_2_id"))
    pair_of = {}
    for pk, _number, one, two in pairs:
        pair_of[one] = pk
        pair_of[two] = pk
    seen: set[tuple[int, int]] = set()
    out: list[RoundRow] = []
    for row in rows:
        pair = pair_of.get(row.player)
        if pair is None or (pair, row.round) in seen:
            continue
        seen.add((pair, row.round))
        out.append(RoundRow(pair, row.round, row.points, row.won, row.sat_out, row.table, row.side))
    return out, {pk: f"Pair {number}" for pk, number, _one, _two in pairs}


@dataclass
class NightRanking:
    """A night's ranking as the pages and the API show it."""

    event: Event
    lines: list[RankedPlayer]
    rounds: list[int]  # the round numbers that have rows, in order
    live: bool  # some of its games are still being played
    pairs: bool = False


def event_ranking(event: Event, *, to_member: bool, data: NightData | None = None) -> NightRanking:
    """The night's ranking, live while games are being played."""
    data = data or night_data(event)
    rows = data.rows
    names: dict[int, str]
    pairs = event.format == Event.Format.PAIRS
    if pairs:
        player_names = _names({row.player for row in rows}, to_member=to_member)
        rows, names = _pair_rows(event, rows)
        members = {
            pk: (one, two)
            for pk, _n, one, two in event.pairs.values_list(
                "pk", "number", "player_1_id", "player_2_id"
            )
        }
        names = {
            pk: f"{label}: {player_names.get(members[pk][0], '?')} & "
            f"{player_names.get(members[pk][1], '?')}"
            for pk, label in names.items()
        }
    else:
        names = _names({row.player for row in rows}, to_member=to_member)
    live = any(t.game is not None and t.game.status == Game.Status.IN_PROGRESS for t in data.tables)
    return NightRanking(
        event=event,
        lines=night_ranking(rows, names=names, method=event.ranking),
        rounds=sorted({row.round for row in rows}),
        live=live,
        pairs=pairs,
    )


# --- money ---------------------------------------------------------------------------------


def event_hicks(event: Event, data: NightData | None = None) -> dict[int, int]:
    """How often each player's side was hicked (set as the maker) over the night."""
    data = data or night_data(event)
    by_game = {t.game_id: t for t in data.tables if t.game_id}
    if not by_game:
        return {}
    sets = (
        Deal.objects.filter(game_id__in=list(by_game), outcome="set")
        .order_by()
        .values("game_id", "maker")
        .annotate(n=Count("id"))
        .values_list("game_id", "maker", "n")
    )
    seat_sides = _seat_sides(list(by_game.values()))
    hicks: dict[int, int] = defaultdict(int)
    for game_id, maker, n in sets:
        for player, side in table_players(by_game[game_id], seat_sides):
            if side == maker:
                hicks[player] += n
    return dict(hicks)


@dataclass
class EventMoney:
    """A night's prize list with its ranking."""

    ranking: NightRanking
    prize_list: prize_rules.PrizeList
    hicks: dict[int, int]
    hick_owed: dict[int, int]
    entries: int
    paid: int


def event_rule(event: Event) -> prize_rules.PrizeRule:
    """The prize rule the event chose (``prize_shares`` when the model carries them)."""
    shares = tuple(getattr(event, "prize_shares", None) or ())
    return prize_rules.PrizeRule(kind=event.prize_rule, shares=shares)


def event_money(event: Event, *, to_member: bool) -> EventMoney:
    """The ranking, the takings, the hick pot and the prizes of a night."""
    data = night_data(event)
    ranking = event_ranking(event, to_member=to_member, data=data)
    counts = Entry.objects.filter(event=event, checked_in=True).aggregate(
        entries=Count("id"), paid=Count("id", filter=Q(paid=True))
    )
    hicks: dict[int, int] = {}
    pot, owed = 0, {}
    if event.hick_stake_cents:
        hicks = event_hicks(event, data)
        pot, owed = prize_rules.hick_pot(hicks, stake_cents=event.hick_stake_cents)
    prize_list = prize_rules.prizes_award(
        [(line.player, line.position) for line in ranking.lines],
        rule=event_rule(event),
        fee_cents=event.entry_fee_cents,
        paid=counts["paid"] or 0,
        hick_pot_cents=pot,
    )
    return EventMoney(
        ranking=ranking,
        prize_list=prize_list,
        hicks=hicks,
        hick_owed=owed,
        entries=counts["entries"] or 0,
        paid=counts["paid"] or 0,
    )


# --- the room display and the cards ------------------------------------------------------


@dataclass
class TableView:
    """One table of a round as the display and the cards show it."""

    table: Table
    seats: list[dict[str, Any]]  # {"seat", "player", "name", "side", "deals_first"}
    game: Game | None
    scores: dict[str, int]
    deals: int
    status: str  # "waiting", "playing", "finished"

    @property
    def sides(self) -> list[dict[str, Any]]:
        """The table's sides in order: their players (the first dealer marked) and score."""
        out: dict[str, dict[str, Any]] = {}
        for seat in self.seats:
            side = out.setdefault(
                seat["side"],
                {"side": seat["side"], "seats": [], "score": self.scores.get(seat["side"], 0)},
            )
            side["seats"].append(seat)
        return list(out.values())


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    sit_outs: list[str]
    started: bool  # a deal has been recorded at one of its tables
    finished_tables: int


SEAT_NAMES_4 = (
    gettext_lazy("North"),
    gettext_lazy("East"),
    gettext_lazy("South"),
    gettext_lazy("West"),
)


def seat_label(seat: int, seats: int) -> str:
    """Where a seat is at the table, in the reader's language (the API's is English): the
    compass at a table of four, else its number."""
    if seats == 4:
        return str(SEAT_NAMES_4[seat])
    return f"{gettext_lazy('Seat')} {seat + 1}"


def round_view(round_: Round, *, to_member: bool) -> RoundView:
    """A round's tables (who sits where, who deals first, how far each has got) and its
    sit-outs, in four queries."""
    tables = list(round_.tables.select_related("game").order_by("number"))
    seat_sides = _seat_sides(tables)
    sit_out_ids = list(round_.sit_outs.values_list("player_id", flat=True))
    players = {p for t in tables for p, _side in table_players(t, seat_sides)}
    names = _names(players | set(sit_out_ids), to_member=to_member)
    views = []
    for table in tables:
        sides = table_players(table, seat_sides)
        game = table.game
        seats = [
            {
                "seat": index,
                "where": seat_label(index, len(sides)),
                "player": player,
                "name": names.get(player, "?"),
                "side": side,
                "deals_first": index == table.first_dealer,
            }
            for index, (player, side) in enumerate(sides)
        ]
        if game is None:
            status, scores, deals = "waiting", {}, 0
        else:
            scores = game.scores
            deals = game.deal_count
            status = "playing" if game.status == Game.Status.IN_PROGRESS else "finished"
            if status == "playing" and not deals:
                status = "waiting"
        views.append(TableView(table, seats, game, scores, deals, status))
    return RoundView(
        round=round_,
        tables=views,
        sit_outs=sorted(names.get(p, "?") for p in sit_out_ids),
        started=any(view.deals for view in views),
        finished_tables=sum(1 for view in views if view.status == "finished"),
    )


@dataclass
class DisplayState:
    """What the room display shows: the current round, the ranking, the new draw."""

    event: Event
    current: RoundView | None  # the round being played (or the last one)
    ranking: NightRanking
    rounds_done: int
    drawing: Round | None  # a draw running as a task


def display_state(event: Event, *, to_member: bool) -> DisplayState:
    """The room display's content, in a fixed number of queries."""
    rounds = list(event.round_set.exclude(status=Round.Status.FAILED).order_by("number"))
    drawing = next((r for r in rounds if r.status == Round.Status.DRAWING), None)
    shown_rounds = [r for r in rounds if r.status != Round.Status.DRAWING]
    current = round_view(shown_rounds[-1], to_member=to_member) if shown_rounds else None
    return DisplayState(
        event=event,
        current=current,
        ranking=event_ranking(event, to_member=to_member),
        rounds_done=sum(1 for r in rounds if r.status == Round.Status.FINISHED),
        drawing=drawing,
    )


@dataclass
class WallLine:
    name: str
    table: int | None
    where: str
    partner: str


def wall_draw(round_view_: RoundView) -> list[WallLine]:
    """A round's draw by name, for the wall: everyone finds their table and seat."""
    lines = []
    for view in round_view_.tables:
        count = len(view.seats)
        for seat in view.seats:
            partner = ""
            if count >= 4:
                partner = ", ".join(
                    other["name"]
                    for other in view.seats
                    if other["side"] == seat["side"] and other["player"] != seat["player"]
                )
            lines.append(WallLine(seat["name"], view.table.number, seat["where"], partner))
    for name in round_view_.sit_outs:
        lines.append(WallLine(name, None, "Sits out", ""))
    return sorted(lines, key=lambda line: line.name.casefold())


# --- seasons ------------------------------------------------------------------------------


def series_events(series: Series) -> list[Event]:
    """The series' nights, oldest first (at most the newest ``MAX_SERIES_NIGHTS``)."""
    newest = list(series.events.order_by("-date", "-id")[:MAX_SERIES_NIGHTS])
    return newest[::-1]


@dataclass
class SeriesView:
    series: Series
    events: list[Event]
    ranking: SeriesRanking


def series_results(events: Sequence[Event]) -> list[NightResult]:
    """Every player's result of each night (their points and place that night)."""
    data = nights_data(events)
    results = []
    for event in events:
        lines = night_ranking(data[event.pk].rows, method=event.ranking)
        results += [
            NightResult(line.player, event.pk, line.points, line.position) for line in lines
        ]
    return results


def series_view(series: Series, *, to_member: bool) -> SeriesView:
    events = series_events(series)
    results = series_results(events)
    names = _names({r.player for r in results}, to_member=to_member)
    ranking = series_ranking(
        results,
        nights=[e.pk for e in events],
        method=series.method,
        best_n=series.best_of if series.method == Series.Method.BEST else None,
        min_attendance=series.min_attendance,
        names=names,
    )
    return SeriesView(series=series, events=events, ranking=ranking)


@dataclass
class PlayerNight:
    event: Event
    points: int
    position: int
    players: int
    played: int
    sat_out: int


def player_nights(*, club: Club, player: Player, page: int = 1) -> tuple[list[PlayerNight], bool]:
    """A player's nights, newest first, a page at a time; and whether there are more."""
    page = max(1, page)
    start = (page - 1) * PLAYER_NIGHTS_PAGE
    events = list(
        club.events.filter(entries__player=player)
        .select_related("series")
        .order_by("-date", "-id")[start : start + PLAYER_NIGHTS_PAGE + 1]
    )
    more = len(events) > PLAYER_NIGHTS_PAGE
    events = events[:PLAYER_NIGHTS_PAGE]
    data = nights_data(events)
    nights = []
    for event in events:
        lines = night_ranking(data[event.pk].rows, method=event.ranking)
        mine = next((line for line in lines if line.player == player.pk), None)
        nights.append(
            PlayerNight(
                event=event,
                points=mine.points if mine else 0,
                position=mine.position if mine else 0,
                players=len(lines),
                played=mine.played if mine else 0,
                sat_out=mine.sat_out if mine else 0,
            )
        )
    return nights, more


# --- a table card of a finished round ------------------------------------------------------

ROUND_OVER = gettext_lazy("Round {round} of {event} is over: its tables are closed.")
ROUND_OVER_NEXT_PLAYING = gettext_lazy(" Round {round}'s cards are at the secretary's table.")
ROUND_OVER_NEXT_DRAWING = gettext_lazy(
    " Round {round} is being drawn: its cards will be at the secretary's table."
)
ROUND_OVER_NEXT_WAITING = gettext_lazy(" Round {round} is not drawn yet: the secretary calls it.")
ROUND_OVER_NIGHT_OVER = gettext_lazy(" The night is over: its ranking is on the room display.")


def closed_table_link_note(link: Any) -> list[str] | None:
    """``games.hooks.table_link_closed``: a table card scanned once its round is over
    says so, and where the current round's cards are (two queries); None for a game that
    is no event's, or whose round is still open (the games' own message then)."""
    table = Table.objects.filter(game_id=link.game_id).select_related("round__event").first()
    if table is None or table.round.status != Round.Status.FINISHED:
        return None
    return [_round_over(table.round)]


def _round_over(round_: Round) -> str:
    event = round_.event
    message = ROUND_OVER.format(round=round_.number, event=event.name)
    current = (
        Round.objects.filter(event_id=event.pk, number__gt=round_.number)
        .order_by("-number")
        .only("number", "status")
        .first()
    )
    if current is not None and current.status == Round.Status.PLAYING:
        return message + ROUND_OVER_NEXT_PLAYING.format(round=current.number)
    if current is not None and current.status == Round.Status.DRAWING:
        return message + ROUND_OVER_NEXT_DRAWING.format(round=current.number)
    last = current.number if current is not None else round_.number
    if last >= event.rounds:
        return message + ROUND_OVER_NIGHT_OVER
    return message + ROUND_OVER_NEXT_WAITING.format(round=last + 1)


# --- the draw's seeds ---------------------------------------------------------------------


@dataclass(frozen=True)
class DrawSeed:
    """One round's seed as the night shows it: the commitment (SHA-256) always, the seed
    once the round is drawn (``seed`` is None before)."""

    number: int
    seed_hash: str
    seed: str | None
    algorithm: str


def draw_seeds(event: Event) -> list[DrawSeed]:
    """Each drawn round's seed and, while rounds are left to draw, the commitment to the
    next round's seed (its seed None: secret until that round is drawn)."""
    from clabber_league.core.commitments import seed_from_nonce, seed_hash

    drawn = (Round.Status.PLAYING, Round.Status.FINISHED)
    committed = seed_hash(seed_from_nonce(event.seed))
    out = []
    last = 0
    for number, seed, status, algorithm in event.round_set.order_by("number").values_list(
        "number", "seed", "status", "draw_algorithm"
    ):
        last = number
        if status in drawn and seed:
            out.append(DrawSeed(number, seed_hash(seed), seed, algorithm))
        else:  # being drawn, or failed: drawn again from the same commitment
            out.append(DrawSeed(number, committed, None, ""))
    waiting = not out or out[-1].seed is not None
    if event.status != Event.Status.FINISHED and waiting and last < event.rounds:
        out.append(DrawSeed(last + 1, committed, None, ""))
    return out
