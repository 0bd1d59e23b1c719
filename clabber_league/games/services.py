"""Recording games: start a game, record, correct and delete deals, confirm the result.

Every write runs in one transaction with the game's row locked (``SELECT ... FOR
UPDATE``), so two scorers at one table are served one after the other: neither
deal is lost and none is recorded twice. The unique ``(game, number)`` constraint
and the per-game idempotency key back that up in the database itself.

The rules engine scores the whole game from its deals on every change (a game is
a few dozen deals), so running totals, the finish and the winner can never drift
from the deals, and a correction re-scores everything after it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.utils import timezone

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Club, Player
from clabber_league.core import rows
from clabber_league.core.errors import CONFLICT, FORBIDDEN, ServiceError, conflict
from clabber_league.core.services import retention
from clabber_league.leagues.models import Division, Team
from clabber_league.leagues.results import game_counts
from clabber_league.rules import (
    RulesError,
    get_ruleset,
    score_deal,
    score_game_with_pot,
    score_next,
    winner_at_close,
)
from clabber_league.rules.dealing import complete_points, dealer_sequence
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.fixture_changes import fixture_result_update

from . import adapters
from .hooks import game_changed
from .models import Acceptance, Deal, DealRevision, Game, GameSeat, GameSide

GAME_FINISHED = "This game is finished: no deal can be added."
GAME_CONFIRMED = "This game is confirmed: its deals can no longer be changed."
GAME_ABANDONED = "This game was abandoned: its deals can no longer be changed."
GAME_ABANDON_CONFIRMED = "A confirmed game cannot be abandoned: its result stands."
GAME_ALREADY_ABANDONED = "This game is already abandoned."
GAME_FULL = (
    "A game takes at most {cap} deals (the CLABBER_MAX_DEALS_PER_GAME setting); "
    "this one has {count}."
)
ROWS_TOO_MANY = "At most {cap} rows at once: a game takes at most {cap} deals."
GAME_NOT_FINISHED = "Only a finished game can be confirmed."
GAME_ALREADY_CONFIRMED = "This game is already confirmed."
CONFIRM_NOT_SEATED = "Only a player of the game, or a club admin, can confirm it."
CONFIRM_SAME_SIDE = (
    "The result is confirmed by the other side: no partner of someone who recorded, "
    "corrected or deleted a deal of this game."
)
CONFIRM_TOUCHED = (
    "You recorded, corrected or deleted deals of this game: the other side, or a club admin "
    "who did not, confirms it."
)
CONFIRM_CLUB_ADMIN_ONLY = "Only a club admin confirms a result in the name of the club."
ACCEPT_ALREADY = "This side has already accepted the result: the other side accepts now."
SEATS_COUNT = "{ruleset} is played by {players} players; {given} seats were given."
SEAT_TWICE = "A player can sit only once at a table."
SEAT_OTHER_SIDE = "{player} plays for {team}, the other side: they cannot sit for {side_team}."
FIRST_DEALER_NOT_SEATED = "The first dealer must be one of the players at the table."
FIRST_DEALER_DISAGREE = (
    "first_dealer (seat {seat}) and first_dealer_player (seat {player_seat}) name "
    "different seats: give one of them."
)
PLAYER_OTHER_CLUB = "This player is not a member of the club."
TEAM_OTHER_CLUB = "This team is not one of the club's."
RULES_MISSING = "A game outside a league division needs its rules: a rule set or house rules."
RULES_WITH_DIVISION = "A game of a division plays the division's rules: give one or the other."
RULES_UNKNOWN = "Unknown rules: give a rule set's slug or house rules (base and options)."
DEAL_LIMIT_RANGE = "A game's deal limit is 1 to {cap} deals."
GAME_CLOSE_NOT_OPEN = "Only a game in progress can be closed."
TEAM_OTHER_DIVISION = "This team does not play in the division."
SIDES_MISSING = "Give a team for every side ({sides})."
FIRST_DEALER_RANGE = "The first dealer must be one of the seats 0 to {last}."
MAKER_SEAT_SIDE = "The player who named trump sits on side {seat_side}, not on side {maker}."
MAKER_SEAT_RANGE = "No such seat at this table."
LAST_DEAL_ONLY = "Only the game's deals can be corrected here."
FIXTURE_OTHER_DIVISION = "This fixture is not one of the division's."
FIXTURE_HAS_RESULT = "This fixture already has its result (played or forfeit)."
FIXTURE_DECIDED = (
    "This fixture is already decided: its {planned} planned game(s) have been played "
    "({played} finished). A result is corrected on its score sheet, not by playing again."
)
FIXTURE_UNDER_WAY = (
    "This fixture's {planned} planned game(s) are already started ({live} in progress, "
    "{played} finished): a fixture is not played twice. Go on with the game in progress, or "
    "abandon it first if it was started by mistake."
)
TEAM_WITHDRAWN = "{team} withdrew on {on:%d %b %Y}: it plays no more games."
MERGE_SAME_GAME = "{source} and {target} both sat at game {game}: one person cannot take two seats."
FIXTURE_TEAMS = "A game of this fixture is {home} (side A) v {away} (side B)."
DEAL_NUMBER_TAKEN = (
    "Deal {number} is already recorded: the game has {count} deals (another phone or page "
    "recorded them first)."
)
DEAL_KEY_DELETED = (
    "This request recorded deal {number}, which was deleted since: it is not recorded again. "
    "If the deal should stand, enter it anew."
)
#: The most deleted deals' keys a game keeps (the newest; older ones also go after the
#: keys' retention): it bounds the game row however often deals are deleted.
DELETED_KEYS_KEPT = 1000
DEAL_NUMBER_AHEAD = "The game has {count} deals: the next one is deal {next}, not deal {number}."


class GameError(ServiceError):
    """A rejected game write (``core.errors.ServiceError``)."""


class DealKeyDeleted(GameError):
    """A deal's retry whose deal was deleted since (409). ``fingerprint``: the request's
    that recorded it (``""`` when not kept), so the API tells another request (422)."""

    def __init__(self, errors: list[dict[str, str]], *, fingerprint: str = "") -> None:
        super().__init__(errors, kind=CONFLICT)
        self.fingerprint = fingerprint


@dataclass(frozen=True)
class Preview:
    """What a deal would put on the sheet, before it is saved."""

    number: int
    dealer: int
    answer: dict[str, Any]
    running: dict[str, int]
    finished: bool
    winner: str | None
    next_dealer: int | None
    #: The game's totals after its last deal (for a correction: after every later deal).
    totals: dict[str, int] = field(default_factory=dict)


@dataclass
class Recorded:
    deal: Deal
    created: bool
    preview: Preview | None = field(default=None)


# --- starting a game ----------------------------------------------------------------------


@transaction.atomic
def game_start(
    *,
    club: Club,
    division: Division | None = None,
    sides: Mapping[str, Team | None] | None = None,
    seats: Sequence[Player],
    rules: str | Mapping[str, Any] | None = None,
    deal_limit: int | None = None,
    first_dealer: int | None = None,
    first_dealer_player: Player | None = None,
    fixture: Fixture | None = None,
    number: int = 1,
    played_on: Any = None,
    user: Any = None,
) -> Game:
    """Seat the players and open the game.

    ``seats`` are the players who actually sit at the table, clockwise: seat ``i`` plays
    for side ``A``, ``B``(, ``C``) in turn, so partners sit opposite one another. Any
    player of the club may sit for a side: one who is not on the side's team is recorded
    as a substitute (``GameSeat.substitute``); a player of another side's team may not.
    The first dealer is a seat (``first_dealer``, 0 by default) or the player in it
    (``first_dealer_player``).

    A game outside any league (``division=None``: a club night's table, a cup tie) is
    played by its own ``rules`` (a rule set's slug or house-rules data, required then), its
    sides' teams optional (any teams of the club), and counts in no league standings; its
    players' ratings move as from any game. ``deal_limit`` ends it after that many deals
    even short of the target (``Game.deal_limit``).
    """
    sides = sides or {}
    rules, ruleset = _game_rules(club, division, rules)
    if deal_limit is not None and not 1 <= deal_limit <= max_deals():
        raise GameError.one("deal_limit", DEAL_LIMIT_RANGE.format(cap=max_deals()))
    side_names = list(ruleset.sides)
    first_dealer, errors = _first_dealer(seats, first_dealer, first_dealer_player)
    errors += _start_errors(club, division, ruleset, sides, seats, first_dealer)
    errors += _withdrawn_errors(sides, played_on or timezone.localdate())
    if fixture is not None:
        if division is None:
            errors.append({"field": "fixture", "message": FIXTURE_OTHER_DIVISION})
        else:
            errors.extend(_fixture_errors(fixture, division, sides, side_names))
    if errors:
        raise GameError(errors)
    errors, substitutes = _seat_team_errors(sides, seats, side_names)
    if errors:
        raise GameError(errors)

    game = Game.objects.create(
        club=club,
        division=division,
        fixture=fixture,
        number=number,
        rules=rules,
        deal_limit=deal_limit,
        first_dealer=first_dealer,
        next_dealer=first_dealer,
        played_on=played_on or timezone.localdate(),
        score_c=0 if len(side_names) == 3 else None,
        created_by=user,
    )
    game_sides = GameSide.objects.bulk_create(
        [GameSide(game=game, side=side, team=sides.get(side)) for side in side_names]
    )
    game_seats = GameSeat.objects.bulk_create(
        [
            GameSeat(
                game=game,
                seat=i,
                side=adapters.seat_side(i, len(side_names)),
                player=p,
                substitute=substitutes[i],
            )
            for i, p in enumerate(seats)
        ]
    )
    # The caller answers with the game's sides and seats: they are these rows, in the
    # order a read gives them (side, seat), held as prefetch_related holds rows read.
    rows.prefetched(game, sides=game_sides, seats=game_seats)
    return game


def _game_rules(
    club: Club, division: Division | None, rules: str | Mapping[str, Any] | None
) -> tuple[str | dict[str, Any], Any]:
    """The rules spec a game is played by and its rule set: its division's, or (a game
    outside any league) the ``rules`` given."""
    if division is not None:
        if division.club_id != club.pk:
            raise GameError.one("division", TEAM_OTHER_DIVISION)
        if rules is not None:
            raise GameError.one("rules", RULES_WITH_DIVISION)
        spec = division.rules_spec()
        return spec, get_ruleset(spec)
    if not rules:
        raise GameError.one("rules", RULES_MISSING)
    spec = rules if isinstance(rules, str) else dict(rules)
    try:
        given = adapters.rules_input(spec)
        return spec, get_ruleset(given["ruleset"], given["options"])
    except (RulesError, KeyError, TypeError, AttributeError) as exc:
        raise GameError.one("rules", RULES_UNKNOWN) from exc


def _first_dealer(
    seats: Sequence[Player], seat: int | None, player: Player | None
) -> tuple[int, list[dict[str, str]]]:
    """The first dealer's seat, given as a seat, as the player in it, or both (they must
    agree); seat 0 when neither is given."""
    if player is None:
        return (0 if seat is None else seat), []
    player_seat = next((i for i, p in enumerate(seats) if p.pk == player.pk), None)
    if player_seat is None:
        return 0, [{"field": "first_dealer_player", "message": FIRST_DEALER_NOT_SEATED}]
    if seat is not None and seat != player_seat:
        message = FIRST_DEALER_DISAGREE.format(seat=seat, player_seat=player_seat)
        return player_seat, [{"field": "first_dealer_player", "message": message}]
    return player_seat, []


def _start_errors(
    club: Club,
    division: Division | None,
    ruleset: Any,
    sides: Mapping[str, Team | None],
    seats: Sequence[Player],
    first_dealer: int,
) -> list[dict[str, str]]:
    """What is wrong with a game's seats, first dealer and sides, before its teams are read."""
    errors: list[dict[str, str]] = []
    if len(seats) != ruleset.players:
        errors.append(
            {
                "field": "seats",
                "message": SEATS_COUNT.format(
                    ruleset=ruleset.slug, players=ruleset.players, given=len(seats)
                ),
            }
        )
    if len({p.pk for p in seats}) != len(seats):
        errors.append({"field": "seats", "message": SEAT_TWICE})
    if not 0 <= first_dealer < ruleset.players:
        errors.append(
            {
                "field": "first_dealer",
                "message": FIRST_DEALER_RANGE.format(last=ruleset.players - 1),
            }
        )
    for side in ruleset.sides:
        team = sides.get(side)
        if team is None:
            continue
        if division is not None and team.division_id != division.pk:
            errors.append({"field": f"sides.{side}", "message": TEAM_OTHER_DIVISION})
        elif team.club_id != club.pk:
            errors.append({"field": f"sides.{side}", "message": TEAM_OTHER_CLUB})
    for index, player in enumerate(seats):
        if player.club_id != club.pk:
            errors.append({"field": f"seats[{index}]", "message": PLAYER_OTHER_CLUB})
    return errors


