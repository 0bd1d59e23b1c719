"""Accepting a result at the table (issue 27): a game entered through a table link or a
shared phone waits for each side, each with a PIN of its own; the bad input of the issue
each gets a clear message and records nothing; a club admin who entered nothing confirms
the whole game; PINs belong to the person and live in the database.

Only the secretary (a club admin) has an account here unless a test says otherwise."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.games import services as game_services
from clabber_league.games.models import Acceptance, Game
from clabber_league.games.table_links import table_link_issue, table_link_token
from clabber_league.members import services
from clabber_league.members.models import MemberProfile, PinGuard, PlayerPerson
from clabber_league.standings.models import PlayerRating, TeamStanding
from tests.factories import MembershipFactory, PlayerFactory, UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db

PINS = {0: "1357", 1: "2468", 2: "3579", 3: "4680"}


@pytest.fixture
def secretary(club):
    return MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="sec")).user


@pytest.fixture
def seated(game, secretary):
    """seat -> player; each player chose a PIN on the secretary's phone (no login)."""
    access = access_for(club=game.club, user=secretary)
    players = {s.seat: s.player for s in game.seats.select_related("player")}
    for seat, player in players.items():
        services.player_pin_set(access=access, player_id=player.pk, pin=PINS[seat])
    return players


def _through_the_table_link(game, a: int = 142) -> None:
    """Every deal entered on the table link's phone (no account): no known side."""
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        game_services.deal_record(game_id=game.pk, data=made("A", a), at_table="3")
    game.refresh_from_db()


def _accept(game, player, pin=None):
    return services.handover_confirm(
        game=game,
        player_id=player.pk,
        pin=PINS[_seat(game, player)] if pin is None else pin,
        at_table="3",
    )


def _seat(game, player) -> int:
    return game.seats.get(player=player).seat


def _refused(call) -> dict:
    with pytest.raises(services.MemberError) as caught:
        call()
    return caught.value.errors[0]


def _nothing_recorded(game) -> None:
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not game.acceptances.exists()


