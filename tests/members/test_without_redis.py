"""The PIN hand-over with Redis unreachable (issue 31): the page answers, the right PIN
confirms, and five wrong ones still lock the PIN (counted on the member's profile row, not
in the cache)."""

import pytest
from django.urls import reverse

from clabber_league.games.models import Game
from clabber_league.members import services

from .conftest import PIN

pytestmark = pytest.mark.django_db


def test_the_pin_handover_answers_and_the_pin_still_locks(client, redis_down, club, scorer, table):
    game, opponent = table["game"], table["opponent"]
    url = reverse("members:handover", kwargs={"club_slug": club.slug, "pk": game.pk})
    client.force_login(scorer)
    assert client.get(url).status_code == 200
    wrong = client.post(url, {"player": opponent.pk, "pin": "0000"})
    assert wrong.status_code == 400
    assert services.PIN_WRONG.format(player=opponent, left=4) in wrong.content.decode()
    right = client.post(url, {"player": opponent.pk, "pin": PIN})
    assert right.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_five_wrong_pins_still_lock_it_without_redis(redis_down, scorer, table):
    game, opponent = table["game"], table["opponent"]
    for _ in range(5):
        with pytest.raises(services.MemberError):
            services.handover_confirm(
                game=game, player_id=opponent.pk, pin="9999", device_user=scorer
            )
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    assert caught.value.errors[0]["message"] == services.PIN_LOCKED.format(
        minutes=services.PIN_LOCK_MINUTES
    )
