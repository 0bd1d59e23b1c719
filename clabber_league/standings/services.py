"""Keeping the standings: the hook the game services call, and the full rebuild and check.

``standings_game_changed`` runs inside the transaction of every deal recorded, corrected
or deleted and of every confirmation (``games.services`` calls it with the game row
locked). It recomputes what the game's match gives each team, applies the difference to
the teams' ``TeamStanding`` rows with ``UPDATE ... SET x = x + delta`` (so two tables
finishing at once both land), refreshes the game's leaderboard lines and, once the game
is confirmed, rates it. A fixture's row is locked first: its games may be scored at two
tables at the same time, and each must see the other's committed result.

``standings_fixture_changed`` is the same for a fixture whose result is not its games:
``scheduling.services.fixture_forfeit`` calls it in its transaction. A forfeit or walkover
is the fixture's whole result (``contributions.forfeit_contributions``), whatever games
it may have.

``standings_rebuild`` and ``standings_differences`` recompute everything from the deals
and the forfeits; ``manage.py standings_check`` uses them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet

from clabber_league.clubs.models import Club, Player
from clabber_league.core.errors import ServiceError
from clabber_league.games.models import Deal, Game, GameSeat, GameSide
from clabber_league.leagues.models import Division, Team
from clabber_league.leagues.results import COUNTED_STATUSES
from clabber_league.scheduling.models import Fixture

from .contributions import (
    DEAL_FIELDS,
    GameInfo,
    forfeit_contributions,
    game_stats,
    match_contributions,
    match_key,
    zero_counters,
)
from .models import (
    TIEBREAKERS,
    Counters,
    GameStat,
    PartnershipGameStat,
    PlayerGameStat,
    RatingChange,
    StandingContribution,
    TeamStanding,
    TiebreakerRules,
)
from .ratings import ratings_game_confirmed, ratings_rebuild, ratings_replay

TIEBREAKER_UNKNOWN = "Unknown tiebreaker {name!r}: choose from {known}."
TIEBREAKER_TWICE = "Each tiebreaker can be chosen once."
DIVISION_OTHER_CLUB = "This division is not one of the club's."


class StandingsError(ServiceError):
    """A rejected standings write (``core.errors.ServiceError``)."""


# --- loading games -------------------------------------------------------------------------


def _load(games: QuerySet[Game]) -> dict[int, GameInfo]:
    """Games with their sides, seats and (for counted games) deals: four queries."""
    # Only the two fixture columns we need, not the whole row: scheduling owns that table.
    games = games.annotate(
        fixture_planned=F("fixture__games_planned"), fixture_round=F("fixture__round_number")
    ).order_by("pk")
    infos = {g.pk: GameInfo(game=g) for g in games}
    if not infos:
        return infos
    for game_id, side, team_id in GameSide.objects.filter(game__in=games).values_list(
        "game_id", "side", "team_id"
    ):
        infos[game_id].sides[side] = team_id
    for game_id, seat, side, player_id in GameSeat.objects.filter(game__in=games).values_list(
        "game_id", "seat", "side", "player_id"
    ):
        infos[game_id].seats.append((seat, side, player_id))
    deals = Deal.objects.filter(game__in=games.filter(status__in=COUNTED_STATUSES))
    for deal in deals.order_by("game_id", "number").values(*DEAL_FIELDS):
        infos[deal["game_id"]].deals.append(deal)
    return infos


@dataclass
class Computed:
    """Everything the standings and leaderboards store, recomputed from games."""

    contributions: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    standings: dict[int, dict[str, int]] = field(default_factory=dict)
    players: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    partnerships: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)


def _match_rows(key: str, infos: list[GameInfo]) -> dict[int, dict[str, Any]]:
    """The contribution rows of one match, by team."""
    first = infos[0].game
    planned = first.fixture_planned if first.fixture_id else 1
    rows = match_contributions(infos, planned=planned)
    for row in rows.values():
        row.update(
            club_id=first.club_id,
            division_id=first.division_id,
            match_key=key,
            fixture_id=first.fixture_id,
            round_number=first.fixture_round if first.fixture_id else None,
        )
    return rows


#: The columns of a fixture the standings read (scheduling owns the table).
FIXTURE_FIELDS = (
    "pk",
    "club_id",
    "division_id",
    "home_id",
    "away_id",
    "status",
    "forfeit_winner_id",
    "games_planned",
    "round_number",
    "date",
)


def _forfeit_rows(fixture: dict[str, Any]) -> dict[int, dict[str, Any]] | None:
    """The contribution rows of a forfeited fixture (a ``FIXTURE_FIELDS`` dict), by team;
    None when the fixture is not a forfeit."""
    winner = fixture["forfeit_winner_id"]
    if fixture["status"] != Fixture.Status.FORFEIT or winner not in (
        fixture["home_id"],
        fixture["away_id"],
    ):
        return None
    rows = forfeit_contributions(
        home_id=fixture["home_id"],
        away_id=fixture["away_id"],
        winner_id=winner,
        planned=fixture["games_planned"],
        played_on=fixture["date"],
    )
    for row in rows.values():
        row.update(
            club_id=fixture["club_id"],
            division_id=fixture["division_id"],
            match_key=f"f{fixture['pk']}",
            fixture_id=fixture["pk"],
            round_number=fixture["round_number"],
        )
    return rows


def _stat_rows(info: GameInfo) -> tuple[dict[int, dict], dict[str, dict]]:
    if not info.counts:
        return {}, {}
    game = info.game
    common = {
        "club_id": game.club_id,
        "division_id": game.division_id,
        "game_id": game.pk,
        "played_on": game.played_on,
    }
    players, sides = game_stats(info)
    for line in players.values():
        line.update(common, team_id=info.sides.get(line["side"]))
    for side, line in sides.items():
        ids = line.pop("players")
        line.update(
            common,
            team_id=info.sides.get(side),
            key="-".join(str(i) for i in sorted(ids)),
            player_1_id=ids[0],
            player_2_id=ids[1],
            player_3_id=ids[2] if len(ids) > 2 else None,
        )
    return players, sides


def _compute(
    games: QuerySet[Game], season_of: dict[int, int], fixtures: QuerySet[Fixture]
) -> Computed:
    infos = _load(games)
    out = Computed()
    matches: dict[str, list[GameInfo]] = {}
    for info in infos.values():
        matches.setdefault(match_key(info.game), []).append(info)
    rows_of = {key: _match_rows(key, match) for key, match in matches.items()}
    for fixture in fixtures.filter(status=Fixture.Status.FORFEIT).values(*FIXTURE_FIELDS):
        forfeit = _forfeit_rows(fixture)
        if forfeit is not None:
            rows_of[f"f{fixture['pk']}"] = forfeit
    for key, rows in rows_of.items():
        for team_id, row in rows.items():
            out.contributions[(team_id, key)] = row
            total = out.standings.setdefault(team_id, zero_counters())
            for name in Counters.COUNTERS:
                total[name] += row[name]
    for info in infos.values():
        players, sides = _stat_rows(info)
        season_id = season_of[info.game.division_id]
        for player_id, line in players.items():
            out.players[(info.game.pk, player_id)] = {**line, "season_id": season_id}
        for side, line in sides.items():
            out.partnerships[(info.game.pk, side)] = {**line, "season_id": season_id}
    return out


def _season_of(division_ids: Iterable[int]) -> dict[int, int]:
    return dict(Division.objects.filter(pk__in=list(division_ids)).values_list("pk", "season_id"))


# --- the hook ---------------------------------------------------------------------------------


def _contribution_fields(row: dict[str, Any]) -> dict[str, Any]:
    names = (*Counters.COUNTERS, "opponent_id", "played_on", "fixture_id", "round_number")
    return {name: row[name] for name in names}


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


# --- configuration -----------------------------------------------------------------------------


def tiebreakers_set(*, club: Club, division: Division, tiebreakers: list[str]) -> TiebreakerRules:
    """Choose a division's tiebreakers, in order."""
    if division.club_id != club.pk:
        raise StandingsError([{"field": "division", "message": DIVISION_OTHER_CLUB}])
    errors = []
    for index, name in enumerate(tiebreakers):
        if name not in TIEBREAKERS:
            errors.append(
                {
                    "field": f"tiebreakers[{index}]",
                    "message": TIEBREAKER_UNKNOWN.format(name=name, known=", ".join(TIEBREAKERS)),
                }
            )
    if len(set(tiebreakers)) != len(tiebreakers):
        errors.append({"field": "tiebreakers", "message": TIEBREAKER_TWICE})
    if errors:
        raise StandingsError(errors)
    rules, _ = TiebreakerRules.objects.update_or_create(
        division=division, defaults={"club": club, "tiebreakers": list(tiebreakers)}
    )
    return rules


