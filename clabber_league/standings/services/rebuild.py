"""Recomputing the standings from the deals and the forfeits: ``standings_differences``
(where the stored rows differ from a recomputation; ``manage.py standings_check``) and
``standings_rebuild`` (store the recomputation)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q

from clabber_league.clubs.models import Player
from clabber_league.games.models import Game, GameSide
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture

from .. import reference
from ..contributions import zero_counters
from ..models import (
    Counters,
    GameStat,
    PartnershipGameStat,
    PlayerGameStat,
    RatingChange,
    StandingContribution,
    TeamStanding,
)
from ..ratings import ratings_rebuild, ratings_replay
from .matches import _compute, _contribution_fields, _season_of
from .totals import totals_differences, totals_rebuild


def _divisions(division: Division | None) -> list[Division]:
    if division is not None:
        return [division]
    return list(Division.objects.order_by("pk"))


def _stat_values(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in GameStat.STATS}


def standings_differences(*, division: Division | None = None) -> list[str]:
    """Where the stored aggregates differ from a full recomputation (empty: they agree).

    The recomputation reads the games through the ORM (``reference``), not through the
    store's hand-written statements, so a fault in one of them shows here."""
    out: list[str] = []
    for div in _divisions(division):
        computed = _compute(
            Game.objects.filter(division=div),
            _season_of([div.pk]),
            Fixture.objects.filter(division=div),
            parts=reference.game_parts,
        )
        label = f"division {div.pk} ({div.name})"
        out.extend(_moved(div, label))
        out.extend(_overplayed(div, label))
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
    out.extend(totals_differences(division_ids=[division.pk] if division is not None else None))
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


def _overplayed(div: Division, label: str) -> list[str]:
    """Fixtures with more games in progress or played than planned: a game started twice
    for one planned game (``games.services.game_start`` refuses it now; older data may hold
    one). A rebuild cannot mend it: a person abandons the game started by mistake."""
    live = (Game.Status.IN_PROGRESS, *Game.COUNTED)
    fixtures = (
        Fixture.objects.filter(division=div)
        .annotate(games_live=Count("games", filter=Q(games__status__in=live)))
        .filter(games_live__gt=F("games_planned"))
        .order_by("pk")
        .values_list("pk", "games_live", "games_planned")
    )
    return [
        f"{label}: fixture {pk} has {count} games in progress or played, {planned} planned "
        "(abandon the game started by mistake)"
        for pk, count, planned in fixtures
    ]


@transaction.atomic
def standings_rebuild(*, division: Division | None = None) -> int:
    """Throw the aggregates away and store a full recomputation (with the leaderboard totals
    of the divisions' seasons); returns teams written.
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
    totals_rebuild(division_ids=[div.pk for div in _divisions(division)])
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
    divisions = list(Division.objects.filter(games__seats__player=target).distinct().order_by("pk"))
    # A deal recorded meanwhile locks its game first: holding every game of these divisions
    # makes it wait for the rebuild, then add its change to the rebuilt rows.
    games = Game.objects.select_for_update().filter(division__in=divisions).order_by("pk")
    list(games.values_list("pk", flat=True))
    for division in divisions:
        standings_rebuild(division=division)
    ratings_rebuild(club_id=target.club_id)