def _withdrawn_errors(sides: Mapping[str, Team | None], day: Any) -> list[dict[str, str]]:
    """A team that withdrew plays no game from the day it withdrew."""
    errors = []
    for side, team in sides.items():
        on = getattr(team, "withdrawn_on", None)
        if on is not None and isinstance(day, dt.date) and day >= on:
            message = TEAM_WITHDRAWN.format(team=team.name, on=on)
            errors.append({"field": f"sides.{side}", "message": message})
    return errors


def _seat_team_errors(
    sides: Mapping[str, Team | None], seats: Sequence[Player], side_names: list[str]
) -> tuple[list[dict[str, str]], list[bool]]:
    """No seated player sits for a side other than their team's; and which seats are
    substitutes (a player not on the team of the side the seat plays for)."""
    errors: list[dict[str, str]] = []
    rosters = {
        side: (team, {m.player_id for m in team.members.all()})
        for side, team in sides.items()
        if team is not None and side in side_names
    }
    substitutes = []
    for index, player in enumerate(seats):
        side = adapters.seat_side(index, len(side_names))
        own = rosters.get(side)
        # A seat of a side without a team (a game outside a league) is nobody's substitute.
        substitutes.append(own is not None and player.pk not in own[1])
        for other, (team, roster) in rosters.items():
            if other != side and player.pk in roster:
                errors.append(
                    {
                        "field": f"seats[{index}]",
                        "message": SEAT_OTHER_SIDE.format(
                            player=player.name,
                            team=team.name,
                            side_team=own[0].name if own else f"side {side}",
                        ),
                    }
                )
    return errors, substitutes


