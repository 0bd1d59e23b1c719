"""Members by a pasted list or a CSV file (issue 30): a preview with an error per line,
nothing written until the club admin confirms; the lines with an email address invite."""

from __future__ import annotations

from html import unescape

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clabber_league.clubs.models import Player
from clabber_league.members import roster
from clabber_league.members.models import Invitation
from clabber_league.members.services import MemberError
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_each_line_gets_its_own_error(club):
    PlayerFactory(club=club, name="Ada Kessler")
    rows = roster.roster_parse(
        club=club,
        text="\n".join(
            [
                "Bud Hartig, bud@example.org",
                "ada kessler",  # the club has her already
                ", nobody@example.org",
                "Cora Lee, not-an-address",
                "BUD HARTIG",
                "Dan Ives, dan@example.org, extra",
                "Eve Moss, BUD@example.org",
                "",
                "Fay Noor",
            ]
        ),
    )
    got = [(r.line, r.name, r.error, r.exists) for r in rows]
    assert got == [
        (1, "Bud Hartig", "", False),
        (2, "ada kessler", "", True),
        (3, "", str(roster.ROW_NAME_EMPTY), False),
        (4, "Cora Lee", str(roster.ROW_EMAIL_INVALID).format(email="not-an-address"), False),
        (5, "BUD HARTIG", str(roster.ROW_DUPLICATE).format(name="BUD HARTIG", line=1), False),
        (6, "Dan Ives", str(roster.ROW_TOO_MANY_CELLS), False),
        (
            7,
            "Eve Moss",
            str(roster.ROW_EMAIL_DUPLICATE).format(email="BUD@example.org", line=1),
            False,
        ),
        (9, "Fay Noor", "", False),
    ]


def test_a_list_with_an_error_writes_nothing(club, admin):
    with pytest.raises(MemberError):
        roster.roster_import(club=club, text="Gil Ott\nHal Pike, nope", user=admin)
    assert not Player.objects.filter(name__in=["Gil Ott", "Hal Pike"]).exists()


def test_a_csv_file_with_a_header_a_byte_order_mark_and_semicolons(club):
    text = roster.roster_text_from_file(
        "\ufeffname;email\r\nIda Quist;ida@example.org\r\nJon Roe;\r\n".encode()
    )
    rows = roster.roster_parse(club=club, text=text)
    assert [(r.line, r.name, r.email, r.error) for r in rows] == [
        (2, "Ida Quist", "ida@example.org", ""),
        (3, "Jon Roe", "", ""),
    ]


def test_a_spreadsheets_latin_1_file_is_read(club):
    rows = roster.roster_parse(club=club, text=roster.roster_text_from_file(b"Ren\xe9e Sand\n"))
    assert rows[0].name == "Renée Sand"


def test_a_file_that_is_not_text_is_refused(club):
    with pytest.raises(MemberError) as caught:
        roster.roster_text_from_file(b"PK\x03\x04\x00\x00binary")
    assert caught.value.errors[0]["message"] == str(roster.ROSTER_NOT_TEXT)


def test_the_page_previews_then_adds_and_invites_on_confirming(
    client, club, admin, django_capture_on_commit_callbacks
):
    client.force_login(admin)
    url = reverse("club-members-add", args=[club.slug])
    text = "Kim Tate, kim@example.org\nLou Vane"
    preview = client.post(url, {"text": text, "action": "preview"})
    assert preview.status_code == 200
    body = unescape(preview.content.decode())
    assert "2 new players will be added." in body
    assert "Add 2 players" in body
    assert not Player.objects.filter(name="Kim Tate").exists()  # nothing written yet
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"text": text, "action": "confirm"})
    assert done.status_code == 302
    assert done["Location"] == reverse("club-home", args=[club.slug])
    kim = Player.objects.get(club=club, name="Kim Tate")
    assert Player.objects.filter(club=club, name="Lou Vane").exists()
    invitation = Invitation.objects.get(club=club)
    assert (invitation.player, invitation.email) == (kim, "kim@example.org")
    assert [m.to for m in mail.outbox] == [["kim@example.org"]]


def test_the_page_shows_each_lines_error_and_offers_no_confirm(client, club, admin):
    client.force_login(admin)
    url = reverse("club-members-add", args=[club.slug])
    response = client.post(url, {"text": "Mo Webb\nMo Webb", "action": "preview"})
    body = unescape(response.content.decode())
    assert str(roster.ROW_DUPLICATE).format(name="Mo Webb", line=1) in body
    assert 'value="confirm"' not in body
    forced = client.post(url, {"text": "Mo Webb\nMo Webb", "action": "confirm"})
    assert forced.status_code == 400
    assert not Player.objects.filter(name="Mo Webb").exists()


def test_an_uploaded_csv_is_previewed_in_the_text_box(client, club, admin):
    client.force_login(admin)
    upload = SimpleUploadedFile("members.csv", b"name,email\nNed Yost,ned@example.org\n")
    response = client.post(
        reverse("club-members-add", args=[club.slug]), {"file": upload, "action": "preview"}
    )
    body = unescape(response.content.decode())
    assert response.status_code == 200
    assert "Ned Yost" in body and "1 new player will be added." in body
    assert not Player.objects.filter(name="Ned Yost").exists()


@pytest.mark.parametrize("who", ["scorer", "viewer"])
def test_only_club_admins_add_members(client, club, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.post(
        reverse("club-members-add", args=[club.slug]), {"text": "Oz", "action": "confirm"}
    )
    assert response.status_code == 403
    assert not Player.objects.filter(name="Oz").exists()
