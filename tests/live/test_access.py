"""Who may follow a club's live pages: a private club's refuse visitors; a public club
that chose "members only" sends a visitor to log in (a page) or refuses them (the JSON
and the stream); its members follow."""

from __future__ import annotations

import pytest
from django.test import Client

from clabber_league.live import services
from clabber_league.live.models import LiveSetting

pytestmark = pytest.mark.django_db


def _urls(club, night):
    base = f"/clubs/{club.slug}/live/night/{night.pk}/"
    return {
        "page": base,
        "json": base + "board.json",
        "stream": base + "stream/",
        "overlay": base + "overlay/?show=top",
    }


def _logged_in(username):
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _member():
    return _logged_in("member")


def test_a_public_club_is_followed_by_anyone(club, night):
    visitor = Client()
    urls = _urls(club, night)
    page = visitor.get(urls["page"])
    assert page.status_code == 200
    assert "Table 1" in page.content.decode()
    assert visitor.get(urls["json"]).json()["tables"][0]["label"] == "Table 1"
    assert visitor.get(urls["overlay"]).status_code == 200
    # Under WSGI the stream says "no content": the page polls instead.
    assert visitor.get(urls["stream"]).status_code == 204


def test_a_private_club_refuses_visitors(club, night):
    club.is_public = False
    club.save()
    visitor = Client()
    for name, url in _urls(club, night).items():
        assert visitor.get(url).status_code == 404, name
    member = _member()
    assert member.get(_urls(club, night)["page"]).status_code == 200
    assert member.get(_urls(club, night)["json"]).status_code == 200


def test_members_only_sends_a_visitor_to_log_in_and_refuses_the_data(club, night):
    services.audience_set(club=club, audience=LiveSetting.Audience.MEMBERS)
    visitor = Client()
    urls = _urls(club, night)
    page = visitor.get(urls["page"])
    assert page.status_code == 302
    assert "/accounts/login/" in page["Location"]
    assert visitor.get(urls["json"]).status_code == 403
    assert visitor.get(urls["stream"]).status_code == 403
    member = _member()
    assert member.get(urls["page"]).status_code == 200
    assert member.get(urls["json"]).status_code == 200


def test_a_club_admin_chooses_the_audience_and_a_bad_choice_is_refused(club, night):
    admin = _logged_in("secretary")
    index = f"/clubs/{club.slug}/live/"
    response = admin.post(index, {"audience": "everyone-in-town"})
    assert response.status_code == 200
    assert "Choose who may follow the live pages." in response.content.decode()
    assert not LiveSetting.objects.filter(club=club).exists()
    response = admin.post(index, {"audience": "members"})
    assert response.status_code == 302
    assert LiveSetting.objects.get(club=club).audience == "members"
    # a member who is no admin may not change it
    assert _member().post(index, {"audience": "club"}).status_code == 403
    assert LiveSetting.objects.get(club=club).audience == "members"


def test_the_index_lists_the_night(club, night):
    response = Client().get(f"/clubs/{club.slug}/live/")
    assert response.status_code == 200
    assert f"/clubs/{club.slug}/live/night/{night.pk}/" in response.content.decode()


def test_another_clubs_night_is_not_found(club, night):
    from tests.factories import ClubFactory

    other = ClubFactory(is_public=True)
    visitor = Client()
    assert visitor.get(f"/clubs/{other.slug}/live/night/{night.pk}/").status_code == 404
    assert visitor.get(f"/clubs/{other.slug}/live/night/{night.pk}/board.json").status_code == 404
    assert visitor.get(f"/clubs/{other.slug}/live/night/{night.pk}/stream/").status_code == 404
