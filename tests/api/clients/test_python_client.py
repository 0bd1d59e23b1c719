"""A club night and a cup run by a program written against the Python client generated
from the live schema (openapi-python-client): no hand-written request. The season is
tests/api/test_generated_client.py's."""

from __future__ import annotations

import datetime as dt
import importlib
import time

import pytest

PACKAGE = "clabber_client"
#: Bounded polling of work the server queues (a round's draw): a worker takes a moment.
POLLS, POLL_PAUSE = 100, 0.2

pytestmark = pytest.mark.django_db(transaction=True)


class Api:
    """The generated operations and models, and the club's logins as clients."""

    def __init__(self, package, base_url: str, club) -> None:
        self.m = importlib.import_module(f"{PACKAGE}.models")
        self.slug = club.slug
        self.as_ = {
            who: package.AuthenticatedClient(
                base_url=base_url, token=token, prefix="Token", raise_on_unexpected_status=True
            )
            for who, token in club.tokens.items()
        }

    def __call__(self, tag: str, name: str, who: str, *args, status: int = 200, **kwargs):
        module = importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")
        response = module.sync_detailed(self.slug, *args, client=self.as_[who], **kwargs)
        assert response.status_code == status, response.content
        return response.parsed


@pytest.fixture
def api(client_package, live_server, club_logins, celery_worker_process):
    return Api(client_package, live_server.url, club_logins)


def _players(api: Api, count: int) -> list[int]:
    made = [
        api(
            "clubs",
            "clubs_players_create",
            "secretary",
            status=201,
            body=api.m.PlayerRequest(name=f"P{n}"),
        )
        for n in range(1, count + 1)
    ]
    return [p.id for p in made]


def _deal(api: Api, a: int = 142):
    m = api.m
    return m.DealInputRequest(
        maker=m.SideEnum.A,
        trump=m.TrumpEnum.HEARTS,
        points=m.PerSideInputRequest(a=a, b=152 - a),
        last_trick=m.SideEnum.A,
    )


def _play_out(api: Api, game_id: int, key: str) -> object:
    """Deals (side A winning each) until the game is over; the game as it ends."""
    m = api.m
    for number in range(1, 60):
        api(
            "games",
            "clubs_games_deals_create",
            "scorer",
            game_id,
            status=201,
            body=_deal(api),
            idempotency_key=f"{key}-{number}",
        )
        game = api("games", "clubs_games_retrieve", "scorer", game_id)
        if game.status != m.GameStatusEnum.IN_PROGRESS:
            return game
    raise AssertionError("the game never ended")


def test_a_club_night_through_the_generated_client(api):
    m = api.m
    players = _players(api, 8)
    event = api(
        "events",
        "clubs_events_create",
        "secretary",
        status=201,
        body=m.EventRequest(
            name="Tuesday night",
            date=dt.date(2027, 1, 12),
            rules="clabber",
            rounds=1,
            round_kind=m.RoundKindEnum.DEALS,
            round_deals=2,
            entry_fee_cents=500,
        ),
    )
    for player in players:
        entry = api(
            "events",
            "clubs_events_entries_create",
            "secretary",
            event.id,
            status=201,
            body=m.CheckInRequest(player=player, paid=True),
        )
        assert entry.player == player and entry.paid

    drawn = api("events", "clubs_events_rounds_create", "secretary", event.id, status=201)
    round_ = drawn
    for _ in range(POLLS):
        if round_.status != m.RoundStatusEnum.DRAWING:
            break
        time.sleep(POLL_PAUSE)
        round_ = api("events", "clubs_events_rounds_retrieve", "secretary", event.id, drawn.id)
    assert round_.status == m.RoundStatusEnum.PLAYING, round_.message
    assert len(round_.tables) == 2 and all(len(t.seats) == 4 for t in round_.tables)

    tables = api("events", "clubs_events_tables_list", "scorer", event.id, round_=1).results
    for table in tables:
        game = _play_out(api, table.game, key=f"night-{table.number}")
        assert game.status == m.GameStatusEnum.FINISHED

    ranking = api("events", "clubs_events_ranking_retrieve", "scorer", event.id)
    assert len(ranking.lines) == 8 and ranking.live is False
    assert ranking.lines[0].position == 1
    winners = {s.player for t in tables for s in t.seats if s.side == m.SideEnum.A}
    assert {line.player for line in ranking.lines[:4]} == winners
    prizes = api("events", "clubs_events_prizes_retrieve", "scorer", event.id)
    assert prizes.takings_cents == 8 * 500


def test_a_cup_through_the_generated_client(api):
    m = api.m
    players = _players(api, 4)
    season = api(
        "leagues",
        "clubs_seasons_create",
        "secretary",
        status=201,
        body=m.SeasonRequest(name="Cup season", slug="cup-season", start_date=dt.date(2027, 1, 4)),
    )
    division = api(
        "leagues",
        "clubs_divisions_create",
        "secretary",
        status=201,
        body=m.DivisionRequest(season=season.id, name="Cup", slug="cup", ruleset="clabber"),
    )
    teams = [
        api(
            "leagues",
            "clubs_teams_create",
            "secretary",
            status=201,
            body=m.TeamRequest(division=division.id, name=name, players=pair),
        )
        for name, pair in (("Aces", players[:2]), ("Jacks", players[2:]))
    ]
    cup = api(
        "cups",
        "clubs_cups_create",
        "secretary",
        status=201,
        body=m.CupCreateRequest(
            name="Knockout", teams=[t.id for t in teams], seeding=m.SeedingEnum.LIST
        ),
    )
    assert [e.name for e in cup.entrants] == ["Aces", "Jacks"]
    cup = api("cups", "clubs_cups_draw_create", "secretary", cup.id)
    assert cup.status == m.CupStatusEnum.DRAWN
    final = api("cups", "clubs_cups_ties_list", "scorer", cup.id).results[0]
    assert final.status == m.TieStatusEnum.READY

    game = api("cups", "clubs_cups_ties_start_create", "secretary", cup.id, final.id, status=201)
    game = _play_out(api, game.id, key="final")
    assert game.status == m.GameStatusEnum.FINISHED
    # The club admin, who entered no deal, accepts the result for the whole table.
    game = api("games", "clubs_games_confirm_create", "secretary", game.id)
    assert game.status == m.GameStatusEnum.CONFIRMED

    final = api("cups", "clubs_cups_ties_retrieve", "scorer", cup.id, final.id)
    assert final.status == m.TieStatusEnum.DECIDED and final.winner == final.home
    cup = api("cups", "clubs_cups_retrieve", "scorer", cup.id)
    assert cup.status == m.CupStatusEnum.FINISHED and cup.champion == final.winner
    bracket = api("cups", "clubs_cups_bracket_retrieve", "scorer", cup.id)
    assert [s.title for s in bracket.sections] == ["Final"]