def _fixture_errors(
    fixture: Fixture, division: Division, sides: Mapping[str, Team | None], side_names: list[str]
) -> list[dict[str, str]]:
    """A game counts for the fixture it is started for (and a game without one is a match
    of its own): so it must be that fixture's game, home team as side A, away as side B.
    The fixture's row is locked, so a forfeit recorded at the same moment waits."""
    if fixture.club_id != division.club_id or fixture.division_id != division.pk:
        return [{"field": "fixture", "message": FIXTURE_OTHER_DIVISION}]
    status, played, live = _fixture_locked_games(fixture.pk)
    if played >= fixture.games_planned and status != Fixture.Status.FORFEIT:
        message = FIXTURE_DECIDED.format(planned=fixture.games_planned, played=played)
        return [conflict("fixture", message)]
    if played + live >= fixture.games_planned and status != Fixture.Status.FORFEIT:
        # A game in progress is one of the planned games too: a second one for the same
        # planned game would let the fixture end 1-1 with one game won by each team.
        message = FIXTURE_UNDER_WAY.format(planned=fixture.games_planned, live=live, played=played)
        return [conflict("fixture", message)]
    if status in Fixture.DONE:
        return [conflict("fixture", FIXTURE_HAS_RESULT)]
    wanted = {"A": fixture.home_id, "B": fixture.away_id}
    given = {side: (sides.get(side).pk if sides.get(side) else None) for side in side_names}
    if any(given.get(side) != wanted.get(side) for side in set(wanted) | set(given)):
        home = Team.objects.get(pk=fixture.home_id).name
        away = Team.objects.get(pk=fixture.away_id).name
        return [{"field": "sides", "message": FIXTURE_TEAMS.format(home=home, away=away)}]
    return []


def _fixture_locked_games(fixture_id: int) -> tuple[str | None, int, int]:
    """The fixture's status, its row locked, and how many of its games count so far and
    how many are in progress (an abandoned game is neither).

    Two statements, the lock first: on PostgreSQL a statement sees the rows committed when
    it began, so a count made in the locking statement itself could be read before a
    scorer starting the same fixture at the same moment committed its game (and both
    would start one). Counted after the lock is held, the second scorer sees the first's
    game. Each statement is written once (``core.rows``' reason: built by the ORM, they
    cost more CPU than the rest of the fixture's checks)."""
    with connection.cursor() as cursor:
        cursor.execute(_fixture_lock_sql(connection.vendor), [fixture_id])
        row = cursor.fetchone()
        if row is None:
            return None, 0, 0
        cursor.execute(_fixture_games_sql(len(Game.COUNTED)), [*Game.COUNTED, fixture_id])
        played, live = cursor.fetchone()
    return row[0], int(played or 0), int(live or 0)


@functools.cache
def _fixture_lock_sql(vendor: str) -> str:
    return f"SELECT f.status FROM {Fixture._meta.db_table} f WHERE f.id = %s{rows.for_update('f')}"


@functools.cache
def _fixture_games_sql(statuses: int) -> str:
    counted = ", ".join(["%s"] * statuses)
    return (
        f"SELECT COALESCE(SUM(CASE WHEN g.status IN ({counted}) THEN 1 ELSE 0 END), 0), "
        f"COALESCE(SUM(CASE WHEN g.status = '{Game.Status.IN_PROGRESS.value}' THEN 1 ELSE 0 "
        f"END), 0) FROM {Game._meta.db_table} g WHERE g.fixture_id = %s"
    )


# --- limits ----------------------------------------------------------------------------------


def max_deals() -> int:
    """The most deals one game takes (setting ``CLABBER_MAX_DEALS_PER_GAME``, default 200)."""
    return settings.CLABBER_MAX_DEALS_PER_GAME


def check_rows_count(count: int) -> None:
    """Refuse a request carrying more rows than any game can take, before any work."""
    if count > max_deals():
        raise GameError.one("rows", ROWS_TOO_MANY.format(cap=max_deals()))


def _check_room(game: Game, adding: int, field_name: str) -> None:
    if game.deal_count + adding > max_deals():
        message = GAME_FULL.format(cap=max_deals(), count=game.deal_count)
        raise GameError.one(field_name, message, kind=CONFLICT)


# --- scoring a game's deals -----------------------------------------------------------------


def _score(
    game: Game, datas: list[dict[str, Any]], *, at: int | None = None, rows_from: int | None = None
) -> dict[str, Any]:
    """The engine's answer for the whole game (with the ``pot`` left hanging), or GameError.

    Errors on deal ``at`` lose their ``deals[i].`` prefix, so that they name the fields of
    the deal being entered; with ``rows_from`` the deals from there on are named
    ``rows[k]``, the rows of a paper sheet being copied.
    """
    try:
        answer, pot = score_game_with_pot(adapters.game_input(game, datas))
    except RulesError as exc:
        raise GameError(
            [
                {"field": _field_name(e["field"], at, rows_from), "message": e["message"]}
                for e in exc.errors
            ]
        ) from exc
    return {**answer, "pot": pot}  # the pot hanging after the last deal, for the game row


def _field_name(name: str, at: int | None, rows_from: int | None) -> str:
    head, dot, rest = name.partition(".")
    if not (head.startswith("deals[") and head[6:-1].isdigit()):
        return name
    index = int(head[6:-1])
    if index == at:
        return rest or "deal"
    if rows_from is not None:
        return f"rows[{index - rows_from}]{dot}{rest}"
    return name


def _dealers(game: Game, answer: Mapping[str, Any]) -> list[int]:
    """The dealer of every deal and of the next one (``rules.dealing.dealer_sequence``)."""
    return dealer_sequence(adapters.game_ruleset(game), game.first_dealer, answer["deals"])


def _deal_input(game: Game, data: Mapping[str, Any]) -> dict[str, Any]:
    """A deal as stored and scored: the game-level keys dropped and, where every card is
    played, one side's missing card points completed (``rules.dealing.complete_points``),
    so the API takes one side's points as the page does."""
    new = adapters.deal_data(data)
    points = new.get("points")
    if isinstance(points, Mapping):
        new["points"] = complete_points(adapters.game_ruleset(game), points, trump=new.get("trump"))
    return new


def _check_maker_seat(game: Game, data: Mapping[str, Any], maker_seat: int | None) -> None:
    """The player who named trump must sit on the maker's side."""
    if maker_seat is None:
        return
    if not 0 <= maker_seat < adapters.game_ruleset(game).players:
        raise GameError.one("maker_seat", MAKER_SEAT_RANGE)
    seat_side = adapters.seat_side(maker_seat, len(game.scores))
    maker = data.get("maker")
    if maker is not None and maker != seat_side:
        raise GameError.one("maker_seat", MAKER_SEAT_SIDE.format(seat_side=seat_side, maker=maker))


def _preview_from(game: Game, answer: Mapping[str, Any], index: int) -> Preview:
    dealers = _dealers(game, answer)
    last = index == len(answer["deals"]) - 1
    finished, winner = bool(answer["finished"]), answer["winner"]
    if not finished and _limit_reached(game, len(answer["deals"])):
        finished, winner = True, winner_at_close(answer["scores"])
    return Preview(
        number=index + 1,
        dealer=dealers[index],
        answer=dict(answer["deals"][index]),
        running=dict(answer["running"][index]),
        finished=finished and last,
        winner=winner if last else None,
        next_dealer=None if finished else dealers[-1],
        totals=dict(answer["scores"]),
    )


def deal_preview(*, game: Game, data: Mapping[str, Any], maker_seat: int | None = None) -> Preview:
    """Score a deal as the next one of the game without saving anything (from the game as
    the caller read it: the page and the API read it for this request)."""
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    return _next_step(game, new).preview


@dataclass
class _Step:
    """The next deal scored, and the game's running state after it."""

    preview: Preview  # its ``totals`` are the game's totals after the deal
    pot: int
    next_dealer: int  # who would deal next, even after the game's last deal


