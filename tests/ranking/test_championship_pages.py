"""The championship final's page and API: a federation admin seeds a final from member
clubs' club nights (same service as the cup qualifiers); the final's page shows where each
entrant qualified from; nobody else creates one; refusals name the field."""

from __future__ import annotations

import pytest

from clabber_league.cups.models import Cup
from clabber_league.federation.models import Officer
from clabber_league.ranking.models import QualifiedEntrant
from tests.clients import api_client
from tests.factories import UserFactory

from . import test_championship as built
from .test_championship import cut_without_tie, finished_night, members_of, top

pytestmark = pytest.mark.django_db

space = built.space  # the federation with its organiser space and an admin


@pytest.fixture
def admin(federation, space):
    return Officer.objects.get(federation=federation, role=Officer.Role.ADMIN).user


@pytest.fixture
def officer(federation):
    user = UserFactory(username="plain-officer")
    Officer.objects.create(federation=federation, user=user, role=Officer.Role.OFFICER)
    return user


@pytest.fixture
def nights(federation, clubs):
    north = finished_night(clubs[0], members_of(federation, clubs[0], "North"), "North night")
    south = finished_night(
        clubs[1], members_of(federation, clubs[1], "South"), "South night", day=2
    )
    return north, south


def test_an_admin_seeds_a_final_of_nights_on_the_page(client, federation, admin, nights):
    north, south = nights
    n = cut_without_tie(north)
    client.force_login(admin)
    page = client.get("/federations/nku/championships/new/")
    assert page.status_code == 200 and "North night" in page.content.decode()
    answer = client.post(
        "/federations/nku/championships/new/",
        {
            "name": "National final",
            "ruleset": "clabber-2",
            "format": "single",
            "qualifier_1": f"night:{north.pk}",
            "places_1": n,
            "qualifier_2": f"night:{south.pk}",
            "places_2": 1,
        },
    )
    final = Cup.objects.get(name="National final")
    assert answer.status_code == 302
    assert answer["Location"] == f"/federations/nku/championships/{final.pk}/"
    text = client.get(answer["Location"]).content.decode()
    assert text.count("North night") == n and text.count("South night") == 1
    assert f"/clubs/{final.club.slug}/cups/{final.pk}/" in text
    home = client.get("/federations/nku/").content.decode()
    assert f"/federations/nku/championships/{final.pk}/" in home


def test_the_page_shows_each_unlinked_player_beside_the_qualifier(
    client, federation, clubs, admin, nights
):
    _north, south = nights
    unlinked = members_of(federation, clubs[0], "Guest", 4, linked=False)
    guests = finished_night(clubs[0], unlinked, "Guest night", day=9, rounds_=1)
    client.force_login(admin)
    answer = client.post(
        "/federations/nku/championships/new/",
        {
            "name": "Final",
            "ruleset": "clabber-2",
            "format": "single",
            "qualifier_1": f"night:{south.pk}",
            "places_1": 1,
            "qualifier_2": f"night:{guests.pk}",
            "places_2": 4,
        },
    )
    assert answer.status_code == 200
    errors = answer.context["form"].errors
    assert list(errors) == ["qualifier_2"]
    assert len(errors["qualifier_2"]) == 4
    assert all("has no federation number" in e for e in errors["qualifier_2"])
    assert not Cup.objects.filter(name="Final").exists()


def test_only_the_federations_admins_create_a_final(client, officer, nights):
    client.force_login(officer)
    assert client.get("/federations/nku/championships/new/").status_code == 403
    north, south = nights
    body = {
        "name": "F",
        "rules": "clabber-2",
        "qualifiers": [{"night": north.pk}, {"night": south.pk}],
    }
    answer = api_client(officer).post("/api/federations/nku/championships/", body, format="json")
    assert answer.status_code == 403
    assert not Cup.objects.filter(name="F").exists()


def test_the_api_seeds_a_final_and_says_where_each_entrant_came_from(
    federation, clubs, admin, nights
):
    north, south = nights
    n = cut_without_tie(south)
    body = {
        "name": "API final",
        "rules": "clabber-2",
        "qualifiers": [{"night": south.pk, "places": n}, {"night": north.pk}],
    }
    answer = api_client(admin).post("/api/federations/nku/championships/", body, format="json")
    assert answer.status_code == 201, answer.json()
    data = answer.json()
    assert [e["seed"] for e in data["entrants"]] == list(range(1, n + 2))
    assert [e["qualified_from"] for e in data["entrants"]] == ["night"] * (n + 1)
    assert [e["source_id"] for e in data["entrants"]] == [south.pk] * n + [north.pk]
    assert [e["place"] for e in data["entrants"]] == [p for _, p in top(south, n)] + [1]
    assert data["entrants"][0]["club"] == clubs[1]["club"].slug
    read = api_client(None).get(f"/api/federations/nku/championships/{data['id']}/")
    assert read.status_code == 200 and read.json() == data
    assert api_client(None).get("/api/federations/nku/championships/").json() == [data]


def test_the_api_names_each_bad_qualifier(federation, clubs, admin, nights):
    north, _south = nights
    body = {
        "name": "Bad final",
        "rules": "clabber-2",
        "qualifiers": [{"night": north.pk, "cup": 1}, {"night": 999999}, {"series": 0}],
    }
    answer = api_client(admin).post("/api/federations/nku/championships/", body, format="json")
    assert answer.status_code == 400
    fields = [e["field"] for e in answer.json()["errors"]]
    assert fields == ["qualifiers[0]", "qualifiers[1].night", "qualifiers[2].series"]
    assert not QualifiedEntrant.objects.exists()
