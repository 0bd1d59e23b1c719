"""Members' reads: invitations and disputes of a club, a member's own games."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from clabber_league.clubs.access import ClubAccess
from clabber_league.clubs.models import Club, Player
from clabber_league.games.models import Acceptance, DealRevision, Game
from clabber_league.games.services import (
    CONFIRM_HOLDS,
    acceptance_refusal,
    confirmation_state,
    confirmation_states,
)
from clabber_league.scheduling.models import Fixture
from clabber_league.standings.models import PlayerGameStat, PlayerRating

from .models import Dispute, Invitation, MemberProfile, PlayerPerson

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


@dataclass
class SideToAccept:
    """One side of a finished game, as the acceptance screen shows it."""

    side: str
    name: str
    score: int
    #: (player, shown name, whether they have a PIN) per seated player, in seat order.
    players: list[tuple[Player, str, bool]]
    #: "entered" (their word is given), "accepted", or "waiting".
    state: str
    acceptance: Acceptance | None = None


def acceptance_sheet(*, game: Game, to_member: bool) -> dict[str, Any]:
    """The final sheet for the acceptance screen: per side its name (the team's, else its
    players'; never a side letter), score, players (with whether each has a PIN) and
    where its acceptance stands, from the one rule's ``confirmation_state``; the sides still
    to accept; and every acceptance given (the history: who, how, when)."""
    state = confirmation_state(game=game)
    seats = list(game.seats.select_related("player").order_by("seat"))
    teams = {s.side: s.team for s in game.sides.select_related("team")}
    players = [s.player for s in seats]
    with_pin = players_with_pin(players)
    sides = []
    for side in state.sides:
        mine = [s.player for s in seats if s.side == side]
        shown = [p.shown_name(to_member=to_member) for p in mine]
        team = teams.get(side)
        status = (
            "entered"
            if side in state.entered
            else "accepted"
            if side in state.accepted
            else "waiting"
        )
        sides.append(
            SideToAccept(
                side=side,
                name=team.name if team else " & ".join(shown),
                score=game.scores.get(side, 0),
                players=[(p, n, p.pk in with_pin) for p, n in zip(mine, shown, strict=True)],
                state=status,
                acceptance=state.accepted.get(side),
            )
        )
    history = list(
        Acceptance.objects.filter(game=game).select_related("player", "user").order_by("at", "id")
    )
    for acceptance in history:
        acceptance.counts = acceptance.after_revision >= state.last_revision  # type: ignore[attr-defined]
    return {
        "sides": sides,
        "waiting": [s for s in sides if s.state == "waiting"],
        "history": history,
        "state": state,
    }


def players_with_pin(players: list[Player]) -> set[int]:
    """The ids of ``players`` whose person has a PIN (by login or by link)."""
    by_user = {p.user_id: p.pk for p in players if p.user_id}
    out = {
        by_user[u]
        for u in MemberProfile.objects.filter(user_id__in=by_user)
        .exclude(pin_hash="")
        .values_list("user_id", flat=True)
    }
    out |= set(
        PlayerPerson.objects.filter(player__in=players)
        .exclude(person__pin_hash="")
        .values_list("player_id", flat=True)
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
    """game id -> whether ``user`` may accept it now: the open disputes (``dispute_hold``,
    the confirm hold this app registers; any other hold is asked game by game), then the one
    rule, ``games.services.acceptance_refusal``, on every game's state read at once."""
    if not games:
        return {}
    ids = [g.pk for g in games]
    disputed = set(
        Dispute.objects.filter(game_id__in=ids, resolved_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    other_holds = [hold for hold in CONFIRM_HOLDS if hold is not dispute_hold]
    states = confirmation_states(games)
    allowed = {}
    for game in games:
        if game.pk in disputed or any(hold(game) for hold in other_holds):
            allowed[game.pk] = False
            continue
        is_admin = access.club.pk == game.club_id and access.can_manage
        refusal, _side = acceptance_refusal(states[game.pk], account_id=user.pk, is_admin=is_admin)
        allowed[game.pk] = refusal is None
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