def _next_step(game: Game, new: dict[str, Any]) -> _Step:
    """Score ``new`` as the game's next deal from the running state on the game row
    (``rules.score_next``: no earlier deal is read); from all its deals when that state is
    not known yet."""
    if game.next_dealer is None:
        datas = list(game.deals.order_by("number").values_list("data", flat=True))
        answer = _score(game, [*datas, new], at=len(datas))
        preview = _preview_from(game, answer, len(datas))
        return _Step(preview, answer["pot"], _dealers(game, answer)[-1])
    totals = {"A": game.score_a, "B": game.score_b}
    if game.score_c is not None:
        totals["C"] = game.score_c
    try:
        step = score_next(
            adapters.rules_input(game.rules),
            new,
            totals=totals,
            pot=game.pot,
            deals_before=game.deal_count,
        )
    except RulesError as exc:
        raise GameError(exc.errors) from exc
    dealer = game.next_dealer
    after = dealer_sequence(adapters.game_ruleset(game), dealer, [step["deal"]])[-1]
    finished, winner = bool(step["finished"]), step["winner"]
    if not finished and _limit_reached(game, game.deal_count + 1):
        finished, winner = True, winner_at_close(step["scores"])
    preview = Preview(
        number=game.deal_count + 1,
        dealer=dealer,
        answer=dict(step["deal"]),
        running=dict(step["running"]),
        finished=finished,
        winner=winner,
        next_dealer=None if finished else after,
        totals=dict(step["scores"]),
    )
    return _Step(preview, step["pot"], after)


def deal_correct_preview(
    *, deal: Deal, data: Mapping[str, Any], maker_seat: int | None = None
) -> Preview:
    """Score a correction of ``deal`` without saving anything: that deal's number, its
    score and the running totals after it, with every deal before it as recorded (and the
    game's totals once the later deals are re-scored too)."""
    game = deal.game
    if game.status in (Game.Status.CONFIRMED, Game.Status.ABANDONED):
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    rows, index = _rows_and_index(game, deal)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    datas = [r.data for r in rows]
    datas[index] = new
    answer = _score(game, datas, at=index)
    return _preview_from(game, answer, index)


def deal_record(
    *,
    game: Game | None = None,
    data: Mapping[str, Any],
    maker_seat: int | None = None,
    user: Any = None,
    idempotency_key: str | None = None,
    club: Club | None = None,
    game_id: int | None = None,
    at_table: str = "",
    number: int | None = None,
    idempotency_fingerprint: str = "",
) -> Recorded:
    """Record the next deal of a game, whole or not at all.

    ``number``: the deal's number as the sender counted it (a phone that recorded deals
    offline). When the game's next deal has another number, another phone or page got
    there first: a 409 conflict, nothing recorded, for a person to resolve.

    With an ``idempotency_key`` a retried request returns the deal the first one
    recorded (``created=False``) instead of recording it twice. The deal's unique
    ``(game, idempotency_key)`` index is the check, so a first request reads nothing more:
    a retry fails on it (or is refused, the first request having finished the game, say),
    is rolled back, and only then is the deal with its key read. ``idempotency_fingerprint``
    is kept with the key (the API compares a replay's request with it).

    The API passes the ``club`` of the URL and the ``game_id`` instead of a game it read:
    the game is then read once, locked, and only if it is that club's
    (``Game.DoesNotExist`` otherwise).

    ``at_table``: the table whose link records the deal (``games.table_links``), kept on
    the deal and in the history ("entered at table 3 (table link)").
    """
    pk = game.pk if game is not None else game_id
    key = (idempotency_key or None, idempotency_fingerprint)
    if connection.in_atomic_block and not idempotency_key:
        # Inside the caller's transaction: every check comes before the first write, so a
        # refused deal leaves that transaction as it was, and no savepoint is needed.
        return _deal_record(pk, club, data, maker_seat, user, key, at_table, number)
    try:
        with transaction.atomic():
            return _deal_record(pk, club, data, maker_seat, user, key, at_table, number)
    except (IntegrityError, GameError):
        # With a key: a retry (the lock serialises it after the first request) fails on the
        # key's unique index, or is refused now that the first one finished the game or
        # took its number. Its work is rolled back; hand back the deal the first recorded.
        if idempotency_key:
            existing = Deal.objects.filter(game_id=pk, idempotency_key=idempotency_key).first()
            if existing is not None:
                return Recorded(deal=existing, created=False)
        raise


def _deal_record(
    game_id: int,
    club: Club | None,
    data: Mapping[str, Any],
    maker_seat: int | None,
    user: Any,
    key: tuple[str | None, str],
    at_table: str = "",
    number: int | None = None,
) -> Recorded:
    game = _game_locked(game_id, club=club)
    deleted = game.deleted_keys.get(key[0]) if key[0] and game.deleted_keys else None
    if deleted is not None and _kept_key(deleted):
        message = DEAL_KEY_DELETED.format(number=deleted.get("number", "?"))
        raise DealKeyDeleted(
            [{"field": "Idempotency-Key", "message": message}],
            fingerprint=str(deleted.get("fingerprint") or ""),
        )
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    if number is not None and number != game.deal_count + 1:
        message = DEAL_NUMBER_TAKEN if number <= game.deal_count else DEAL_NUMBER_AHEAD
        count, next_number = game.deal_count, game.deal_count + 1
        raise GameError.one(
            "number",
            message.format(number=number, count=count, next=next_number),
            kind=CONFLICT,
        )
    _check_room(game, 1, "game")
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    step = _next_step(game, new)
    preview = step.preview
    deal = Deal(
        game=game,
        number=preview.number,
        dealer=preview.dealer,
        maker_seat=maker_seat,
        data=new,
        maker=new.get("maker") or "",
        idempotency_key=key[0],
        idempotency_fingerprint=key[1] if key[0] else "",
        created_by=user,
        entered_at_table=at_table,
        **adapters.deal_columns(preview.answer, preview.running),
    )
    status_before = game.status
    _state_set(
        game,
        scores=preview.totals,
        deal_count=preview.number,
        finished=preview.finished,
        winner=preview.winner,
        pot=step.pot,
        next_dealer=step.next_dealer,
    )
    _deal_game_write(deal, _creation(deal), game)
    _game_store(game, status_before, saved=True)
    return Recorded(deal=deal, created=True, preview=preview)


def _creation(deal: Deal) -> DealRevision:
    """The audit row of a new deal."""
    return DealRevision(
        game=deal.game,
        deal_number=deal.number,
        action=DealRevision.Action.CREATE,
        user=deal.created_by,
        after=_revision_view(deal),
        entered_at_table=deal.entered_at_table,
    )


#: The game's columns a write keeps (``_state_set``): its totals, status and running state.
GAME_STATE_FIELDS = (
    "score_a",
    "score_b",
    "score_c",
    "deal_count",
    "status",
    "winner",
    "finished_at",
    "pot",
    "next_dealer",
)


