"""Who may do what, for every club-scoped endpoint and page, derived from the URL map.

Every URL under a club (``/api/clubs/<club>/...`` and ``/clubs/<club>/...``) is found in
the resolver, so a new endpoint is tested the day it is added; the table below says what
each one needs, and the test fails for an endpoint that is missing from it. Each is
called with every method it takes by every role of the club (anonymous, viewer, player,
scorer, club admin) and by the admin of another club:

- another club's admin never gets anything but 404, and anonymous visitors of a private
  club get 404 (or, for pages that need a login, the login page);
- a member whose role is too low gets 403;
- a role that is allowed is never refused (no 401/403/404 on the club's own objects);
- nobody ever gets a 5xx (a 405 for GET on a POST-only page is fine: it reveals nothing).

Writes run in a transaction that is rolled back, so one request cannot hide another.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from clabber_league.clubs.models import Role

READ, MEMBER, PLAY, SCORE, MANAGE = "read", "member", "play", "score", "manage"
RANK = {READ: 0, MEMBER: 1, PLAY: 2, SCORE: 3, MANAGE: 4}
ROLE_RANK = {None: -1, Role.VIEWER: 1, Role.PLAYER: 2, Role.SCORER: 3, Role.ADMIN: 4}

# API route name -> what its unsafe methods need (GET is always "read").
API = {
    "club-detail": READ,
    "member-list": MANAGE,
    "member-detail": MANAGE,
    "player-list": MANAGE,
    "player-detail": MANAGE,
    "player-merge": MANAGE,
    "house-rules-list": MANAGE,
    "house-rules-detail": MANAGE,
    "season-list": MANAGE,
    "season-detail": MANAGE,
    "division-list": MANAGE,
    "division-detail": MANAGE,
    "team-list": MANAGE,
    "team-detail": MANAGE,
    "team-withdraw": MANAGE,
    "team-calendar-link-list": MEMBER,
    "team-calendar-link-revoke": MANAGE,
    "venue-list": MANAGE,
    "venue-detail": MANAGE,
    "fixture-list": MANAGE,
    "fixture-detail": MANAGE,
    "fixture-postpone": MANAGE,
    "fixture-forfeit": MANAGE,
    "schedule-config-list": MANAGE,
    "schedule-config-detail": MANAGE,
    "schedule-run-list": MANAGE,
    "schedule-run-detail": MANAGE,
    "schedule-run-retry": MANAGE,
    "game-list": SCORE,
    "game-detail": SCORE,
    "game-confirm": PLAY,
    "game-abandon": SCORE,
    "game-paper-sheet": SCORE,
    "game-table-link": MANAGE,
    "game-table-link-revoke": MANAGE,
    "deal-list": SCORE,
    "deal-detail": SCORE,
    "deal-preview": SCORE,
    "deal-set-aside": SCORE,
    "game-history-list": READ,
    "game-history-detail": READ,
    "standings-list": MANAGE,
    "standings-detail": MANAGE,
    "standings-tiebreakers": MANAGE,
    "standings-deals": READ,
    "standings-table-csv": READ,
    "standings-deals-csv": READ,
    "standings-csv": READ,
    "leaderboard-players": READ,
    "leaderboard-partnerships": READ,
    "leaderboard-players-csv": READ,
    "leaderboard-partnerships-csv": READ,
    "leaderboard-list": READ,
    "rating-list": READ,
    "rating-detail": READ,
    "rating-history": READ,
    "rating-history-csv": READ,
    "ratings-csv-list": READ,
    "invitation-list": MANAGE,
    "invitation-detail": MANAGE,
    "invitation-revoke": MANAGE,
    "invitation-claim": MANAGE,
    "dispute-list": MANAGE,
    "dispute-detail": MANAGE,
    "dispute-resolve": MANAGE,
    "handover-confirm": SCORE,
    "handover-dispute": SCORE,
    "handover-pin": SCORE,
    "handover-state": SCORE,
    "player-pin-list": MANAGE,
    "player-pin-reset": MANAGE,
    "event-list": MANAGE,
    "event-detail": MANAGE,
    "event-ranking": READ,
    "event-prizes": READ,
    "event-entry-list": MANAGE,
    "event-entry-detail": MANAGE,
    "event-entry-leave": MANAGE,
    "event-entry-paid": MANAGE,
    "event-round-list": MANAGE,
    "event-round-detail": MANAGE,
    "event-round-call-time": MANAGE,
    "event-round-check": READ,
    "event-round-finish": MANAGE,
    "event-table-list": READ,
    "event-series-list": MANAGE,
    "event-series-detail": MANAGE,
    "event-series-ranking": READ,
    "cup-list": MANAGE,
    "cup-detail": MANAGE,
    "cup-seed": MANAGE,
    "cup-draw": MANAGE,
    "cup-build": MANAGE,
    "cup-bracket": READ,
    "cup-place-round": MANAGE,
    "cup-tie-list": MANAGE,
    "cup-tie-detail": MANAGE,
    "cup-tie-start": MANAGE,
    "cup-tie-walkover": MANAGE,
    "cup-tie-place": MANAGE,
    "webhook-list": MANAGE,
    "webhook-detail": MANAGE,
    "webhook-test": MANAGE,
    "webhook-rotate-secret": MANAGE,
    "webhook-delivery-list": MANAGE,
    "webhook-delivery-detail": MANAGE,
    "webhook-delivery-resend": MANAGE,
}
# API routes whose reads need more than "read" (everything else: GET needs "read").
API_READS = {
    "game-table-link": SCORE,  # the link gives scorer rights: only scorers see it
    "invitation-list": MANAGE,
    "invitation-detail": MANAGE,
    "dispute-list": MANAGE,
    "dispute-detail": MANAGE,
    "player-pin-list": MANAGE,
    "player-pin-reset": MANAGE,
    "webhook-list": MANAGE,
    "webhook-detail": MANAGE,
    "webhook-delivery-list": MANAGE,
    "webhook-delivery-detail": MANAGE,
}
# Page name -> (what GET needs, what POST needs).
PAGES = {
    "club-home": (READ, READ),
    "club-settings": (MANAGE, MANAGE),
    "club-backup": (MANAGE, MANAGE),
    "club-delete": (MANAGE, MANAGE),
    "club-members-add": (MANAGE, MANAGE),
    "house-rules-sheet": (READ, READ),
    "games:new": (SCORE, SCORE),
    "games:detail": (READ, READ),
    "games:deal-new": (SCORE, SCORE),
    "games:deal-preview": (SCORE, SCORE),
    "games:deal-edit": (SCORE, SCORE),
    "games:deal-delete": (SCORE, SCORE),
    "games:confirm": (PLAY, PLAY),
    "games:abandon": (SCORE, SCORE),
    "games:sheet-rows": (SCORE, SCORE),
    "games:table-card": (SCORE, SCORE),
    "games:table-link-new": (MANAGE, MANAGE),
    "games:table-link-revoke": (MANAGE, MANAGE),
    "games:fixture-table-card": (SCORE, SCORE),
    "games:fixture-table-link-new": (MANAGE, MANAGE),
    "games:fixture-table-link-revoke": (MANAGE, MANAGE),
    "scheduling:index": (READ, READ),
    "scheduling:season-new": (MANAGE, MANAGE),
    "scheduling:season": (READ, MANAGE),
    "scheduling:venue-new": (MANAGE, MANAGE),
    "scheduling:venue": (READ, READ),
    "scheduling:division": (READ, READ),
    "scheduling:setup": (MANAGE, MANAGE),
    "scheduling:team-new": (MANAGE, MANAGE),
    "scheduling:generate": (MANAGE, MANAGE),
    "scheduling:run": (MANAGE, MANAGE),
    "scheduling:run-status": (MANAGE, MANAGE),
    "scheduling:run-retry": (MANAGE, MANAGE),
    "scheduling:team": (READ, READ),
    "scheduling:team-ics": (READ, READ),
    "scheduling:team-feed-key": (MEMBER, MEMBER),
    "scheduling:team-feed-keys-revoke": (MANAGE, MANAGE),
    "scheduling:night": (READ, READ),
    "scheduling:night-sheet": (READ, READ),
    "scheduling:fixture-move": (MANAGE, MANAGE),
    "scheduling:fixture-forfeit": (MANAGE, MANAGE),
    "scheduling:team-edit": (MANAGE, MANAGE),
    "scheduling:team-withdraw": (MANAGE, MANAGE),
    "scheduling:withdrawal-policy": (MANAGE, MANAGE),
    "standings:index": (READ, READ),
    "standings:leaderboards": (READ, READ),
    "standings:division": (READ, READ),
    "standings:positions": (READ, READ),
    "standings:tiebreakers": (MANAGE, MANAGE),
    "standings:standings-csv": (READ, READ),
    "standings:deals-csv": (READ, READ),
    "standings:team": (READ, READ),
    "standings:player": (READ, READ),
    "members:invitations": (MANAGE, MANAGE),
    "members:invitation": (MANAGE, MANAGE),
    "members:invitation-revoke": (MANAGE, MANAGE),
    "members:invitation-claim": (MANAGE, MANAGE),
    "members:security": (MANAGE, MANAGE),
    "members:players": (MANAGE, MANAGE),
    "members:player-merge": (MANAGE, MANAGE),
    "members:disputes": (MANAGE, MANAGE),
    "members:dispute": (MANAGE, MANAGE),
    "members:handover": (SCORE, SCORE),
    "members:handover-dispute": (SCORE, SCORE),
    "members:table-pin": (SCORE, SCORE),
    "members:pins": (MANAGE, MANAGE),
    "members:pin": (MANAGE, MANAGE),
    "events:index": (READ, READ),
    "events:new": (MANAGE, MANAGE),
    "events:series-new": (MANAGE, MANAGE),
    "events:detail": (READ, READ),
    "events:edit": (MANAGE, MANAGE),
    "events:check-in": (MANAGE, MANAGE),
    "events:walk-in": (MANAGE, MANAGE),
    "events:pair": (MANAGE, MANAGE),
    "events:leave": (MANAGE, MANAGE),
    "events:paid": (MANAGE, MANAGE),
    "events:draw": (MANAGE, MANAGE),
    "events:round-finish": (MANAGE, MANAGE),
    "events:round-time": (MANAGE, MANAGE),
    "events:round-status": (READ, READ),
    "events:display": (READ, READ),
    "events:display-live": (READ, READ),
    "events:prizes": (READ, READ),
    "events:draw-check": (READ, READ),
    "events:round-draw": (READ, READ),
    "events:round-cards": (MANAGE, MANAGE),
    "events:series-index": (READ, READ),
    "events:series": (READ, READ),
    "events:player-nights": (READ, READ),
    "cups:list": (READ, READ),
    "cups:new": (MANAGE, MANAGE),
    "cups:detail": (READ, READ),
    "cups:bracket": (READ, READ),
    "cups:seed": (MANAGE, MANAGE),
    "cups:draw": (MANAGE, MANAGE),
    "cups:build": (MANAGE, MANAGE),
    "cups:place": (MANAGE, MANAGE),
    "cups:tie": (READ, READ),
    "cups:tie-start": (MANAGE, MANAGE),
    "cups:tie-walkover": (MANAGE, MANAGE),
    "cups:tie-place": (MANAGE, MANAGE),
    "webhooks:list": (MANAGE, MANAGE),
    "webhooks:detail": (MANAGE, MANAGE),
    "webhooks:pause": (MANAGE, MANAGE),
    "webhooks:delete": (MANAGE, MANAGE),
    "webhooks:test": (MANAGE, MANAGE),
    "webhooks:rotate-secret": (MANAGE, MANAGE),
    "webhooks:resend": (MANAGE, MANAGE),
    # The live pages (issue 35): read as the club is read (a members-only club's refuse
    # visitors: tests/live/test_access.py); the index's form is a club admin's.
    "live:index": (READ, MANAGE),
    "live:page": (READ, READ),
    "live:board-json": (READ, READ),
    "live:stream": (READ, READ),
    "live:overlay": (READ, READ),
}
ROLES = [None, Role.VIEWER, Role.PLAYER, Role.SCORER, Role.ADMIN]
# Who belongs to a club (usernames, roles) is shown to its members only, even when public.
MEMBERS_ONLY = {"member-list", "member-detail"}


def _walk(patterns, prefix="", namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + str(p.pattern), f"{namespace}{p.name}", p


def club_routes():
    """(kind, name, pattern) of every club-scoped route, without format-suffix twins."""
    seen = set()
    for route, name, pattern in _walk(get_resolver().url_patterns):
        if "club_slug" not in route or "format" in route:
            continue
        kind = "api" if route.startswith("api/") else "page"
        if (kind, name) not in seen:
            seen.add((kind, name))
            pattern.full_route = route
            yield kind, name, pattern


def test_every_club_scoped_route_is_in_the_table():
    missing = [
        f"{kind} {name}"
        for kind, name, _ in club_routes()
        if name not in (API if kind == "api" else PAGES)
    ]
    assert not missing, f"add these to the permission table: {missing}"


@pytest.fixture
def world(game, teams, division, club):
    """One club with an object of each kind, and a second club with its own admin."""
    from django.utils import timezone

    from clabber_league.games import services
    from clabber_league.leagues.models import HouseRules, Venue
    from clabber_league.members.models import Dispute, Invitation
    from clabber_league.scheduling.models import Fixture, ScheduleConfig, ScheduleRun
    from clabber_league.standings.models import PlayerRating
    from tests.factories import ClubFactory, MembershipFactory, UserFactory

    services.deal_record(
        game_id=game.pk,
        data={"maker": "A", "trump": "clubs", "points": {"A": 100, "B": 52}, "last_trick": "A"},
    )
    a, b = teams
    venue = Venue.objects.create(club=club, name="Hall", tables=4)
    fixture = Fixture.objects.create(
        club=club, division=division, round_number=1, home=a, away=b, venue=venue
    )
    users = {None: None}
    for role in ROLES[1:]:
        users[role] = MembershipFactory(
            club=club, role=role, user=UserFactory(username=f"m-{role}")
        ).user
    other = ClubFactory(slug="elsewhere")
    outsider = MembershipFactory(
        club=other, role=Role.ADMIN, user=UserFactory(username="outsider")
    ).user
    player = a.members.first().player
    house_rules = HouseRules.objects.create(
        club=club, name="Derda", base="klaberjass", options={"meld_values": {"run-3": 30}}
    )
    config = ScheduleConfig.objects.create(
        club=club, division=division, start_date=datetime.date(2026, 9, 7)
    )
    run = ScheduleRun.objects.create(club=club, division=division)
    PlayerRating.objects.create(club=club, player=player, mu=25.0, sigma=8.3)
    invitation = Invitation.objects.create(
        club=club, expires_at=timezone.now() + datetime.timedelta(days=3)
    )
    dispute = Dispute.objects.create(club=club, game=game, reason="Deal 1 was ours")
    event, event_round, event_entry, event_series = _club_night(club)
    from clabber_league.cups.services.setup import cup_create, cup_draw

    cup = cup_draw(cup=cup_create(club=club, name="Cup", teams=[a, b]))
    webhook, delivery = _webhook(club)
    objects = {
        "game": game.pk,
        "deal": game.deals.first().pk,
        "player": player.pk,
        "team": a.pk,
        "division": division.pk,
        "season": division.season.pk,
        "fixture": fixture.pk,
        "venue": venue.pk,
        "member": club.memberships.first().pk,
        "house_rules": house_rules.pk,
        "schedule_config": config.pk,
        "schedule_run": run.pk,
        "revision": game.revisions.first().pk,
        "invitation": invitation.pk,
        "dispute": dispute.pk,
        "event": event.pk,
        "event_round": event_round.pk,
        "event_entry": event_entry.pk,
        "event_series": event_series.pk,
        "cup": cup.pk,
        "tie": cup.ties.get().pk,
        "webhook": webhook.pk,
        "webhook_delivery": delivery.pk,
    }
    return {
        "club": club,
        "users": users,
        "outsider": outsider,
        "objects": objects,
        "season_slug": division.season.slug,
    }


def _club_night(club):
    """A club night of a series with four players checked in and round 1 drawn."""
    from clabber_league.events.services import checkin, rounds
    from clabber_league.events.services import events as event_services
    from tests.factories import PlayerFactory

    series = event_services.series_create(club=club, name="Winter nights")
    event = event_services.event_create(
        club=club,
        name="Club night",
        date=datetime.date(2026, 12, 1),
        rules="clabber",
        series=series,
    )
    entries = [
        checkin.entry_check_in(event=event, player=PlayerFactory(club=club)) for _ in range(4)
    ]
    return event, rounds.round_draw(event=event), entries[0], series


def _webhook(club):
    """A webhook of the club (to 127.0.0.1: the test settings allow it) with a delivery."""
    from clabber_league.webhooks.models import Delivery, Subscription

    webhook = Subscription.objects.create(
        club=club, url="http://127.0.0.1:9/hook", events=["result.confirmed"], secret="whsec_QQ=="
    )
    delivery = Delivery.objects.create(
        subscription=webhook, event_id="msg_1", event_type="webhook.test", payload={}
    )
    return webhook, delivery


# Which object a route's ``pk``/``id`` names.
PK_OBJECT = {
    "member": "member",
    "player": "player",
    "house-rules": "house_rules",
    "season": "season",
    "division": "division",
    "team": "team",
    "venue": "venue",
    "fixture": "fixture",
    "schedule-config": "schedule_config",
    "schedule-run": "schedule_run",
    "game": "game",
    "deal": "deal",
    "game-history": "revision",
    "standings": "division",
    "leaderboard": "division",
    "games": "game",
    "scheduling:venue": "venue",
    "scheduling:division": "division",
    "scheduling:setup": "division",
    "scheduling:team-new": "division",
    "scheduling:generate": "division",
    "scheduling:run": "schedule_run",
    "scheduling:run-status": "schedule_run",
    "scheduling:run-retry": "schedule_run",
    "scheduling:team": "team",
    "scheduling:team-ics": "team",
    "scheduling:fixture-move": "fixture",
    "scheduling:fixture-forfeit": "fixture",
    "standings:team": "team",
    "standings:player": "player",
    "members:invitation": "invitation",
    "invitation": "invitation",
    "dispute": "dispute",
    "members:dispute": "dispute",
    "members:handover": "game",
    "members:table-pin": "game",
    "members:pin": "player",
    "members:player-merge": "player",
    "scheduling:withdrawal-policy": "division",
    "event": "event",
    "event-entry": "event_entry",
    "event-round": "event_round",
    "event-series": "event_series",
    "events": "event",
    "events:series": "event_series",
    "events:player-nights": "player",
    "cup": "cup",
    "cup-tie": "tie",
    "cups": "cup",
    "cups:tie": "tie",
    "webhook": "webhook",
    "webhook-delivery": "webhook_delivery",
    "webhooks": "webhook",
}


def _pk_object(name: str) -> str:
    """The object of the longest table key that the route name starts with."""
    keys = [k for k in PK_OBJECT if name == k or name.startswith((k + "-", k + ":"))]
    return PK_OBJECT[max(keys, key=len)]


def _kwargs(name: str, pattern, world) -> dict:
    objects = world["objects"]
    values = {
        "club_slug": world["club"].slug,
        "game_id": objects["game"],
        "team_id": objects["team"],
        "number": 1,
        "slug": world["season_slug"],
        "day": "2026-09-07",
        "player": objects["player"],
        "player_id": objects["player"],
        "event_id": objects.get("event"),
        "cup_id": objects["cup"],
        "cup_pk": objects["cup"],
        "fixture_pk": objects["fixture"],
        "webhook_id": objects.get("webhook"),
        "delivery_pk": objects.get("webhook_delivery"),
        # a live board: the first pattern of each name is a club night's
        "kind": "night",
        "ref": str(objects.get("event")),
    }
    kwargs = {}
    keys = re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", pattern.full_route)
    for key in [a or b for a, b in keys]:
        kwargs[key] = objects[_pk_object(name)] if key in ("pk", "id") else values[key]
    return kwargs


def _methods(kind: str, pattern) -> list[str]:
    if kind == "page":
        return ["get", "post"]
    actions = getattr(pattern.callback, "actions", None) or {}
    return sorted(actions) or ["get"]


def _allowed(role, need: str) -> bool:
    return ROLE_RANK[role] >= RANK[need] if need != READ else role is not None


@pytest.mark.django_db
@pytest.mark.parametrize("role", [*ROLES, "outsider"], ids=lambda r: str(r or "anonymous"))
def test_every_route_answers_each_role_as_the_table_says(world, role):
    problems = []
    for kind, name, pattern in club_routes():
        table = API if kind == "api" else PAGES
        if name not in table:
            continue  # reported by test_every_club_scoped_route_is_in_the_table
        url = reverse(name, kwargs=_kwargs(name, pattern, world))
        for method in _methods(kind, pattern):
            if kind == "api":
                need = (
                    API_READS.get(name, READ)
                    if method in ("get", "head", "options")
                    else table[name]
                )
            else:
                need = table[name][0 if method == "get" else 1]
            status = _call(kind, method, url, world, role)
            expected = _judge(kind, role, need, status)
            if expected:
                problems.append(
                    f"{method.upper()} {url} ({name}, needs {need}): {status}, {expected}"
                )
    assert not problems, "\n".join(problems)


def _call(kind, method, url, world, role) -> int:
    client = APIClient()
    user = world["outsider"] if role == "outsider" else world["users"][role]
    if user is not None:
        client.force_login(user)
    with transaction.atomic():
        response = (
            getattr(client, method)(url, {}, format="json")
            if kind == "api"
            else getattr(client, method)(url, {})
        )
        transaction.set_rollback(True)
    return response.status_code


def _judge(kind, role, need, status) -> str:
    """What is wrong with ``status`` for this role and need ('' when it is right)."""
    if status >= 500:
        return "a server error"
    if status == 405:  # a POST-only page asked with GET: refused before anything is read
        return ""
    if role == "outsider":
        return "" if status == 404 else "another club's admin must get 404"
    if role is None:  # the club is private: a 404, or the login page for pages that need one
        if kind == "page" and need != READ:
            return "" if status in (302, 404) else "anonymous users must be sent to log in"
        return "" if status in (401, 403, 404) else "anonymous users must not see a private club"
    if ROLE_RANK[role] >= RANK[need]:
        return "" if status not in (401, 403, 404) else "an allowed role was refused"
    return "" if status == 403 else "a role that is too low must get 403"


@pytest.mark.django_db
def test_a_public_club_is_read_by_anyone_and_written_by_nobody_outside(world):
    world["club"].is_public = True
    world["club"].save()
    problems = []
    for kind, name, pattern in club_routes():
        table = API if kind == "api" else PAGES
        url = reverse(name, kwargs=_kwargs(name, pattern, world))
        for method in _methods(kind, pattern):
            if kind == "api":
                need = (
                    API_READS.get(name, READ)
                    if method in ("get", "head", "options")
                    else table[name]
                )
            else:
                need = table[name][0 if method == "get" else 1]
            for role in (None, "outsider"):
                status = _call(kind, method, url, world, role)
                if status >= 500:
                    wrong = "a server error"
                elif status == 405:
                    wrong = ""
                elif need == READ and name in MEMBERS_ONLY:
                    wrong = "" if status in (200, 404) else "members must stay private"
                elif need == READ:
                    wrong = "" if status not in (401, 403, 404) else "a public club hid a page"
                else:
                    refused = (401, 403) if kind == "api" else (302, 403, 404)
                    wrong = "" if status in refused else "someone outside the club wrote"
                if wrong:
                    problems.append(
                        f"{method.upper()} {url} as {role or 'anonymous'}: {status}, {wrong}"
                    )
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_the_member_list_of_a_public_club_is_empty_to_outsiders(world):
    world["club"].is_public = True
    world["club"].save()
    url = f"/api/clubs/{world['club'].slug}/members/"
    assert APIClient().get(url).json()["results"] == []
    member = APIClient()
    member.force_login(world["users"][Role.VIEWER])
    assert len(member.get(url).json()["results"]) == world["club"].memberships.count()
