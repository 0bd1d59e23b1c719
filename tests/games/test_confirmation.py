"""Who may confirm a result (issue 10): nobody who recorded, corrected or deleted a deal of
the game, nor a partner of theirs; the other side, or a club admin who touched nothing.

Every test goes through the API or the page, as the people at the table would.
"""

import pytest
from django.urls import reverse

from clabber_league.clubs.models import Membership, Role
from clabber_league.games import services
from clabber_league.games.models import Game
from tests.clients import api_client
from tests.factories import MembershipFactory, UserFactory

from .conftest import made

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(game):
    """Accounts for the four seated players, all scorers of the club: ``a0`` and ``a1`` on
    side A, ``b0`` and ``b1`` on side B."""
    out = {}
    for seat in game.seats.select_related("player"):
        name = f"{seat.side.lower()}{seat.seat // 2}"
        user = UserFactory(username=name)
        MembershipFactory(club=game.club, user=user, role=Role.SCORER)
        seat.player.user = user
        seat.player.save()
        out[name] = user
    return out


def _deals(game) -> str:
    return f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def _confirm(game, user):
    return api_client(user, token=True).post(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/confirm/"
    )


def _finish(game, user) -> list[int]:
    ids = []
    for _ in range(4):  # 152 a deal for A: 608 to 40
        response = api_client(user, token=True).post(_deals(game), made("A", 142), format="json")
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    return ids


def _message(response) -> str:
    """Who may confirm is a permission: a refusal answers 403 with the rule it broke."""
    assert response.status_code == 403, response.content
    return response.json()["errors"][0]["message"]


def test_a_scorer_who_corrected_the_other_sides_deals_cannot_confirm(game, table, admin):
    ids = _finish(game, table["a0"])
    fixed = api_client(table["b0"], token=True).put(
        f"{_deals(game)}{ids[-1]}/", made("A", 100), format="json"
    )
    assert fixed.status_code == 200, fixed.content

    assert _message(_confirm(game, table["b0"])) == services.CONFIRM_TOUCHED
    assert _message(_confirm(game, table["b1"])) == services.CONFIRM_SAME_SIDE
    assert _message(_confirm(game, table["a0"])) == services.CONFIRM_TOUCHED
    assert _message(_confirm(game, table["a1"])) == services.CONFIRM_SAME_SIDE
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    confirmed = _confirm(game, admin)  # a club admin who touched nothing, not seated
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["status"] == "confirmed"
    history = (
        api_client(admin, token=True)
        .get(f"/api/clubs/{game.club.slug}/games/{game.pk}/history/")
        .json()
    )
    assert (history["results"][0]["action"], history["results"][0]["user"]) == (
        "confirm",
        "clubadmin",
    )


def test_a_deleted_deal_counts_as_touching_the_game(game, table):
    ids = _finish(game, table["a0"])
    deleted = api_client(table["b1"], token=True).delete(f"{_deals(game)}{ids[0]}/")
    assert deleted.status_code == 204  # 456 to 30: the game is open again
    again = api_client(table["a0"], token=True).post(_deals(game), made("A", 142), format="json")
    assert again.status_code == 201
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert _message(_confirm(game, table["b0"])) == services.CONFIRM_SAME_SIDE
    assert _message(_confirm(game, table["b1"])) == services.CONFIRM_TOUCHED


def test_the_other_side_confirms_and_the_history_says_who(game, table):
    _finish(game, table["a0"])
    assert _confirm(game, table["b1"]).status_code == 200
    history = api_client(table["a0"], token=True).get(
        f"/api/clubs/{game.club.slug}/games/{game.pk}/history/"
    )
    assert history.json()["results"][0]["user"] == "b1"


def test_an_admin_seated_beside_the_recorder_cannot_confirm(game, table):
    Membership.objects.filter(user=table["a1"]).update(role=Role.ADMIN)
    _finish(game, table["a0"])
    assert _message(_confirm(game, table["a1"])) == services.CONFIRM_SAME_SIDE


def test_a_game_entered_on_a_shared_phone_waits_for_each_side(game, table, scorer):
    """A scorer not at the table recorded everything (a shared phone): no side entered it,
    so each side accepts, each with its own credential; one side alone leaves it waiting."""
    _finish(game, scorer)
    player_b = game.seats.get(seat=1).player
    services.game_confirm(game=game, player=player_b)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert services.confirmation_state(game=game).waiting == ("A",)
    with pytest.raises(services.GameError) as refused:  # B's partner: B has accepted
        services.game_confirm(game=game, player=game.seats.get(seat=3).player)
    assert refused.value.errors[0]["message"] == services.ACCEPT_ALREADY

    player_a = game.seats.get(seat=2).player
    services.game_confirm(game=game, player=player_a)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by == table["a1"]
    revision = game.revisions.get(action="confirm")
    assert revision.after["name"] == player_a.name
    assert [(a.side, a.how, a.player) for a in game.acceptances.order_by("id")] == [
        ("B", "pin", player_b),
        ("A", "pin", player_a),
    ]


def test_the_score_sheet_says_why_instead_of_offering_the_button(client, game, table):
    _finish(game, table["a0"])
    client.force_login(table["a1"])
    page = client.get(reverse("games:detail", kwargs={"club_slug": game.club.slug, "pk": game.pk}))
    html = page.content.decode()
    assert services.CONFIRM_SAME_SIDE in html
    assert "Confirm the result" not in html
    posted = client.post(
        reverse("games:confirm", kwargs={"club_slug": game.club.slug, "pk": game.pk}), follow=True
    )
    assert services.CONFIRM_SAME_SIDE in posted.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    client.force_login(table["b0"])
    page = client.get(reverse("games:detail", kwargs={"club_slug": game.club.slug, "pk": game.pk}))
    assert "Confirm the result" in page.content.decode()
