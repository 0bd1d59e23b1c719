"""The night sheet: a club's fixtures of one night, division by division, with the start
time, venue and table of each fixture, and the byes; a withdrawn team has no bye."""

import datetime as dt

import pytest
from django.urls import reverse

from clabber_league.scheduling import selectors
from clabber_league.scheduling.models import Fixture, ScheduleConfig, Venue
from tests.factories import DivisionFactory, TeamFactory

pytestmark = pytest.mark.django_db

NIGHT = dt.date(2026, 10, 5)


@pytest.fixture
def night(division, club):
    hall = Venue.objects.create(club=club, name="Hall", tables=4)
    late = division
    late.name = "Premier"
    late.save()
    early = DivisionFactory(season=division.season, club=club, name="First")
    ScheduleConfig.objects.create(
        club=club, division=late, start_date=NIGHT, start_time=dt.time(20, 0)
    )
    ScheduleConfig.objects.create(
        club=club, division=early, start_date=NIGHT, start_time=dt.time(19, 30)
    )
    aces, bells, dads, mules = (
        TeamFactory(division=late, name=n) for n in ("Aces", "Bells", "Dads", "Mules")
    )
    mules.withdrawn_on = dt.date(2026, 9, 28)
    mules.save()
    ones, twos = (TeamFactory(division=early, name=n) for n in ("Ones", "Twos"))

    def fixture(division, home, away, table):
        return Fixture.objects.create(
            club=club,
            division=division,
            round_number=3,
            home=home,
            away=away,
            date=NIGHT,
            venue=hall,
            table=table,
        )

    fixture(late, aces, bells, 2)
    fixture(early, ones, twos, 1)
    Fixture.objects.create(
        club=club, division=late, round_number=2, home=dads, away=aces, date=NIGHT - dt.timedelta(7)
    )
    return {"late": late, "early": early, "dads": dads}


def test_the_night_is_laid_out_by_start_time_with_byes(club, night):
    sheet = selectors.night_sheet(club=club, date=NIGHT)
    assert [n.division.name for n in sheet] == ["First", "Premier"]
    assert [n.start_time for n in sheet] == [dt.time(19, 30), dt.time(20, 0)]
    premier = sheet[1]
    assert [(f.home.name, f.away.name, f.table) for f in premier.fixtures] == [("Aces", "Bells", 2)]
    assert [t.name for t in premier.byes] == ["Dads"]  # Mules withdrew: no bye
    assert sheet[0].byes == []


def test_the_page_shows_tables_start_times_and_byes(client, club, night):
    club.is_public = True
    club.save()
    url = reverse("scheduling:night-sheet", kwargs={"club_slug": club.slug, "day": "2026-10-05"})
    html = client.get(url).content.decode()
    assert "play starts 19:30" in html and "play starts 20:00" in html
    assert "Hall · 2" in html and "Bye: Dads" in html and "Mules" not in html
    night_page = reverse("scheduling:night", kwargs={"club_slug": club.slug, "day": "2026-10-05"})
    assert url in client.get(night_page).content.decode()


def test_a_night_that_is_not_a_date_is_not_found(client, club, admin):
    client.force_login(admin)
    url = reverse("scheduling:night-sheet", kwargs={"club_slug": club.slug, "day": "monday"})
    assert client.get(url).status_code == 404