def _deal_game_write(deal: Deal, revision: DealRevision, game: Game) -> None:
    """Insert a new deal and its audit row and save the game's state, in one statement on
    PostgreSQL (data-modifying ``WITH``: one round trip instead of three, all of it or
    nothing, like any statement); elsewhere (SQLite) as three.

    The values are prepared as the ORM's insert and update prepare them (``auto_now_add``
    and defaults filled in), with the connection itself: each attribute read through
    ``django.db.connection`` is a thread-local lookup, and there are dozens per deal."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        deal.save(force_insert=True)
        revision.save(force_insert=True)
        game.save(update_fields=GAME_STATE_FIELDS)
        return
    sql, deal_fields, revision_fields, game_fields = _deal_game_sql()
    params = [f.get_db_prep_save(f.pre_save(deal, True), db) for f in deal_fields]
    params += [f.get_db_prep_save(f.pre_save(revision, True), db) for f in revision_fields]
    params += [f.get_db_prep_save(f.pre_save(game, False), db) for f in game_fields]
    params.append(game.pk)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        (deal.pk,) = cursor.fetchone()
    deal._state.adding = False
    deal._state.db = db.alias


@functools.cache
def _deal_game_sql() -> tuple[str, list[Any], list[Any], list[Any]]:
    """:func:`_deal_game_write`'s statement, and the fields whose values it takes: the deal's
    and the revision's (every column but the id) and the game's state."""
    q = connections[DEFAULT_DB_ALIAS].ops.quote_name
    deal_sql, deal_fields = _insert_sql(Deal, q)
    revision_sql, revision_fields = _insert_sql(DealRevision, q)
    game_fields = [Game._meta.get_field(name) for name in GAME_STATE_FIELDS]
    sets = ", ".join(f"{q(f.column)} = %s" for f in game_fields)
    sql = (
        f"WITH d AS ({deal_sql} RETURNING {q('id')}), "
        f"r AS ({revision_sql}), "
        f"g AS (UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q('id')} = %s) "
        f"SELECT {q('id')} FROM d"
    )
    return sql, deal_fields, revision_fields, game_fields


def _insert_sql(
    model: type[Deal] | type[DealRevision], q: Callable[[str], str]
) -> tuple[str, list[Any]]:
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(q(f.column) for f in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {q(model._meta.db_table)} ({columns}) VALUES ({placeholders})", fields


def _deal_create(
    game: Game,
    answer: Mapping[str, Any],
    index: int,
    data: dict[str, Any],
    dealer: int,
    user: Any,
    *,
    maker_seat: int | None = None,
    idempotency_key: str | None = None,
    at_table: str = "",
) -> Deal:
    """Insert deal ``index`` of the engine's answer, with its audit row."""
    return _deal_insert(
        game,
        index + 1,
        data,
        dealer,
        user,
        columns=adapters.deal_columns(answer["deals"][index], answer["running"][index]),
        maker_seat=maker_seat,
        idempotency_key=idempotency_key,
        at_table=at_table,
    )


def _deal_insert(
    game: Game,
    number: int,
    data: dict[str, Any],
    dealer: int,
    user: Any,
    *,
    columns: Mapping[str, Any],
    maker_seat: int | None = None,
    idempotency_key: str | None = None,
    at_table: str = "",
) -> Deal:
    """Insert deal ``number`` with its scored ``columns``, and its audit row."""
    deal = Deal.objects.create(
        game=game,
        number=number,
        dealer=dealer,
        maker_seat=maker_seat,
        data=data,
        maker=data.get("maker") or "",
        idempotency_key=idempotency_key or None,
        created_by=user,
        entered_at_table=at_table,
        **columns,
    )
    DealRevision.objects.create(
        game=game,
        deal_number=deal.number,
        action=DealRevision.Action.CREATE,
        user=user,
        after=_revision_view(deal),
        entered_at_table=at_table,
    )
    return deal


def _game_save(game: Game, answer: Mapping[str, Any]) -> None:
    """The game's totals, status, winner and running state from the engine's answer for
    all its deals; then :func:`_game_store`."""
    status_before = game.status
    _state_set(
        game,
        scores=answer["scores"],
        deal_count=len(answer["deals"]),
        finished=bool(answer["finished"]),
        winner=answer["winner"],
        pot=answer["pot"],
        next_dealer=_dealers(game, answer)[-1],
    )
    _game_store(game, status_before)


def _game_store(game: Game, status_before: str, *, saved: bool = False) -> None:
    """Save the game's totals, status and running state (unless the caller just ``saved``
    them); the fixture's status when the game starts or stops counting; then the layers
    above hear of it (``hooks.game_changed``: the standings)."""
    if not saved:
        game.save(update_fields=GAME_STATE_FIELDS)
    fixture = None
    if game.fixture_id and game_counts(status_before) != game_counts(game.status):
        # The fixture's status follows its result in this same transaction.
        fixture = fixture_result_update(fixture_id=game.fixture_id)
    game_changed.send(game=game, status_before=status_before, fixture=fixture)


def _state_set(
    game: Game,
    *,
    scores: Mapping[str, int],
    deal_count: int,
    finished: bool,
    winner: str | None,
    pot: int,
    next_dealer: int,
) -> None:
    game.score_a = scores.get("A", 0)
    game.score_b = scores.get("B", 0)
    game.score_c = scores.get("C")
    game.deal_count = deal_count
    game.pot = pot
    game.next_dealer = next_dealer
    if not finished and _limit_reached(game, deal_count):
        finished, winner = True, winner_at_close(scores)
    if finished:
        game.status = Game.Status.FINISHED
        game.winner = winner or ""
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.status = Game.Status.IN_PROGRESS
        game.winner = ""
        game.finished_at = None


def _limit_reached(game: Game, deal_count: int) -> bool:
    """Whether the game's deal limit (a round of N deals, or time called) ends it now."""
    return game.deal_limit is not None and deal_count >= game.deal_limit


def _revision_view(deal: Deal) -> dict[str, Any]:
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        "maker_seat": deal.maker_seat,
        "data": deal.data,
        "outcome": deal.outcome,
        "score": deal.scores,
    }


# --- corrections ---------------------------------------------------------------------------


def _rescore_rows(game: Game, rows: list[Deal], answer: Mapping[str, Any]) -> None:
    """Write the engine's answer back onto every deal row and the game."""
    dealers = _dealers(game, answer)
    changed = []
    for index, (row, deal_answer) in enumerate(zip(rows, answer["deals"], strict=True)):
        columns = adapters.deal_columns(deal_answer, answer["running"][index])
        columns["number"] = index + 1
        columns["dealer"] = dealers[index]
        if any(getattr(row, k) != v for k, v in columns.items()):
            for k, v in columns.items():
                setattr(row, k, v)
            changed.append(row)
    if changed:
        Deal.objects.bulk_update(
            changed,
            [
                "number",
                "dealer",
                "outcome",
                "result",
                "score_a",
                "score_b",
                "score_c",
                "running_a",
                "running_b",
                "running_c",
            ],
        )
    _game_save(game, answer)


def _closed_message(game: Game) -> str:
    """Why no deal can be added to a game that is not in progress."""
    if game.status == Game.Status.ABANDONED:
        return GAME_ABANDONED
    return GAME_CONFIRMED if game.confirmed_at else GAME_FINISHED


def _game_locked(game_id: int, *, club: Club | None = None) -> Game:
    """A game read to be written: its row locked (``SELECT ... FOR UPDATE``), with its
    division (not locked), whose season the standings need when the write makes the game
    count (``hooks.game_changed`` is sent this very row, not a second read of it); only if it
    is ``club``'s, when one is given (``Game.DoesNotExist`` otherwise).

    One statement written once (``core.rows``): on every deal, the ORM's building of this
    query cost several times its round trip."""
    with connection.cursor() as cursor:
        cursor.execute(
            _game_locked_sql(connection.vendor, club is not None),
            [int(game_id), club.pk] if club else [int(game_id)],
        )
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    width = len(Game._meta.concrete_fields)
    game = rows.instance(Game, row[:width])
    division = rows.instance(Division, row[width:]) if game.division_id is not None else None
    Game._meta.get_field("division").set_cached_value(game, division)
    if club is not None:
        Game._meta.get_field("club").set_cached_value(game, club)
    return game


@functools.cache
def _game_locked_sql(vendor: str, by_club: bool) -> str:
    return (
        f"SELECT {', '.join(rows.columns(Game, 'g') + rows.columns(Division, 'd'))} "
        f"FROM {Game._meta.db_table} g "
        f"LEFT JOIN {Division._meta.db_table} d ON d.id = g.division_id "
        f"WHERE g.id = %s{' AND g.club_id = %s' if by_club else ''}{rows.for_update('g')}"
    )


def _locked_open_game(game_id: int) -> Game:
    game = _game_locked(game_id)
    if game.status in (Game.Status.CONFIRMED, Game.Status.ABANDONED):
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    return game


