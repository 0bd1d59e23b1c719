"""Player ratings with OpenSkill (the Plackett-Luce model) for partnership play.

Each confirmed game is one match of teams (its sides, each the players seated on it),
ranked by the game's final score: the winner first, a tied game's sides level. Every
player starts at OpenSkill's default (mu 25, sigma 25/3); the pages show the
conservative rating mu - 3 sigma, which rises as the service grows surer of a player.

A game is rated once, when it is confirmed, in the same transaction as the
confirmation, so the ratings follow the order in which results were confirmed. The
history (``RatingChange``) keeps every step.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.utils import timezone
from openskill.models import PlackettLuce

from clabber_league.games.models import Game, GameSeat

from .models import PlayerRating, RatingChange

MODEL = PlackettLuce()


def side_ranks(scores: dict[str, int]) -> dict[str, int]:
    """1 for the highest score, equal scores equal ranks."""
    return {
        side: 1 + sum(1 for v in scores.values() if v > score) for side, score in scores.items()
    }


def _rate(
    game: Game, by_side: dict[str, list[int]], ratings: dict[int, PlayerRating], now
) -> list[RatingChange]:
    """Rate one game against the ratings in ``ratings`` (updated in place)."""
    sides = sorted(s for s in by_side if s in game.scores)
    if len(sides) < 2:
        return []
    default = MODEL.rating()
    for player_id in (p for s in sides for p in by_side[s]):
        if player_id not in ratings:
            ratings[player_id] = PlayerRating(
                club_id=game.club_id, player_id=player_id, mu=default.mu, sigma=default.sigma
            )
    teams = [
        [MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) for p in by_side[s]] for s in sides
    ]
    ranks = side_ranks({s: game.scores[s] for s in sides})
    rated = MODEL.rate(teams, ranks=[ranks[s] for s in sides])
    changes = []
    for side, team in zip(sides, rated, strict=True):
        for player_id, new in zip(by_side[side], team, strict=True):
            row = ratings[player_id]
            changes.append(
                RatingChange(
                    club_id=game.club_id,
                    player_id=player_id,
                    game_id=game.pk,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                    at=game.confirmed_at or now,
                )
            )
            row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, row.games + 1, now
    return changes


def ratings_replay(*, games: Sequence[Game]) -> list[RatingChange]:
    """Rate confirmed, not yet rated games in the order given (a rebuild): a few queries
    for all of them."""
    games = [g for g in games if g.status == Game.Status.CONFIRMED]
    if not games:
        return []
    by_game: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    seats = GameSeat.objects.filter(game_id__in=[g.pk for g in games]).order_by("game_id", "seat")
    for game_id, side, player_id in seats.values_list("game_id", "side", "player_id"):
        by_game[game_id][side].append(player_id)
    player_ids = sorted({p for sides in by_game.values() for ids in sides.values() for p in ids})
    ratings = {
        r.player_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(player_id__in=player_ids)
        .order_by("player_id")
    }
    known = set(ratings)
    now = timezone.now()
    changes = []
    for game in games:
        changes += _rate(game, by_game[game.pk], ratings, now)
    PlayerRating.objects.bulk_create([r for p, r in ratings.items() if p not in known])
    PlayerRating.objects.bulk_update(
        [r for p, r in ratings.items() if p in known], ["mu", "sigma", "games", "updated_at"]
    )
    return RatingChange.objects.bulk_create(changes, batch_size=5000)


def ratings_game_confirmed(*, game: Game) -> list[RatingChange]:
    """Rate a confirmed game's players once; later calls for the same game do nothing."""
    if game.status != Game.Status.CONFIRMED:
        return []
    if RatingChange.objects.filter(game_id=game.pk).exists():
        return []
    by_side: dict[str, list[int]] = defaultdict(list)
    seats = GameSeat.objects.filter(game_id=game.pk).order_by("seat")
    for side, player_id in seats.values_list("side", "player_id"):
        by_side[side].append(player_id)
    player_ids = sorted({p for ids in by_side.values() for p in ids})
    default = MODEL.rating()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(club_id=game.club_id, player_id=p, mu=default.mu, sigma=default.sigma)
            for p in player_ids
        ],
        ignore_conflicts=True,
    )
    # Locked in player order, so two confirmations sharing players queue, never deadlock.
    ratings = {
        r.player_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(player_id__in=player_ids)
        .order_by("player_id")
    }
    changes = _rate(game, by_side, ratings, timezone.now())
    PlayerRating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)


def ratings_rebuild(*, club_id: int) -> int:
    """Throw the club's ratings and their history away and rate every confirmed game of
    the club again, in the order they were confirmed (after two players were merged, the
    merged player's games are rated as one person's). Returns the rating changes written."""
    RatingChange.objects.filter(club_id=club_id).delete()
    PlayerRating.objects.filter(club_id=club_id).delete()
    games = Game.objects.filter(club_id=club_id, status=Game.Status.CONFIRMED)
    return len(ratings_replay(games=list(games.order_by("confirmed_at", "pk"))))
