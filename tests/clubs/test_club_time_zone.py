"""A time zone per club (issue 31): "tonight", reminders, schedules, .ics feeds, pages and
the API follow the club's zone; a club that sets none has the site's ``TIME_ZONE``.

The moment: Tuesday 8 September 2026, 03:30 UTC. In Amsterdam it is 05:30 on Tuesday; in
Evansville (America/Chicago) it is still 22:30 on Monday 7 September."""

from __future__ import annotations

import datetime as dt
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from clabber_league.clubs.locale import club_today
from clabber_league.scheduling import tasks
from clabber_league.scheduling.models import Fixture, LeagueNight, ScheduleConfig
from tests.factories import (
    ClubFactory,
    DivisionFactory,
    FixtureFactory,
    MembershipFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 9, 8, 3, 30, tzinfo=dt.UTC)
MONDAY, TUESDAY, WEDNESDAY = dt.date(2026, 9, 7), dt.date(2026, 9, 8), dt.date(2026, 9, 9)


def at_now():
    return mock.patch("django.utils.timezone.now", return_value=NOW)


@pytest.fixture
def amsterdam():
    return ClubFactory(name="Amsterdam", slug="amsterdam", time_zone="Europe/Amsterdam")


@pytest.fixture
def evansville(settings):
    settings.TIME_ZONE = "America/Chicago"
    return ClubFactory(name="Evansville", slug="evansville", time_zone="")  # the site's zone


def fixture_of(club, on: dt.date) -> Fixture:
    season = SeasonFactory(club=club)
    return FixtureFactory(
        home__division=DivisionFactory(season=season), date=on, status=Fixture.Status.SCHEDULED
    )


def test_each_club_has_its_own_today(amsterdam, evansville):
    assert club_today(amsterdam, NOW) == TUESDAY
    assert club_today(evansville, NOW) == MONDAY


def test_tonights_fixture_lists_are_published_for_each_clubs_own_tonight(amsterdam, evansville):
    tonight_in_amsterdam = fixture_of(amsterdam, TUESDAY)
    fixture_of(amsterdam, MONDAY)  # yesterday in Amsterdam: not tonight's
    tonight_in_evansville = fixture_of(evansville, MONDAY)
    fixture_of(evansville, TUESDAY)  # tomorrow in Evansville
    with at_now():
        assert tasks.publish_nights() == 2
    published = set(LeagueNight.objects.values_list("club__slug", "date"))
    assert published == {
        ("amsterdam", tonight_in_amsterdam.date),
        ("evansville", tonight_in_evansville.date),
    }


def test_reminders_go_out_for_the_day_after_each_clubs_today(amsterdam, evansville):
    tomorrow_in_amsterdam = fixture_of(amsterdam, WEDNESDAY)
    tomorrow_in_evansville = fixture_of(evansville, TUESDAY)
    not_yet = fixture_of(amsterdam, TUESDAY)  # today in Amsterdam: its reminder went yesterday
    with at_now():
        tasks.send_reminders()
    reminded = set(Fixture.objects.filter(reminded_at__isnull=False).values_list("pk", flat=True))
    assert reminded == {tomorrow_in_amsterdam.pk, tomorrow_in_evansville.pk}
    assert not_yet.pk not in reminded


def test_overdue_fixtures_are_those_before_the_clubs_today(amsterdam, evansville):
    last_night_in_amsterdam = fixture_of(amsterdam, MONDAY)
    tonight_in_evansville = fixture_of(evansville, MONDAY)  # still being played
    with at_now():
        tasks.flag_overdue()
    flagged = set(Fixture.objects.filter(flagged_at__isnull=False).values_list("pk", flat=True))
    assert flagged == {last_night_in_amsterdam.pk}
    assert tonight_in_evansville.pk not in flagged


def test_a_new_club_nights_date_is_the_clubs_today(client, amsterdam, evansville):
    secretary = UserFactory(username="both")
    for club in (amsterdam, evansville):
        MembershipFactory(club=club, user=secretary, role="admin")
    client.force_login(secretary)
    with at_now():
        pages = {
            club.slug: client.get(reverse("events:new", args=[club.slug])).content.decode()
            for club in (amsterdam, evansville)
        }
    assert 'value="2026-09-08"' in pages["amsterdam"]
    assert 'value="2026-09-07"' in pages["evansville"]


def test_the_teams_calendar_is_in_the_clubs_zone(client, amsterdam):
    amsterdam.is_public = True
    amsterdam.save()
    fixture = fixture_of(amsterdam, TUESDAY)
    ScheduleConfig.objects.create(
        club=amsterdam,
        division=fixture.division,
        start_date=TUESDAY,
        weekday=1,
        start_time=dt.time(19, 30),
    )
    body = client.get(
        reverse("scheduling:team-ics", args=[amsterdam.slug, fixture.home_id])
    ).content.decode()
    assert "DTSTART;TZID=Europe/Amsterdam:20260908T193000" in body
    assert "X-WR-TIMEZONE:Europe/Amsterdam" in body


def test_the_api_answers_times_in_the_clubs_zone_and_the_zone_does_not_stay(client, game, admin):
    club = game.club
    client.force_login(admin)
    for zone in ("Europe/Amsterdam", "America/New_York"):
        club.time_zone = zone
        club.save()
        body = client.get(f"/api/clubs/{club.slug}/games/{game.pk}/").json()
        shown = dt.datetime.fromisoformat(body["created_at"])
        assert shown == game.created_at
        assert shown.utcoffset() == game.created_at.astimezone(ZoneInfo(zone)).utcoffset()
    assert timezone.get_current_timezone_name() == "America/Chicago"  # restored after


def test_a_streamed_export_is_written_in_the_clubs_zone(amsterdam):
    from django.http import StreamingHttpResponse

    from clabber_league.clubs.locale import club_locale_stream

    def rows():
        yield timezone.get_current_timezone_name().encode()

    response = club_locale_stream(amsterdam, StreamingHttpResponse(rows()))
    assert b"".join(response.streaming_content) == b"Europe/Amsterdam"
