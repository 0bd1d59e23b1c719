"""The rounds of an event: draw a round, call time, finish a round.

**Drawing.** A round is drawn for the entries playing it (``Entry.plays_in``) by the pure
planner ``events.draw`` from the round's committed seed (``Event.seed``, chosen by the
server when the previous round was drawn, or the event created: only its SHA-256 is shown
until the round is drawn, and a draw that failed is drawn again from the same seed), with
the night's earlier rounds and the season's other nights (the event's series) as history,
so that nobody partners the same player twice in a night and repeats over the season are
few. Each table then gets
its game through ``games.services.game_start`` (and its table link, for the phone at the
table: ``games.table_links``): a game outside any league, played by the event's rules (a
table of three at a four-hand event by the game's three-hand form), its first dealer the
draw's. A round of N deals gives each game that deal limit (the target
does not end it); a timed round is ended by calling time. Sit-outs are recorded with the
score the event's rule gives (a fixed score, or ``None``: the player's average on the
night, which the ranking works out as the night goes on).

A round is drawn only once the previous one is over: while any of its games is still in
play the draw is refused (409), and a round whose games are all over is finished by the
next draw. A draw of more than ``CLABBER_EVENT_DRAW_IN_REQUEST`` players (default 40) runs
as a Celery task (``events.tasks.draw_round``), the round showing its progress while it
is being drawn (as schedule generation does); a smaller one is drawn in the request.

**Finishing.** A round is finished when its games are all over: those not yet confirmed
are confirmed in the name of the club (the secretary's ruling: the night's results then
move the players' ratings, as every game does), and the event is finished after its last
round.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Player
from clabber_league.core import heartbeat, messages
from clabber_league.core.commitments import seed_from_nonce
from clabber_league.core.errors import CONFLICT, ServiceError
from clabber_league.games import services as games
from clabber_league.games import table_links
from clabber_league.games.adapters import rules_input
from clabber_league.games.models import Game
from clabber_league.leagues.results import game_counts
from clabber_league.rules.errors import gettext_noop, msg, ngettext
from clabber_league.rules.options import TARGET_MAX

from .. import draw
from ..hooks import draw_published, night_finished
from ..models import Event, Pair, Round, SitOut, Table
from .checkin import entries_playing
from .events import committed_seed, draw_table_sizes, new_seed, table_size, three_hand_rules

logger = logging.getLogger(__name__)

EVENT_FINISHED = gettext_lazy("This event is finished: no more rounds.")
ALL_ROUNDS_DRAWN = gettext_lazy("All {rounds} rounds of this event are drawn.")
ROUND_BEING_DRAWN = gettext_lazy("Round {round} is being drawn: wait for it.")
ROUND_UNFINISHED = gettext_lazy(
    "Round {round} still has {count} game(s) in play (table {tables}): they finish, or time "
    "is called, before the next round is drawn."
)
ROUND_NOT_PLAYING = gettext_lazy("Round {round} is not being played.")
NO_TIME_LIMIT = gettext_lazy(
    "This event's rounds are not timed: a game ends at its target or deal count."
)
DRAW_FAILED = gettext_noop("The draw failed ({detail}); nothing of it was kept. Draw again.")
QUEUE_DOWN = gettext_noop("{error}: the task queue did not answer.")
READING = gettext_noop("Reading who is here and the night's history.")
LAYING = gettext_noop("Drawn: laying the tables.")
TABLE_LAID = gettext_noop("Table {done} of {total} laid.")
PAIRS_TOO_FEW = gettext_lazy("A round of fixed pairs needs at least two pairs checked in.")

# A draw whose worker stopped may be drawn again (``Round.draw_stalled``): on PostgreSQL
# 30 s after its worker's last heartbeat (core.heartbeat), or a minute after it was queued
# if no worker started it; on SQLite five minutes after it started.

#: What the history of a draw reads: the event's earlier rounds and its series' other nights.
DRAWN_STATUSES = (Round.Status.PLAYING, Round.Status.FINISHED)


class RoundError(ServiceError):
    """A refused draw, call of time or finish."""


def draw_in_request_limit() -> int:
    """Players drawn in the request at most; a larger draw runs as a Celery task."""
    return settings.CLABBER_EVENT_DRAW_IN_REQUEST


# --- the history a draw reads ----------------------------------------------------------------


@dataclass
class _Drawn:
    """A stored round as the planner's ``History.from_rounds`` reads it."""

    tables: list[draw.Table] = field(default_factory=list)
    sit_outs: list[int] = field(default_factory=list)


