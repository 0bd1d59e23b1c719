"""Handing the scorer's phone to the other side: a PIN confirms, a wrong one is refused and
counts, five make that game wait (never every game); a PIN of the scorer's own side, or of
someone who touched the deals, is refused; a dispute flags the game for the club admins,
who resolve it."""

import pytest
from django.core import mail

from clabber_league.clubs.access import access_for
from clabber_league.games import services as game_services
from clabber_league.games.models import DealRevision, Game
from clabber_league.members import services
from clabber_league.members.models import Dispute, PinDay, PinGuard
from clabber_league.standings.models import PlayerRating
from tests.games.conftest import made
from tests.members.conftest import PIN

pytestmark = pytest.mark.django_db


def test_the_other_sides_pin_confirms_in_their_name_and_the_history_says_how(table, scorer):
    game, opponent = table["game"], table["opponent"]
    services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert game.confirmed_by == opponent.user
    revision = game.revisions.get(action=DealRevision.Action.CONFIRM)
    assert revision.user == opponent.user
    assert revision.after == {
        "how": "pin",
        "player": opponent.pk,
        "name": opponent.name,
        "device_user": scorer.pk,
    }
    assert PlayerRating.objects.filter(player=opponent).exists()  # ratings moved


def test_a_wrong_pin_is_refused_counts_and_changes_nothing(table, scorer):
    game, opponent = table["game"], table["opponent"]
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin="0000", device_user=scorer)
    assert caught.value.errors == [{"field": "pin", "message": services.PIN_WRONG.format(left=4)}]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.acceptances.exists()
    assert PinGuard.objects.get(game=game).failures == 1


def test_five_wrong_pins_make_this_game_wait_then_the_right_one_works(table, scorer):
    """Five wrong tries lock this player's acceptance of this game for a while (429 with
    the wait); no new PIN is needed, and once the wait is over the right PIN is accepted."""
    import datetime as dt

    from django.utils import timezone

    game, opponent = table["game"], table["opponent"]
    for _ in range(5):
        with pytest.raises(services.MemberError):
            services.handover_confirm(
                game=game, player_id=opponent.pk, pin="9999", device_user=scorer
            )
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    message = services.PIN_LOCKED.format(minutes=services.PIN_LOCK_MINUTES)
    assert caught.value.errors == [{"field": "pin", "message": message}]
    assert caught.value.kind == "throttled" and caught.value.retry_after > 0
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    PinGuard.objects.filter(game=game).update(locked_until=timezone.now() - dt.timedelta(1))
    services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_the_pin_is_stored_hashed():
    from tests.factories import UserFactory

    user = UserFactory()
    profile = services.profile_set_pin(user=user, pin="123456")
    assert "123456" not in profile.pin_hash
    assert profile.pin_hash.split("$")[0]  # a Django hasher's algorithm prefix


@pytest.mark.parametrize("pin", ["123", "1234567", "12a4", "", " 1234"])
def test_a_pin_is_four_to_six_digits(pin):
    from tests.factories import UserFactory

    with pytest.raises(services.MemberError) as caught:
        services.profile_set_pin(user=UserFactory(), pin=pin)
    assert caught.value.errors == [{"field": "pin", "message": services.PIN_FORMAT}]


def test_a_pin_of_the_scorers_own_side_is_refused(table, scorer):
    game, partner = table["game"], table["partner"]
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=partner.pk, pin="1111", device_user=scorer)
    assert caught.value.errors[0] == {"field": "game", "message": game_services.CONFIRM_SAME_SIDE}
    assert not PinGuard.objects.exists()  # refused before the PIN is even tried
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


@pytest.mark.parametrize("last_deal_by", ["bertha"])
def test_someone_who_recorded_a_deal_cannot_confirm_by_pin(table, scorer, last_deal_by):
    """Bertha entered the last deal on the scorer's phone: the one confirmation rule
    (``game_confirm``) refuses her PIN, and nothing changes."""
    game, opponent = table["game"], table["opponent"]
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    assert caught.value.errors == [{"field": "game", "message": game_services.CONFIRM_TOUCHED}]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_someone_who_corrected_a_deal_cannot_confirm_by_pin(table, scorer, club):
    """Bruno (side B, a scorer too) corrected a deal: Bertha, his partner, is refused."""
    from clabber_league.clubs.models import Membership, Role

    game, opponent, bruno = table["game"], table["opponent"], table["opponent_without_pin"]
    Membership.objects.filter(club=club, user=bruno.user).update(role=Role.SCORER)
    # A real change: a correction that changes nothing writes nothing (and touches nothing).
    game_services.deal_correct(deal=game.deals.first(), data=made("A", 132), user=bruno.user)
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    assert caught.value.errors == [{"field": "game", "message": game_services.CONFIRM_SAME_SIDE}]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_player_without_a_pin_is_told_how_to_get_one(table, scorer):
    game, other = table["game"], table["opponent_without_pin"]
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=other.pk, pin="1234", device_user=scorer)
    assert caught.value.errors[0]["message"] == services.PIN_NONE.format(player=other)


