"""A club night of eight players in a public club, one round drawn (two tables), and the
live pages' Redis: the test Redis under a key prefix of the test's own."""

from __future__ import annotations

import datetime as dt
import os
import uuid

import pytest

from clabber_league.clubs.models import Role
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.live import publish
from tests.conftest import IN_CI
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

PASSWORD = "table-talk-42"
DEAL = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}


@pytest.fixture
def club():
    club = ClubFactory(name="De Lentemorgen", slug="lentemorgen", is_public=True)
    MembershipFactory(club=club, user=UserFactory(username="secretary"), role=Role.ADMIN)
    MembershipFactory(club=club, user=UserFactory(username="member"), role=Role.PLAYER)
    return club


@pytest.fixture
def night(club):
    names = ["Anna", "Bram", "Cor", "Dirk", "Els", "Fenna", "Gerrit", "Hanna"]
    event = event_services.event_create(
        club=club,
        name="Club night",
        date=dt.date(2026, 12, 5),
        rules="clabber",
        rounds=2,
        seed="000001",
    )
    for name in names:
        checkin.entry_check_in(event=event, player=PlayerFactory(club=club, name=name))
    rounds.round_draw(event=event)
    return event


def first_game(event):
    return event.round_set.get(number=1).tables.get(number=1).game


@pytest.fixture
def live_redis(settings):
    """The live pages on the test Redis (``REDIS_URL``), their keys under a prefix of this
    test's own; skipped without Redis (CI always has it)."""
    url = os.environ.get("REDIS_URL", "")
    if not url:
        if IN_CI:
            pytest.fail("CI=true needs REDIS_URL for the live pages' tests")
        pytest.skip("REDIS_URL is unset: the live stream's tests need Redis")
    prefix = f"test:live:{uuid.uuid4().hex[:8]}:"
    settings.LIVE_REDIS_URL = url
    settings.LIVE_KEY_PREFIX = prefix
    publish._publisher.down_until = 0.0
    yield url
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)
    publish._publisher.down_until = 0.0
