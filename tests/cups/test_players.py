"""Knockouts of players: two-handed rule sets (a tie is a game between two players) and
three-handed ones (a tie is a table of three whose winner goes on; a table a player short
plays the two-handed game heads-up). Seeded by ratings or a drawn seed, played through the
games' own start, deal entry and confirmation."""

from __future__ import annotations

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.cups.bracket import THREE_SINGLE_ONLY, THREE_TOO_FEW
from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services import progress, setup
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.standings.models import PlayerRating
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HEADS_UP_100 = {"name": "Short", "base": "klaberjass", "options": {"target": 100}}
THREE_100 = {"name": "Short three", "base": "clabber-3", "options": {"target": 100}}


@pytest.fixture
def access(club, admin):
    from clabber_league.clubs.access import club_access

    return club_access(slug=club.slug, user=admin)


def _players(club, names):
    return [PlayerFactory(club=club, name=name) for name in names]


def _rate(players, mus):
    for player, mu in zip(players, mus, strict=True):
        PlayerRating.objects.create(club=player.club, player=player, mu=mu, sigma=2.0)


def _win(game: Game, winner: str, *, admin, access) -> None:
    """One deal that ends the game (target 100) for side ``winner``, then confirmed."""
    sides = list(game.sides.order_by("side").values_list("side", flat=True))
    if len(sides) == 3:
        points = {side: 142 if side == winner else 5 for side in sides}
    else:
        points = {side: 130 if side == winner else 10 for side in sides}
    games.deal_record(
        game_id=game.pk,
        data={"maker": winner, "trump": "hearts", "points": points, "last_trick": winner},
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, game.winner
    games.game_confirm(game=game, user=admin, access=access)


def test_a_two_handed_cup_of_players_seeded_by_rating_goes_to_a_champion(club, admin, access):
    players = _players(club, ["Ann", "Bob", "Cy", "Di", "Ed"])
    _rate(players, [20, 30, 25, 10, 15])  # Bob, Cy, Ann, Ed, Di
    cup = setup.cup_create(
        club=club,
        name="Singles",
        rules=HEADS_UP_100,
        entrant_kind=Cup.Kind.PLAYERS,
        players=players,
        seeding=Cup.Seeding.RATINGS,
    )
    assert list(cup.entrants.values_list("name", flat=True)) == ["Bob", "Cy", "Ann", "Ed", "Di"]
    assert "rating 24.0" in cup.entrants.get(name="Bob").note
    setup.cup_draw(cup=cup)
    first = cup.ties.get(status=Tie.Status.READY, round=1)
    assert {first.home.name, first.away.name} == {"Ed", "Di"}  # seeds 4 and 5; 1-3 byes
    game = progress.tie_game_start(tie=first)
    assert [s.player.name for s in game.seats.order_by("seat")] == ["Ed", "Di"]
    _win(game, "B", admin=admin, access=access)  # Di
    first.refresh_from_db()
    assert first.status == Tie.Status.DECIDED and first.winner.name == "Di"
    while (tie := cup.ties.filter(status=Tie.Status.READY).order_by("order").first()) is not None:
        _win(progress.tie_game_start(tie=tie), "A", admin=admin, access=access)
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED and cup.champion.name == "Bob"


def test_a_drawn_seed_can_be_repeated(club):
    players = _players(club, ["Ann", "Bob", "Cy", "Di"])
    make = {
        "rules": "klaberjass",
        "entrant_kind": Cup.Kind.PLAYERS,
        "players": players,
        "seeding": Cup.Seeding.RANDOM,
        "seed_text": "felt42",
    }
    one = setup.cup_create(club=club, name="One", **make)
    two = setup.cup_create(club=club, name="Two", **make)
    assert list(one.entrants.values_list("name", flat=True)) == list(
        two.entrants.values_list("name", flat=True)
    )


def _three_cup(club, count, **kwargs):
    players = _players(club, [f"P{i:02d}" for i in range(1, count + 1)])
    cup = setup.cup_create(
        club=club,
        name=kwargs.pop("name", "Threes"),
        rules=kwargs.pop("rules", THREE_100),
        entrant_kind=Cup.Kind.PLAYERS,
        players=players,
        **kwargs,
    )
    return setup.cup_draw(cup=cup)


def test_a_table_of_three_is_one_game_of_three_and_its_winner_goes_on(club, admin, access):
    cup = _three_cup(club, 9)
    assert cup.sides == 3
    table = cup.ties.get(key="M1-1")
    assert [table.home.seed, table.away.seed, table.third.seed] == [1, 6, 7]
    game = progress.tie_game_start(tie=table)
    assert [s.player.name for s in game.seats.order_by("seat")] == ["P01", "P06", "P07"]
    _win(game, "C", admin=admin, access=access)  # seed 7
    table.refresh_from_db()
    assert table.status == Tie.Status.DECIDED
    assert table.winner.seed == 7 and table.loser is None
    final = cup.ties.get(key="M2-1")
    assert final.home.seed == 7 and final.away is None and final.status == Tie.Status.WAITING
    with pytest.raises(ServiceError) as err:
        progress.tie_game_start(tie=final)
    assert err.value.kind == "conflict"
    for key in ("M1-2", "M1-3"):
        _win(progress.tie_game_start(tie=cup.ties.get(key=key)), "A", admin=admin, access=access)
    final.refresh_from_db()
    assert [final.home.seed, final.away.seed, final.third.seed] == [7, 2, 3]
    _win(progress.tie_game_start(tie=final), "B", admin=admin, access=access)
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED and cup.champion.seed == 2


def test_the_table_a_player_short_plays_the_two_handed_game(club, admin, access):
    cup = _three_cup(club, 4)  # seeds 1 and 2 sit out; 3 and 4 play heads-up
    assert sorted(t.winner.seed for t in cup.ties.filter(status=Tie.Status.BYE)) == [1, 2]
    short = cup.ties.get(status=Tie.Status.READY)
    assert (short.home.seed, short.away.seed, short.third) == (3, 4, None)
    game = progress.tie_game_start(tie=short)
    assert game.rules["base"] == "clabber-2" and game.rules["options"] == {"target": 100}
    _win(game, "B", admin=admin, access=access)
    final = cup.ties.get(key="M2-1")
    assert [final.home.seed, final.away.seed, final.third.seed] == [1, 2, 4]
    assert final.status == Tie.Status.READY


def test_at_a_table_of_three_one_absent_leaves_heads_up_and_two_absent_a_walkover(
    club, admin, access
):
    cup = _three_cup(club, 9, rules="klaberjass-3")
    table = cup.ties.get(key="M1-2")  # seeds 2, 5, 8
    progress.tie_walkover(tie=table, absent="away")
    table.refresh_from_db()
    assert table.status == Tie.Status.READY and table.absent == "away"
    assert "play heads-up (klaberjass)" in table.note
    game = progress.tie_game_start(tie=table)
    assert game.rules == "klaberjass"
    assert [s.player.name for s in game.seats.order_by("seat")] == ["P02", "P08"]
    game.status = Game.Status.ABANDONED
    game.save(update_fields=["status"])
    other = cup.ties.get(key="M1-3")
    progress.tie_walkover(tie=other, absent="home")
    progress.tie_walkover(tie=other, absent="third")
    other.refresh_from_db()
    assert other.status == Tie.Status.WALKOVER and other.winner.seed == 4
    with pytest.raises(ServiceError) as err:
        progress.tie_walkover(tie=cup.ties.get(key="M1-1"), absent="fourth")
    assert err.value.errors[0]["field"] == "absent"


def test_a_level_table_of_three_needs_a_deciding_game(club, admin, access):
    rules = {"name": "Fifty", "base": "clabber-3", "options": {"target": 50}}
    cup = _three_cup(club, 3, rules=rules)
    table = cup.ties.get(key="M1-1")
    game = progress.tie_game_start(tie=table)
    # The maker (A, 50 with the last trick) is set; B and C both end on 56: level.
    games.deal_record(
        game_id=game.pk,
        data={
            "maker": "A",
            "trump": "hearts",
            "points": {"A": 40, "B": 56, "C": 56},
            "last_trick": "A",
        },
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "tie"
    games.game_confirm(game=game, user=admin, access=access)
    table.refresh_from_db()
    assert table.status == Tie.Status.READY and "ended level" in table.note


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"format": "double"}, "format", THREE_SINGLE_ONLY),
        ({"third_place": True}, "third_place", THREE_SINGLE_ONLY),
        ({"plate": True}, "plate", THREE_SINGLE_ONLY),
    ],
)
def test_a_table_of_three_cup_is_single_elimination(club, kwargs, field, message):
    with pytest.raises(ServiceError) as err:
        _three_cup(club, 9, **kwargs)
    assert {"field": field, "message": message} in err.value.errors


def test_a_table_of_three_needs_three_players(club):
    players = _players(club, ["Ann", "Bob"])
    with pytest.raises(ServiceError) as err:
        setup.cup_create(
            club=club, name="X", rules="clabber-3", entrant_kind="players", players=players
        )
    assert {"field": "players", "message": THREE_TOO_FEW} in err.value.errors
