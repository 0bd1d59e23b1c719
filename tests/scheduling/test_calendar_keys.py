"""Calendar (.ics) links of a private club (issue 10): each member has their own key per
team; a member renews theirs and a club admin revokes a team's, after which the old URL
is a 404; a member removed from the club, or whose account is deactivated, loses them.
Through the pages and the API, with the feed fetched as a calendar app does (no login)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.models import Membership, Role
from tests.factories import ClubFactory, MembershipFactory

from .test_services import scheduled  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def _page(name: str, club, team) -> str:
    return reverse(f"scheduling:{name}", args=[club.slug, team.pk])


def _api(club, team, suffix: str = "") -> str:
    return f"/api/clubs/{club.slug}/teams/{team.pk}/calendar-link/{suffix}"


def _link_from_page(client, club, team) -> str:
    """The member presses "Get a calendar link" and copies the address the page shows."""
    assert client.post(_page("team-feed-key", club, team)).status_code == 302
    page = client.get(_page("team", club, team)).content.decode()
    start = page.index('<code class="feed-url">') + len('<code class="feed-url">')
    return page[start : page.index("</code>", start)].replace("&amp;", "&")


def _calendar_app(url: str) -> int:
    """A calendar app fetching the feed: no login, no cookies."""
    return Client().get(url.removeprefix("http://testserver")).status_code


@pytest.fixture
def team(division, scheduled):  # noqa: F811
    return division.teams.order_by("name").first()


def test_a_member_gets_a_link_that_opens_only_their_team_feed(client, club, team, viewer):
    client.force_login(viewer)
    link = _link_from_page(client, club, team)
    assert "?key=" in link
    assert _calendar_app(link) == 200
    other = team.division.teams.exclude(pk=team.pk).first()
    key = link.split("?key=")[1]
    assert _calendar_app(_page("team-ics", club, other) + f"?key={key}") == 404
    assert _calendar_app(_page("team-ics", club, team)) == 404  # private: no key, no feed
    assert _calendar_app(_page("team-ics", club, team) + "?key=forged") == 404


def test_a_member_renews_their_link_and_the_old_one_stops_working(client, club, team, viewer):
    client.force_login(viewer)
    old = _link_from_page(client, club, team)
    assert client.post(_page("team-feed-key", club, team), {"renew": "1"}).status_code == 302
    page = client.get(_page("team", club, team)).content.decode()
    assert old not in page
    new = page.split('<code class="feed-url">')[1].split("</code>")[0].replace("&amp;", "&")
    assert _calendar_app(old) == 404
    assert _calendar_app(new) == 200


def test_a_club_admin_revokes_every_link_to_a_team(client, club, team, viewer, secretary):
    client.force_login(viewer)
    link = _link_from_page(client, club, team)
    admin = Client()
    admin.force_login(secretary)
    admins_link = _link_from_page(admin, club, team)
    response = admin.post(_page("team-feed-keys-revoke", club, team), follow=True)
    assert "2 calendar links" in response.content.decode()
    assert _calendar_app(link) == 404
    assert _calendar_app(admins_link) == 404
    again = _link_from_page(client, club, team)  # the member gets a new one
    assert again != link and _calendar_app(again) == 200
    # a member who is not a club admin cannot revoke the others' links
    assert client.post(_page("team-feed-keys-revoke", club, team)).status_code == 403
    assert _calendar_app(again) == 200


def test_a_member_removed_from_the_club_loses_their_links(club, team, viewer, secretary):
    member = Client()
    member.force_login(viewer)
    link = _link_from_page(member, club, team)
    admin = APIClient()
    admin.force_login(secretary)
    membership = Membership.objects.get(club=club, user=viewer)
    url = f"/api/clubs/{club.slug}/members/{membership.pk}/"
    assert admin.delete(url).status_code == 204
    assert _calendar_app(link) == 404


def test_a_deactivated_account_opens_no_feed(client, club, team, viewer):
    client.force_login(viewer)
    link = _link_from_page(client, club, team)
    viewer.is_active = False
    viewer.save()
    assert _calendar_app(link) == 404


def test_a_public_clubs_feed_needs_no_key(client, club, team):
    club.is_public = True
    club.save()
    page = client.get(_page("team", club, team)).content.decode()
    assert f'<code class="feed-url">http://testserver{_page("team-ics", club, team)}</code>' in (
        page
    )
    assert "Get a calendar link" not in page
    assert _calendar_app(_page("team-ics", club, team)) == 200


def test_the_api_reads_issues_renews_and_revokes_links(club, team, viewer, secretary):
    member = APIClient()
    member.force_login(viewer)
    assert member.get(_api(club, team)).json() == {"url": None, "personal": False}
    first = member.post(_api(club, team), {}, format="json").json()
    assert first["personal"] and _calendar_app(first["url"]) == 200
    assert member.post(_api(club, team), {}, format="json").json() == first  # same link
    assert member.get(_api(club, team)).json() == first
    renewed = member.post(_api(club, team), {"renew": True}, format="json").json()
    assert renewed["url"] != first["url"]
    assert _calendar_app(first["url"]) == 404 and _calendar_app(renewed["url"]) == 200

    refused = member.post(_api(club, team, "revoke/"), {}, format="json")
    assert refused.status_code == 403
    admin = APIClient()
    admin.force_login(secretary)
    assert admin.post(_api(club, team, "revoke/"), {}, format="json").json() == {"revoked": 1}
    assert _calendar_app(renewed["url"]) == 404
    assert member.get(_api(club, team)).json() == {"url": None, "personal": False}


def test_the_api_refuses_a_bad_renew_flag_and_another_clubs_team(club, team, viewer):
    member = APIClient()
    member.force_login(viewer)
    bad = member.post(_api(club, team), {"renew": "maybe"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "renew"
    assert not team.feed_keys.exists()
    other = ClubFactory(slug="elsewhere")
    MembershipFactory(club=other, user=viewer, role=Role.ADMIN)
    assert member.post(_api(other, team), {}, format="json").status_code == 404
    assert member.post(_api(other, team, "revoke/"), {}, format="json").status_code == 404
