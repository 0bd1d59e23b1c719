"""The team pages of a club admin: rename a team and change its players, withdraw it, and
choose per division what becomes of a withdrawn team's later fixtures."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clabber_league.leagues import services as league_services
from clabber_league.scheduling.models import Fixture
from tests.factories import PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db

NEXT_WEEK = timezone.localdate() + dt.timedelta(days=7)


@pytest.fixture
def two_teams(division):
    aces, bells = (TeamFactory(division=division, name=n) for n in ("Aces", "Bells"))
    fixture = Fixture.objects.create(
        club=division.club,
        division=division,
        round_number=1,
        home=aces,
        away=bells,
        date=NEXT_WEEK,
    )
    return aces, bells, fixture


def _url(name, club, pk):
    return reverse(f"scheduling:{name}", kwargs={"club_slug": club.slug, "pk": pk})


def test_the_edit_page_renames_a_team_and_finds_its_players_in_any_case(
    client, club, admin, two_teams
):
    aces = two_teams[0]
    tom = PlayerFactory(club=club, name="Tom Smith")
    client.force_login(admin)
    page = client.get(_url("team-edit", club, aces.pk)).content.decode()
    assert (
        "Withdraw Aces" in page
        and f"From today: 1 fixture (Aces v Bells {NEXT_WEEK.day} {NEXT_WEEK:%b})" in page
    )
    response = client.post(
        _url("team-edit", club, aces.pk), {"name": "Ace High", "players": "tom smith\nMary"}
    )
    assert response.status_code == 302
    aces.refresh_from_db()
    assert aces.name == "Ace High"
    assert aces.members.get(position=0).player == tom


def test_a_name_another_team_has_is_shown_beside_the_field(client, club, admin, two_teams):
    aces = two_teams[0]
    client.force_login(admin)
    response = client.post(_url("team-edit", club, aces.pk), {"name": "Bells", "players": "A\nB"})
    assert response.status_code == 400
    assert str(league_services.TEAM_NAME_TAKEN) in response.content.decode()
    aces.refresh_from_db()
    assert aces.name == "Aces"


def test_withdrawing_on_the_page_turns_later_fixtures_into_walkovers(
    client, club, admin, two_teams
):
    aces, bells, fixture = two_teams
    client.force_login(admin)
    response = client.post(_url("team-withdraw", club, aces.pk), {"on": "2026-10-01"})
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert (fixture.status, fixture.forfeit_winner) == (Fixture.Status.FORFEIT, bells)
    team_page = client.get(response["Location"]).content.decode()
    assert "Aces withdrew on 1 Oct 2026: 1 fixture turned into a walkover." in team_page


def test_a_withdrawal_before_the_season_is_refused_beside_the_date(
    client, club, admin, two_teams, division
):
    aces, _, fixture = two_teams
    client.force_login(admin)
    response = client.post(_url("team-withdraw", club, aces.pk), {"on": "2026-01-01"})
    assert response.status_code == 400
    message = league_services.WITHDRAW_BEFORE_SEASON.format(
        start=f"{division.season.start_date.day} {division.season.start_date:%b %Y}"
    )
    assert message in response.content.decode()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_the_setup_page_sets_the_divisions_withdrawal_policy(client, club, admin, division):
    client.force_login(admin)
    assert "When a team withdraws" in client.get(_url("setup", club, division.pk)).content.decode()
    response = client.post(
        _url("withdrawal-policy", club, division.pk), {"withdrawal_policy": "remove"}
    )
    assert response.status_code == 302
    division.refresh_from_db()
    assert division.withdrawal_policy == "remove"
