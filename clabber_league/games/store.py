"""The games aggregate's hand-written SQL, all of it: the services and selectors hold none.

A few statements run on every deal or every game started; built by the ORM, their
compilation costs more CPU than their round trip (``core.rows``' reason), so they are
written once, kept, and their rows made into model instances as the ORM would make them.
Each function answers model instances or plain state, and each has a parity test against
the ORM query it stands for (``tests/games/test_store_parity.py``, SQLite and PostgreSQL).

- :func:`game_locked`: a game read to be written, its row locked, with its division;
- :func:`fixture_locked_games`: a fixture's status, its row locked, and its games' counts;
- :func:`deal_game_write`: a new deal, its history row and the game's state, written;
- :func:`start_rows`: the rows a request to start a game names, of one club.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections

from clabber_league.clubs.models import Club, Player
from clabber_league.core import rows
from clabber_league.leagues.models import Division, HouseRules, Team, TeamMember
from clabber_league.scheduling.models import Fixture

from .models import Deal, DealRevision, Game

#: The game's columns a write keeps: its totals, status and running state.
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
    # auto_now: a client polling ?updated_since= sees the game that changed.
    "updated_at",
)


def _db() -> Any:
    return connections[DEFAULT_DB_ALIAS]


# --- the game a write locks ---------------------------------------------------------------


def game_locked(game_id: int, *, club: Club | None = None) -> Game:
    """A game read to be written: its row locked (``SELECT ... FOR UPDATE``), with its
    division (not locked), whose season the standings need when the write makes the game
    count (``hooks.game_changed`` is sent this very row, not a second read of it); only if it
    is ``club``'s, when one is given (``Game.DoesNotExist`` otherwise).

    Reference: ``Game.objects.select_for_update(of=("self",)).select_related("division")
    .get(pk=game_id[, club=club])``."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(
            _game_locked_sql(db.vendor, club is not None),
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


# --- the fixture a game is started for ----------------------------------------------------


def fixture_locked_games(fixture_id: int) -> tuple[str | None, int, int]:
    """The fixture's status (None: no such fixture), its row locked, and how many of its
    games count so far (``Game.COUNTED``) and how many are in progress (an abandoned game
    is neither).

    Two statements, the lock first: on PostgreSQL a statement sees the rows committed when
    it began, so a count made in the locking statement itself could be read before a
    scorer starting the same fixture at the same moment committed its game (and both
    would start one). Counted after the lock is held, the second scorer sees the first's
    game.

    Reference: ``Fixture.objects.select_for_update()`` for the status, then
    ``Game.objects.filter(fixture_id=...)`` counted by status."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_fixture_lock_sql(db.vendor), [fixture_id])
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


# --- the hot write: a new deal ------------------------------------------------------------


def deal_game_write(deal: Deal, revision: DealRevision, game: Game) -> None:
    """Insert a new deal and its audit row and save the game's state
    (:data:`GAME_STATE_FIELDS`): all of it or nothing.

    One route on every database: the same three statements (``INSERT`` the deal
    ``RETURNING`` its id, ``INSERT`` the revision, ``UPDATE`` the game) with the same values.
    Where the database takes data-modifying ``WITH`` (PostgreSQL) they are sent as one
    statement, one round trip instead of three; elsewhere (SQLite, in-process: a round trip
    costs nothing) one after the other, in the caller's transaction.

    The values are prepared as the ORM's insert and update prepare them (``auto_now_add``
    and defaults filled in), with the connection itself: each attribute read through
    ``django.db.connection`` is a thread-local lookup, and there are dozens per deal.

    Reference: ``deal.save(force_insert=True)``, ``revision.save(force_insert=True)``,
    ``game.save(update_fields=GAME_STATE_FIELDS)``."""
    db = _db()
    statements = _deal_game_sql(db.vendor)
    deal_fields, revision_fields, game_fields = _deal_game_fields()
    deal_params = [f.get_db_prep_save(f.pre_save(deal, True), db) for f in deal_fields]
    revision_params = [f.get_db_prep_save(f.pre_save(revision, True), db) for f in revision_fields]
    game_params = [f.get_db_prep_save(f.pre_save(game, False), db) for f in game_fields]
    game_params.append(game.pk)
    with db.cursor() as cursor:
        if len(statements) == 1:
            cursor.execute(statements[0], deal_params + revision_params + game_params)
            (deal.pk,) = cursor.fetchone()
        else:
            deal_sql, revision_sql, game_sql = statements
            cursor.execute(deal_sql, deal_params)
            (deal.pk,) = cursor.fetchone()
            cursor.execute(revision_sql, revision_params)
            revision.pk = cursor.lastrowid
            cursor.execute(game_sql, game_params)
    for instance in (deal, revision):
        instance._state.adding = False
        instance._state.db = db.alias


@functools.cache
def _deal_game_fields() -> tuple[list[Any], list[Any], list[Any]]:
    """The fields whose values :func:`deal_game_write` sends: the deal's and the revision's
    (every column but the id) and the game's state."""
    return (
        _insert_fields(Deal),
        _insert_fields(DealRevision),
        [Game._meta.get_field(name) for name in GAME_STATE_FIELDS],
    )


