"""The club page for a member who plays: their next fixture and the games waiting for their
confirmation (who may confirm is ``games.services.game_confirm_refusal``'s rule)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clabber_league.clubs.access import access_for
from clabber_league.games import services as game_services
from clabber_league.members import selectors, services
from clabber_league.scheduling.models import Fixture
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


def _home(client, club, user=None):
    if user is not None:
        client.force_login(user)
    return client.get(reverse("club-home", kwargs={"club_slug": club.slug}))


def test_the_other_side_sees_the_game_waiting_for_its_confirmation(client, club, table, scorer):
    game, opponent = table["game"], table["opponent"]
    page = _home(client, club, opponent.user)
    assert page.context["to_confirm"] == [game]
    assert "Waiting for your confirmation" in page.content.decode()
    # Whoever recorded the deals, and their partner, may not confirm it: not listed.
    assert selectors.games_to_confirm(access=access_for(club=club, user=scorer), user=scorer) == []
    partner = table["partner"].user
    assert (
        selectors.games_to_confirm(access=access_for(club=club, user=partner), user=partner) == []
    )


def test_a_club_admin_who_touched_no_deal_sees_it_until_it_is_confirmed(club, table, admin):
    game = table["game"]
    access = access_for(club=club, user=admin)
    assert selectors.games_to_confirm(access=access, user=admin) == [game]
    game_services.game_confirm(game=game, user=table["opponent"].user)
    assert selectors.games_to_confirm(access=access, user=admin) == []


def test_a_disputed_game_waits_for_the_admin_not_the_player(club, table):
    game, opponent = table["game"], table["opponent"]
    services.dispute_raise(game=game, reason="Deal 3 was ours.", device_user=opponent.user)
    access = access_for(club=club, user=opponent.user)
    assert selectors.games_to_confirm(access=access, user=opponent.user) == []


def test_a_visitor_sees_nothing_for_them(client, club, table):
    club.is_public = True
    club.save()
    page = _home(client, club)
    assert page.status_code == 200
    assert (page.context["next_fixture"], page.context["to_confirm"]) == (None, [])
    assert "Your next fixture" not in page.content.decode()


def test_a_player_sees_the_next_fixture_of_their_team(client, club, division, teams, table):
    mules, dads = teams
    others = TeamFactory(division=division), TeamFactory(division=division)
    today = timezone.localdate()

    def fixture(home, away, days, **extra):
        date = None if days is None else today + dt.timedelta(days=days)
        return Fixture.objects.create(
            club=club, division=division, round_number=1, home=home, away=away, date=date, **extra
        )

    fixture(dads, mules, -7)  # past
    fixture(mules, dads, 3, status="played")  # already played
    fixture(*others, 2)  # not theirs
    fixture(dads, others[0], None)  # undated: after the dated ones
    coming = fixture(others[1], dads, 9, note="Moved: the hall is booked.")
    opponent = table["opponent"].user  # plays for Dads
    page = _home(client, club, opponent)
    assert page.context["next_fixture"] == coming
    html = page.content.decode()
    assert "Your next fixture" in html and "Moved: the hall is booked." in html
