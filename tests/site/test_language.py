"""The language of a page (issue 33): the member's own choice, the club's, the browser's,
English; an unknown code falls back; the API stays English."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from clabber_league.members.models import MemberProfile
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

HTML_LANG = re.compile(r'<html lang="([^"]+)">')


def page_language(response) -> str:
    assert response.status_code == 200
    found = HTML_LANG.search(response.content.decode())
    assert found is not None
    assert response["Content-Language"] == found.group(1)
    return found.group(1)


def club_page(client, club, **headers):
    return client.get(reverse("club-home", args=[club.slug]), headers=headers)


def member_of(club, language: str = ""):
    user = UserFactory()
    MembershipFactory(club=club, user=user)
    MemberProfile.objects.create(user=user, language=language)
    return user


def test_a_visitor_reads_english_without_accept_language(client):
    assert page_language(client.get(reverse("home"))) == "en"


def test_a_visitor_reads_the_best_language_their_browser_accepts(client):
    response = client.get(reverse("home"), headers={"accept-language": "xx, de-CH;q=0.8, fr;q=0.5"})
    assert page_language(response) == "de"
    assert "Accept-Language" in response["Vary"]


def test_an_unknown_browser_language_falls_back_to_english(client):
    assert page_language(client.get(reverse("home"), headers={"accept-language": "tlh"})) == "en"


def test_a_clubs_pages_speak_its_language_before_the_browsers(client):
    club = ClubFactory(is_public=True, language="nl")
    assert page_language(club_page(client, club, accept_language="de")) == "nl"


def test_a_club_without_a_language_follows_the_browser(client):
    club = ClubFactory(is_public=True, language="")
    assert page_language(club_page(client, club, accept_language="fr-FR")) == "fr"


def test_a_club_with_an_unknown_language_falls_back_to_the_browser_then_english(client):
    club = ClubFactory(is_public=True, language="xx")
    assert page_language(club_page(client, club, accept_language="pl")) == "pl"
    assert page_language(club_page(client, club)) == "en"


def test_a_members_own_language_comes_first(client):
    club = ClubFactory(language="nl")
    client.force_login(member_of(club, language="ja"))
    assert page_language(club_page(client, club, accept_language="de")) == "ja"
    assert page_language(client.get(reverse("home"))) == "ja"


def test_a_member_who_follows_the_club_reads_the_clubs_language(client):
    club = ClubFactory(language="hr")
    client.force_login(member_of(club, language=""))
    assert page_language(club_page(client, club, accept_language="de")) == "hr"


def test_a_members_unknown_language_falls_back_to_the_clubs_then_english(client):
    club = ClubFactory(language="cs")
    client.force_login(member_of(club, language="xx"))
    assert page_language(club_page(client, club)) == "cs"
    assert page_language(client.get(reverse("home"))) == "en"


def test_the_switcher_keeps_a_visitors_choice_before_the_clubs(client):
    club = ClubFactory(is_public=True, language="nl")
    back = reverse("club-home", args=[club.slug])
    response = client.post(reverse("set_language"), {"language": "fr", "next": back})
    assert response.status_code == 302
    assert response["Location"] == back
    assert page_language(club_page(client, club)) == "fr"


def test_the_switcher_keeps_a_members_choice_on_their_profile(client):
    club = ClubFactory(language="nl")
    user = member_of(club)
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert MemberProfile.objects.get(user=user).language == "de"
    client.cookies.clear()  # another browser: the profile still says it
    client.force_login(user)
    assert page_language(club_page(client, club)) == "de"


def test_the_switcher_ignores_an_unknown_language(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert not MemberProfile.objects.filter(user=user).exclude(language="").exists()
    assert page_language(client.get(reverse("home"))) == "en"


def test_my_settings_choose_a_language_or_follow_the_club(client):
    club = ClubFactory(language="nl")
    user = member_of(club, language="de")
    client.force_login(user)
    url = reverse("members:settings")
    response = client.post(url, {"action": "language", "language-language": "ja"})
    assert response.status_code == 302
    assert page_language(client.get(url)) == "ja"
    client.post(url, {"action": "language", "language-language": ""})
    assert MemberProfile.objects.get(user=user).language == ""
    assert page_language(club_page(client, club)) == "nl"


def test_my_settings_refuse_a_language_not_on_the_list(client):
    user = UserFactory()
    client.force_login(user)
    url = reverse("members:settings")
    response = client.post(url, {"action": "language", "language-language": "xx"})
    assert response.status_code == 200
    assert "language-language" in response.content.decode()
    assert not MemberProfile.objects.filter(user=user, language="xx").exists()


def test_the_api_answers_in_english_whatever_the_club_or_browser_says(client):
    club = ClubFactory(is_public=True, language="de")
    response = client.post(
        f"/api/clubs/{club.slug}/games/",
        {},
        content_type="application/json",
        headers={"accept-language": "de"},
    )
    assert response.status_code in (401, 403)
    messages = [e["message"] for e in response.json()["errors"]]
    assert messages == ["Authentication credentials were not provided."]


def test_every_language_is_one_of_the_eight():
    assert [code for code, _name in settings.LANGUAGES] == [
        "en",
        "nl",
        "de",
        "fr",
        "cs",
        "pl",
        "hr",
        "ja",
    ]


def test_the_javascript_catalog_is_served_per_language_in_its_url(client):
    response = client.get(
        reverse("javascript-catalog", args=["de"]), headers={"accept-language": "fr"}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "gettext" in response.content.decode()
    assert client.get(reverse("javascript-catalog", args=["xx"])).status_code == 404
    assert client.get(reverse("javascript-catalog", args=["de-ch"])).status_code == 404


def test_the_deal_page_loads_the_catalog_of_its_own_language(client, club, game, scorer):
    club.language = "nl"
    club.save(update_fields=["language"])
    client.force_login(scorer)
    response = client.get(reverse("games:deal-new", args=[club.slug, game.pk]))
    assert page_language(response) == "nl"
    catalog = reverse("javascript-catalog", args=["nl"])
    html = response.content.decode()
    assert f'<script src="{catalog}" defer></script>' in html
    # The offline entry script asks the service worker to keep it with the game's pages.
    assert f'"catalog": "{catalog}"' in html