# --- full recomputation ----------------------------------------------------------------------


def _divisions(division: Division | None) -> list[Division]:
    if division is not None:
        return [division]
    return list(Division.objects.order_by("pk"))


def _stat_values(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in GameStat.STATS}


def standings_differences(*, division: Division | None = None) -> list[str]:
    """Where the stored aggregates differ from a full recomputation (empty: they agree)."""
    out: list[str] = []
    for div in _divisions(division):
        computed = _compute(
            Game.objects.filter(division=div),
            _season_of([div.pk]),
            Fixture.objects.filter(division=div),
        )
        label = f"division {div.pk} ({div.name})"
        out.extend(_moved(div, label))
        stored = {s.team_id: s.counters() for s in TeamStanding.objects.filter(division=div)}
        for team_id in sorted(set(stored) | set(computed.standings)):
            have = stored.get(team_id, zero_counters())
            want = computed.standings.get(team_id, zero_counters())
            for name in Counters.COUNTERS:
                if have[name] != want[name]:
                    out.append(
                        f"{label}: team {team_id}: {name} stored {have[name]}, "
                        f"recomputed {want[name]}"
                    )
        contributions = {
            (c.team_id, c.match_key): c for c in StandingContribution.objects.filter(division=div)
        }
        for key in sorted(set(contributions) | set(computed.contributions)):
            have_row = contributions.get(key)
            want_row = computed.contributions.get(key)
            if have_row is None or want_row is None:
                state = "missing" if have_row is None else "not expected"
                out.append(f"{label}: contribution of team {key[0]} in {key[1]} {state}")
                continue
            for name, value in _contribution_fields(want_row).items():
                if getattr(have_row, name) != value:
                    out.append(
                        f"{label}: contribution of team {key[0]} in {key[1]}: {name} stored "
                        f"{getattr(have_row, name)}, recomputed {value}"
                    )
        for model, computed_rows, key_of in (
            (PlayerGameStat, computed.players, lambda r: (r.game_id, r.player_id)),
            (PartnershipGameStat, computed.partnerships, lambda r: (r.game_id, r.side)),
        ):
            stored_rows = {key_of(r): _stat_values(r) for r in model.objects.filter(division=div)}
            wanted = {k: {n: v[n] for n in GameStat.STATS} for k, v in computed_rows.items()}
            for key in sorted(set(stored_rows) | set(wanted), key=str):
                if stored_rows.get(key) != wanted.get(key):
                    name = model._meta.verbose_name
                    out.append(
                        f"{label}: {name} {key}: stored {stored_rows.get(key)}, "
                        f"recomputed {wanted.get(key)}"
                    )
    unrated = Game.objects.filter(status=Game.Status.CONFIRMED).exclude(
        pk__in=RatingChange.objects.values("game_id")
    )
    if division is not None:
        unrated = unrated.filter(division=division)
    for game_id in unrated.filter(~Q(seats=None)).values_list("pk", flat=True).distinct():
        out.append(f"game {game_id}: confirmed but not rated")
    return out


