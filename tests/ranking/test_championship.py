"""A championship whose qualifiers are member clubs' club nights and series of nights (and
cups): each sends its top N players to a final of players in the organiser space, seeded
by the qualifiers' order and then the place within each; refusals name the field and
write nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from clabber_league.clubs.access import access_for
from clabber_league.cups.models import Cup, Entrant
from clabber_league.cups.services import progress, setup
from clabber_league.events import selectors as event_selectors
from clabber_league.events.models import Round
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.federation.models import FederationClub, Officer, PlayerLink
from clabber_league.games import services as games
from clabber_league.games.models import Game
from clabber_league.ranking import championship, interclub
from clabber_league.ranking.championship import QualifierIn
from clabber_league.ranking.models import QualifiedEntrant, Qualifier
from tests.events.conftest import deal
from tests.factories import DivisionFactory, PlayerFactory, UserFactory

from .conftest import number_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def space(federation, clubs):
    Officer.objects.create(
        federation=federation, user=UserFactory(username="fed-admin"), role=Officer.Role.ADMIN
    )
    return interclub.organiser_space_create(federation=federation)


def play_round(round_: Round) -> None:
    """Every game of the round played out; the tables' side A scores differ by table and
    round, so that the night's totals differ."""
    for table in round_.tables.select_related("game"):
        game = table.game
        a = 60 + 13 * table.number + 7 * round_.number
        while game.status == Game.Status.IN_PROGRESS:
            games.deal_record(game_id=game.pk, data=deal("A", a))
            game = Game.objects.get(pk=game.pk)


def finished_night(entry, players, name, *, day=1, series=None, finish=True, rounds_=3):
    """A club night of ``players`` at a member club, played out (and finished)."""
    club, admin = entry["club"], entry["admin"]
    night = event_services.event_create(
        club=club,
        user=admin,
        name=name,
        date=dt.date(2026, 11, day),
        rules="clabber",
        rounds=rounds_,
        seed=f"seed{day}",
        series=series,
    )
    for player in players:
        checkin.entry_check_in(event=night, player=player)
    access = access_for(club=club, user=admin)
    last = rounds_ if finish else rounds_ - 1
    for _ in range(last):
        play_round(rounds.round_draw(event=night, access=access))
    if finish:
        rounds.round_finish(round_=Round.objects.get(event=night, number=last), access=access)
    night.refresh_from_db()
    return night


def members_of(federation, entry, label, count=8, *, linked=True):
    people = [PlayerFactory(club=entry["club"], name=f"{label} {i}") for i in range(1, count + 1)]
    if linked:
        for person in people:
            number_for(federation, person)
    return people


def top(event, n):
    """The night's own top ``n``: (player id, place), in its order."""
    lines = event_selectors.event_ranking(event, to_member=True).lines
    return [(line.player, line.position) for line in lines[:n]]


def number_of(federation, player_id):
    return PlayerLink.objects.get(federation=federation, player_id=player_id).federation_player


def cut_without_tie(event):
    """A count N (2 or more) whose cut does not split players level after every tiebreak."""
    lines = event_selectors.event_ranking(event, to_member=True).lines
    for n in range(2, len(lines)):
        if lines[n - 1].position != lines[n].position:
            return n
    raise AssertionError("every cut splits a shared place")


@pytest.fixture
def north_night(federation, clubs):
    return finished_night(clubs[0], members_of(federation, clubs[0], "North"), "North night")


@pytest.fixture
def south_night(federation, clubs):
    return finished_night(clubs[1], members_of(federation, clubs[1], "South"), "South night", day=2)


def test_nights_send_their_top_players_seeded_by_qualifier_then_place(
    federation, clubs, space, north_night, south_night
):
    n = cut_without_tie(south_night)
    final = championship.championship_final_create(
        federation=federation,
        name="National final",
        qualifiers=[QualifierIn(south_night, places=n), QualifierIn(north_night, places=1)],
        rules="clabber-2",
    )
    assert final.club == space.club and final.entrant_kind == Cup.Kind.PLAYERS
    entrants = list(final.entrants.order_by("seed"))
    expected = top(south_night, n) + top(north_night, 1)
    assert [e.seed for e in entrants] == list(range(1, n + 2))
    for entrant, (player_id, place) in zip(entrants, expected, strict=True):
        # the space's mirror is the same person, under the same number
        assert number_of(federation, entrant.player_id) == number_of(federation, player_id)
        assert entrant.qualified_from.place == place
    origins = [e.qualified_from.qualifier for e in entrants]
    assert [q.event for q in origins] == [south_night] * n + [north_night]
    assert south_night.qualifies_for.places == n
    setup.cup_draw(cup=final)
    assert final.ties.exists()


