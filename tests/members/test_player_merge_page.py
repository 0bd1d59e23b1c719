"""The merge page: a club admin merges a player entered twice, by tapping a like-named
player or giving a name in any case; a refusal shows beside the field, nothing merged."""

import pytest
from django.urls import reverse

from clabber_league.clubs import services as club_services
from clabber_league.clubs.models import Player, PlayerMerge
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def _url(club, player):
    return reverse("members:player-merge", kwargs={"club_slug": club.slug, "pk": player.pk})


def test_the_page_offers_like_named_players_and_merges_by_name_in_any_case(client, club, admin):
    stays = PlayerFactory(club=club, name="Tom Smith")
    goes = PlayerFactory(club=club, name="T. Smith")
    PlayerFactory(club=club, name="Mary Jones")
    client.force_login(admin)
    page = client.get(_url(club, goes)).content.decode()
    assert "Merge into Tom Smith" in page and "Mary Jones" not in page
    response = client.post(_url(club, goes), {"into": "tom SMITH"})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=goes.pk).exists()
    players = client.get(reverse("members:players", kwargs={"club_slug": club.slug}))
    assert "T. Smith into Tom Smith" in players.content.decode()
    assert PlayerMerge.objects.get().target == stays


def test_an_unknown_name_is_refused_beside_the_field(client, club, admin):
    goes = PlayerFactory(club=club, name="T. Smith")
    client.force_login(admin)
    response = client.post(_url(club, goes), {"into": "Nobody"})
    assert response.status_code == 400
    message = club_services.MERGE_NO_SUCH_PLAYER.format(name="Nobody")
    assert message in response.content.decode()
    assert Player.objects.filter(pk=goes.pk).exists()


def test_merging_needs_a_club_admin(client, club, scorer):
    goes = PlayerFactory(club=club, name="T. Smith")
    client.force_login(scorer)
    assert client.get(_url(club, goes)).status_code == 403
