"""A member who keeps their name off a public club's public pages is shown there by their
initials; members of the club see the name; usernames never appear publicly."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.members import services
from tests.members.conftest import PIN

pytestmark = pytest.mark.django_db


@pytest.fixture
def public_game(table, club, scorer):
    """Bertha (side B) keeps her name off public pages; the game is confirmed by her PIN."""
    club.is_public = True
    club.save()
    bertha = table["opponent"]
    bertha.name = "Bertha Quinn"
    bertha.save()
    services.profile_set_privacy(user=bertha.user, name_public=False)
    services.handover_confirm(game=table["game"], player_id=bertha.pk, pin=PIN, device_user=scorer)
    return {**table, "bertha": bertha}


def _public_urls(club, game, division):
    slug = club.slug
    return [
        reverse("games:detail", kwargs={"club_slug": slug, "pk": game.pk}),
        reverse("standings:leaderboards", kwargs={"club_slug": slug}),
        reverse("standings:deals-csv", kwargs={"club_slug": slug, "pk": division.pk}),
        f"/api/clubs/{slug}/players/",
        f"/api/clubs/{slug}/games/{game.pk}/",
        f"/api/clubs/{slug}/ratings/",
        f"/api/clubs/{slug}/leaderboards/players/",
        f"/api/clubs/{slug}/leaderboards/partnerships/",
        f"/api/clubs/{slug}/standings/{division.pk}/deals.csv/",
    ]


def test_the_public_sees_initials_and_no_usernames(public_game, club, division):
    game, bertha = public_game["game"], public_game["bertha"]
    anonymous = APIClient()
    for url in _public_urls(club, game, division):
        response = anonymous.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode()
        assert "Bertha Quinn" not in text, url
        for username in ("bertha", "scorer", "bruno", "partner"):
            assert f">{username}<" not in text and f'"{username}"' not in text, (url, username)
    player_page = reverse("standings:player", kwargs={"club_slug": club.slug, "pk": bertha.pk})
    text = anonymous.get(player_page).content.decode()
    assert "B. Q." in text and "Bertha Quinn" not in text


def test_members_see_the_name(public_game, club, division, viewer):
    member = APIClient()
    member.force_login(viewer)
    game = public_game["game"]
    for url in (
        reverse("games:detail", kwargs={"club_slug": club.slug, "pk": game.pk}),
        reverse("standings:leaderboards", kwargs={"club_slug": club.slug}),
        f"/api/clubs/{club.slug}/players/",
    ):
        assert "Bertha Quinn" in member.get(url).content.decode(), url


def test_a_member_who_shows_their_name_is_named_in_public(public_game, club):
    services.profile_set_privacy(user=public_game["bertha"].user, name_public=True)
    text = APIClient().get(f"/api/clubs/{club.slug}/players/").content.decode()
    assert "Bertha Quinn" in text