@functools.cache
def _deal_game_sql(vendor: str) -> tuple[str, ...]:
    """The three statements of :func:`deal_game_write`; on PostgreSQL, joined in one."""
    q = _db().ops.quote_name
    deal_fields, revision_fields, game_fields = _deal_game_fields()
    deal_sql = f"{_insert_sql(Deal, deal_fields, q)} RETURNING {q('id')}"
    revision_sql = _insert_sql(DealRevision, revision_fields, q)
    sets = ", ".join(f"{q(f.column)} = %s" for f in game_fields)
    game_sql = f"UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q('id')} = %s"
    if vendor != "postgresql":
        return deal_sql, revision_sql, game_sql
    return (
        f"WITH d AS ({deal_sql}), r AS ({revision_sql}), g AS ({game_sql}) SELECT {q('id')} FROM d",
    )


def _insert_fields(model: type[Deal] | type[DealRevision]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _insert_sql(model: type[Any], fields: list[Any], q: Callable[[str], str]) -> str:
    columns = ", ".join(q(f.column) for f in fields)
    placeholders = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {q(model._meta.db_table)} ({columns}) VALUES ({placeholders})"


# --- the rows a request to start a game names ---------------------------------------------


def start_rows(
    *,
    club: Club,
    divisions: Iterable[int] = (),
    fixtures: Iterable[int] = (),
    teams: Iterable[int] = (),
    players: Iterable[int] = (),
) -> dict[type, dict[int, Any]]:
    """The rows a request to start a game names, of ``club`` only, by model and id: the
    divisions with their house rules, the fixtures, the teams with their members (``team.
    members.all()`` answers without a query) and the players. An id of no row of the club
    is simply not there. A statement per model.

    Reference: ``<Model>.objects.filter(club=club, pk__in=ids)`` (divisions
    ``select_related("house_rules")``, teams ``prefetch_related("members")``)."""
    found: dict[type, dict[int, Any]] = {Division: {}, Fixture: {}, Team: {}, Player: {}}
    wanted = {
        Division: divisions,
        Fixture: fixtures,
        Team: teams,
        Player: players,
    }
    with _db().cursor() as cursor:
        for model, ids in wanted.items():
            ids = sorted({pk for pk in ids if 0 < pk <= rows.MAX_ID})
            if not ids:
                continue
            cursor.execute(_start_rows_sql(model, len(ids)), [club.pk, *ids])
            found[model] = _START_ROWS[model](cursor.fetchall())
    return found


def _division_rows(values: list[tuple]) -> dict[int, Division]:
    width = len(Division._meta.concrete_fields)
    field = Division._meta.get_field("house_rules")
    found = {}
    for row in values:
        division = rows.instance(Division, row[:width])
        house_rules = rows.instance(HouseRules, row[width:]) if division.house_rules_id else None
        field.set_cached_value(division, house_rules)
        found[division.pk] = division
    return found


def _team_rows(values: list[tuple]) -> dict[int, Team]:
    """A row a member (none: a team without players), each team's members in order."""
    width = len(Team._meta.concrete_fields)
    found: dict[int, Team] = {}
    members: dict[int, list[TeamMember]] = {}
    for row in values:
        team_id = row[0]
        if team_id not in found:
            found[team_id] = rows.instance(Team, row[:width])
            members[team_id] = []
        if row[width] is not None:
            member = rows.instance(TeamMember, row[width:])
            TeamMember._meta.get_field("team").set_cached_value(member, found[team_id])
            members[team_id].append(member)
    for team_id, team in found.items():
        rows.prefetched(team, members=members[team_id])
    return found


def _plain_rows(model: type) -> Any:
    def build(values: list[tuple]) -> dict[int, Any]:
        return {row[0]: rows.instance(model, row) for row in values}

    return build


_START_ROWS = {
    Division: _division_rows,
    Fixture: _plain_rows(Fixture),
    Team: _team_rows,
    Player: _plain_rows(Player),
}


@functools.lru_cache(maxsize=64)
def _start_rows_sql(model: type, count: int) -> str:
    """Each model's statement for ``count`` ids; its primary key is its first column."""
    table = model._meta.db_table
    select = rows.columns(model, "x")
    joins = ""
    if model is Division:
        select += rows.columns(HouseRules, "h")
        joins = f" LEFT JOIN {HouseRules._meta.db_table} h ON h.id = x.house_rules_id"
    elif model is Team:
        select += rows.columns(TeamMember, "m")
        joins = f" LEFT JOIN {TeamMember._meta.db_table} m ON m.team_id = x.id"
    order = " ORDER BY x.id, m.position" if model is Team else ""
    placeholders = ", ".join(["%s"] * count)
    return (
        f"SELECT {', '.join(select)} FROM {table} x{joins} "
        f"WHERE x.club_id = %s AND x.id IN ({placeholders}){order}"
    )
