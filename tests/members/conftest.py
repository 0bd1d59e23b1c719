"""A finished game at the table: the scorer sits on side A and recorded every deal; side B's
two players are members, one with a confirmation PIN."""

import pytest

from clabber_league.clubs.models import Role
from clabber_league.games import services as game_services
from clabber_league.members import services
from tests.factories import MembershipFactory, UserFactory
from tests.games.conftest import made

PIN = "4821"


def finish(game, user, last_by=None) -> None:
    for number in range(4):
        by = last_by if last_by is not None and number == 3 else user
        game_services.deal_record(game_id=game.pk, data=made("A", 142), user=by)
    game.refresh_from_db()


@pytest.fixture
def last_deal_by():
    """Who records the last deal (username of the table's members); default the scorer."""
    return None


@pytest.fixture
def table(game, club, scorer, last_deal_by):
    seats = {s.seat: s for s in game.seats.select_related("player")}
    partner = seats[2].player  # side A, with the scorer
    scorer_player = seats[0].player
    scorer_player.user = scorer
    scorer_player.save()
    opponents = []
    for seat, username in ((1, "bertha"), (3, "bruno")):
        user = MembershipFactory(
            club=club, role=Role.PLAYER, user=UserFactory(username=username)
        ).user
        player = seats[seat].player
        player.user = user
        player.save()
        opponents.append(player)
    partner_user = MembershipFactory(
        club=club, role=Role.PLAYER, user=UserFactory(username="partner")
    ).user
    partner.user = partner_user
    partner.save()
    services.profile_set_pin(user=opponents[0].user, pin=PIN)
    services.profile_set_pin(user=partner_user, pin="1111")
    by = {p.user.username: p.user for p in (*opponents, partner)}.get(last_deal_by)
    finish(game, scorer, last_by=by)
    return {
        "game": game,
        "opponent": opponents[0],
        "opponent_without_pin": opponents[1],
        "partner": partner,
    }


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    """Handover tries are counted in the cache per game; ids repeat between tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
