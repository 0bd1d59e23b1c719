"""The ranking's pages and API: public players by name, private ones anonymised or left
out as the federation chose (named to its officers), a player's history, a federation that
is not public, and a constant number of queries whatever the page's size."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clabber_league.federation.models import Federation, FederationPlayer, Officer
from clabber_league.ranking.models import NationalRating, RankedEvent, RankingSettings, RatingStep
from clabber_league.ranking.services import ranking_settings_update
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _rank(federation, *people, start=0, key="e1"):
    """Rate ``people`` (name, public) best first, each in one event."""
    event = RankedEvent.objects.create(
        federation=federation, key=key, date="2026-11-03", category="night", sides=len(people)
    )
    out = []
    for i, (name, public) in enumerate(people):
        person = FederationPlayer.objects.create(
            federation=federation, number=f"N{start + i + 1}", name=name, is_public=public
        )
        mu = 30 - start - i
        NationalRating.objects.create(
            federation=federation, player=person, mu=mu, sigma=2, ordinal=mu - 6, events=1
        )
        RatingStep.objects.create(
            federation=federation,
            player=person,
            event=event,
            placing=i + 1,
            share=0.5,
            mu_before=25,
            sigma_before=25 / 3,
            mu=mu,
            sigma=2,
        )
        out.append(person)
    return out


@pytest.fixture
def ranked(federation):
    return _rank(federation, ("Ada Public", True), ("Bea Private", False), ("Cas Public", True))


def test_the_ranking_names_public_players_and_anonymises_private_ones(client, federation, ranked):
    page = client.get("/federations/nku/ranking/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Ada Public" in text and "Cas Public" in text
    # Her number neither: as a word, not inside the page's random tokens ("...0N234f...").
    assert "Bea Private" not in text and not re.search(r"\bN2\b", text)
    assert text.index("Ada Public") < text.index("Private player") < text.index("Cas Public")


def test_a_federation_that_hides_private_players_leaves_them_out(client, federation, ranked):
    ranking_settings_update(federation=federation, private_players="hide")
    text = client.get("/federations/nku/ranking/").content.decode()
    assert "Private player" not in text and "Bea Private" not in text
    body = client.get("/api/federations/nku/ranking/").json()
    assert [r["name"] for r in body["results"]] == ["Ada Public", "Cas Public"]
    assert [r["position"] for r in body["results"]] == [1, 2]


def test_an_officer_sees_every_player_by_name(client, federation, ranked):
    user = UserFactory(username="officer")
    Officer.objects.create(federation=federation, user=user)
    ranking_settings_update(federation=federation, private_players="hide")
    client.force_login(user)
    text = client.get("/federations/nku/ranking/").content.decode()
    assert "Bea Private" in text
    assert client.get("/federations/nku/ranking/players/N2/").status_code == 200


def test_a_players_history_is_shown_for_a_public_player_only(client, federation, ranked):
    page = client.get("/federations/nku/ranking/players/N1/")
    assert page.status_code == 200
    assert "Ada Public" in page.content.decode() and "<time" in page.content.decode()
    assert client.get("/federations/nku/ranking/players/N2/").status_code == 404
    assert client.get("/federations/nku/ranking/players/N99/").status_code == 404


def test_the_api_lists_the_ranking_anonymised_and_paged(client, federation, ranked):
    body = client.get("/api/federations/nku/ranking/?page_size=2").json()
    assert body["count"] == 3
    assert [(r["position"], r["name"], r["number"]) for r in body["results"]] == [
        (1, "Ada Public", "N1"),
        (2, "Private player", ""),
    ]
    assert body["results"][0]["rating"] == 24.0
    assert (
        client.get("/api/federations/nku/ranking/?page=2&page_size=2").json()["results"][0][
            "position"
        ]
        == 3
    )


def test_a_federation_that_is_not_public_is_read_by_its_officers_only(client, federation, ranked):
    Federation.objects.filter(pk=federation.pk).update(is_public=False)
    assert client.get("/federations/nku/ranking/").status_code == 404
    assert client.get("/api/federations/nku/ranking/").status_code == 404
    assert client.get("/federations/nku/ranking/about/").status_code == 404
    other = Federation.objects.create(name="KBN", slug="kbn")
    stranger = UserFactory(username="kbn-officer")
    Officer.objects.create(federation=other, user=stranger)
    client.force_login(stranger)  # an officer of another federation
    assert client.get("/federations/nku/ranking/").status_code == 404


def test_a_private_federations_ranking_is_refused_to_a_visitor_and_shown_to_an_officer(
    client, federation, ranked
):
    """One rule for who reads a federation's private data (``federation.access``): the
    ranking's pages and API open as the federation's own pages do."""
    Federation.objects.filter(pk=federation.pk).update(is_public=False)
    urls = (
        "/federations/nku/ranking/",
        "/federations/nku/ranking/players/N2/",
        "/api/federations/nku/ranking/",
    )
    for url in urls:
        assert client.get(url).status_code == 404
    assert client.get("/federations/nku/").status_code == 404  # the federation's own rule
    officer = UserFactory(username="nku-officer")
    Officer.objects.create(federation=federation, user=officer)
    client.force_login(officer)
    for url in urls:
        assert client.get(url).status_code == 200
    assert client.get("/federations/nku/").status_code == 200
    names = [line["name"] for line in client.get(urls[2]).json()["results"]]
    assert names == ["Ada Public", "Bea Private", "Cas Public"]  # named to the officer


def test_the_explanation_states_the_rule_and_the_federations_points(client, federation):
    ranking_settings_update(federation=federation, placing_points={"night": [5, 3, 2, 1]})
    text = client.get("/federations/nku/ranking/about/").content.decode()
    assert "share of the points" in text and "5, 3, 2, 1" in text


def _queries(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_pages_take_the_same_queries_for_3_or_120_players(client, federation, ranked):
    small = [
        _queries(client, url)
        for url in (
            "/federations/nku/ranking/",
            "/federations/nku/ranking/players/N1/",
            "/api/federations/nku/ranking/",
        )
    ]
    _rank(federation, *[(f"Player {i}", i % 3 > 0) for i in range(117)], start=3, key="e2")
    ada = FederationPlayer.objects.get(federation=federation, number="N1")
    for n in range(30):  # Ada's history: 30 more events
        event = RankedEvent.objects.create(
            federation=federation, key=f"h{n}", date="2026-11-04", category="league", sides=2
        )
        RatingStep.objects.create(
            federation=federation,
            player=ada,
            event=event,
            placing=1,
            share=0.6,
            mu_before=30,
            sigma_before=2,
            mu=30,
            sigma=2,
        )
    big = [
        _queries(client, url)
        for url in (
            "/federations/nku/ranking/",
            "/federations/nku/ranking/players/N1/",
            "/api/federations/nku/ranking/",
        )
    ]
    assert big == small


def _officer(federation, username, role):
    user = UserFactory(username=username)
    Officer.objects.create(federation=federation, user=user, role=role)
    return user


def test_a_federation_admin_sets_the_privacy_and_the_placing_points(client, federation, ranked):
    client.force_login(_officer(federation, "fed-admin", Officer.Role.ADMIN))
    url = "/federations/nku/ranking/settings/"
    assert client.get(url).status_code == 200
    answer = client.post(
        url, {"private_players": "hide", "placing_points": "night: 5, 3, 2, 1\nleague: 2"}
    )
    assert answer.status_code == 302
    settings = federation.ranking_settings
    settings.refresh_from_db()
    assert settings.private_players == "hide"
    assert settings.placing_points == {"night": [5, 3, 2, 1], "league": [2]}
    assert "night: 5, 3, 2, 1" in client.get(url).content.decode()


def test_bad_placing_points_are_refused_naming_the_field_and_nothing_changes(
    client, federation, ranked
):
    client.force_login(_officer(federation, "fed-admin", Officer.Role.ADMIN))
    url = "/federations/nku/ranking/settings/"
    for text in ("night 5 3", "night: five", "night: 5, -1"):
        answer = client.post(url, {"private_players": "hide", "placing_points": text})
        assert answer.status_code == 200
        assert answer.context["form"].errors.keys() == {"placing_points"}
    assert not RankingSettings.objects.filter(federation=federation, private_players="hide")


def test_only_the_federations_admins_change_its_settings(client, federation, ranked):
    url = "/federations/nku/ranking/settings/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(_officer(federation, "fed-officer", Officer.Role.OFFICER))
    assert client.post(url, {"private_players": "hide"}).status_code == 403
    other = Federation.objects.create(name="KBN", slug="kbn")
    client.force_login(_officer(other, "kbn-admin", Officer.Role.ADMIN))
    assert client.post(url, {"private_players": "hide"}).status_code == 403
    assert not RankingSettings.objects.filter(federation=federation, private_players="hide")


def test_the_federations_home_page_shows_the_top_of_the_ranking(client, federation, ranked):
    text = client.get("/federations/nku/").content.decode()
    assert "National ranking" in text
    assert text.index("Ada Public") < text.index("Private player") < text.index("Cas Public")
    assert "Bea Private" not in text and "/federations/nku/ranking/settings/" not in text
    client.force_login(_officer(federation, "fed-admin", Officer.Role.ADMIN))
    text = client.get("/federations/nku/").content.decode()
    assert "Bea Private" in text and "/federations/nku/ranking/settings/" in text
