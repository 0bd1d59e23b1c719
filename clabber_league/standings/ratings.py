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


def ratings_game_confirmed(*, game: Game) -> list[RatingChange]:
    """Rate a confirmed game's players once; later calls for the same game do nothing."""
    if game.status != Game.Status.CONFIRMED:
        return []
    if RatingChange.objects.filter(game_id=game.pk).exists():
        return []
    seats = list(GameSeat.objects.filter(game_id=game.pk).values_list("side", "player_id"))
    by_side: dict[str, list[int]] = defaultdict(list)
    for side, player_id in seats:
        by_side[side].append(player_id)
    sides = sorted(s for s in by_side if s in game.scores)
    if len(sides) < 2:
        return []
    player_ids = sorted({p for s in sides for p in by_side[s]})
    default = MODEL.rating()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(club_id=game.club_id, player_id=p, mu=default.mu, sigma=default.sigma)
            for p in player_ids
        ],
        ignore_conflicts=True,
    )
    # Locked in player order, so two confirmations sharing players queue, never deadlock.
    stored = {
        r.player_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(player_id__in=player_ids)
        .order_by("player_id")
    }
    teams = [
        [MODEL.rating(mu=stored[p].mu, sigma=stored[p].sigma) for p in by_side[s]] for s in sides
    ]
    ranks = side_ranks({s: game.scores[s] for s in sides})
    rated = MODEL.rate(teams, ranks=[ranks[s] for s in sides])
    changes = []
    now = timezone.now()
    for side, team in zip(sides, rated, strict=True):
        for player_id, new in zip(by_side[side], team, strict=True):
            row = stored[player_id]
            changes.append(
                RatingChange(
                    club_id=game.club_id,
                    player_id=player_id,
                    game_id=game.pk,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                )
            )
            row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, row.games + 1, now
    PlayerRating.objects.bulk_update(list(stored.values()), ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)
