"""Recording, correcting and confirming games through the services."""

import pytest

from clabber_league.clubs.access import access_for
from clabber_league.games import services, store
from clabber_league.games.models import Deal, DealRevision, Game

from .conftest import made

pytestmark = pytest.mark.django_db


def test_recording_a_deal_stores_the_engines_score_and_running_totals(game, scorer):
    recorded = services.deal_record(game_id=game.pk, data=made("A", 100), maker_seat=0, user=scorer)
    deal = recorded.deal
    assert recorded.created
    assert (deal.number, deal.outcome, deal.scores, deal.running) == (
        1,
        "made",
        {"A": 110, "B": 52},
        {"A": 110, "B": 52},
    )
    game.refresh_from_db()
    assert game.scores == {"A": 110, "B": 52}
    assert game.deal_count == 1
    assert game.status == Game.Status.IN_PROGRESS


def test_the_deal_passes_to_the_left_each_deal(game, scorer):
    for _ in range(3):
        services.deal_record(game_id=game.pk, data=made(), user=scorer)
    assert list(game.deals.values_list("dealer", flat=True)) == [0, 1, 2]
    game.refresh_from_db()  # the game as a page would read it now
    assert services.next_dealer_seat(game=game) == 3


def test_a_set_maker_scores_zero_and_the_opponents_their_total(game, scorer):
    deal = services.deal_record(game_id=game.pk, data=made("A", 60, last="B"), user=scorer).deal
    assert deal.outcome == "set"
    assert deal.scores == {"A": 0, "B": 102}


def test_a_rejected_deal_saves_nothing_and_names_the_field(game, scorer):
    with pytest.raises(services.GameError) as caught:
        services.deal_record(
            game_id=game.pk,
            data={"maker": "A", "trump": "hearts", "points": {"A": 151, "B": 1}, "last_trick": "A"},
            user=scorer,
        )
    assert any(e["field"].startswith("points") for e in caught.value.errors)
    assert not Deal.objects.exists()
    assert not DealRevision.objects.exists()
    game.refresh_from_db()
    assert game.deal_count == 0 and game.scores == {"A": 0, "B": 0}


def test_a_maker_seat_on_the_other_side_is_rejected(game, scorer):
    with pytest.raises(services.GameError) as caught:
        services.deal_record(game_id=game.pk, data=made("A"), maker_seat=1, user=scorer)
    assert caught.value.errors[0]["field"] == "maker_seat"


def test_the_game_closes_at_500_with_its_winner_and_takes_no_more_deals(game, scorer):
    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)  # 152 a deal for A
    game.refresh_from_db()
    assert game.scores == {"A": 608, "B": 40}
    assert (game.status, game.winner) == (Game.Status.FINISHED, "A")
    assert game.finished_at is not None
    with pytest.raises(services.GameError) as caught:
        services.deal_record(game_id=game.pk, data=made(), user=scorer)
    assert caught.value.errors[0]["message"] == services.GAME_FINISHED
    assert game.deals.count() == 4


def test_an_idempotency_key_records_a_retried_deal_once(game, scorer):
    first = services.deal_record(game_id=game.pk, data=made(), user=scorer, idempotency_key="k-1")
    again = services.deal_record(game_id=game.pk, data=made(), user=scorer, idempotency_key="k-1")
    assert first.created and not again.created
    assert again.deal.pk == first.deal.pk
    assert game.deals.count() == 1


