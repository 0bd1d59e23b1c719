"""Where the ranking's results come from: each source yields ``compute.EventResult``
values (the input shape, documented in ``compute.py``).

* ``local_events``: the confirmed games of the federation's active member clubs and of its
  organiser space, one event per game, its players by the federation number their club
  linked them to (``PlayerLink`` approved). A side's players without a number play as
  newcomers (``unlinked``). Category: ``league`` (a division's game), ``cup`` (a cup tie's),
  ``night`` (a club night's table) or ``friendly``.
* Any source registered with ``results_source_register(fn)``: ``fn(federation)`` returns
  an iterable of ``EventResult``. The exchange's imported rows join the ranking this way
  (the lead wires it: one ``EventResult`` per imported event, ``key`` the file's event key,
  ``numbers`` as in the file, placing and score per side as imported). A source's events
  are rated with the local ones, by date.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from clabber_league.cups.models import TieGame
from clabber_league.events.models import Table
from clabber_league.federation.models import Federation, FederationClub, PlayerLink
from clabber_league.games.models import Game, GameSeat
from clabber_league.rules.errors import RulesError
from clabber_league.rules.rulesets import ruleset_from_data

from .compute import EventResult, SideResult
from .models import OrganiserSpace

Source = Callable[[Federation], Iterable[EventResult]]
SOURCES: list[Source] = []


def results_source_register(source: Source) -> Source:
    """Add a source of results (usable as a decorator); the local games are always one."""
    if source not in SOURCES:
        SOURCES.append(source)
    return source


def ranking_clubs(federation: Federation) -> list[int]:
    """The clubs whose games count: the active member clubs and the organiser space."""
    ids = set(
        FederationClub.objects.filter(federation=federation, active=True).values_list(
            "club_id", flat=True
        )
    )
    ids.update(
        OrganiserSpace.objects.filter(federation=federation).values_list("club_id", flat=True)
    )
    return sorted(ids)


@lru_cache(maxsize=256)
def _rules_label(rules: str) -> tuple[str, int | None]:
    import json

    try:
        ruleset = ruleset_from_data(json.loads(rules))
    except (RulesError, ValueError, TypeError, KeyError):
        return rules[:80], None
    return f"{ruleset.slug} · {ruleset.target}", ruleset.target


def _from(since: dt.date | None, prefix: str = "") -> Q:
    """Games played (or, without a date, confirmed) on ``since`` or later; all without it."""
    if since is None:
        return Q()
    return Q(**{f"{prefix}played_on__gte": since}) | Q(
        **{f"{prefix}played_on__isnull": True, f"{prefix}confirmed_at__date__gte": since}
    )


def local_events(federation: Federation, since: dt.date | None = None) -> Iterator[EventResult]:
    """The confirmed games of the federation's clubs as events (those of ``since`` and
    later only, when given): four queries in all."""
    import json

    clubs = ranking_clubs(federation)
    numbers = dict(
        PlayerLink.objects.filter(
            federation=federation, status=PlayerLink.Status.APPROVED, player__club_id__in=clubs
        ).values_list("player_id", "federation_player__number")
    )
    games = (
        Game.objects.filter(_from(since), club_id__in=clubs, status=Game.Status.CONFIRMED)
        .annotate(
            is_cup=Exists(TieGame.objects.filter(game_id=OuterRef("pk"))),
            is_night=Exists(Table.objects.filter(game_id=OuterRef("pk"))),
        )
        .values_list(
            "pk",
            "club_id",
            "division_id",
            "rules",
            "score_a",
            "score_b",
            "score_c",
            "played_on",
            "confirmed_at",
            "is_cup",
            "is_night",
        )
        .order_by("pk")
    )
    seats: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    rows = GameSeat.objects.filter(
        _from(since, "game__"), game__club_id__in=clubs, game__status=Game.Status.CONFIRMED
    )
    for game_id, side, player_id in rows.order_by("game_id", "seat").values_list(
        "game_id", "side", "player_id"
    ):
        seats[game_id][side].append(player_id)
    for pk, club_id, division_id, rules, a, b, c, played_on, confirmed_at, cup, night in games:
        scores = {"A": a, "B": b} | ({"C": c} if c is not None else {})
        sides = []
        for side, score in scores.items():
            players = seats[pk].get(side, [])
            linked = tuple(numbers[p] for p in players if p in numbers)
            sides.append(
                SideResult(numbers=linked, score=score, unlinked=len(players) - len(linked))
            )
        label, target = _rules_label(json.dumps(rules, sort_keys=True))
        day = played_on or (
            timezone.localdate(confirmed_at) if confirmed_at else timezone.localdate()
        )
        category = "cup" if cup else "night" if night else "league" if division_id else "friendly"
        yield EventResult(
            key=f"club-{club_id}:game-{pk}",
            date=day,
            category=category,
            rules=label,
            target=target,
            sides=tuple(sides),
        )


def all_events(federation: Federation, since: dt.date | None = None) -> Iterator[EventResult]:
    """The local games and every registered source's events (of ``since`` and later)."""
    yield from local_events(federation, since)
    for source in SOURCES:
        yield from (e for e in source(federation) if since is None or e.date >= since)
