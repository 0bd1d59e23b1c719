"""Reading games: lists, one game with everything its sheet needs, the audit history."""

from django.db.models import Prefetch, QuerySet

from clabber_league.clubs.models import Club

from .models import Deal, DealRevision, Game, GameSeat, GameSide


def game_list(*, club: Club) -> QuerySet[Game]:
    return (
        Game.objects.filter(club=club)
        .select_related("division", "division__season")
        .prefetch_related(
            Prefetch("sides", queryset=GameSide.objects.select_related("team")),
            Prefetch("seats", queryset=GameSeat.objects.select_related("player")),
        )
    )


def game_get(*, club: Club, pk: int) -> Game:
    """One game of the club, with sides, seats and deals loaded; DoesNotExist otherwise."""
    return (
        game_list(club=club)
        .prefetch_related(Prefetch("deals", queryset=Deal.objects.order_by("number")))
        .get(pk=pk)
    )


def deal_list(*, club: Club, game_id: int) -> QuerySet[Deal]:
    return Deal.objects.filter(game__club=club, game_id=game_id).order_by("number")


def revision_list(*, club: Club, game_id: int) -> QuerySet[DealRevision]:
    return (
        DealRevision.objects.filter(game__club=club, game_id=game_id)
        .select_related("user")
        .order_by("-at", "-id")
    )