def test_a_correction_rescores_every_later_deal_and_is_audited(game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    services.deal_record(game_id=game.pk, data=made("B", 40), user=scorer)
    first = game.deals.get(number=1)
    services.deal_correct(deal=first, data=made("A", 60, last="B"), user=scorer)  # now set
    deals = list(game.deals.order_by("number"))
    assert deals[0].scores == {"A": 0, "B": 102}
    # deal 2 is unchanged (B makes 112 over A's 50) but its running totals move
    assert deals[1].scores == {"A": 50, "B": 112}
    assert deals[1].running == {"A": 50, "B": 214}
    game.refresh_from_db()
    assert game.scores == deals[1].running
    revision = game.revisions.get(action=DealRevision.Action.UPDATE)
    assert revision.before["score"] == {"A": 110, "B": 52}
    assert revision.after["score"] == {"A": 0, "B": 102}
    assert revision.user == scorer


def test_deleting_a_deal_moves_the_later_ones_up_and_rescores(game, scorer):
    for a in (100, 90, 80):
        services.deal_record(game_id=game.pk, data=made("A", a), user=scorer)
    services.deal_delete(deal=game.deals.get(number=2), user=scorer)
    deals = list(game.deals.order_by("number"))
    assert [d.number for d in deals] == [1, 2]
    assert [d.dealer for d in deals] == [0, 1]
    assert deals[1].running == {"A": 110 + 90, "B": 52 + 72}
    assert game.revisions.filter(action=DealRevision.Action.DELETE, deal_number=2).exists()


def test_the_same_correction_sent_twice_is_one_change_in_the_history(game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    first = game.deals.get(number=1)
    for _ in range(2):  # a phone's outbox resending after a lost answer
        services.deal_correct(deal=first, data=made("A", 60, last="B"), user=scorer)
        first.refresh_from_db()
    assert first.data == made("A", 60, last="B")
    assert game.revisions.filter(action=DealRevision.Action.UPDATE).count() == 1


def test_a_correction_that_would_end_the_game_before_a_later_deal_is_rejected(game, scorer):
    for _ in range(3):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)  # A: 152 each
    first = game.deals.get(number=1)
    mules = {"A": [{"kind": "four", "rank": "J"}]}  # +200: A would reach 504 at deal 2
    with pytest.raises(services.GameError) as caught:
        services.deal_correct(deal=first, data={**made("A", 142), "melds": mules}, user=scorer)
    assert caught.value.errors[0]["field"].startswith("deals[2]")
    first.refresh_from_db()
    assert "melds" not in first.data
    assert not game.revisions.filter(action=DealRevision.Action.UPDATE).exists()


def _finish(game, user):
    for _ in range(4):
        services.deal_record(game_id=game.pk, data=made("A", 142), user=user)
    game.refresh_from_db()


def test_the_recorder_cannot_confirm_their_own_game(game, scorer, admin):
    _finish(game, scorer)
    with pytest.raises(services.GameError) as caught:
        services.game_confirm(
            game=game, user=scorer, access=access_for(club=game.club, user=scorer)
        )
    assert caught.value.errors[0]["message"] == services.CONFIRM_TOUCHED


def test_a_player_of_the_other_side_confirms_and_then_nothing_can_change(game, scorer, teams):
    from tests.factories import UserFactory

    seat_a = game.seats.get(seat=0)  # the scorer plays on side A: side B accepts
    seat_a.player.user = scorer
    seat_a.player.save()
    _finish(game, scorer)
    opponent = UserFactory(username="opponent")
    seat_b = game.seats.get(seat=1)
    seat_b.player.user = opponent
    seat_b.player.save()
    services.game_confirm(
        game=game, user=opponent, access=access_for(club=game.club, user=opponent)
    )
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED and game.confirmed_by == opponent
    with pytest.raises(services.GameError) as caught:
        services.deal_correct(deal=game.deals.first(), data=made(), user=scorer)
    assert caught.value.errors[0]["message"] == services.GAME_CONFIRMED
    with pytest.raises(services.GameError):
        services.deal_delete(deal=game.deals.first(), user=scorer)


def test_an_unfinished_game_cannot_be_confirmed(game, admin):
    with pytest.raises(services.GameError) as caught:
        services.game_confirm(game=game, user=admin, access=access_for(club=game.club, user=admin))
    assert caught.value.errors[0]["message"] == services.GAME_NOT_FINISHED


def test_starting_a_game_checks_the_seats_against_the_teams(club, division, teams, scorer):
    a, b = teams
    outsider = b.members.first().player
    seats = [a.members.first().player, outsider, outsider, a.members.last().player]
    with pytest.raises(services.GameError) as caught:
        services.game_start(club=club, division=division, sides={"A": a, "B": b}, seats=seats)
    assert caught.value.errors[0]["field"] == "seats"


def test_the_game_a_write_locks_is_the_game_as_the_orm_reads_it_and_only_in_its_club(game, scorer):
    from django.db import transaction

    from tests.factories import ClubFactory

    def values(instance):
        return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.fields}

    services.deal_record(game_id=game.pk, data=made(), user=scorer)
    fresh = Game.objects.select_related("division").get(pk=game.pk)
    with transaction.atomic():
        locked = store.game_locked(game.pk, club=game.club)
    assert values(locked) == values(fresh)
    assert values(locked.division) == values(fresh.division)
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        store.game_locked(game.pk, club=ClubFactory())
