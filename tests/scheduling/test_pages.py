"""The schedule pages as the secretary, a player and a calendar app see them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from icalendar import Calendar

from clabber_league.leagues.models import Division, Season, Team, Venue
from clabber_league.scheduling.models import Fixture, ScheduleConfig, ScheduleRun
from clabber_league.scheduling.services.generation import BROKER_DOWN, schedule_run_execute
from clabber_league.scheduling.services.jobs import nights_publish

from .conftest import SEASON_START, configure

pytestmark = pytest.mark.django_db


def _url(name: str, club, *args) -> str:
    return reverse(f"scheduling:{name}", args=[club.slug, *args])


def test_the_secretary_sets_up_a_season_and_generates_its_schedule(
    client, club, secretary, django_capture_on_commit_callbacks
):
    client.force_login(secretary)
    assert client.post(_url("venue-new", club), {"name": "Hall", "tables": 2}).status_code == 302
    response = client.post(
        _url("season-new", club),
        {
            "name": "Winter 2027",
            "start_date": "2027-01-04",
            "points_win": 2,
            "points_tie": 1,
            "points_loss": 0,
        },
    )
    season = Season.objects.get(club=club, name="Winter 2027")
    assert response.url == _url("season", club, season.slug)
    response = client.post(
        _url("season", club, season.slug),
        {"name": "Monday Night", "ruleset": "clabber", "games_per_fixture": 2},
    )
    division = Division.objects.get(season=season)
    assert response.url == _url("setup", club, division.pk)
    for i, players in enumerate(["Ada, Bud", "Cy\nDot", "Eve, Fay", "Gus, Hal", "Ike, Jo"]):
        client.post(_url("team-new", club, division.pk), {"name": f"T{i}", "players": players})
    assert division.teams.count() == 5
    hall = Venue.objects.get(club=club)
    response = client.post(
        _url("setup", club, division.pk),
        {
            "format": "round_robin",
            "cycles": "1",
            "games_per_fixture": "2",
            "weekday": "0",
            "start_date": "2027-01-04",
            "start_time": "19:00",
            "venues": [hall.pk],
            "skip_dates": "2027-01-18 MLK day\n",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    config = ScheduleConfig.objects.get(division=division)
    assert [s.date for s in config.skip_dates.all()] == [dt.date(2027, 1, 18)]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(_url("generate", club, division.pk))
    run = ScheduleRun.objects.get(division=division)
    assert response.url == _url("run", club, run.pk)
    assert len(callbacks) == 1
    page = client.get(response.url).content.decode()
    assert 'hx-trigger="every 1s"' in page  # queued: the bar polls its status
    schedule_run_execute(run_id=run.pk, today=dt.date(2027, 1, 1))
    status = client.get(_url("run-status", club, run.pk)).content.decode()
    assert 'value="100"' in status and "hx-trigger" not in status  # done: polling stops
    assert "See the fixtures" in status
    schedule = client.get(_url("division", club, division.pk)).content.decode()
    assert "Round 5" in schedule and "Bye:" in schedule
    assert "Mon 25 Jan" in schedule or "25 January" in schedule
    assert Fixture.objects.filter(division=division).count() == 10


@pytest.fixture
def scheduled(division, teams, hall, annex, generate):
    configure(division, venues=[hall], start_time=dt.time(19, 30))
    run = generate(division)
    assert run.state == "done"
    return run


def test_the_schedule_by_round_says_where_fixtures_overflowed(client, club, division, scheduled):
    club.is_public = True
    club.save()
    page = client.get(_url("division", club, division.pk)).content.decode()
    assert "moved to Mon 14 Sep 2026 (all 2 tables were taken)" in page
    assert "Moved to a later night" in page
    assert "data-print" in page and "js/site.js" in page  # the Print button, no inline script
    assert "css/print.css" in page and "css/schedule.css" in page


def test_the_schedule_shows_five_rounds_a_page_and_names_every_page_to_print(
    client, club, division, teams, hall, generate
):
    """A season prints a page of rounds at a time: the whole of a long one on one page
    grew with the division (280 KB for 25 teams), so there is no such page any more."""
    club.is_public = True
    club.save()
    configure(division, venues=[hall], cycles=2)  # 6 teams twice round: 10 rounds
    assert generate(division).state == "done"
    url = _url("division", club, division.pk)
    first = client.get(url).content.decode()
    assert 'id="round-5"' in first and 'id="round-6"' not in first
    assert "Print rounds 1\u20135" in first
    assert '<a href="?page=1" aria-current="page">Rounds 1\u20135</a>' in first
    assert '<a href="?page=2">Rounds 6\u201310</a>' in first
    second = client.get(url + "?page=2").content.decode()
    assert 'id="round-6"' in second and 'id="round-10"' in second
    assert 'id="round-5"' not in second
    assert '<a href="?page=2" aria-current="page">Rounds 6\u201310</a>' in second
    # The old "whole season" address is the first page now, not every round.
    assert 'id="round-6"' not in client.get(url + "?all=1").content.decode()


def test_a_short_season_is_one_page_with_no_pager(client, club, division, teams, hall, generate):
    club.is_public = True
    club.save()
    configure(division, venues=[hall])  # 6 teams once round: 5 rounds
    assert generate(division).state == "done"
    page = client.get(_url("division", club, division.pk)).content.decode()
    assert 'id="round-5"' in page and ">Print<" in page
    assert 'aria-label="Every page of rounds"' not in page


def test_a_teams_page_and_its_calendar_feed(client, club, division, scheduled, viewer):
    team = division.teams.order_by("name").first()
    client.force_login(viewer)
    assert "calendar.ics" not in client.get(_url("team", club, team.pk)).content.decode()
    client.post(_url("team-feed-key", club, team.pk))  # "Get a calendar link"
    page = client.get(_url("team", club, team.pk)).content.decode()
    key = team.feed_keys.get().key
    assert f"calendar.ics?key={key}" in page
    client.logout()
    feed = client.get(_url("team-ics", club, team.pk) + f"?key={key}")
    assert feed.status_code == 200
    assert feed["Content-Type"] == "text/calendar; charset=utf-8"
    assert b"\r\n" in feed.content
    cal = Calendar.from_ical(feed.content)
    events = [c for c in cal.walk("VEVENT")]
    assert len(events) == 5  # six teams: five rounds
    assert cal.walk("VTIMEZONE")  # timed events carry their time zone
    first = min(events, key=lambda e: e.decoded("dtstart"))
    start = first.decoded("dtstart")
    assert (start.date(), start.hour, start.minute) == (dt.date(2026, 9, 7), 19, 30)
    assert " v " in str(first["summary"]) and "The Hall" in str(first["location"])
    for line in feed.content.split(b"\r\n"):
        assert len(line) <= 75  # RFC 5545 folds long lines
    assert client.get(_url("team-ics", club, team.pk) + "?key=forged").status_code == 404


def test_a_venues_page_and_a_nights_list(client, club, division, scheduled, hall, secretary):
    client.force_login(secretary)
    page = client.get(_url("venue", club, hall.pk) + "?all=1").content.decode()
    assert "Monday 7 September 2026" in page
    nights_publish(on=dt.date(2026, 9, 7))
    night = client.get(_url("night", club, "2026-09-07")).content.decode()
    assert "Published" in night and night.count('class="fixture ') == 2
    assert client.get(_url("night", club, "not-a-date")).status_code == 404
    index = client.get(_url("index", club)).content.decode()
    assert "Monday 7 September 2026" in index


def test_moving_and_forfeiting_from_the_pages(client, club, division, scheduled, secretary):
    client.force_login(secretary)
    fixture = Fixture.objects.filter(division=division).order_by("round_number", "id").first()
    response = client.post(
        _url("fixture-move", club, fixture.pk), {"date": "", "note": "Hall flooded"}
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert (fixture.status, fixture.note) == ("postponed", "Hall flooded")
    response = client.post(
        _url("fixture-forfeit", club, fixture.pk), {"winner": fixture.away_id, "kind": "walkover"}
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert (fixture.status, fixture.forfeit_winner_id, fixture.note) == (
        "forfeit",
        fixture.away_id,
        "Walkover",
    )
    page = client.get(_url("division", club, division.pk)).content.decode()
    assert f"Walkover: {fixture.away.name} win" in page


def test_after_moving_a_late_fixture_the_schedule_opens_on_its_round(
    client, club, division, teams, hall, generate, secretary
):
    configure(division, venues=[hall], cycles=2)  # 10 rounds: more than a page holds
    generate(division)
    client.force_login(secretary)
    fixture = Fixture.objects.filter(division=division).order_by("-round_number", "id").first()
    response = client.post(_url("fixture-move", club, fixture.pk), {"date": "", "note": "Flood"})
    assert response.status_code == 302
    assert response.url.endswith(f"#round-{fixture.round_number}")
    page = client.get(response.url.split("#")[0]).content.decode()
    assert f'id="round-{fixture.round_number}"' in page
    assert 'id="round-1"' not in page


def test_a_move_onto_a_busy_night_is_refused_beside_the_date(
    client, club, division, scheduled, secretary
):
    client.force_login(secretary)
    fixture = Fixture.objects.filter(division=division, round_number=1).first()
    busy = Fixture.objects.filter(division=division, round_number=2).first()
    response = client.post(_url("fixture-move", club, fixture.pk), {"date": busy.date})
    assert response.status_code == 200
    assert "already plays that night" in " ".join(response.context["form"].errors["date"])


def test_a_failed_run_offers_a_retry(client, club, division, teams, secretary):
    configure(division)
    run = ScheduleRun.objects.create(
        club=club, division=division, state="failed", message=BROKER_DOWN
    )
    client.force_login(secretary)
    page = client.get(_url("run", club, run.pk)).content.decode()
    assert BROKER_DOWN in page and "Try again" in page
    response = client.post(_url("run-retry", club, run.pk))
    assert response.status_code == 302
    assert ScheduleRun.objects.filter(division=division, state="queued").count() == 1


def test_the_club_home_links_the_schedule(client, club, secretary):
    client.force_login(secretary)
    page = client.get(reverse("club-home", args=[club.slug])).content.decode()
    assert _url("index", club) in page


def test_a_team_of_the_wrong_size_is_refused_with_the_rule(client, club, division, secretary):
    client.force_login(secretary)
    response = client.post(
        _url("team-new", club, division.pk), {"name": "Solo", "players": "Lonely"}, follow=True
    )
    assert "A team in clabber has 2 player(s); got 1." in response.content.decode()
    assert not Team.objects.filter(name="Solo").exists()
    assert SEASON_START.weekday() == 1