def test_a_series_sends_its_best_of_ranking_and_a_cup_still_sends_its_winner(
    federation, clubs, space
):
    north = members_of(federation, clubs[0], "North", 8)
    season = event_services.series_create(
        club=clubs[0]["club"], name="Winter season", method="best", best_of=1
    )
    first = finished_night(clubs[0], north, "Night 1", day=1, series=season)
    finished_night(clubs[0], north, "Night 2", day=8, series=season)
    south = members_of(federation, clubs[1], "South", 2)
    cup = setup.cup_draw(
        cup=setup.cup_create(
            club=clubs[1]["club"],
            name="South cup",
            rules="clabber-2",
            entrant_kind=Cup.Kind.PLAYERS,
            players=south,
        )
    )
    progress.tie_walkover(tie=cup.ties.get(), absent="away")
    cup.refresh_from_db()
    ranked = event_selectors.series_view(season, to_member=True).ranking.ranked
    # The draw seats players by their ids, which differ from run to run: send the top two,
    # or more when the tiebreaks leave the second level with the third (a cut is refused).
    places = next(n for n in range(2, len(ranked)) if ranked[n].position > ranked[n - 1].position)
    final = championship.championship_final_create(
        federation=federation,
        name="Final",
        qualifiers=[QualifierIn(cup), QualifierIn(season, places=places)],
        rules="clabber-2",
    )
    entrants = list(final.entrants.order_by("seed"))
    assert number_of(federation, entrants[0].player_id) == number_of(
        federation, cup.champion.player_id
    )
    assert [number_of(federation, e.player_id) for e in entrants[1:]] == [
        number_of(federation, line.player) for line in ranked[:places]
    ]
    assert [e.qualified_from.qualifier.series for e in entrants[1:]] == [season] * places
    assert not Qualifier.objects.filter(event=first).exists()  # the series qualifies, not a night


def test_each_unlinked_player_is_named_and_nothing_is_written(federation, clubs, space):
    north = members_of(federation, clubs[0], "North", 8, linked=False)
    night = finished_night(clubs[0], north, "North night")
    south_night = finished_night(
        clubs[1], members_of(federation, clubs[1], "South"), "South night", day=2
    )
    n = cut_without_tie(night)
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[QualifierIn(night, places=n), south_night],
            rules="clabber-2",
        )
    names = {p.pk: p.name for p in north}
    expected = [names[player] for player, _place in top(night, n)]
    assert len(err.value.errors) == n
    for error, name in zip(err.value.errors, expected, strict=True):
        assert error["field"] == "qualifiers[0]"
        assert str(error["message"]).startswith(f"{name}, qualified from North night")
    assert not Cup.objects.filter(club=space.club).exists()
    assert not Qualifier.objects.exists() and not QualifiedEntrant.objects.exists()


def test_refusals_name_their_field_one_error_each(
    federation, clubs, space, north_night, south_night
):
    stranger_club = DivisionFactory(ruleset="clabber").club  # not a member
    stranger = PlayerFactory.create_batch(4, club=stranger_club)
    outside = finished_night(
        {"club": stranger_club, "admin": clubs[0]["admin"]}, stranger, "Elsewhere", day=3
    )
    open_night = finished_night(
        clubs[1], members_of(federation, clubs[1], "Late"), "Open night", day=4, finish=False
    )
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[
                QualifierIn(north_night, places=2),
                QualifierIn(outside),
                QualifierIn(open_night),
                QualifierIn(south_night, places=0),
                QualifierIn(north_night),
            ],
            rules="clabber-2",
        )
    fields = [e["field"] for e in err.value.errors]
    assert fields == ["qualifiers[1]", "qualifiers[2]", "qualifiers[3].places", "qualifiers[4]"]
    messages = [str(e["message"]) for e in err.value.errors]
    assert "Elsewhere is not a night of a member club" in messages[0]
    assert "Open night is not finished" in messages[1]
    assert "between 1 and 64" in messages[2]
    assert "North night is given twice" in messages[3]
    assert not Cup.objects.filter(club=space.club).exists()


def test_a_person_qualifying_twice_is_refused(federation, clubs, space):
    north = members_of(federation, clubs[0], "North", 8)
    first = finished_night(clubs[0], north, "First night", day=1)
    second = finished_night(clubs[0], north, "Second night", day=8)
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[QualifierIn(first, places=8), QualifierIn(second, places=8)],
            rules="clabber-2",
        )
    twice = [e for e in err.value.errors if "qualifies twice" in str(e["message"])]
    assert len(twice) == len(err.value.errors) == 8
    assert {e["field"] for e in twice} == {"qualifiers[1]"}
    assert all("from First night and from Second night" in str(e["message"]) for e in twice)


def test_a_cut_through_players_level_after_every_tiebreak_is_refused(federation, clubs, space):
    north = members_of(federation, clubs[0], "North", 8)
    # one round, side A winning every deal by the same score: the winners are level
    night = finished_night(clubs[0], north, "Level night", rounds_=1)
    lines = event_selectors.event_ranking(night, to_member=True).lines
    assert lines[0].position == lines[1].position  # shared first place
    south_night = finished_night(
        clubs[1], members_of(federation, clubs[1], "South"), "South night", day=2
    )
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[QualifierIn(night, places=1), south_night],
            rules="clabber-2",
        )
    assert err.value.errors[0]["field"] == "qualifiers[0].places"
    assert "share place 1 of Level night" in str(err.value.errors[0]["message"])


def test_a_night_feeds_one_final_only(federation, clubs, space, north_night, south_night):
    championship.championship_final_create(
        federation=federation,
        name="Final",
        qualifiers=[north_night, south_night],
        rules="clabber-2",
    )
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final again",
            qualifiers=[north_night, south_night],
            rules="clabber-2",
        )
    assert [e["field"] for e in err.value.errors] == ["qualifiers[0]", "qualifiers[1]"]
    assert "already qualifies for the final Final" in str(err.value.errors[0]["message"])


def test_a_club_that_left_no_longer_qualifies(federation, clubs, space, north_night, south_night):
    FederationClub.objects.filter(club=clubs[0]["club"]).update(active=False)
    with pytest.raises(interclub.InterclubError) as err:
        championship.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[north_night, south_night],
            rules="clabber-2",
        )
    assert [e["field"] for e in err.value.errors] == ["qualifiers[0]"]
    assert Entrant.objects.filter(cup__club=space.club).count() == 0
