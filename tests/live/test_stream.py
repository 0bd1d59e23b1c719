"""The stream: each saved deal reaches a follower once its transaction commits; a follower
that lost its connection resumes from ``Last-Event-ID``; one too far behind is told to
start again from the board; and with Redis unreachable the deal is saved as quickly as
ever and the page's polling still sees it."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections, transaction
from django.test import AsyncClient, Client

from clabber_league.games import services as games
from clabber_league.games.models import Deal
from clabber_league.live import publish, streams

from .conftest import DEAL, first_game

pytestmark = pytest.mark.django_db(transaction=True)


def _stream_url(club, night):
    return f"/clubs/{club.slug}/live/night/{night.pk}/stream/"


def _events(text: str) -> list[dict[str, str]]:
    """The SSE events in ``text``: each a dict of its fields (comments left out)."""
    found = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.strip()
        if fields and set(fields) != {"retry"}:
            found.append(fields)
    return found


async def _follow(url: str, *, headers=None, until, during=None, timeout: float = 10.0) -> str:
    """Read the stream at ``url`` until ``until(text)``; ``during`` (sync) runs once the
    stream said it is ready."""
    response = await AsyncClient().get(url, headers=headers or {})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    text = ""
    iterator = aiter(response.streaming_content)
    ran = during is None
    deadline = time.monotonic() + timeout
    while not until(text):
        left = deadline - time.monotonic()
        assert left > 0, f"the stream did not say it in time:\n{text}"
        chunk = await asyncio.wait_for(anext(iterator), left)
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        if not ran and "event: ready" in text:
            ran = True
            await sync_to_async(during)()
    return text


def _read(url: str, **kwargs) -> str:
    """``_follow`` from a thread of its own, as a server's would: the test's thread may
    have an event loop running (the browser tests' Playwright leaves one in each pytest
    worker), where ``async_to_sync`` refuses to start. Its connections close with it."""

    def run() -> str:
        try:
            return async_to_sync(_follow)(url, **kwargs)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _log_ids(url_prefix_key: str) -> list[str]:
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    return [i.decode() for i, _fields in client.xrange(url_prefix_key)]


def test_a_saved_deal_reaches_a_follower(live_redis, club, night):
    game = first_game(night)

    def save():
        games.deal_record(game_id=game.pk, data=DEAL)

    text = _read(_stream_url(club, night), until=lambda t: '"deals":1' in t, during=save)
    news = [e for e in _events(text) if "id" in e]
    assert len(news) == 1
    data = json.loads(news[0]["data"])
    assert data["game"] == game.pk
    assert data["scores"] == {"A": 152, "B": 10}
    assert data["status"] == "in_progress"
    assert streams.EVENT_ID.match(news[0]["id"])


def test_a_stream_resumes_from_last_event_id(live_redis, club, night):
    game = first_game(night)
    for _ in range(3):
        games.deal_record(game_id=game.pk, data=DEAL)
    ids = _log_ids(streams.log_key(streams.night(night.pk)))
    assert len(ids) == 3

    text = _read(
        _stream_url(club, night),
        headers={"Last-Event-ID": ids[0]},
        until=lambda t: "event: ready" in t,
    )
    replayed = [e for e in _events(text) if "id" in e]
    assert [e["id"] for e in replayed] == ids[1:]  # what it missed, in order, once each
    assert [json.loads(e["data"])["deals"] for e in replayed] == [2, 3]


def test_a_follower_whose_event_left_the_log_is_told_to_start_again(live_redis, club, night):
    import redis
    from django.conf import settings

    game = first_game(night)
    for _ in range(3):
        games.deal_record(game_id=game.pk, data=DEAL)
    key = streams.log_key(streams.night(night.pk))
    ids = _log_ids(key)
    redis.Redis.from_url(settings.LIVE_REDIS_URL).xtrim(key, maxlen=1, approximate=False)

    text = _read(
        _stream_url(club, night),
        headers={"Last-Event-ID": ids[0]},
        until=lambda t: "event: ready" in t,
    )
    names = [e.get("event") for e in _events(text)]
    assert names == ["reset", "ready"]  # the page fetches the board instead


def test_a_deal_rolled_back_is_never_announced(live_redis, club, night):
    game = first_game(night)
    with pytest.raises(RuntimeError), transaction.atomic():
        games.deal_record(game_id=game.pk, data=DEAL)
        raise RuntimeError("the request failed after the deal")
    assert _log_ids(streams.log_key(streams.night(night.pk))) == []
    games.deal_record(game_id=game.pk, data=DEAL)
    assert len(_log_ids(streams.log_key(streams.night(night.pk)))) == 1


@pytest.fixture
def live_redis_down(settings):
    """The live pages' Redis on a port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.LIVE_REDIS_URL = f"redis://127.0.0.1:{port}/0"
    publish._publisher.down_until = 0.0
    yield settings.LIVE_REDIS_URL
    publish._publisher.down_until = 0.0


def test_with_redis_down_deals_are_saved_and_the_page_polls(live_redis_down, club, night):
    game = first_game(night)
    took, gave_up_until = [], []
    for _ in range(3):
        started = time.perf_counter()
        recorded = games.deal_record(game_id=game.pk, data=DEAL)
        took.append(time.perf_counter() - started)
        gave_up_until.append(publish._publisher.down_until)
        assert recorded.created
    assert Deal.objects.filter(game=game).count() == 3
    # Nothing waits for a Redis that is not there: the first save's publish tried once
    # and gave up (for RETRY_AFTER seconds); the next saves did not even try.
    assert gave_up_until[0] > 0
    assert gave_up_until == [gave_up_until[0]] * 3
    assert max(took) < 3.0, took  # a refused connection; generous for a busy machine

    visitor = Client()
    url = f"/clubs/{club.slug}/live/night/{night.pk}/board.json"
    board = visitor.get(url)
    assert board.status_code == 200
    table = board.json()["tables"][0]
    assert table["deals"] == 3
    assert [s["score"] for s in table["sides"]] == [456, 30]
    again = visitor.get(url, headers={"If-None-Match": board["ETag"]})
    assert again.status_code == 304  # nothing new: the poll costs no body

    games.deal_record(game_id=game.pk, data=DEAL)
    changed = visitor.get(url, headers={"If-None-Match": board["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["tables"][0]["deals"] == 4

    # The stream itself says "fallback" and ends: the page's script polls.
    text = _read(_stream_url(club, night), until=lambda t: "fallback" in t)
    assert [e.get("event") for e in _events(text)] == ["fallback"]