def _rows_and_index(game: Game, deal: Deal) -> tuple[list[Deal], int]:
    """The game's deals in order, and where ``deal`` stands among them."""
    rows = list(game.deals.order_by("number"))
    index = next((i for i, r in enumerate(rows) if r.pk == deal.pk), None)
    if index is None:
        raise GameError.one("deal", LAST_DEAL_ONLY)
    return rows, index


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    data: Mapping[str, Any],
    maker_seat: int | None = None,
    user: Any = None,
    at_table: str = "",
) -> Deal:
    """Change a recorded deal; every deal after it is re-scored. Kept in the audit history.

    A correction that changes nothing (the same correction sent again, by a phone's outbox
    after a lost answer, say) writes nothing and adds no history line."""
    game = _locked_open_game(deal.game_id)
    rows, index = _rows_and_index(game, deal)
    row = rows[index]
    before = _revision_view(row)
    new = _deal_input(game, data)
    _check_maker_seat(game, new, maker_seat)
    if new == row.data and maker_seat == row.maker_seat:
        return row
    datas = [r.data for r in rows]
    datas[index] = new
    answer = _score(game, datas, at=index)
    row.data = new
    row.maker = new.get("maker") or ""
    row.maker_seat = maker_seat
    row.save(update_fields=["data", "maker", "maker_seat", "updated_at"])
    _rescore_rows(game, rows, answer)
    DealRevision.objects.create(
        game=game,
        deal_number=row.number,
        action=DealRevision.Action.UPDATE,
        user=user,
        before=before,
        after=_revision_view(row),
        entered_at_table=at_table,
    )
    return row


@transaction.atomic
def deal_delete(*, deal: Deal, user: Any = None, at_table: str = "") -> None:
    """Remove a deal; the deals after it move up one and everything is re-scored."""
    game = _locked_open_game(deal.game_id)
    rows, index = _rows_and_index(game, deal)
    removed = rows.pop(index)
    before = _revision_view(removed)
    answer = _score(game, [r.data for r in rows])
    removed.delete()
    if removed.idempotency_key:
        _key_keep_deleted(game, removed)
    # Move the later deals down one number, lowest first, so no two rows ever share one.
    for row in rows[index:]:
        Deal.objects.filter(pk=row.pk).update(number=row.number - 1)
        row.number -= 1
    _rescore_rows(game, rows, answer)
    DealRevision.objects.create(
        game=game,
        deal_number=removed.number,
        action=DealRevision.Action.DELETE,
        user=user,
        before=before,
        entered_at_table=at_table,
    )


def _deleted_at(entry: Any) -> dt.datetime | None:
    at = entry.get("at") if isinstance(entry, Mapping) else None
    try:
        return dt.datetime.fromisoformat(at) if isinstance(at, str) else None
    except ValueError:
        return None


def _kept_key(entry: Any, cutoff: dt.datetime | None = None) -> bool:
    """Whether a deleted deal's key is still within the keys' retention (one whose time
    cannot be read is kept: refusing a retry is the safe side)."""
    when = _deleted_at(entry)
    return when is None or when >= (cutoff or timezone.now() - retention())


def _key_keep_deleted(game: Game, removed: Deal) -> None:
    """Keep the deleted deal's key on its game (``Game.deleted_keys``) so that a retry of
    the request that recorded it is told it was deleted instead of recording it again. The
    keys past their retention go, and at most ``DELETED_KEYS_KEPT`` stay."""
    kept = {k: v for k, v in (game.deleted_keys or {}).items() if _kept_key(v)}
    kept[removed.idempotency_key] = {
        "number": removed.number,
        "at": timezone.now().isoformat(),
        "fingerprint": removed.idempotency_fingerprint,
    }
    if len(kept) > DELETED_KEYS_KEPT:
        newest = sorted(kept.items(), key=lambda item: str(item[1].get("at")))
        kept = dict(newest[-DELETED_KEYS_KEPT:])
    game.deleted_keys = kept
    Game.objects.filter(pk=game.pk).update(deleted_keys=kept)


def deleted_keys_purge(*, cutoff: dt.datetime) -> list[int]:
    """The daily clean-up's part for deleted deals' keys: forget those deleted before
    ``cutoff``; answers ``[how many]`` (a handler of ``core.hooks.idempotency_purging``)."""
    forgotten = 0
    games = Game.objects.exclude(deleted_keys={}).only("pk", "deleted_keys")
    for game in games.iterator(chunk_size=500):
        kept = {k: v for k, v in game.deleted_keys.items() if _kept_key(v, cutoff)}
        if len(kept) != len(game.deleted_keys):
            forgotten += len(game.deleted_keys) - len(kept)
            Game.objects.filter(pk=game.pk).update(deleted_keys=kept)
    return [forgotten]


SET_ASIDE_NUMBER = "number is the deal's number on the phone: a whole number from 1."


@transaction.atomic
def deal_set_aside(
    *, game: Game, number: int, data: Mapping[str, Any], maker_seat: int | None, user: Any = None
) -> DealRevision:
    """Keep in the game's history a deal that a person chose not to keep: a phone recorded
    it offline while another phone recorded that deal first, and the other phone's deals
    were kept. Nothing on the sheet changes; the history shows it as a deleted deal (with
    the score the rules give it alone, or none when they refuse it)."""
    game = _locked_open_game(game.pk)
    if not 0 < number <= max_deals():
        raise GameError.one("number", SET_ASIDE_NUMBER)
    new = _deal_input(game, data)
    try:
        answer = score_deal({**adapters.rules_input(game.rules), **new})
        outcome, score = answer["outcome"], answer["score"]
    except RulesError:
        outcome, score = "", {}
    return DealRevision.objects.create(
        game=game,
        deal_number=number,
        action=DealRevision.Action.DELETE,
        user=user,
        before={
            "number": number,
            "dealer": None,
            "maker_seat": maker_seat,
            "data": new,
            "outcome": outcome,
            "score": score,
            "set_aside": True,
        },
    )


