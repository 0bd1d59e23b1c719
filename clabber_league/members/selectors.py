"""Members' reads: invitations and disputes of a club, a member's own games."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Club, Player
from clabber_league.games.models import Deal, DealRevision, Game, GameSeat
from clabber_league.games.services import CONFIRM_HOLDS
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import PlayerGameStat, PlayerRating

from .models import Dispute, Invitation, MemberProfile

MY_GAMES_LIMIT = 20
MY_FIXTURES_LIMIT = 10
#: Games a club page lists as waiting for the member's confirmation (oldest first).
TO_CONFIRM_LIMIT = 10


def invitation_list(*, club: Club) -> QuerySet[Invitation]:
    return club.invitations.select_related("player", "accepted_by").order_by("-created_at", "-id")


def invitation_get(*, club: Club, pk: int) -> Invitation:
    return invitation_list(club=club).get(pk=pk)


def dispute_list(*, club: Club, open_only: bool = False) -> QuerySet[Dispute]:
    disputes = club.disputes.select_related("game", "game__division", "player")
    if open_only:
        disputes = disputes.filter(resolved_at__isnull=True)
    return disputes.order_by("resolved_at", "-raised_at")


def dispute_get(*, club: Club, pk: int) -> Dispute:
    return dispute_list(club=club).get(pk=pk)


def open_dispute(*, game: Game) -> Dispute | None:
    return Dispute.objects.filter(game=game, resolved_at__isnull=True).first()


def dispute_hold(game: Game) -> str | None:
    """``games.services.CONFIRM_HOLDS``: an open dispute holds the game for a club admin."""
    from .services import GAME_DISPUTED

    if Dispute.objects.filter(game_id=game.pk, resolved_at__isnull=True).exists():
        return GAME_DISPUTED
    return None


def handover_candidates(*, game: Game, device_user: Any) -> list[dict[str, Any]]:
    """The players who may take the phone: seated on a side other than the phone holder's,
    each with whether they can confirm by PIN here."""
    seats = list(game.seats.select_related("player__user").order_by("seat"))
    device_sides = {s.side for s in seats if s.player.user_id == getattr(device_user, "pk", None)}
    user_ids = [s.player.user_id for s in seats if s.player.user_id]
    profiles = {p.user_id: p for p in MemberProfile.objects.filter(user_id__in=user_ids)}
    out = []
    for s in seats:
        if s.side in device_sides:
            continue
        profile = profiles.get(s.player.user_id)
        out.append(
            {
                "player": s.player,
                "side": s.side,
                "has_pin": bool(profile and profile.has_pin and not profile.pin_locked_at),
            }
        )
    return out


def my_players(*, user: Any) -> list[Player]:
    """The member's players, one per club they still belong to."""
    return list(
        Player.objects.filter(user=user, club__memberships__user=user)
        .select_related("club")
        .order_by("club__name")
    )


def my_games(*, user: Any, limit: int = MY_GAMES_LIMIT) -> list[Game]:
    return list(
        Game.objects.filter(seats__player__user=user, club__memberships__user=user)
        .select_related("club", "division")
        .prefetch_related("seats__player", "sides__team")
        .order_by("-created_at", "-id")[:limit]
    )


def my_fixtures(*, user: Any, limit: int = MY_FIXTURES_LIMIT) -> list[Fixture]:
    today = timezone.localdate()
    mine = Q(home__members__player__user=user) | Q(away__members__player__user=user)
    return list(
        Fixture.objects.filter(mine, club__memberships__user=user)
        .filter(Q(date__gte=today) | Q(date__isnull=True))
        .exclude(status__in=Fixture.DONE)
        .select_related("club", "home", "away", "venue", "division")
        .distinct()
        .order_by("date", "round_number", "id")[:limit]
    )


def my_next_fixture(*, club: Club, user: Any) -> Fixture | None:
    """The club's next fixture, from today on, of a team one of the member's players plays
    for (undated ones last); None for a visitor or a member who plays for no team."""
    if not getattr(user, "is_authenticated", False):
        return None
    today = timezone.localdate()
    mine = Q(home__members__player__user=user) | Q(away__members__player__user=user)
    return (
        Fixture.objects.filter(club=club)
        .filter(mine)
        .filter(Q(date__gte=today) | Q(date__isnull=True))
        .exclude(status__in=Fixture.DONE)
        .select_related("home", "away", "venue", "division")
        .order_by(F("date").asc(nulls_last=True), "round_number", "id")
        .distinct()
        .first()
    )