def _moved(div: Division, label: str) -> list[str]:
    """Teams or a division moved after their games were played (the Django admin refuses
    it now; older data, or a raw SQL update, may still hold one)."""
    out = []
    moved = (
        GameSide.objects.filter(game__division=div, team__isnull=False)
        .exclude(team__division=div)
        .values_list("team_id", "team__division_id")
        .distinct()
    )
    for team_id, now_in in sorted(moved):
        out.append(f"{label}: team {team_id} has games here but now plays in division {now_in}")
    for club_id in (
        (Game.objects.filter(division=div).exclude(club_id=div.club_id))
        .values_list("club_id", flat=True)
        .distinct()
    ):
        out.append(f"{label}: games of club {club_id} but the division is club {div.club_id}'s")
    return out


@transaction.atomic
def standings_rebuild(*, division: Division | None = None) -> int:
    """Throw the aggregates away and store a full recomputation; returns teams written.
    Confirmed games not yet rated are rated, in the order they were confirmed."""
    teams = 0
    for div in _divisions(division):
        computed = _compute(
            Game.objects.filter(division=div),
            _season_of([div.pk]),
            Fixture.objects.filter(division=div),
        )
        for model in (TeamStanding, StandingContribution, PlayerGameStat, PartnershipGameStat):
            model.objects.filter(division=div).delete()
        TeamStanding.objects.bulk_create(
            TeamStanding(club_id=div.club_id, division_id=div.pk, team_id=team_id, **counters)
            for team_id, counters in computed.standings.items()
        )
        StandingContribution.objects.bulk_create(
            StandingContribution(
                club_id=row["club_id"],
                division_id=row["division_id"],
                team_id=team_id,
                match_key=key,
                **_contribution_fields(row),
            )
            for (team_id, key), row in computed.contributions.items()
        )
        PlayerGameStat.objects.bulk_create(
            PlayerGameStat(player_id=player_id, **row)
            for (_, player_id), row in computed.players.items()
        )
        PartnershipGameStat.objects.bulk_create(
            PartnershipGameStat(**row) for row in computed.partnerships.values()
        )
        teams += len(computed.standings)
    unrated = Game.objects.filter(status=Game.Status.CONFIRMED).exclude(
        pk__in=RatingChange.objects.values("game_id")
    )
    if division is not None:
        unrated = unrated.filter(division=division)
    ratings_replay(games=list(unrated.order_by("confirmed_at", "pk")))
    return teams


def standings_player_merged(*, target: Player, source_id: int) -> None:
    """``clubs.hooks.player_merged``: the merged player's seats are all ``target``'s now;
    recompute the player and partnership numbers of every division they played in, and the
    club's ratings, so both equal a recomputation (``standings_check``)."""
    divisions = Division.objects.filter(games__seats__player=target).distinct().order_by("pk")
    for division in divisions:
        standings_rebuild(division=division)
    ratings_rebuild(club_id=target.club_id)