@transaction.atomic
def game_abandon(*, game: Game, user: Any = None) -> Game:
    """Set aside a game started by mistake, with the permission rules of deleting a deal
    (a scorer; not once the result is confirmed). The game keeps its deals and its
    history, gains an "abandoned" entry, and counts nowhere: not for its fixture (which
    can be played again), the standings, the leaderboards or the ratings."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status == Game.Status.ABANDONED:
        raise GameError.one("game", GAME_ALREADY_ABANDONED, kind=CONFLICT)
    if game.status == Game.Status.CONFIRMED:
        raise GameError.one("game", GAME_ABANDON_CONFIRMED, kind=CONFLICT)
    status_before = game.status
    before = {
        "status": status_before,
        "winner": game.winner,
        "score": game.scores,
        "deal_count": game.deal_count,
        "fixture": game.fixture_id,
    }
    game.status = Game.Status.ABANDONED
    game.winner = ""
    game.save(update_fields=["status", "winner"])
    fixture = None
    if game.fixture_id and game_counts(status_before):
        fixture = fixture_result_update(fixture_id=game.fixture_id)
    DealRevision.objects.create(
        game=game, action=DealRevision.Action.ABANDON, user=user, before=before
    )
    game_changed.send(game=game, status_before=status_before, fixture=fixture)
    return game


@transaction.atomic
def game_close(*, game: Game, after_deal_in_progress: bool = True, user: Any = None) -> Game:
    """Time is called on a game in progress: it ends after the deal in progress (its deal
    limit becomes the next deal), or at once (``after_deal_in_progress=False``: no deal is
    in progress). A game closed short of the target is won by the side ahead
    (``rules.winner_at_close``), and a deal correction or deletion keeps to the limit. The
    history records who called time."""
    game = _game_locked(game.pk)
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", GAME_CLOSE_NOT_OPEN, kind=CONFLICT)
    limit = game.deal_count + (1 if after_deal_in_progress else 0)
    if game.deal_limit is not None:
        limit = min(limit, game.deal_limit)
    game.deal_limit = limit
    game.save(update_fields=["deal_limit"])
    DealRevision.objects.create(
        game=game, action=DealRevision.Action.CLOSE, user=user, after={"deal_limit": limit}
    )
    if _limit_reached(game, game.deal_count):
        status_before = game.status
        _state_set(
            game,
            scores=game.scores,
            deal_count=game.deal_count,
            finished=False,
            winner=None,
            pot=game.pot,
            next_dealer=game.next_dealer if game.next_dealer is not None else game.first_dealer,
        )
        _game_store(game, status_before)
    return game


#: How a result was accepted, as the history says it (``Acceptance.How``).
CONFIRM_HOW = {how.value: str(how.label) for how in Acceptance.How}


@dataclass(frozen=True)
class ConfirmationState:
    """What a finished game's confirmation waits for, read once (``confirmation_states``).

    ``entered``: the sides whose seated account recorded, corrected or deleted the deals,
    with nothing changed after their last change through a phone of no known side: their
    word is given, and they never accept. ``unknown``: something was entered through a
    table link, an account not seated at the table (a shared phone) or by nobody recorded.
    ``needed``: every other side, each of which must accept with a credential of its own."""

    game_id: int
    sides: tuple[str, ...]
    #: (side, player id, account id or None) per seat, in seat order.
    seats: tuple[tuple[str, int, int | None], ...]
    touchers: frozenset[int]
    entered: frozenset[str]
    unknown: bool
    #: side -> the acceptance that counts (given after the deals' last change).
    accepted: Mapping[str, Acceptance]
    last_revision: int

    @property
    def needed(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s not in self.entered)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(s for s in self.needed if s not in self.accepted)

    @property
    def complete(self) -> bool:
        return bool(self.needed) and not self.waiting

    def side_of(self, *, player_id: int | None = None, account_id: int | None = None) -> str | None:
        for side, player, account in self.seats:
            if (player_id is not None and player == player_id) or (
                player_id is None and account_id is not None and account == account_id
            ):
                return side
        return None


def confirmation_states(games: Sequence[Game]) -> dict[int, ConfirmationState]:
    """The confirmation state of each game, read for all of them at once (four queries)."""
    ids = [g.pk for g in games]
    if not ids:
        return {}
    seats: dict[int, list[tuple[str, int, int | None]]] = {pk: [] for pk in ids}
    for game_id, side, player_id, account in (
        GameSeat.objects.filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "side", "player_id", "player__user_id")
    ):
        seats[game_id].append((side, player_id, account))
    touches: dict[int, list[tuple[int, int | None, str]]] = {pk: [] for pk in ids}
    for game_id, rev_id, account, table in (
        DealRevision.objects.filter(game_id__in=ids, action__in=DealRevision.TOUCHING)
        .order_by("id")
        .values_list("game_id", "id", "user_id", "entered_at_table")
    ):
        touches[game_id].append((rev_id, account, table))
    recorders: dict[int, set[int]] = {pk: set() for pk in ids}
    for game_id, account in Deal.objects.filter(game_id__in=ids).values_list(
        "game_id", "created_by_id"
    ):
        if account is not None:
            recorders[game_id].add(account)
    acceptances: dict[int, list[Acceptance]] = {pk: [] for pk in ids}
    for acceptance in Acceptance.objects.filter(game_id__in=ids).exclude(side="").order_by("id"):
        acceptances[acceptance.game_id].append(acceptance)
    return {pk: _state(pk, seats[pk], touches[pk], recorders[pk], acceptances[pk]) for pk in ids}


def _state(
    game_id: int,
    seats: list[tuple[str, int, int | None]],
    touches: list[tuple[int, int | None, str]],
    recorders: set[int],
    acceptances: list[Acceptance],
) -> ConfirmationState:
    side_of_account = {}
    for side, _player, account in seats:
        if account is not None:
            side_of_account.setdefault(account, side)
    last_known: dict[str, int] = {}
    last_unknown = 0
    touchers: set[int] = set(recorders)
    for rev_id, account, table in touches:
        if account is not None:
            touchers.add(account)
        side = side_of_account.get(account) if account is not None and not table else None
        if side is None:
            last_unknown = rev_id
        else:
            last_known[side] = rev_id
    # A deal whose recorder the history does not name (rows from before the history): the
    # recorder's side is known when they sit at the table.
    unnamed = not touches and bool(recorders)
    entered = {side for side, rev in last_known.items() if rev > last_unknown}
    entered |= {side_of_account[a] for a in recorders if a in side_of_account and unnamed}
    unknown = bool(last_unknown) or any(a not in side_of_account for a in recorders)
    last_revision = max([rev for rev, _a, _t in touches], default=0)
    accepted = {
        a.side: a
        for a in acceptances
        if a.after_revision >= last_revision and a.side in {s for s, _p, _a in seats}
    }
    return ConfirmationState(
        game_id=game_id,
        sides=tuple(sorted({s for s, _p, _a in seats})),
        seats=tuple(seats),
        touchers=frozenset(touchers),
        entered=frozenset(entered),
        unknown=unknown,
        accepted=accepted,
        last_revision=last_revision,
    )


def confirmation_state(*, game: Game) -> ConfirmationState:
    return confirmation_states([game])[game.pk]


def acceptance_refusal(
    state: ConfirmationState,
    *,
    account_id: int | None = None,
    player_id: int | None = None,
    is_admin: bool = False,
) -> tuple[str | None, str]:
    """THE rule of who may accept a finished game's result: ``(refusal, side)``, the
    refusal None when they may, ``side`` the side they accept for ("" the whole game).

    The one accepting is a seated player (``player_id``: their PIN proved it) or an account
    (``account_id``, a club admin when ``is_admin``). Nobody who recorded, corrected or
    deleted a deal accepts, nor their side while its word covers the deals (``entered``);
    each other side accepts once; a club admin who touched nothing and sits at no side may
    accept the whole game. Pure: every confirmation, one game or a list, asks this."""
    if player_id is not None:
        account_id = next((a for _s, p, a in state.seats if p == player_id), None)
        side = state.side_of(player_id=player_id)
    else:
        side = state.side_of(account_id=account_id)
    if account_id is not None and account_id in state.touchers:
        return CONFIRM_TOUCHED, ""
    if side is None:
        if is_admin and player_id is None and account_id is not None:
            return None, ""
        return CONFIRM_NOT_SEATED, ""
    if side in state.entered:
        return CONFIRM_SAME_SIDE, side
    if side in state.accepted:
        return ACCEPT_ALREADY, side
    return None, side


#: The one hook by which a layer above holds a finished game back from being confirmed
#: (members: an open dispute, which a club admin resolves). Each takes the game and says
#: why not, or None. ``game_confirm_refusal`` asks them; a confirmation in the name of the
#: club (``how="club"``) does not. Registered once, in the app's ``ready()``.
CONFIRM_HOLDS: list[Callable[[Game], str | None]] = []


def confirm_hold_register(hook: Callable[[Game], str | None]) -> None:
    if hook not in CONFIRM_HOLDS:
        CONFIRM_HOLDS.append(hook)


def game_touchers(*, game: Game) -> set[int]:
    """The accounts that recorded, corrected or deleted any deal of ``game``."""
    return set(confirmation_state(game=game).touchers)


def game_confirm_refusal(
    *,
    game: Game,
    user: Any = None,
    player: Player | None = None,
    access: ClubAccess | None = None,
) -> str | None:
    """Why the confirmer may not accept ``game``'s result now, or None when they may:
    the confirm holds (an open dispute), then ``acceptance_refusal``. ``access`` is the
    account's access to the club as the page or the API resolved it (roles are decided
    there; without it the account is no club admin)."""
    for hold in CONFIRM_HOLDS:
        reason = hold(game)
        if reason:
            return reason
    refusal, _side = _refusal(game, confirmation_state(game=game), user, player, access)
    return refusal


def _refusal(
    game: Game,
    state: ConfirmationState,
    user: Any,
    player: Player | None,
    access: ClubAccess | None,
) -> tuple[str | None, str]:
    if player is not None:
        return acceptance_refusal(state, player_id=player.pk)
    account_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    return acceptance_refusal(
        state, account_id=account_id, is_admin=bool(account_id) and _manages(access, game)
    )


def _manages(access: ClubAccess | None, game: Game) -> bool:
    """Whether the caller's ``access`` makes them an admin of the game's club."""
    return access is not None and access.club.pk == game.club_id and access.can_manage


@transaction.atomic
def game_confirm(
    *,
    game: Game,
    user: Any = None,
    player: Player | None = None,
    access: ClubAccess | None = None,
    how: str | None = None,
    device_user: Any = None,
    at_table: str = "",
) -> Game:
    """Accept a finished game's result for the confirmer's side; the game is confirmed
    (then no deal can be changed) once every side that did not enter it has accepted.

    Every page, API call, table phone, club night and cup confirms through here; who may
    is ``acceptance_refusal``'s rule. ``player`` is a seated player whose PIN was checked
    (on the phone of ``device_user``, or a table link's phone: ``at_table``); ``user`` the
    account that accepts otherwise, with its ``access`` to the club. An unseated club
    admin who touched nothing accepts the whole game ("admin"). ``how="club"`` is a club
    admin's ruling (a dispute resolved): the whole game, even after correcting deals. The
    acceptances are the history: who, how, when."""
    if how is not None and how not in CONFIRM_HOW:
        raise ValueError(f"unknown way of confirming: {how!r}")
    game = _game_locked(game.pk)
    if game.status == Game.Status.CONFIRMED:
        raise GameError.one("game", GAME_ALREADY_CONFIRMED, kind=CONFLICT)
    if game.status != Game.Status.FINISHED:
        raise GameError.one("game", GAME_NOT_FINISHED, kind=CONFLICT)
    state = confirmation_state(game=game)
    if how == Acceptance.How.CLUB:
        if not _manages(access, game):
            raise GameError.one("game", CONFIRM_CLUB_ADMIN_ONLY, kind=FORBIDDEN)
        side = ""
    else:
        refusal = next((r for r in (hold(game) for hold in CONFIRM_HOLDS) if r), None)
        if refusal is None:
            refusal, side = _refusal(game, state, user, player, access)
        if refusal is not None:
            kind = CONFLICT if refusal == ACCEPT_ALREADY else FORBIDDEN  # who may: 403
            raise GameError.one("game", refusal, kind=kind)
        if side == "":
            how = Acceptance.How.ADMIN
        elif how is None or how == Acceptance.How.ADMIN:
            how = Acceptance.How.PIN if player is not None else Acceptance.How.OWN_PHONE
    account = player.user if player is not None else user
    account = account if getattr(account, "is_authenticated", False) else None
    device = device_user if getattr(device_user, "is_authenticated", False) else None
    acceptance = Acceptance.objects.create(
        game=game,
        side=side,
        how=how,
        player=player,
        user=account,
        device_user=device,
        at_table=at_table,
        after_revision=state.last_revision,
    )
    if side and not confirmation_state(game=game).complete:
        return game  # waiting for the other side(s)
    game.status = Game.Status.CONFIRMED
    game.confirmed_at = acceptance.at
    game.confirmed_by = account
    game.save(update_fields=["status", "confirmed_at", "confirmed_by"])
    how_recorded: dict[str, Any] = {"how": how}
    if player is not None:
        how_recorded.update(player=player.pk, name=player.name)
    if device is not None:
        how_recorded["device_user"] = device.pk
    DealRevision.objects.create(
        game=game,
        action=DealRevision.Action.CONFIRM,
        user=account,
        after=how_recorded,
        entered_at_table=at_table,
    )
    game_changed.send(game=game, status_before=Game.Status.FINISHED, fixture=None)
    return game


@transaction.atomic
def game_rescore(*, game_id: int) -> Game:
    """Re-score every deal of a game from its recorded data (after an engine fix, say)."""
    game = Game.objects.select_for_update().get(pk=game_id)
    rows = list(game.deals.order_by("number"))
    answer = _score(game, [r.data for r in rows])
    _rescore_rows(game, rows, answer)
    return game


def next_dealer_seat(*, game: Game) -> int | None:
    """Who deals the game's next deal (None once it is finished), from the game as the
    caller read it."""
    if game.status != Game.Status.IN_PROGRESS:
        return None
    if game.next_dealer is not None:  # kept on the game row by every write
        return game.next_dealer
    datas = list(game.deals.order_by("number").values_list("data", flat=True))
    answer = _score(game, datas)
    return _dealers(game, answer)[-1]


@transaction.atomic
def sheet_rows_record(
    *, game: Game, rows: Sequence[Mapping[str, Any]], user: Any = None, at_table: str = ""
) -> list[Deal]:
    """Copy rows of an old paper sheet into a game, all of them or none.

    Each row is ``{"sheet": {"A": n, "B": m}, "maker": side, "mark": made|set|renege}`` or
    ``{"passed": true}``. The rules engine checks that some legal deal could give each row;
    errors name the row: ``rows[2].sheet.B``.
    """
    check_rows_count(len(rows))
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.IN_PROGRESS:
        raise GameError.one("game", _closed_message(game), kind=CONFLICT)
    _check_room(game, len(rows), "rows")
    existing = list(game.deals.order_by("number").values_list("data", flat=True))
    news = [adapters.deal_data(row) for row in rows]
    answer = _score(game, [*existing, *news], rows_from=len(existing))
    dealers = _dealers(game, answer)
    deals = [
        _deal_create(game, answer, index, data, dealers[index], user, at_table=at_table)
        for index, data in enumerate(news, start=len(existing))
    ]
    _game_save(game, answer)
    return deals


def seats_player_merging(*, source: Player, target: Player) -> None:
    """``clubs.hooks.player_merging``: ``source``'s seats at games become ``target``'s;
    refused when both sat at the same game. The games' scores do not change (a deal names
    seats, not players); the standings recompute their player numbers afterwards."""
    shared = (
        GameSeat.objects.filter(player=source, game__seats__player=target)
        .values_list("game_id", flat=True)
        .first()
    )
    if shared is not None:
        message = MERGE_SAME_GAME.format(source=source.name, target=target.name, game=shared)
        raise GameError.one("target", message)
    GameSeat.objects.filter(player=source).update(player=target)


def deal_same_as_first(*, deal: Deal, data: Mapping[str, Any], maker_seat: int | None) -> bool:
    """Whether ``data`` and ``maker_seat`` are what recorded ``deal`` (its first version,
    from the history when it was corrected since): a retry of the same request with its
    Idempotency-Key, not another deal sent with a key already used (422)."""
    try:
        new = _deal_input(deal.game, data)
    except (GameError, TypeError, ValueError, AttributeError):
        return False
    if new == deal.data and maker_seat == deal.maker_seat:
        return True
    first = (
        DealRevision.objects.filter(
            game_id=deal.game_id, action=DealRevision.Action.CREATE, at__gte=deal.created_at
        )
        .order_by("at", "id")
        .values_list("after", flat=True)
        .first()
    )
    return (
        isinstance(first, Mapping)
        and first.get("data") == new
        and first.get("maker_seat") == maker_seat
    )
