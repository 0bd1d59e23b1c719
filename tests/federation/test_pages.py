"""The person's own pages, the officers' forms, the command and the periodic task."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from clabber_league.clubs.models import Player
from clabber_league.federation import services
from clabber_league.federation.models import Federation, FederationPlayer, Officer, PlayerLink
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def linked(world) -> FederationPlayer:
    return services.link_propose(
        access=world.access(world.officer), player=world.player
    ).federation_player


def test_my_page_lists_my_record_and_the_export_downloads_it(world):
    record = linked(world)
    page = client_for(world.member).get("/federations/me/")
    assert page.status_code == 200
    assert record.number in page.content.decode()
    export = client_for(world.member).get("/federations/me/export.json")
    assert export["Content-Type"].startswith("application/json")
    assert "attachment" in export["Content-Disposition"]
    assert json.loads(export.content)["federation_records"][0]["number"] == record.number
    # Nobody else's record is theirs to see, change or erase.
    other = client_for(world.club_admin)
    assert record.number not in other.get("/federations/me/").content.decode()
    assert (
        other.post(f"/federations/me/records/{record.pk}/erase/", {"confirm": "1"}).status_code
        == 404
    )
    assert (
        other.post(f"/federations/me/records/{record.pk}/profile/", {"is_public": "1"}).status_code
        == 404
    )


def test_erasing_from_my_page_needs_the_box_ticked(world):
    record = linked(world)
    me = client_for(world.member)
    page = me.post(f"/federations/me/records/{record.pk}/erase/", {})
    assert page.status_code == 200
    record.refresh_from_db()
    assert record.erased_at is None
    done = me.post(f"/federations/me/records/{record.pk}/erase/", {"confirm": "1"})
    assert done.status_code == 302
    record.refresh_from_db()
    assert record.erased_at is not None and record.name == ""
    assert Player.objects.get(pk=world.player.pk).name == f"Player {record.number}"


def test_the_player_approves_a_link_on_their_page(world):
    link = services.link_propose(access=world.access(world.club_admin), player=world.player)
    assert (
        client_for(world.club_admin)
        .post(f"/federations/me/links/{link.pk}/", {"decision": "approve"})
        .status_code
        == 404
    )
    client_for(world.member).post(f"/federations/me/links/{link.pk}/", {"decision": "approve"})
    link.refresh_from_db()
    assert link.status == PlayerLink.Status.APPROVED


def test_a_refused_write_says_why_on_the_page(world):
    officer = client_for(world.officer)
    response = officer.post(
        "/federations/nku/officer/players/", {"name": "", "birth_year": "1800"}, follow=True
    )
    text = response.content.decode()
    assert "Give the player&#x27;s name." in text
    assert "Give a birth year between 1900 and this year, or none." in text
    assert not FederationPlayer.objects.exists()


def test_a_club_admin_asks_to_join_from_the_home_page(world):
    from tests.factories import ClubFactory, MembershipFactory

    club = ClubFactory(name="Nieuwe Club")
    MembershipFactory(club=club, user=world.stranger, role="admin")
    home = client_for(world.stranger).get("/federations/nku/")
    assert "Ask for your club to join" in home.content.decode()
    client_for(world.stranger).post("/federations/nku/", {"club": club.slug})
    row = world.nku.member_clubs.get(club=club)
    assert row.status == "requested"


def test_the_command_creates_a_federation_with_its_admin():
    admin = UserFactory(username="boss")
    call_command("create_federation", "kbn", "Klaverjasbond", "--admin", "boss", "--prefix", "KB")
    federation = Federation.objects.get(slug="kbn")
    assert Officer.objects.get(federation=federation).user == admin
    with pytest.raises(CommandError):
        call_command("create_federation", "kbn", "Again", "--admin", "boss")


def test_the_retention_task_is_scheduled_daily():
    from django_celery_beat.models import PeriodicTask

    call_command("setup_periodic_tasks")
    assert PeriodicTask.objects.filter(task="federation.erase_departed", enabled=True).exists()


def test_an_officer_records_that_a_player_left_and_erases_on_request(world):
    record = linked(world)
    url = f"/federations/nku/players/{record.number}/"
    assert client_for(world.kbn_officer).post(url, {"action": "left"}).status_code == 404
    assert client_for(world.club_admin).post(url, {"action": "left"}).status_code == 404
    officer = client_for(world.officer)
    officer.post(url, {"action": "left"})
    record.refresh_from_db()
    assert record.left_at is not None and not record.active
    officer.post(url, {"action": "erase"})  # the box not ticked: nothing happens
    record.refresh_from_db()
    assert record.erased_at is None
    officer.post(url, {"action": "erase", "confirm": "1"})
    record.refresh_from_db()
    assert record.erased_at is not None