def test_one_side_alone_never_confirms_a_table_link_game(game, seated):
    """The attack of the issue: four 152-0 deals through the table link, then the side they
    favour accepts. It is recorded, and the game waits for the other side."""
    _through_the_table_link(game, a=152)
    _accept(game, seated[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game_services.confirmation_state(game=game).waiting == ("B",)
    error = _refused(lambda: _accept(game, seated[2]))  # A's partner: A has accepted
    assert error == {"field": "game", "message": game_services.ACCEPT_ALREADY}
    _accept(game, seated[1])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert [(a.side, a.how, a.player_id, a.at_table) for a in game.acceptances.all()] == [
        ("A", "pin", seated[0].pk, "3"),
        ("B", "pin", seated[1].pk, "3"),
    ]


def test_both_sides_accept_through_the_api_on_the_table_phone_and_the_standings_move(
    game, seated, scorer
):
    link = table_link_issue(game=game, table_label="3", user=scorer)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    base = f"/api/clubs/{game.club.slug}/games/{game.pk}"
    while phone.get(f"{base}/").json()["status"] == "in_progress":
        assert phone.post(f"{base}/deals/", made("A", 142), format="json").status_code == 201
    state = phone.get(f"{base}/handover/state/").json()
    assert state["waiting"] == ["Mules", "Dads"]  # team names, never side letters
    assert [s["state"] for s in state["sides"]] == ["waiting", "waiting"]

    first = phone.post(
        f"{base}/handover/confirm/", {"player": seated[1].pk, "pin": PINS[1]}, format="json"
    )
    assert first.status_code == 200 and first.json()["status"] == "finished"
    assert phone.get(f"{base}/handover/state/").json()["waiting"] == ["Mules"]
    assert TeamStanding.objects.filter(games_unconfirmed=1).count() == 2
    assert not PlayerRating.objects.exists()  # ratings move once the result is confirmed

    second = phone.post(
        f"{base}/handover/confirm/", {"player": seated[0].pk, "pin": PINS[0]}, format="json"
    )
    assert second.status_code == 200 and second.json()["status"] == "confirmed"
    assert TeamStanding.objects.filter(games_unconfirmed=0, games_played=1).count() == 2
    assert PlayerRating.objects.count() == 4
    member = APIClient()
    member.force_authenticate(scorer)
    accepted = member.get(f"{base}/handover/state/").json()["acceptances"]
    assert [(a["side"], a["how"], a["counts"]) for a in accepted] == [
        ("B", "pin", True),
        ("A", "pin", True),
    ]


def test_one_side_alone_never_confirms_on_the_page_either(client, game, seated, scorer):
    link = table_link_issue(game=game, table_label="3", user=scorer)
    client.get(reverse("table-link", kwargs={"token": table_link_token(link)}))
    _through_the_table_link(game, a=152)
    url = reverse("members:handover", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    answer = client.post(url, {"player": seated[0].pk, "pin": PINS[0]}, follow=True)
    page = answer.content.decode()
    assert "Mules has accepted." in page and "Dads is still to accept." in page
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    detail = client.get(
        reverse("games:detail", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    )
    assert "Still to accept:" in detail.content.decode()
    assert "Accepted by" in detail.content.decode()  # the history on the game's page


# --- the bad input of the issue: a clear message, nothing recorded -------------------------


def test_another_members_pin_is_a_wrong_pin(game, seated):
    _through_the_table_link(game)
    error = _refused(lambda: _accept(game, seated[1], pin=PINS[3]))  # partner's PIN
    assert error == {"field": "pin", "message": services.PIN_WRONG.format(left=4)}
    _nothing_recorded(game)


def test_a_wrong_pin_is_refused(game, seated):
    _through_the_table_link(game)
    assert _refused(lambda: _accept(game, seated[1], pin="0000"))["field"] == "pin"
    _nothing_recorded(game)


@pytest.mark.parametrize(
    "pin", ["\u0664\u0668\u0662\u0661", "\u096a\u096e\u0968\u0967", "\uff11\uff12\uff13\uff14"]
)
def test_digits_of_other_scripts_are_refused_with_their_own_message(game, seated, pin):
    _through_the_table_link(game)
    error = _refused(lambda: _accept(game, seated[1], pin=pin))
    assert error == {"field": "pin", "message": services.PIN_ASCII}
    _nothing_recorded(game)
    assert not PinGuard.objects.exists()  # not even a try


@pytest.mark.parametrize("pin", ["123", "1234567", "12a4", ""])
def test_a_pin_is_four_to_six_ascii_digits(game, seated, pin):
    _through_the_table_link(game)
    error = _refused(lambda: _accept(game, seated[1], pin=pin))
    assert error == {"field": "pin", "message": services.PIN_FORMAT}
    _nothing_recorded(game)


def test_a_pin_of_the_side_that_entered_the_deals_is_refused(game, seated, club):
    """Side A's player, with a login, entered every deal on her own phone: A's PINs are
    refused (before any try is counted), B accepts alone and that confirms."""
    user = MembershipFactory(club=club, role=Role.SCORER).user
    seated[0].user = user
    seated[0].save()
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        game_services.deal_record(game_id=game.pk, data=made("A", 142), user=user)
    game.refresh_from_db()
    for seat, message in ((0, game_services.CONFIRM_TOUCHED), (2, game_services.CONFIRM_SAME_SIDE)):
        error = _refused(lambda seat=seat: _accept(game, seated[seat]))
        assert error == {"field": "game", "message": message}
    _nothing_recorded(game)
    assert not PinGuard.objects.exists()
    _accept(game, seated[1])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_a_pin_of_a_player_not_seated_is_refused(game, seated, club, secretary):
    _through_the_table_link(game)
    stranger = PlayerFactory(club=club)
    access = access_for(club=club, user=secretary)
    services.player_pin_set(access=access, player_id=stranger.pk, pin="9999")
    error = _refused(
        lambda: services.handover_confirm(game=game, player_id=stranger.pk, pin="9999")
    )
    assert error == {
        "field": "player",
        "message": services.PIN_NOT_SEATED.format(player=stranger),
    }
    _nothing_recorded(game)


def test_the_corrector_and_the_correctors_partner_are_refused(game, seated, club):
    """The deals came through the table link; then side B's scorer corrected one on her own
    phone: her correction is B's word, so B's PINs are refused and A accepts."""
    user = MembershipFactory(club=club, role=Role.SCORER).user
    seated[1].user = user
    seated[1].save()
    _through_the_table_link(game)
    game_services.deal_correct(deal=game.deals.first(), data=made("A", 132), user=user)
    for seat, message in ((1, game_services.CONFIRM_TOUCHED), (3, game_services.CONFIRM_SAME_SIDE)):
        error = _refused(lambda seat=seat: _accept(game, seated[seat]))
        assert error == {"field": "game", "message": message}
    _nothing_recorded(game)
    _accept(game, seated[0])
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_a_pin_for_a_game_not_finished_is_refused(game, seated):
    game_services.deal_record(game_id=game.pk, data=made("A", 142), at_table="3")
    error = _refused(lambda: _accept(game, seated[1]))
    assert error == {"field": "game", "message": services.ACCEPT_NOT_FINISHED}
    assert not Acceptance.objects.exists() and not PinGuard.objects.exists()


# --- the rest of the rule --------------------------------------------------------------------


def test_a_correction_after_an_acceptance_asks_for_it_again(game, seated):
    _through_the_table_link(game)
    _accept(game, seated[1])
    game_services.deal_correct(deal=game.deals.first(), data=made("A", 140), at_table="3")
    assert game_services.confirmation_state(game=game).waiting == ("A", "B")
    _accept(game, seated[0])
    _accept(game, seated[3])  # B again, now for the corrected sheet
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_an_admin_who_entered_nothing_confirms_the_whole_game_recorded_as_such(
    game, seated, secretary
):
    _through_the_table_link(game)
    game_services.game_confirm(
        game=game, user=secretary, access=access_for(club=game.club, user=secretary)
    )
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    acceptance = game.acceptances.get()
    assert (acceptance.side, acceptance.how, acceptance.user) == ("", "admin", secretary)


def test_an_admin_who_corrected_a_deal_does_not(game, seated, secretary):
    _through_the_table_link(game)
    game_services.deal_correct(deal=game.deals.first(), data=made("A", 140), user=secretary)
    with pytest.raises(game_services.GameError) as caught:
        game_services.game_confirm(
            game=game, user=secretary, access=access_for(club=game.club, user=secretary)
        )
    assert caught.value.errors[0]["message"] == game_services.CONFIRM_TOUCHED
    _nothing_recorded(game)


def test_three_handed_each_other_side_accepts(club, secretary):
    players = [PlayerFactory(club=club) for _ in range(3)]
    access = access_for(club=club, user=secretary)
    for player, pin in zip(players, ("1111", "2222", "3333"), strict=True):
        services.player_pin_set(access=access, player_id=player.pk, pin=pin)
    game = game_services.game_start(club=club, seats=players, rules="clabber-3")
    three = {"maker": "A", "trump": "hearts", "points": {"A": 100, "B": 10, "C": 42}}
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        game_services.deal_record(game_id=game.pk, data={**three, "last_trick": "A"}, at_table="1")
    game.refresh_from_db()
    for player, pin in zip(players[:2], ("1111", "2222"), strict=True):
        services.handover_confirm(game=game, player_id=player.pk, pin=pin)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
    services.handover_confirm(game=game, player_id=players[2].pk, pin="3333")
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


# --- PINs: the person's, set with care, reset by an admin --------------------------------------


def test_a_pin_is_the_persons_and_follows_them_to_another_club(club, secretary):
    """Set at check-in with no login; once the person has a login, the same PIN accepts a
    game in a second club, where their player is linked to that login."""
    player = PlayerFactory(club=club)
    access = access_for(club=club, user=secretary)
    services.player_pin_set(access=access, player_id=player.pk, pin="8080")
    assert PlayerPerson.objects.filter(player=player).exists()
    user = UserFactory()
    player.user = user
    player.save()
    person = services.person_for_player(player)
    assert person.user == user and person.has_pin
    elsewhere = PlayerFactory(user=user)
    assert services.person_for_player(elsewhere) == person
    assert MemberProfile.objects.filter(user=user).count() == 1


def test_the_secretarys_phone_never_replaces_a_pin_and_an_admin_resets_it(club, secretary, scorer):
    player = PlayerFactory(club=club)
    access = access_for(club=club, user=secretary)
    services.player_pin_set(access=access, player_id=player.pk, pin="1234")
    error = _refused(
        lambda: services.player_pin_set(access=access, player_id=player.pk, pin="9999")
    )
    assert error["message"] == services.PIN_ALREADY.format(player=player)
    not_admin = access_for(club=club, user=scorer)
    error = _refused(lambda: services.player_pin_reset(access=not_admin, player_id=player.pk))
    assert error["message"] == services.PIN_RESET_ADMIN_ONLY
    services.player_pin_reset(access=access, player_id=player.pk)
    assert not services.person_for_player(player).has_pin
    services.player_pin_set(access=access, player_id=player.pk, pin="9999")
    from django.contrib.auth.hashers import check_password

    assert check_password("9999", services.person_for_player(player).pin_hash)


def test_a_pin_set_at_the_table_needs_a_club_admins_own_secret(game, club, secretary):
    secretary.set_password("correct horse")
    secretary.save()
    _through_the_table_link(game)
    newcomer = game.seats.get(seat=1).player

    def set_pin(secret, admin=secretary):
        return services.table_pin_set(
            game=game, player_id=newcomer.pk, pin="2020", admin_id=admin.pk, admin_secret=secret
        )

    assert _refused(lambda: set_pin("wrong")) == {
        "field": "admin",
        "message": services.ADMIN_SECRET_WRONG.format(left=4),
    }
    scorer = MembershipFactory(club=club, role=Role.SCORER).user
    assert _refused(lambda: set_pin("x", admin=scorer))["message"] == services.PIN_ADMIN_CHOOSE
    assert services.person_for_player(newcomer) is None or not (
        services.person_for_player(newcomer).has_pin
    )
    set_pin("correct horse")
    services.handover_confirm(game=game, player_id=newcomer.pk, pin="2020")
    assert game.acceptances.get().player == newcomer
