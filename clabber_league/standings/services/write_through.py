"""Keeping the standings up to date as games and forfeits are written: the hooks' handlers.

``standings_game_changed`` runs inside the transaction of every deal recorded, corrected
or deleted and of every confirmation (``games.services`` calls it with the game row
locked). It recomputes what the game's match gives each team, applies the difference to
the teams' ``TeamStanding`` rows with one ``INSERT ... ON CONFLICT DO UPDATE SET x = x +
delta`` (so two tables finishing at once both land), refreshes the game's leaderboard
lines and, once the game is confirmed, rates it. It works from the game row the games
layer locked (with its division) and knows from ``status_before`` when nothing of the game
is stored yet, so a deal that finishes a game outside the schedule costs the standings six
statements. A game outside any league (no division: a club night's table, a cup tie)
counts in no team standing nor season leaderboard; only its players' ratings move, once it
is confirmed. A fixture's row is locked first: its games may be scored at two
tables at the same time, and each must see the other's committed result.

``standings_fixture_changed`` is the same for a fixture whose result is not its games:
``scheduling.services.fixture_changes.fixture_forfeit`` calls it in its transaction. A
forfeit or walkover is the fixture's whole result (``contributions.forfeit_contributions``),
whatever games it may have.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clabber_league.games.models import Game
from clabber_league.leagues.results import game_counts
from clabber_league.scheduling.models import Fixture

from .. import store
from ..contributions import GameInfo, match_key, zero_counters
from ..models import Counters, PartnershipGameStat, PlayerGameStat, StandingContribution
from ..ratings import ratings_game_confirmed
from .matches import (
    FIXTURE_FIELDS,
    _contribution_fields,
    _forfeit_rows,
    _load,
    _load_rows,
    _match_rows,
    _stat_rows,
)
from .totals import totals_deltas


def _store_stats(game: Game, info: GameInfo, *, stored_before: bool) -> None:
    """Make the game's leaderboard lines the ones ``info`` gives (none when it does not
    count), and add the difference to the leaderboard totals (``totals``). ``stored_before=
    False``: the game did not count before this write, so it has no lines yet and nothing
    is read or deleted; on PostgreSQL its lines and their totals are then one statement."""
    players, sides = _stat_rows(info)
    season_id = game.division.season_id
    new = (
        [{**line, "season_id": season_id, "player_id": pid} for pid, line in players.items()],
        [{**line, "season_id": season_id} for line in sides.values()],
    )
    old = store.game_lines(game_id=game.pk) if stored_before else ([], [])
    if _same(old, new):  # a confirmation: the lines do not change
        return
    rows, lowered, shrunk = totals_deltas(old=old, new=new)
    for model, before in zip((PlayerGameStat, PartnershipGameStat), old, strict=True):
        if before:
            model.objects.filter(game_id=game.pk).delete()
    store.game_lines_write(
        players=new[0],
        sides=new[1],
        club_id=game.club_id,
        season_id=season_id,
        division_id=game.division_id,
        totals=rows,
    )
    store.totals_settle(division_id=game.division_id, lowered=lowered, shrunk=shrunk)


def _same(old: tuple[list[dict], list[dict]], new: tuple[list[dict], list[dict]]) -> bool:
    def by_line(lines: list[dict]) -> dict:
        return {(line["side"], line.get("player_id")): line for line in lines}

    return all(by_line(a) == by_line(b) for a, b in zip(old, new, strict=True))


def _counted_neither_before_nor_after(game: Game, status_before: str | None) -> bool:
    """A game in progress before and after the change gave nothing and gives nothing: a deal
    recorded at the table costs the standings no query at all."""
    return game.status == Game.Status.IN_PROGRESS and status_before == Game.Status.IN_PROGRESS


def _old_contributions(key: str) -> dict[int, dict[str, Any]]:
    """The stored contributions of match ``key``, locked, by team."""
    names = ("pk", "team_id", "club_id", "division_id", *store.CONTRIBUTION_FIELDS)
    found = store.contributions_locked(key=key)
    return {row.team_id: {name: getattr(row, name) for name in names} for row in found}


def _store_match(key: str, new: dict[int, dict[str, Any]], *, stored_before: bool = True) -> None:
    """Make the stored contributions of match ``key`` equal ``new`` and add the difference
    to the teams' standing rows. ``stored_before=False``: the caller knows the match has no
    contribution stored yet (a game outside the schedule that starts counting), so none is
    read; the INSERT would fail on the unique index if one were."""
    old = _old_contributions(key) if stored_before else {}
    deltas: dict[int, dict[str, int]] = {}
    for team_id in set(old) | set(new):
        before = old.get(team_id) or zero_counters()
        after = new.get(team_id) or zero_counters()
        delta = {n: after[n] - before[n] for n in Counters.COUNTERS if after[n] != before[n]}
        if delta:
            deltas[team_id] = delta
    changed = [
        {
            "club_id": row["club_id"],
            "division_id": row["division_id"],
            "team_id": team_id,
            "match_key": key,
            **_contribution_fields(row),
        }
        for team_id, row in sorted(new.items())
        if team_id not in old
        or any(old[team_id][k] != v for k, v in _contribution_fields(row).items())
    ]
    if changed:
        store.contributions_write(changed, upsert=bool(old))
    gone = [row["pk"] for team_id, row in old.items() if team_id not in new]
    if gone:
        StandingContribution.objects.filter(pk__in=gone).delete()
    store.standings_add(deltas, {**old, **new})


def _locked_fixture(pk: int) -> dict[str, Any] | None:
    """One match at a time: the other game of the fixture may be closing at the next table
    (or the fixture being forfeited); after this lock its committed state is what we read."""
    return Fixture.objects.select_for_update().filter(pk=pk).values(*FIXTURE_FIELDS).first()


def _match_games(game: Game, fixture_row: dict[str, Any] | None) -> dict[int, GameInfo]:
    """The games of ``game``'s match with their sides, seats and deals. The row the games
    layer locked and saved is used as it is (no second read); a fixture's other games are
    read in one statement of the store, and take the fixture's planned
    games and round from ``fixture_row``, the fixture locked in this transaction."""
    if not game.fixture_id:
        return _load_rows([game])
    games = [game, *store.fixture_other_games(fixture_id=game.fixture_id, game_id=game.pk)]
    planned = fixture_row["games_planned"] if fixture_row else 1
    round_number = fixture_row["round_number"] if fixture_row else None
    for each in games:  # as ``matches._load`` annotates them
        each.fixture_planned, each.fixture_round = planned, round_number
    return _load_rows(games)


def _fixture_row(game: Game, fixture: Fixture | None) -> dict[str, Any] | None:
    """The game's fixture as ``FIXTURE_FIELDS``: the row the games layer locked in this
    transaction when it has one, else read here under a lock."""
    if not game.fixture_id:
        return None
    if fixture is not None:
        return {name: getattr(fixture, name) for name in FIXTURE_FIELDS}
    return _locked_fixture(game.fixture_id)


def standings_game_changed(
    *, game: Game, status_before: str | None = None, fixture: Fixture | None = None
) -> None:
    """Bring the standings, leaderboards and ratings up to date with one game's deals and
    status. The handler of ``games.hooks.game_changed``: called inside the transaction that
    changed the game, with the game row it locked and saved and the status the game had when
    that transaction read it (``None``: unknown, so look at what is stored), and the game's
    fixture when that transaction has already locked it.

    It joins that transaction without a savepoint: an exception here rolls the whole write
    back, so the standings never disagree with the deals."""
    if _counted_neither_before_nor_after(game, status_before):
        return
    if game.division_id is None:
        # A game outside any league (a club night's table, a cup tie): no team standing
        # nor season leaderboard is its, but its players' ratings move once it is confirmed.
        if game.status == Game.Status.CONFIRMED:
            ratings_game_confirmed(game=game)
        return
    # A game that did not count has no contribution nor leaderboard line stored.
    counted_before = status_before is None or game_counts(status_before)
    with transaction.atomic(savepoint=False):
        fixture_row = _fixture_row(game, fixture)
        infos = _match_games(game, fixture_row)
        key = match_key(game)
        forfeit = _forfeit_rows(fixture_row) if fixture_row else None
        new = forfeit if forfeit is not None else _match_rows(key, list(infos.values()))
        _store_match(key, new, stored_before=counted_before or bool(game.fixture_id))
        _store_stats(game, infos[game.pk], stored_before=counted_before)
        if game.status == Game.Status.CONFIRMED:
            ratings_game_confirmed(game=game)


def standings_fixture_changed(*, fixture: Fixture) -> None:
    """Bring the standings up to date with a fixture's result: a forfeit recorded, changed
    or undone, or the fixture deleted. Call it inside the transaction that changed it."""
    with transaction.atomic():
        key = f"f{fixture.pk}"
        row = _locked_fixture(fixture.pk)
        new = _forfeit_rows(row) if row else None
        if new is None:
            infos = list(_load(Game.objects.filter(fixture_id=fixture.pk)).values())
            new = _match_rows(key, infos) if infos else {}
        _store_match(key, new)
