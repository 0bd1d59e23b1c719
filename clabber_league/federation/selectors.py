"""The federation's reads: what a page or the API shows, scoped to one federation and to
what the caller may see (``access.FederationAccess``)."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet

from clabber_league.games.models import Game, GameSeat

from .access import FederationAccess
from .models import Federation, FederationClub, FederationPlayer, Officer, PlayerLink, PlayerMerge
from .services.privacy import anonymous_name


def federations_for(*, user: Any) -> QuerySet[Federation]:
    """The public federations, those the user is an officer of; every one for staff."""
    everything = Federation.objects.all()
    if user is not None and user.is_authenticated and user.is_staff:
        return everything
    if user is not None and user.is_authenticated:
        return everything.filter(Q(is_public=True) | Q(officers__user=user)).distinct()
    return everything.filter(is_public=True)


def member_clubs(*, federation: Federation) -> QuerySet[FederationClub]:
    return (
        federation.member_clubs.filter(status=FederationClub.Status.MEMBER)
        .select_related("club")
        .order_by("club__name")
    )


def club_rows(*, access: FederationAccess) -> QuerySet[FederationClub]:
    """Every club row of the federation (members, requests, invitations, clubs that left):
    for officers."""
    return access.federation.member_clubs.select_related("club").order_by("status", "club__name")


def officers(*, federation: Federation) -> QuerySet[Officer]:
    return federation.officers.select_related("user").order_by("role", "user__username")


def shown_name(player: FederationPlayer) -> str:
    """A record's name as pages show it: an erased one's anonymous name."""
    if player.erased_at is not None or not player.name:
        return anonymous_name(player.number)
    return player.name


def players_visible(*, access: FederationAccess, search: str = "") -> QuerySet[FederationPlayer]:
    """Officers: every record of their federation; anyone else: the public profiles (not
    merged, not erased)."""
    players = access.federation.players.select_related("home_club", "merged_into")
    if not access.can("officer"):
        players = players.filter(is_public=True, erased_at=None, merged_into=None)
    if search.strip():
        term = search.strip()
        players = players.filter(Q(name__icontains=term) | Q(number__icontains=term))
    return players.order_by("number")


def player_by_number(*, access: FederationAccess, number: str) -> FederationPlayer | None:
    """The record of a number if this person may see it (a merged number's record is
    there too: its page points to the kept one)."""
    player = (
        access.federation.players.select_related("home_club", "merged_into")
        .filter(number=number)
        .first()
    )
    if player is None or not access.sees_player(player):
        return None
    return player


def player_links(*, player: FederationPlayer) -> QuerySet[PlayerLink]:
    return player.links.select_related("player__club").order_by("player__club__name")


def pending_links(*, access: FederationAccess) -> QuerySet[PlayerLink]:
    """Links awaiting approval: all of the federation's for officers, none for others."""
    if not access.can("officer"):
        return PlayerLink.objects.none()
    return (
        access.federation.links.filter(status=PlayerLink.Status.PROPOSED)
        .select_related("player__club", "federation_player", "proposed_by")
        .order_by("created_at", "pk")
    )


def links_awaiting(*, user: Any) -> QuerySet[PlayerLink]:
    """Links proposed for this person's club players, which they may approve or refuse."""
    if user is None or not user.is_authenticated:
        return PlayerLink.objects.none()
    return (
        PlayerLink.objects.filter(status=PlayerLink.Status.PROPOSED, player__user=user)
        .select_related("federation", "federation_player", "player__club")
        .order_by("created_at", "pk")
    )


def merges(*, access: FederationAccess) -> QuerySet[PlayerMerge]:
    if not access.can("officer"):
        return PlayerMerge.objects.none()
    return access.federation.merges.select_related("kept", "merged", "approved_by").order_by(
        "-at", "-pk"
    )


def results_counts(*, player: FederationPlayer) -> dict[str, int]:
    """How many games the person played in, through every approved link: all, and the
    confirmed ones."""
    seats = GameSeat.objects.filter(
        player__federation_links__federation_player=player,
        player__federation_links__status=PlayerLink.Status.APPROVED,
    )
    counts = seats.aggregate(
        games=Count("game", distinct=True),
        confirmed=Count("game", filter=Q(game__status=Game.Status.CONFIRMED), distinct=True),
    )
    return {"games": counts["games"] or 0, "confirmed_games": counts["confirmed"] or 0}


# --- the person's own records ---------------------------------------------------------------