def games_to_confirm(*, access: ClubAccess, user: Any) -> list[Game]:
    """Finished games of the club that ``user`` may confirm now, oldest first: those they
    sat at and, for a club admin, the others too. Who may confirm is
    ``games.services.game_confirm_refusal``'s rule (``_may_confirm``, the same rule read for
    every game listed at once); the queries only choose which games to ask about (at most
    ``TO_CONFIRM_LIMIT`` of each kind). A fixed number of queries, however many games."""
    if not getattr(user, "is_authenticated", False) or not access.can_play:
        return []
    finished = (
        Game.objects.filter(club=access.club, status=Game.Status.FINISHED)
        .select_related("division")
        .prefetch_related("sides__team", "seats__player")
        .order_by("finished_at", "id")
    )
    seated = list(finished.filter(seats__player__user=user).distinct()[:TO_CONFIRM_LIMIT])
    candidates = seated
    if access.can_manage:
        # A club admin may confirm a game they did not touch and do not sit on a side of.
        touched = DealRevision.objects.filter(user=user, action__in=DealRevision.TOUCHING)
        others = (
            finished.exclude(pk__in=[g.pk for g in seated])
            .exclude(pk__in=touched.values("game_id"))
            .exclude(deals__created_by=user)
            .distinct()[:TO_CONFIRM_LIMIT]
        )
        candidates = seated + list(others)
    allowed = _may_confirm(candidates, user=user, access=access)
    return [g for g in candidates if allowed[g.pk]][:TO_CONFIRM_LIMIT]


def _may_confirm(games: list[Game], *, user: Any, access: ClubAccess) -> dict[int, bool]:
    """game id -> whether ``user`` may confirm it: ``games.services.game_confirm_refusal``
    returns None, for an account with its ``access``. That function reads each game on its
    own (about five queries a game); this reads the same facts of every game at once: the
    open disputes (``dispute_hold``, the confirm hold this app registers; any other hold is
    asked game by game), the seats and who touched the deals. The rule: whoever recorded,
    corrected or deleted a deal may not confirm, nor a player seated on that person's side;
    a player seated elsewhere may, and so may a club admin who sits on no side."""
    if not games:
        return {}
    ids = [g.pk for g in games]
    disputed = set(
        Dispute.objects.filter(game_id__in=ids, resolved_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    other_holds = [hold for hold in CONFIRM_HOLDS if hold is not dispute_hold]
    seats: dict[int, list[tuple[str, int | None]]] = {pk: [] for pk in ids}
    for game_id, side, player_user in (
        GameSeat.objects.filter(game_id__in=ids)
        .order_by("seat")  # the game's first seat of theirs, as ``.first()`` reads it
        .values_list("game_id", "side", "player__user_id")
    ):
        seats[game_id].append((side, player_user))
    touchers: dict[int, set[int]] = {pk: set() for pk in ids}
    revisions = DealRevision.objects.filter(game_id__in=ids, action__in=DealRevision.TOUCHING)
    for game_id, toucher in revisions.exclude(user=None).values_list("game_id", "user_id"):
        touchers[game_id].add(toucher)
    deals = Deal.objects.filter(game_id__in=ids).exclude(created_by=None)
    for game_id, toucher in deals.values_list("game_id", "created_by_id"):
        touchers[game_id].add(toucher)
    account_id = user.pk
    allowed = {}
    for game in games:
        if game.pk in disputed or any(hold(game) for hold in other_holds):
            allowed[game.pk] = False
            continue
        mine = next((side for side, owner in seats[game.pk] if owner == account_id), None)
        touched_sides = {side for side, owner in seats[game.pk] if owner in touchers[game.pk]}
        is_admin = access.club.pk == game.club_id and access.can_manage
        allowed[game.pk] = (
            account_id not in touchers[game.pk]
            and not (mine is not None and mine in touched_sides)
            and (mine is not None or is_admin)
        )
    return allowed


def my_stats(*, players: list[Player]) -> dict[int, dict[str, Any]]:
    """All-time figures per player: games, wins, win %, rating (mu - 3 sigma)."""
    from django.db.models import Sum

    ids = [p.pk for p in players]
    sums = {
        r["player_id"]: r
        for r in PlayerGameStat.objects.filter(player_id__in=ids)
        .values("player_id")
        .annotate(won=Sum("won"), tied=Sum("tied"), lost=Sum("lost"), deals=Sum("deals"))
    }
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=ids)}
    out = {}
    for p in players:
        row = sums.get(p.pk) or {"won": 0, "tied": 0, "lost": 0, "deals": 0}
        games = (row["won"] or 0) + (row["tied"] or 0) + (row["lost"] or 0)
        out[p.pk] = {
            "games": games,
            "won": row["won"] or 0,
            "tied": row["tied"] or 0,
            "lost": row["lost"] or 0,
            "win_pct": round(100 * (row["won"] or 0) / games) if games else None,
            "rating": ratings.get(p.pk),
        }
    return out


def days_left(invitation: Invitation) -> int:
    return max(0, (invitation.expires_at - timezone.now()) // dt.timedelta(days=1))
