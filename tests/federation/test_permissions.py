"""The officer role in the permission matrix: who sees and changes what in a federation,
through the pages and the API. An officer of one federation is nobody in another: a
private federation answers 404, its private players are not listed, and no write goes
through."""

from __future__ import annotations

import pytest
from django.test import Client

from clabber_league.federation import services
from clabber_league.federation.models import FederationPlayer, PlayerLink, PlayerMerge

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def records(world):
    officer = world.access(world.officer)
    public = services.player_create(access=officer, name="Open Olga")
    private = services.player_create(access=officer, name="Quiet Quinn", email="q@example.org")
    FederationPlayer.objects.filter(pk=public.pk).update(is_public=True)
    kbn_private = services.player_create(
        access=world.access(world.kbn_officer, world.kbn), name="Kbn Karel"
    )
    return public, private, kbn_private


OFFICER_PAGES = ["officer/players/", "officer/duplicates/", "officer/links/", "officer/clubs/"]


@pytest.mark.parametrize("page", OFFICER_PAGES)
def test_officer_pages_officers_only(world, page):
    url = f"/federations/nku/{page}"
    assert client_for(world.officer).get(url).status_code == 200
    assert client_for(world.fed_admin).get(url).status_code == 200
    for user in (world.club_admin, world.member, world.kbn_officer):
        assert client_for(user).get(url).status_code == 403, user
    response = client_for(None).get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_private_federation_is_404_to_everyone_but_its_officers(world):
    world.kbn.is_public = False
    world.kbn.save()
    for user in (None, world.officer, world.club_admin):
        assert client_for(user).get("/federations/kbn/").status_code == 404
        assert client_for(user).get("/api/federations/kbn/players/").status_code == 404
    assert client_for(world.kbn_officer).get("/federations/kbn/").status_code == 200
    slugs = [
        f["slug"] for f in client_for(world.officer).get("/api/federations/").json()["results"]
    ]
    assert slugs == ["nku"]


def test_player_pages_are_public_only_by_the_players_choice(world, records):
    public, private, kbn_private = records
    anyone = client_for(None)
    assert anyone.get(f"/federations/nku/players/{public.number}/").status_code == 200
    assert anyone.get(f"/federations/nku/players/{private.number}/").status_code == 404
    assert (
        client_for(world.officer).get(f"/federations/nku/players/{private.number}/").status_code
        == 200
    )
    # The KBN officer sees neither NKU's private player nor KBN's record under NKU's URL.
    kbn = client_for(world.kbn_officer)
    assert kbn.get(f"/federations/nku/players/{private.number}/").status_code == 404
    assert kbn.get(f"/federations/nku/players/{kbn_private.number}/").status_code == 404
    assert kbn.get(f"/federations/kbn/players/{kbn_private.number}/").status_code == 200


def test_the_api_lists_public_players_to_others_and_every_record_to_officers(world, records):
    public, private, kbn_private = records

    def numbers(user, slug="nku"):
        body = client_for(user).get(f"/api/federations/{slug}/players/").json()
        return sorted(p["number"] for p in body["results"])

    assert numbers(world.officer) == sorted([public.number, private.number])
    assert numbers(None) == [public.number]
    assert numbers(world.kbn_officer) == [public.number]  # an outsider in NKU
    assert numbers(world.kbn_officer, "kbn") == [kbn_private.number]
    body = client_for(None).get("/api/federations/nku/players/").json()
    assert "email" not in body["results"][0]
    found = client_for(world.officer).get(f"/api/federations/nku/players/?number={private.number}")
    [row] = found.json()["results"]
    assert row["email"] == "q@example.org"