def _history_rounds(rounds: Iterable[Round], pair_of: dict[int, int] | None) -> list[_Drawn]:
    """Stored rounds as the planner sees them: seats of players, or (fixed pairs, with
    ``pair_of`` player -> pair) seats of pairs."""
    rounds = list(rounds)
    out = {r.pk: _Drawn() for r in rounds}
    tables = Table.objects.filter(round__in=rounds).order_by("round_id", "number")
    for t in tables.values("round_id", "number", "seats", "first_dealer"):
        seats = tuple(t["seats"])
        dealer = t["first_dealer"]
        if pair_of is not None:
            seats = (pair_of.get(seats[0], 0), pair_of.get(seats[1], 0))
            dealer = dealer % 2
        out[t["round_id"]].tables.append(draw.Table(t["number"], seats, dealer))
    for round_id, player_id in SitOut.objects.filter(round__in=rounds).values_list(
        "round_id", "player_id"
    ):
        sat = pair_of.get(player_id) if pair_of is not None else player_id
        if sat is not None and sat not in out[round_id].sit_outs:
            out[round_id].sit_outs.append(sat)
    return [out[r.pk] for r in rounds]


def _history_rounds_of(event: Event, number: int) -> tuple[list[int], list[int]]:
    """The ids of the rounds a draw of round ``number`` reads as history: the night's
    earlier rounds (by number), the series' other nights' (by event, then number)."""
    night = Round.objects.filter(event=event, number__lt=number, status__in=DRAWN_STATUSES)
    season: list[int] = []
    if event.series_id:
        season = list(
            Round.objects.filter(
                event__series_id=event.series_id,
                event__club_id=event.club_id,
                status__in=DRAWN_STATUSES,
            )
            .exclude(event=event)
            .order_by("event_id", "number")
            .values_list("pk", flat=True)
        )
    return list(night.order_by("number").values_list("pk", flat=True)), season


def history_of(
    club_id: int, night: list[int], season: list[int], pair_of: dict[int, int] | None
) -> draw.History:
    """The planner's history from the rounds of ids ``night`` and ``season`` (in that
    order) of the club: what a draw read, and what checking it again reads."""
    rounds = Round.objects.filter(event__club_id=club_id)
    by_id = rounds.in_bulk([*night, *season])
    return draw.History.from_rounds(
        night=_history_rounds([by_id[i] for i in night if i in by_id], pair_of),
        season=_history_rounds([by_id[i] for i in season if i in by_id], pair_of),
    )


# --- drawing ---------------------------------------------------------------------------------


def _open_games(round_: Round) -> list[tuple[int, Game]]:
    """The round's tables whose game is still in play, with the game."""
    tables = round_.tables.select_related("game").order_by("number")
    return [(t.number, t.game) for t in tables if t.game and not game_counts(t.game.status)]