def test_a_dispute_flags_the_game_emails_the_admins_and_blocks_confirming(
    table, scorer, admin, django_capture_on_commit_callbacks
):
    game, opponent = table["game"], table["opponent"]
    with django_capture_on_commit_callbacks(execute=True):
        dispute = services.dispute_raise(
            game=game, reason="Deal 3 was 82 to us", player_id=opponent.pk, device_user=scorer
        )
    assert dispute.is_open and dispute.player == opponent
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [admin.email]
    assert "Deal 3 was 82 to us" in message.body
    assert "Deal 3 was 82 to us" in message.alternatives[0][0]
    assert message.alternatives[0][1] == "text/html"
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    assert caught.value.errors[0]["message"] == services.GAME_DISPUTED
    with pytest.raises(services.MemberError) as caught:
        services.dispute_raise(game=game, reason="again", device_user=scorer)
    assert caught.value.errors[0]["message"] == services.DISPUTE_OPEN


def test_a_dispute_needs_a_reason(table, scorer):
    with pytest.raises(services.MemberError) as caught:
        services.dispute_raise(game=table["game"], reason="   ", device_user=scorer)
    assert caught.value.errors == [{"field": "reason", "message": services.DISPUTE_REASON}]
    assert not Dispute.objects.exists()


def test_the_admin_corrects_then_confirms_in_the_name_of_the_club(table, scorer, admin):
    game = table["game"]
    dispute = services.dispute_raise(game=game, reason="Deal 1 is wrong", device_user=scorer)
    game_services.deal_correct(deal=game.deals.first(), data=made("A", 140), user=admin)
    services.dispute_resolve(
        dispute=dispute,
        user=admin,
        access=access_for(club=dispute.club, user=admin),
        resolution="Corrected deal 1",
    )
    game.refresh_from_db()
    dispute.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by == admin
    assert game.revisions.get(action=DealRevision.Action.CONFIRM).after == {"how": "club"}
    assert not dispute.is_open and dispute.resolved_by == admin
    with pytest.raises(services.MemberError) as caught:
        services.dispute_resolve(
            dispute=dispute, user=admin, access=access_for(club=dispute.club, user=admin)
        )
    assert caught.value.errors[0]["message"] == services.DISPUTE_RESOLVED


def test_only_a_club_admin_confirms_in_the_name_of_the_club(table, scorer):
    dispute = services.dispute_raise(game=table["game"], reason="wrong", device_user=scorer)
    with pytest.raises(services.MemberError) as caught:
        services.dispute_resolve(
            dispute=dispute, user=scorer, access=access_for(club=dispute.club, user=scorer)
        )
    assert caught.value.errors[0]["message"] == game_services.CONFIRM_CLUB_ADMIN_ONLY
    dispute.refresh_from_db()
    assert dispute.is_open


def test_the_daily_limit_slows_tries_on_every_game_but_never_locks_the_member_out(
    table, scorer, settings
):
    """Twenty wrong tries in a day, over many games, do not multiply the guesses: each
    further try waits a minute. The right PIN after the wait is accepted: no reset."""
    import datetime as dt

    from django.utils import timezone

    game, opponent = table["game"], table["opponent"]
    settings.MEMBER_PIN_MAX_FAILURES = 100  # so the day's limit, not the game's, is reached
    for _ in range(services.PIN_DAILY_FAILURES):
        with pytest.raises(services.MemberError):
            services.handover_confirm(
                game=game, player_id=opponent.pk, pin="0000", device_user=scorer
            )
    with pytest.raises(services.MemberError) as caught:
        services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    assert caught.value.errors == [{"field": "pin", "message": services.PIN_SLOWED}]
    assert 0 < caught.value.retry_after <= services.PIN_SLOW_SECONDS + 1
    PinDay.objects.update(slowed_until=timezone.now() - dt.timedelta(seconds=1))
    services.handover_confirm(game=game, player_id=opponent.pk, pin=PIN, device_user=scorer)
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED


def test_a_disputed_game_is_not_confirmed_from_anyones_own_phone_either(table, scorer):
    game, bruno = table["game"], table["opponent_without_pin"]
    services.dispute_raise(game=game, reason="Deal 4 was not ours", device_user=scorer)
    with pytest.raises(game_services.GameError) as caught:
        game_services.game_confirm(
            game=game, user=bruno.user, access=access_for(club=game.club, user=bruno.user)
        )
    assert caught.value.errors[0]["message"] == services.GAME_DISPUTED
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
