"""Keeping the standings up to date as games and forfeits are written: the hooks' handlers.

``standings_game_changed`` runs inside the transaction of every deal recorded, corrected
or deleted and of every confirmation (``games.services`` calls it with the game row
locked). It recomputes what the game's match gives each team, applies the difference to
the teams' ``TeamStanding`` rows with ``UPDATE ... SET x = x + delta`` (so two tables
finishing at once both land), refreshes the game's leaderboard lines and, once the game
is confirmed, rates it. A fixture's row is locked first: its games may be scored at two
tables at the same time, and each must see the other's committed result.

``standings_fixture_changed`` is the same for a fixture whose result is not its games:
``scheduling.services.fixture_changes.fixture_forfeit`` calls it in its transaction. A
forfeit or walkover is the fixture's whole result (``contributions.forfeit_contributions``),
whatever games it may have.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F

from clabber_league.games.models import Game
from clabber_league.leagues.models import Team
from clabber_league.scheduling.models import Fixture

from ..contributions import GameInfo, match_key, zero_counters
from ..models import (
    Counters,
    PartnershipGameStat,
    PlayerGameStat,
    StandingContribution,
    TeamStanding,
)
from ..ratings import ratings_game_confirmed
from .matches import (
    FIXTURE_FIELDS,
    _contribution_fields,
    _forfeit_rows,
    _load,
    _match_rows,
    _stat_rows,
)


def _apply_deltas(deltas: dict[int, dict[str, int]]) -> None:
    """Add each team's difference to its standing row (created at zero when missing)."""
    if not deltas:
        return
    teams = Team.objects.filter(pk__in=list(deltas)).values_list("pk", "club_id", "division_id")
    TeamStanding.objects.bulk_create(
        [TeamStanding(team_id=t, club_id=c, division_id=d) for t, c, d in teams],
        ignore_conflicts=True,
    )
    for team_id in sorted(deltas):  # one order for every writer: no deadlock
        delta = deltas[team_id]
        TeamStanding.objects.filter(team_id=team_id).update(
            **{name: F(name) + value for name, value in delta.items()}
        )


def _replace_stats(game: Game, info: GameInfo) -> None:
    players, sides = _stat_rows(info)
    PlayerGameStat.objects.filter(game_id=game.pk).delete()
    PartnershipGameStat.objects.filter(game_id=game.pk).delete()
    season_id = game.division.season_id
    if players:
        PlayerGameStat.objects.bulk_create(
            PlayerGameStat(season_id=season_id, player_id=player_id, **line)
            for player_id, line in players.items()
        )
    if sides:
        PartnershipGameStat.objects.bulk_create(
            PartnershipGameStat(season_id=season_id, **line) for line in sides.values()
        )


def _counted_neither_before_nor_after(game: Game, status_before: str | None) -> bool:
    """A game in progress before and after the change gave nothing and gives nothing: a deal
    recorded at the table costs the standings no query at all."""
    return game.status == Game.Status.IN_PROGRESS and status_before == Game.Status.IN_PROGRESS


def _store_match(key: str, new: dict[int, dict[str, Any]]) -> None:
    """Make the stored contributions of match ``key`` equal ``new`` and add the difference
    to the teams' standing rows."""
    old = {
        c.team_id: c
        for c in StandingContribution.objects.select_for_update()
        .filter(match_key=key)
        .order_by("team_id")
    }
    deltas: dict[int, dict[str, int]] = {}
    for team_id in set(old) | set(new):
        before = old[team_id].counters() if team_id in old else zero_counters()
        after = new.get(team_id) or zero_counters()
        delta = {n: after[n] - before[n] for n in Counters.COUNTERS if after[n] != before[n]}
        if delta:
            deltas[team_id] = delta
    for team_id, row in new.items():
        fields = _contribution_fields(row)
        current = old.get(team_id)
        if current is None:
            StandingContribution.objects.create(
                club_id=row["club_id"],
                division_id=row["division_id"],
                team_id=team_id,
                match_key=key,
                **fields,
            )
        elif any(getattr(current, k) != v for k, v in fields.items()):
            StandingContribution.objects.filter(pk=current.pk).update(**fields)
    gone = [c.pk for t, c in old.items() if t not in new]
    if gone:
        StandingContribution.objects.filter(pk__in=gone).delete()
    _apply_deltas(deltas)


def _locked_fixture(pk: int) -> dict[str, Any] | None:
    """One match at a time: the other game of the fixture may be closing at the next table
    (or the fixture being forfeited); after this lock its committed state is what we read."""
    return Fixture.objects.select_for_update().filter(pk=pk).values(*FIXTURE_FIELDS).first()


def standings_game_changed(*, game: Game, status_before: str | None = None) -> None:
    """Bring the standings, leaderboards and ratings up to date with one game's deals and
    status. The handler of ``games.hooks.game_changed``: called inside the transaction that
    changed the game, with the game row it read and saved and the status the game had when
    that transaction read it (``None``: unknown, so look)."""
    if _counted_neither_before_nor_after(game, status_before):
        return
    with transaction.atomic():
        game = Game.objects.select_related("division").get(pk=game.pk)
        fixture = _locked_fixture(game.fixture_id) if game.fixture_id else None
        if game.fixture_id:
            games = Game.objects.filter(fixture_id=game.fixture_id)
        else:
            games = Game.objects.filter(pk=game.pk)
        infos = _load(games)
        key = match_key(game)
        forfeit = _forfeit_rows(fixture) if fixture else None
        new = forfeit if forfeit is not None else _match_rows(key, list(infos.values()))
        _store_match(key, new)
        _replace_stats(game, infos[game.pk])
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