def test_an_officer_of_another_federation_changes_nothing(world, records):
    public, private, _ = records
    kbn = client_for(world.kbn_officer)
    answers = [
        kbn.post(
            "/api/federations/nku/players/", {"name": "Sneaky"}, content_type="application/json"
        ),
        kbn.post(
            "/api/federations/nku/merges/",
            {"kept": public.number, "merged": private.number},
            content_type="application/json",
        ),
        kbn.post("/federations/nku/officer/players/", {"name": "Sneaky"}),
        kbn.post("/federations/nku/officer/duplicates/", {"kept": public.pk, "merged": private.pk}),
    ]
    assert [a.status_code for a in answers] == [403, 403, 403, 403]
    assert FederationPlayer.objects.filter(federation=world.nku).count() == 2
    assert not PlayerMerge.objects.exists()
    assert not FederationPlayer.objects.filter(name="Sneaky").exists()


def test_api_link_propose_approve_and_merge_unmerge(world, records):
    public, private, _ = records
    admin = client_for(world.club_admin)
    proposed = admin.post(
        "/api/federations/nku/links/",
        {"player": world.player.pk, "number": private.number},
        content_type="application/json",
    )
    assert proposed.status_code == 201, proposed.content
    link_id = proposed.json()["id"]
    assert proposed.json()["status"] == "proposed"
    # The club admin may not approve; another federation's officer cannot even find it.
    assert admin.post(f"/api/federations/nku/links/{link_id}/approve/").status_code == 403
    kbn = client_for(world.kbn_officer)
    assert kbn.post(f"/api/federations/nku/links/{link_id}/approve/").status_code == 404
    approved = client_for(world.member).post(f"/api/federations/nku/links/{link_id}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    again = client_for(world.officer).post(f"/api/federations/nku/links/{link_id}/refuse/")
    assert again.status_code == 409
    assert again.json()["errors"][0]["field"] == "link"

    officer = client_for(world.officer)
    merged = officer.post(
        "/api/federations/nku/merges/",
        {"kept": public.number, "merged": private.number, "reason": "one person"},
        content_type="application/json",
    )
    assert merged.status_code == 201, merged.content
    assert PlayerLink.objects.get(pk=link_id).federation_player_id == public.pk
    undone = officer.post(f"/api/federations/nku/merges/{merged.json()['id']}/unmerge/")
    assert undone.status_code == 200 and undone.json()["undone_at"]
    assert PlayerLink.objects.get(pk=link_id).federation_player_id == private.pk


def test_bad_input_names_the_field_and_writes_nothing(world):
    officer = client_for(world.officer)
    answer = officer.post(
        "/api/federations/nku/players/",
        {"name": "", "birth_year": 1800, "email": "nope"},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert {e["field"] for e in answer.json()["errors"]} == {"name", "birth_year", "email"}
    assert not FederationPlayer.objects.exists()
    unknown = client_for(world.club_admin).post(
        "/api/federations/nku/links/",
        {"player": world.player.pk, "number": "NKU-424242"},
        content_type="application/json",
    )
    assert unknown.status_code == 404
    assert unknown.json()["errors"][0]["field"] == "number"
    assert not PlayerLink.objects.exists()


def test_the_clubs_list_shows_members_to_all_and_requests_to_officers(world):
    from tests.factories import ClubFactory, MembershipFactory

    club = ClubFactory(name="Asking Club")
    MembershipFactory(club=club, user=world.stranger, role="admin")
    services.club_request(access=world.access(world.stranger), club=club, user=world.stranger)

    def names(user):
        body = client_for(user).get("/api/federations/nku/clubs/").json()
        return {(c["club_name"], c["status"]) for c in body["results"]}

    members = {("De Troef", "member"), ("Ons Genoegen", "member")}
    assert names(None) == members
    assert names(world.officer) == members | {("Asking Club", "requested")}


def test_a_token_without_the_admin_scope_cannot_write(world):
    from clabber_league.clubs.tokens import token_create

    _, key = token_create(user=world.officer, name="script", scope="read")
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/federations/nku/players/").status_code == 200
    answer = client.post(
        "/api/federations/nku/players/", {"name": "Via Token"}, content_type="application/json"
    )
    assert answer.status_code == 403
    assert not FederationPlayer.objects.filter(name="Via Token").exists()