@transaction.atomic
def round_draw(*, event: Event, user: Any = None, access: ClubAccess | None = None) -> Round:
    """Draw the event's next round (see the module's docstring). Refused (409) while the
    previous round's games are in play or a draw is running; a round whose games are all
    over is finished first. Returns the round: playing, or being drawn by a task."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise RoundError.one("event", EVENT_FINISHED, kind=CONFLICT)
    last = event.round_set.order_by("-number").first()
    if last is not None and last.draw_stalled:
        last.status = Round.Status.FAILED  # its worker is gone: nothing of it was written
    if last is not None and last.status == Round.Status.FAILED:
        last.delete()  # a failed draw left nothing but its row: draw that round again
        last = event.round_set.order_by("-number").first()
    if last is not None and last.status == Round.Status.DRAWING:
        raise RoundError.one("round", ROUND_BEING_DRAWN.format(round=last.number), kind=CONFLICT)
    if last is not None and last.status == Round.Status.PLAYING:
        _round_close(last, user=user, access=access)
    number = (last.number if last else 0) + 1
    if number > event.rounds:
        raise RoundError.one("round", ALL_ROUNDS_DRAWN.format(rounds=event.rounds), kind=CONFLICT)
    players = _players(event, number)
    # The seed is stored on the round once it is drawn: a failed draw keeps it secret, and
    # drawing again works it out from the same nonce.
    round_ = Round.objects.create(
        event=event, number=number, status=Round.Status.DRAWING, created_by=user
    )
    if event.status == Event.Status.PLANNED:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    if len(players) > draw_in_request_limit():
        round_.message = f"Drawing {len(players)} players: queued."
        round_.save(update_fields=["message"])
        transaction.on_commit(lambda: _enqueue(round_.pk))
        return round_
    _seat(round_, _plan(round_, players), user)
    return round_


def _enqueue(round_id: int) -> None:
    from ..tasks import draw_round

    try:
        draw_round.apply_async(args=[round_id], retry=False, ignore_result=True)
    except Exception as exc:  # the broker is down: say so on the round, do not hang
        logger.exception("could not queue the draw of round %s", round_id)
        _fail(round_id, msg(QUEUE_DOWN, error=type(exc).__name__))


def _players(event: Event, number: int) -> list[int]:
    """The ids drawn for round ``number``: players, or (fixed pairs) pairs whose players
    are both playing it. Too few for one table is refused before anything is written."""
    playing = sorted(e.player_id for e in entries_playing(event=event, round_number=number))
    if event.format == Event.Format.PAIRS:
        here = set(playing)
        pairs = [
            p.pk
            for p in Pair.objects.filter(event=event).order_by("number")
            if p.player_1_id in here and p.player_2_id in here
        ]
        if len(pairs) < 2:
            raise RoundError.one("pairs", PAIRS_TOO_FEW)
        return pairs
    size, three_hand = draw_table_sizes(event)
    draw.table_sizes(len(playing), table_size=size, three_hand=three_hand)
    return playing


def round_draw_execute(*, round_id: int) -> Round | None:
    """The task's work (and a small draw's, in the request): draw the round and seat its
    tables. Never raises for a failed draw: the round records it, and is drawn again by
    the next request to draw."""
    # Claimed once: a second delivery of the task (a worker that died, a retry) finds the
    # round taken and leaves it; the worker beats while it draws (core.heartbeat), so a
    # draw whose worker died can be drawn again within a minute.
    claimed = Round.objects.filter(
        pk=round_id, status=Round.Status.DRAWING, heartbeat_at__isnull=True
    ).update(heartbeat_at=timezone.now())
    round_ = Round.objects.select_related("event", "event__club").filter(pk=round_id).first()
    if round_ is None or not claimed:
        return round_  # drawn again since (the round was replaced), or already claimed
    drawing = Round.objects.filter(pk=round_id, status=Round.Status.DRAWING)
    try:
        with heartbeat.Heartbeat(drawing, name=f"heartbeat of the draw of round {round_id}"):
            # The plan is read and drawn outside a transaction, so that the page sees the
            # progress; the tables, games and sit-outs are then written all or nothing,
            # unless the round was given up as stalled and drawn again meanwhile.
            _progress(round_, 5, READING)
            planned = _plan(round_, _players(round_.event, round_.number))
            with transaction.atomic():
                if drawing.select_for_update().exists():
                    _seat(round_, planned, round_.created_by)
    except Exception as exc:  # any failure is recorded on the round
        logger.exception("draw of round %s failed", round_id)
        detail = (
            " ".join(str(e["message"]) for e in getattr(exc, "errors", [])) or type(exc).__name__
        )
        _fail(round_id, msg(DRAW_FAILED, detail=detail))
    return Round.objects.select_related("event", "event__club").filter(pk=round_id).first()


def _fail(round_id: int, message: Any) -> None:
    """``message``: a sentence (``msg``) kept in English and as its template and values."""
    Round.objects.filter(pk=round_id, status=Round.Status.DRAWING).update(
        status=Round.Status.FAILED,
        message=str(message)[:300],
        message_data=messages.message_data([message]),
    )


def _progress(round_: Round, percent: int, message: Any) -> None:
    """The draw's progress on the round's row (seen by the page once the task commits its
    steps; a draw in the request shows only its end)."""
    Round.objects.filter(pk=round_.pk).update(
        progress=percent,
        message=str(message)[:300],
        message_data=messages.message_data([message]),
    )


@dataclass
class _Plan:
    drawn: draw.RoundDraw
    pairs: dict[int, Pair]


def _plan(round_: Round, ids: list[int]) -> _Plan:
    """The round's draw by ``events.draw`` (players, or fixed pairs), from the history.
    What it read besides the seed is kept on the round (``Round.draw_input``)."""
    event = round_.event
    round_.seed = committed_seed(event)
    pair_rows: dict[int, Pair] = {}
    night, season = _history_rounds_of(event, round_.number)
    inputs: dict[str, Any] = {"ids": ids, "history": {"night": night, "season": season}}
    if event.format == Event.Format.PAIRS:
        pair_rows = {p.pk: p for p in Pair.objects.filter(event=event)}
        first = Round.objects.filter(event=event, number=1).values_list("seed", flat=True)
        inputs.update(
            kind="pairs",
            method=event.movement,
            pairs={str(p.pk): [p.player_1_id, p.player_2_id] for p in pair_rows.values()},
            scores=(
                {str(k): v for k, v in _pair_scores(round_, _pair_of(pair_rows)).items()}
                if event.movement == "swiss"
                else None
            ),
            station_seed=first.first() if round_.number > 1 else round_.seed,
        )
    else:
        size, three_hand = draw_table_sizes(event)  # the night's table plan
        inputs.update(
            kind="individual",
            table_size=size,
            three_hand=three_hand,
            keep_apart=[list(p) for p in event.keep_apart or []],
        )
    planned = plan_from(club_id=event.club_id, number=round_.number, seed=round_.seed, **inputs)
    round_.draw_input = inputs
    _progress(round_, 40, LAYING)
    return _Plan(planned, pair_rows)


def _pair_of(pair_rows: dict[int, Pair]) -> dict[int, int]:
    pair_of = {}
    for p in pair_rows.values():
        pair_of[p.player_1_id] = pair_of[p.player_2_id] = p.pk
    return pair_of


def plan_from(*, club_id: int, number: int, seed: str, **inputs: Any) -> draw.RoundDraw:
    """A round's draw from its seed and what it read (``Round.draw_input``): the draw the
    round was drawn with, and what ``manage.py draw_check`` draws again to compare."""
    history = inputs["history"]
    if inputs["kind"] == "pairs":
        pair_of = {p: int(k) for k, players in inputs["pairs"].items() for p in players}
        scores = inputs.get("scores")
        return draw.pairs_round(
            inputs["ids"],
            round_number=number,
            seed=seed,
            method=inputs["method"],
            scores={int(k): v for k, v in scores.items()} if scores is not None else None,
            history=history_of(club_id, history["night"], history["season"], pair_of),
            station_seed=inputs.get("station_seed"),
        )
    return draw.draw_round(
        inputs["ids"],
        round_number=number,
        seed=seed,
        history=history_of(club_id, history["night"], history["season"], None),
        table_size=inputs["table_size"],
        three_hand=inputs["three_hand"],
        keep_apart=[tuple(p) for p in inputs["keep_apart"]],
    )


def _seat(round_: Round, plan: _Plan, user: Any) -> None:
    """Store the draw: a table and its game per table, the sit-outs with their score."""
    event, planned, pair_rows = round_.event, plan.drawn, plan.pairs
    seats_of = {t.number: _player_seats(t, pair_rows) for t in planned.tables}
    players = Player.objects.in_bulk({p for seats in seats_of.values() for p in seats})
    total = max(len(planned.tables), 1)
    for done, table in enumerate(planned.tables, start=1):
        seats = seats_of[table.number]
        game = games.game_start(
            club=event.club,
            seats=[players[p] for p in seats],
            rules=_table_rules(event, len(seats)),
            deal_limit=event.round_deals if event.round_kind == Event.RoundKind.DEALS else None,
            first_dealer=table.first_dealer if not pair_rows else table.first_dealer % 2,
            played_on=event.date,
            user=user,
        )
        Table.objects.create(
            round=round_,
            number=table.number,
            seats=list(seats),
            first_dealer=game.first_dealer,
            game=game,
        )
        # The table's phone scores its game through the link on the table card; the link
        # stops working once the game is confirmed (the round finished).
        table_links.table_link_issue(game=game, table_label=str(table.number), user=user)
        if done % 10 == 0:
            _progress(round_, 40 + 60 * done // total, msg(TABLE_LAID, done=done, total=total))
    sit_out_players: list[int] = []
    for sat in planned.sit_outs:
        if pair_rows:
            sit_out_players += [pair_rows[sat].player_1_id, pair_rows[sat].player_2_id]
        else:
            sit_out_players.append(sat)
    fixed = event.sit_out_rule == Event.SitOutRule.FIXED
    SitOut.objects.bulk_create(
        SitOut(round=round_, player_id=p, score=event.sit_out_score if fixed else None)
        for p in sit_out_players
    )
    notes = []
    if planned.partner_repeats_night:
        repeats = planned.partner_repeats_night
        notes.append(
            messages.part(
                ngettext(
                    "{count} partnership repeats one of tonight's.",
                    "{count} partnerships repeat one of tonight's.",
                    repeats,
                    count=repeats,
                )
            )
        )
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.PLAYING,
        progress=100,
        message="",
        message_data={},
        notes=notes,
        draw_algorithm=draw.ALGORITHM,
        draw_input=round_.draw_input,
        seed=round_.seed,
    )
    # The round's seed is now shown with its draw: the next round gets a fresh committed
    # seed (a failed draw never gets here, so drawing it again reuses its seed).
    current = Event.objects.select_for_update().get(pk=event.pk)
    if seed_from_nonce(current.seed) == round_.seed:
        Event.objects.filter(pk=event.pk).update(seed=new_seed())
    round_.draw_algorithm = draw.ALGORITHM
    round_.status = Round.Status.PLAYING
    round_.progress = 100
    round_.notes = notes
    draw_published.send(round_=round_)


def _pair_scores(round_: Round, pair_of: dict[int, int]) -> dict[int, float]:
    """Each pair's points over the night's earlier rounds (a Swiss movement's order): the
    side's score of every game its players sat at."""
    scores: dict[int, float] = {}
    tables = Table.objects.filter(
        round__event_id=round_.event_id, round__number__lt=round_.number
    ).select_related("game")
    for table in tables:
        if table.game is None or len(table.seats) != 4:
            continue
        for seat, side in ((0, "A"), (1, "B")):
            pair = pair_of.get(table.seats[seat])
            if pair is not None:
                scores[pair] = scores.get(pair, 0) + table.game.scores.get(side, 0)
    return scores


def _player_seats(table: draw.Table, pairs: dict[int, Pair]) -> tuple[int, ...]:
    """Player ids clockwise: the draw's seats, or (fixed pairs) North-South in seats 0 and
    2, East-West in 1 and 3."""
    if not pairs:
        return tuple(table.seats)
    ns, ew = pairs[table.seats[0]], pairs[table.seats[1]]
    return (ns.player_1_id, ew.player_1_id, ns.player_2_id, ew.player_2_id)


def _table_rules(event: Event, size: int) -> Any:
    """The rules a table of ``size`` plays: the event's (its three-hand form at a table of
    three of a four-hand game); for a round of N deals with the target out of reach, so
    that only the deal count ends the game."""
    rules: Any = event.rules
    if size == 3 and table_size(event.rules) == 4:
        rules = three_hand_rules(event.rules)
    if event.round_kind != Event.RoundKind.DEALS:
        return rules
    spec = rules_input(rules)
    name = rules.get("name") if isinstance(rules, dict) else None
    return {
        "name": f"{name or spec['ruleset']}, {event.round_deals} deals",
        "base": spec["ruleset"],
        "options": {**spec["options"], "target": TARGET_MAX},
    }


# --- time, and the end of a round ----------------------------------------------------------


@transaction.atomic
def round_call_time(*, round_: Round, user: Any = None) -> Round:
    """Time is up for a timed round: every game in play finishes after its deal in
    progress (``games.services.game_close``)."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if round_.status != Round.Status.PLAYING:
        message = ROUND_NOT_PLAYING.format(round=round_.number)
        raise RoundError.one("round", message, kind=CONFLICT)
    if round_.event.round_kind != Event.RoundKind.TIME:
        raise RoundError.one("round", NO_TIME_LIMIT, kind=CONFLICT)
    for _number, game in _open_games(round_):
        games.game_close(game=game, user=user)
    round_.time_called_at = round_.time_called_at or timezone.now()
    round_.save(update_fields=["time_called_at"])
    return round_


@transaction.atomic
def round_finish(*, round_: Round, user: Any = None, access: ClubAccess | None = None) -> Round:
    """Close a round whose games are all over (409 while any is in play); after the last
    round the event is finished."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PLAYING:
        message = ROUND_NOT_PLAYING.format(round=round_.number)
        raise RoundError.one("round", message, kind=CONFLICT)
    _round_close(round_, user=user, access=access)
    return round_


def _round_close(round_: Round, *, user: Any, access: ClubAccess | None) -> None:
    open_games = _open_games(round_)
    if open_games:
        message = ROUND_UNFINISHED.format(
            round=round_.number,
            count=len(open_games),
            tables=", ".join(str(n) for n, _ in open_games),
        )
        raise RoundError.one("round", message, kind=CONFLICT)
    if access is not None and access.can_manage:
        # The club admin closing the round confirms, for the whole game, each finished game
        # the one rule lets them (they entered nothing there); the others wait for their
        # players' acceptance at the table.
        admin = user if user is not None else access.membership.user
        for table in round_.tables.select_related("game"):
            if table.game and table.game.status == Game.Status.FINISHED:
                if games.game_confirm_refusal(game=table.game, user=admin, access=access):
                    continue
                state = games.confirmation_state(game=table.game)
                if games.acceptance_refusal(state, account_id=admin.pk, is_admin=True)[1] == "":
                    games.game_confirm(game=table.game, user=admin, access=access)
    round_.status = Round.Status.FINISHED
    round_.finished_at = timezone.now()
    round_.save(update_fields=["status", "finished_at"])
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    if round_.number >= event.rounds and event.status != Event.Status.FINISHED:
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
        night_finished.send(event=event)