def my_records(*, user: Any) -> QuerySet[FederationPlayer]:
    """The federation records this person is (an approved link of one of their club
    players), in every federation."""
    if user is None or not user.is_authenticated:
        return FederationPlayer.objects.none()
    return (
        FederationPlayer.objects.filter(
            links__status=PlayerLink.Status.APPROVED, links__player__user=user
        )
        .select_related("federation", "home_club")
        .distinct()
        .order_by("federation__name", "number")
    )


def export_for(*, user: Any) -> dict[str, Any]:
    """Everything the federations hold about this person, as a JSON-ready dict: their
    records, each record's links and merges, the clubs they are a member of, and how many
    results each record has."""
    records = []
    for record in my_records(user=user):
        records.append(
            {
                "federation": {"slug": record.federation.slug, "name": record.federation.name},
                "number": record.number,
                "name": record.name,
                "birth_year": record.birth_year,
                "email": record.email,
                "home_club": record.home_club.name if record.home_club else None,
                "public_profile": record.is_public,
                "active": record.active,
                "left_at": _iso(record.left_at),
                "erased_at": _iso(record.erased_at),
                "created_at": _iso(record.created_at),
                "merged_numbers": [
                    m.number for m in FederationPlayer.objects.filter(merged_into=record)
                ],
                "links": [
                    {
                        "club": link.player.club.name,
                        "club_player": link.player.name,
                        "status": link.status,
                        "proposed_at": _iso(link.created_at),
                        "decided_at": _iso(link.decided_at),
                    }
                    for link in player_links(player=record)
                ],
                "results": results_counts(player=record),
            }
        )
    memberships = [
        {"club": m.club.name, "role": m.role, "since": _iso(m.created_at)}
        for m in user.memberships.select_related("club").order_by("club__name")
    ]
    return {
        "format": "clabber-league-federation-export",
        "version": 1,
        "username": user.get_username(),
        "email": user.email,
        "federation_records": records,
        "club_memberships": memberships,
    }


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


# --- likely duplicates ----------------------------------------------------------------------


def normalised_name(name: str) -> str:
    """A name as duplicates are matched: no accents, any case, single spaces, no dots or
    hyphens (``"José  van-Dijk"`` and ``"jose van dijk"`` are one)."""
    decomposed = unicodedata.normalize("NFKD", name or "")
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    for mark in ".-_',\u2019":
        plain = plain.replace(mark, " ")
    return " ".join(plain.casefold().split())


@dataclass
class Candidate:
    """Two records that may be one person, and why."""

    first: FederationPlayer
    second: FederationPlayer
    reasons: list[str] = field(default_factory=list)


#: Why two records are shown as likely duplicates (translated on the page).
SAME_NAME = "same name"
SAME_EMAIL = "same email"
SAME_BIRTH_YEAR = "same birth year"


def duplicate_candidates(*, access: FederationAccess, limit: int = 200) -> list[Candidate]:
    """Likely duplicates among the federation's live records (not merged, not erased),
    for officers: the same normalised name (unless both give a birth year and they
    differ), or the same email. Each pair once, in number order."""
    if not access.can("officer"):
        return []
    players = list(
        access.federation.players.filter(merged_into=None, erased_at=None)
        .select_related("home_club")
        .order_by("number")
    )
    by_name: dict[str, list[FederationPlayer]] = defaultdict(list)
    by_email: dict[str, list[FederationPlayer]] = defaultdict(list)
    for p in players:
        by_name[normalised_name(p.name)].append(p)
        if p.email:
            by_email[p.email.strip().casefold()].append(p)
    pairs: dict[tuple[int, int], Candidate] = {}

    def add(a: FederationPlayer, b: FederationPlayer, reason: str) -> None:
        key = (a.pk, b.pk) if a.number <= b.number else (b.pk, a.pk)
        first, second = (a, b) if a.number <= b.number else (b, a)
        candidate = pairs.setdefault(key, Candidate(first, second))
        if reason not in candidate.reasons:
            candidate.reasons.append(reason)

    for group in by_name.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if a.birth_year and b.birth_year and a.birth_year != b.birth_year:
                    continue
                add(a, b, SAME_NAME)
                if a.birth_year and a.birth_year == b.birth_year:
                    add(a, b, SAME_BIRTH_YEAR)
    for group in by_email.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                add(a, b, SAME_EMAIL)
    found = sorted(pairs.values(), key=lambda c: (c.first.number, c.second.number))
    return found[:limit]
