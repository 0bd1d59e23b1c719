"""The club page for a member who plays: their next fixture and the games waiting for their
confirmation (who may confirm is ``games.services.game_confirm_refusal``'s rule)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clabber_league.clubs.access import access_for
from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.members import selectors, services
from clabber_league.scheduling.models import Fixture
from tests.factories import TeamFactory
from tests.games.conftest import made

from .conftest import finish

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


def _more_games(game, count, *, by):
    """``count`` more finished games at ``game``'s table (the same seats), deals by ``by``."""
    seats = [s.player for s in game.seats.order_by("seat")]
    sides = {s.side: s.team for s in game.sides.all()}
    out = []
    for _ in range(count):
        more = game_services.game_start(
            club=game.club, division=game.division, sides=sides, seats=seats, user=by
        )
        finish(more, by)
        out.append(more)
    return out


@pytest.mark.parametrize("games", [1, 10])
def test_the_list_reads_a_fixed_number_of_queries_however_many_games_wait(
    games, club, table, scorer, admin, django_assert_num_queries
):
    _more_games(table["game"], games - 1, by=scorer)
    opponent = table["opponent"].user
    access = access_for(club=club, user=opponent)
    with django_assert_num_queries(10):  # the games, their sides and teams; disputes,
        listed = selectors.games_to_confirm(access=access, user=opponent)  # seats, touchers,
    # deals' recorders, acceptances; the seats' teams and players for the names
    assert len(listed) == games
    access = access_for(club=club, user=admin)
    with django_assert_num_queries(11):  # the admin sits at none: the others, and the same
        assert len(selectors.games_to_confirm(access=access, user=admin)) == games


def test_the_list_follows_the_rule_of_who_confirms_game_by_game(club, table, scorer, admin):
    """Each listed game is one ``game_confirm_refusal`` lets the member confirm, and every
    such finished game is listed: games touched by the scorer, by a player of the other side,
    by the club admin, and a disputed one."""
    game, opponent, partner = table["game"], table["opponent"], table["partner"]
    by_scorer = _more_games(game, 1, by=scorer)
    by_opponent = _more_games(game, 1, by=opponent.user)
    mixed = _more_games(game, 1, by=scorer)[0]
    game_services.deal_correct(
        deal=mixed.deals.order_by("number").first(), data=made("A", 150), user=admin
    )
    disputed = _more_games(game, 1, by=scorer)[0]
    services.dispute_raise(game=disputed, reason="Deal 2 was ours.", device_user=opponent.user)
    finished = list(
        Game.objects.filter(club=club, status=Game.Status.FINISHED).order_by("finished_at", "id")
    )
    assert {game, *by_scorer, *by_opponent, mixed, disputed} <= set(finished)
    users = (scorer, partner.user, opponent.user, table["opponent_without_pin"].user, admin)
    for user in users:
        access = access_for(club=club, user=user)
        expected = [
            g
            for g in finished
            if game_services.game_confirm_refusal(game=g, user=user, access=access) is None
        ]
        assert selectors.games_to_confirm(access=access, user=user) == expected, user
    # the disputed game is nobody's to confirm from here, the corrected one not the admin's
    everyone = [
        selectors.games_to_confirm(access=access_for(club=club, user=u), user=u) for u in users
    ]
    assert not any(disputed in listed for listed in everyone) and mixed not in everyone[4]
    assert game in everyone[2] and by_scorer[0] in everyone[4] and by_opponent[0] in everyone[0]
