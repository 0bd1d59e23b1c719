"""Federation services: numbers, member clubs, officers, links, merge and unmerge,
erasure and retention."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection, connections
from django.utils import timezone

from clabber_league.clubs.models import Player
from clabber_league.federation import selectors, services
from clabber_league.federation.models import (
    Federation,
    FederationClub,
    FederationPlayer,
    Officer,
    PlayerLink,
)
from clabber_league.federation.services import errors as E
from clabber_league.federation.services.errors import FederationError
from clabber_league.games.models import GameSeat
from clabber_league.games.services import game_start
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def new_player(world, name="Ann Baker", **kwargs) -> FederationPlayer:
    return services.player_create(access=world.access(world.officer), name=name, **kwargs)


# --- numbers ------------------------------------------------------------------------------------


def test_numbers_are_prefixed_padded_and_never_given_again(world):
    first = new_player(world, "Ann Baker")
    second = new_player(world, "Bob Carter")
    assert (first.number, second.number) == ("NKU-000001", "NKU-000002")
    services.player_merge(access=world.access(world.officer), kept=first, merged=second)
    services.player_erase(access=world.access(world.officer), player=first)
    new_player(world, "Cora Dale").delete()  # even a record deleted by hand
    fourth = new_player(world, "Dan Eve")
    assert fourth.number == "NKU-000004"
    # Each federation counts its own numbers.
    kbn = services.player_create(access=world.access(world.kbn_officer, world.kbn), name="Ann")
    assert kbn.number == "KBN-000001"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="threads need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_numbers_given_at_once_by_many_requests_are_all_different():
    federation = Federation.objects.create(name="Race", slug="race", number_prefix="R")
    start = threading.Barrier(6)
    numbers: list[str] = []
    failures: list[BaseException] = []

    def give() -> None:
        try:
            start.wait(timeout=10)
            for _ in range(5):
                numbers.append(services.number_allocate(federation=federation))
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=give) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert sorted(numbers) == [f"R{n:06d}" for n in range(1, 31)]
    federation.refresh_from_db()
    assert federation.next_number == 31


def test_a_player_needs_a_name_and_a_plausible_birth_year_and_email(world):
    with pytest.raises(FederationError) as caught:
        new_player(world, " ", birth_year=1850, email="not-an-email")
    assert {e["field"] for e in caught.value.errors} == {"name", "birth_year", "email"}
    assert not FederationPlayer.objects.exists()
    world.nku.refresh_from_db()
    assert world.nku.next_number == 1


def test_only_officers_give_numbers(world):
    for user in (world.club_admin, world.member, world.kbn_officer, None):
        with pytest.raises(FederationError) as caught:
            services.player_create(access=world.access(user), name="Dan")
        assert caught.value.kind == "forbidden"


# --- federations, clubs, officers ---------------------------------------------------------------


def test_staff_create_federations_others_cannot():
    staff = UserFactory(is_staff=True)
    federation = services.federation_create(name="Bond", slug="bond", by=staff, admin=staff)
    assert Officer.objects.get(federation=federation).role == Officer.Role.ADMIN
    with pytest.raises(FederationError) as caught:
        services.federation_create(name="Mine", slug="mine", by=UserFactory())
    assert caught.value.kind == "forbidden"
    with pytest.raises(FederationError) as caught:
        services.federation_create(name="", slug="bond", number_prefix="TOO-LONG-X")
    assert {e["field"] for e in caught.value.errors} == {"name", "slug", "number_prefix"}


def test_a_club_asks_to_join_and_an_officer_accepts(world):
    club = ClubFactory()
    admin = UserFactory()
    MembershipFactory(club=club, user=admin, role="admin")
    with pytest.raises(FederationError):
        services.club_request(access=world.access(world.member), club=club, user=world.member)
    row = services.club_request(access=world.access(admin), club=club, user=admin)
    assert row.status == FederationClub.Status.REQUESTED and not row.active
    with pytest.raises(FederationError) as caught:
        services.club_accept(access=world.access(admin), row=row)  # not their decision
    assert caught.value.kind == "forbidden"
    row = services.club_accept(access=world.access(world.officer), row=row)
    assert row.status == FederationClub.Status.MEMBER and row.active and row.joined_on
    removed = services.club_remove(access=world.access(world.officer), row=row)
    assert removed.status == FederationClub.Status.LEFT and not removed.active


def test_an_officer_invites_and_the_club_admin_accepts(world):
    club = ClubFactory()
    admin = UserFactory()
    MembershipFactory(club=club, user=admin, role="admin")
    row = services.club_invite(access=world.access(world.officer), club=club)
    assert row.status == FederationClub.Status.INVITED
    with pytest.raises(FederationError):
        services.club_accept(access=world.access(world.stranger), row=row)
    row = services.club_accept(access=world.access(admin), row=row)
    assert row.status == FederationClub.Status.MEMBER


def test_officers_are_appointed_by_federation_admins_and_the_last_admin_stays(world):
    with pytest.raises(FederationError):
        services.officer_appoint(
            access=world.access(world.officer), username=world.stranger.username
        )
    appointed = services.officer_appoint(
        access=world.access(world.fed_admin), username=world.stranger.username
    )
    assert appointed.role == Officer.Role.OFFICER
    admin_row = Officer.objects.get(federation=world.nku, user=world.fed_admin)
    with pytest.raises(FederationError) as caught:
        services.officer_remove(access=world.access(world.fed_admin), officer=admin_row)
    assert caught.value.kind == "conflict"
    services.officer_remove(access=world.access(world.fed_admin), officer=appointed)
    assert not Officer.objects.filter(user=world.stranger).exists()


# --- links --------------------------------------------------------------------------------------


def test_a_club_admin_links_a_player_to_a_new_number_and_the_player_approves(world):
    other = PlayerFactory(club=world.club, name="Els de Wit")
    link = services.link_propose(access=world.access(world.club_admin), player=other)
    assert link.status == PlayerLink.Status.PROPOSED
    assert link.federation_player.number == "NKU-000001"
    assert link.federation_player.name == "Els de Wit"
    # Nobody else's to decide: not another member, not another federation's officer.
    for user in (world.member, world.kbn_officer):
        with pytest.raises(FederationError):
            services.link_decide(access=world.access(user), link=link, approve=True)
    link = services.link_decide(access=world.access(world.officer), link=link, approve=False)
    assert link.status == PlayerLink.Status.REFUSED and link.approved_by == world.officer
    assert link.decided_at is not None
    with pytest.raises(FederationError) as caught:
        services.link_decide(access=world.access(world.officer), link=link, approve=True)
    assert caught.value.kind == "conflict"


def test_the_player_approves_a_link_proposed_for_them(world):
    record = new_player(world, "Jose van Dijk")
    link = services.link_propose(
        access=world.access(world.club_admin), player=world.player, number=record.number
    )
    link = services.link_decide(access=world.access(world.member), link=link, approve=True)
    assert link.status == PlayerLink.Status.APPROVED and link.approved_by == world.member
    record.refresh_from_db()
    assert record.home_club == world.club
    with pytest.raises(FederationError) as caught:  # one number per club player
        services.link_propose(access=world.access(world.club_admin), player=world.player)
    assert caught.value.kind == "conflict"


def test_a_link_needs_a_member_club_a_known_number_and_the_club_admin(world):
    outsider = PlayerFactory(club=ClubFactory())
    with pytest.raises(FederationError):
        services.link_propose(access=world.access(world.club_admin), player=outsider)
    with pytest.raises(FederationError) as caught:
        services.link_propose(
            access=world.access(world.club_admin), player=world.player, number="NKU-999999"
        )
    assert caught.value.errors[0]["field"] == "number"
    with pytest.raises(FederationError) as caught:
        services.link_propose(access=world.access(world.member), player=world.player)
    assert caught.value.kind == "forbidden"
    assert not PlayerLink.objects.exists() and not FederationPlayer.objects.exists()


# --- duplicates, merge and unmerge --------------------------------------------------------------


def test_likely_duplicates_by_normalised_name_birth_year_or_email(world):
    a = new_player(world, "José van-Dijk", birth_year=1970)
    b = new_player(world, "jose  VAN DIJK")
    c = new_player(world, "Jose van Dijk", birth_year=1985)  # same name, another year
    d = new_player(world, "J. Smith", email="JS@example.org")
    e = new_player(world, "John Smith", email="js@example.org")
    new_player(world, "Someone Else")
    found = {
        (x.first.number, x.second.number): x.reasons
        for x in selectors.duplicate_candidates(access=world.access(world.officer))
    }
    assert found == {
        (a.number, b.number): ["same name"],
        (b.number, c.number): ["same name"],
        (d.number, e.number): ["same email"],
    }
    assert selectors.duplicate_candidates(access=world.access(world.stranger)) == []


def test_merge_and_unmerge_round_trip(world):
    kept = new_player(world, "José van Dijk")
    merged = new_player(world, "Jose van Dijk", birth_year=1970)
    club_b_player = PlayerFactory(club=world.other_club, name="Jose v. Dijk")
    officer = world.access(world.officer)
    services.link_propose(access=officer, player=world.player, number=kept.number)
    moved = services.link_propose(access=officer, player=club_b_player, number=merged.number)
    before = {
        p.pk: (p.name, p.birth_year, p.active, p.merged_into_id)
        for p in FederationPlayer.objects.all()
    }
    links_before = dict(PlayerLink.objects.values_list("pk", "federation_player_id"))

    merge = services.player_merge(access=officer, kept=kept, merged=merged, reason="one person")
    merged.refresh_from_db()
    assert merged.merged_into == kept and not merged.active
    assert set(kept.links.values_list("pk", flat=True)) == set(links_before)
    assert merge.moved_links == [moved.pk] and merge.approved_by == world.officer
    # The merged number still finds the person, and is never given again.
    from clabber_league.federation.services.players import player_by_number

    assert player_by_number(federation=world.nku, number=merged.number) == kept
    with pytest.raises(FederationError):  # a merged record is not merged again
        services.player_merge(access=officer, kept=kept, merged=merged)

    services.player_unmerge(access=officer, merge=merge)
    after = {
        p.pk: (p.name, p.birth_year, p.active, p.merged_into_id)
        for p in FederationPlayer.objects.all()
    }
    assert after == before
    assert dict(PlayerLink.objects.values_list("pk", "federation_player_id")) == links_before
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == world.officer
    with pytest.raises(FederationError) as caught:
        services.player_unmerge(access=officer, merge=merge)
    assert caught.value.kind == "conflict"


def test_merges_are_undone_in_reverse_order(world):
    officer = world.access(world.officer)
    a, b, c = (new_player(world, n) for n in ("A One", "A 1", "A Uno"))
    first = services.player_merge(access=officer, kept=b, merged=a)
    services.player_merge(access=officer, kept=c, merged=b)
    with pytest.raises(FederationError) as caught:
        services.player_unmerge(access=officer, merge=first)
    assert caught.value.errors[0]["message"] == E.UNMERGE_LATER.format(number=b.number)


def test_only_officers_of_the_federation_merge(world):
    a, b = new_player(world, "X"), new_player(world, "Y")
    for user in (world.club_admin, world.kbn_officer, world.member):
        with pytest.raises(FederationError):
            services.player_merge(access=world.access(user), kept=a, merged=b)
    with pytest.raises(FederationError) as caught:  # another federation's records
        services.player_merge(access=world.access(world.kbn_officer, world.kbn), kept=a, merged=b)
    assert caught.value.kind == "not_found"
    assert not FederationPlayer.objects.filter(merged_into__isnull=False).exists()


# --- privacy ------------------------------------------------------------------------------------


def _linked_record(world) -> FederationPlayer:
    link = services.link_propose(access=world.access(world.officer), player=world.player)
    record = link.federation_player
    FederationPlayer.objects.filter(pk=record.pk).update(birth_year=1970, email="jose@example.org")
    record.refresh_from_db()
    return record


def test_erasure_keeps_results_under_an_anonymous_name(world):
    record = _linked_record(world)
    others = [PlayerFactory(club=world.club, name=n) for n in ("Ann", "Bob", "Cy")]
    game = game_start(club=world.club, seats=[world.player, *others], rules="clabber")
    with pytest.raises(FederationError):  # not someone else's to erase
        services.player_erase(access=world.access(world.club_admin), player=record)

    services.player_erase(access=world.access(world.member), player=record)
    record.refresh_from_db()
    assert (record.name, record.email, record.birth_year) == ("", "", None)
    assert record.erased_at is not None and not record.is_public
    assert record.number == "NKU-000001"
    club_player = Player.objects.get(pk=world.player.pk)
    assert club_player.name == "Player NKU-000001"
    assert club_player.user is None
    assert GameSeat.objects.filter(game=game, player=club_player).exists()
    assert selectors.shown_name(record) == "Player NKU-000001"
    assert selectors.results_counts(player=record) == {"games": 1, "confirmed_games": 0}
    assert "José" not in str(list(FederationPlayer.objects.values()))


def test_the_player_chooses_a_public_profile_nobody_else_does(world):
    record = _linked_record(world)
    with pytest.raises(FederationError):
        services.player_set_public(
            access=world.access(world.officer), player=record, is_public=True
        )
    services.player_set_public(access=world.access(world.member), player=record, is_public=True)
    record.refresh_from_db()
    assert record.is_public


def test_records_of_players_who_left_are_erased_after_the_retention_period(world, settings):
    settings.CLABBER_FEDERATION_RETENTION_DAYS = 30
    record = _linked_record(world)
    staying = new_player(world, "Still Here")
    services.player_mark_left(access=world.access(world.officer), player=record)
    services.player_mark_left(access=world.access(world.officer), player=staying)
    FederationPlayer.objects.filter(pk=record.pk).update(
        left_at=timezone.now() - datetime.timedelta(days=31)
    )
    from clabber_league.federation.tasks import erase_departed

    assert erase_departed.apply().get() == 1  # run here, as the worker would
    record.refresh_from_db()
    staying.refresh_from_db()
    assert record.erased_at is not None and record.name == ""
    assert staying.erased_at is None and staying.name == "Still Here"


def test_the_export_holds_what_is_kept_about_the_person(world):
    record = _linked_record(world)
    data = selectors.export_for(user=world.member)
    assert data["username"] == world.member.username
    [held] = data["federation_records"]
    assert held["number"] == record.number
    assert held["name"] == "José van Dijk"
    assert held["birth_year"] == 1970 and held["email"] == "jose@example.org"
    assert held["links"] == [
        {
            "club": "De Troef",
            "club_player": "José van Dijk",
            "status": "approved",
            "proposed_at": held["links"][0]["proposed_at"],
            "decided_at": held["links"][0]["decided_at"],
        }
    ]
    assert held["results"] == {"games": 0, "confirmed_games": 0}
    assert data["club_memberships"] == [
        {"club": "De Troef", "role": "player", "since": data["club_memberships"][0]["since"]}
    ]
    assert selectors.export_for(user=world.stranger)["federation_records"] == []
