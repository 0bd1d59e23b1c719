"""The members' pages as the scorer, the member and the club admin use them."""

import pytest
from django.urls import reverse

from clabber_league.games.models import Game
from clabber_league.members import services
from clabber_league.members.models import Dispute
from tests.members.conftest import PIN

pytestmark = pytest.mark.django_db


def _handover(club, game):
    return reverse("members:handover", kwargs={"club_slug": club.slug, "pk": game.pk})


def test_the_finished_sheet_offers_the_handover_to_the_scorer(client, club, scorer, table):
    client.force_login(scorer)
    page = client.get(
        reverse("games:detail", kwargs={"club_slug": club.slug, "pk": table["game"].pk})
    )
    assert "Accept or dispute on this phone" in page.content.decode()
    assert "Still to accept:" in page.content.decode()


def test_the_acceptance_screen_lists_only_the_side_still_to_accept(client, club, scorer, table):
    client.force_login(scorer)
    page = client.get(_handover(club, table["game"])).content.decode()
    for player in (table["opponent"], table["opponent_without_pin"]):
        assert f'name="player" value="{player.pk}"' in page
    assert f'value="{table["partner"].pk}"' not in page  # on the sheet, never to choose
    assert "Dads is still to accept." in page


def test_a_wrong_pin_on_the_page_says_so_and_the_right_one_confirms(client, club, scorer, table):
    game, opponent = table["game"], table["opponent"]
    client.force_login(scorer)
    response = client.post(_handover(club, game), {"player": opponent.pk, "pin": "0000"})
    assert response.status_code == 400
    assert services.PIN_WRONG.format(left=4) in response.content.decode()
    response = client.post(_handover(club, game), {"player": opponent.pk, "pin": PIN})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by == opponent.user


def test_a_dispute_from_the_handover_reaches_the_admins_list(client, club, scorer, admin, table):
    game = table["game"]
    client.force_login(scorer)
    url = reverse("members:handover-dispute", kwargs={"club_slug": club.slug, "pk": game.pk})
    assert client.post(url, {"reason": ""}).status_code == 400
    client.post(url, {"reason": "Deal 2 had a renege", "player": table["opponent"].pk})
    client.force_login(admin)
    listing = client.get(reverse("members:disputes", kwargs={"club_slug": club.slug}))
    assert "Deal 2 had a renege" in listing.content.decode()
    dispute = Dispute.objects.get(game=game)
    detail = reverse("members:dispute", kwargs={"club_slug": club.slug, "pk": dispute.pk})
    client.post(detail, {"resolution": "Checked the cards: result stands"})
    dispute.refresh_from_db()
    game.refresh_from_db()
    assert not dispute.is_open and game.status == Game.Status.CONFIRMED


def test_my_games_shows_the_members_games_and_needs_a_login(client, table):
    opponent = table["opponent"]
    assert client.get(reverse("members:my-games")).status_code == 302
    client.force_login(opponent.user)
    page = client.get(reverse("members:my-games")).content.decode()
    assert f"Game {table['game'].pk}" in page and opponent.name in page


def test_the_member_sets_a_pin_and_refuses_a_bad_one(client, table):
    user = table["opponent_without_pin"].user
    client.force_login(user)
    url = reverse("members:settings")
    response = client.post(url, {"action": "pin", "pin-pin": "12ab"})
    assert response.status_code == 200 and user.member_profile.has_pin is False
    client.post(url, {"action": "pin", "pin-pin": "246810"})
    user.member_profile.refresh_from_db()
    assert user.member_profile.has_pin
