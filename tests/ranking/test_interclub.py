"""Inter-club competitions: teams of two member clubs in a division of the federation's
organiser space, a fixture entered by a scorer of either home club (and nobody else),
its games counted in the standings and the national ranking as any club's; a
championship final seeded from the member clubs' qualifiers."""

import pytest

from clabber_league.clubs.models import Role
from clabber_league.cups.models import Cup
from clabber_league.cups.services import progress, setup
from clabber_league.federation.models import FederationClub, Officer, PlayerLink
from clabber_league.games import table_links
from clabber_league.games.models import Game
from clabber_league.ranking import interclub
from clabber_league.ranking.models import NationalRating
from clabber_league.ranking.services import ranking_recompute
from clabber_league.scheduling.services.fixture_changes import fixture_create
from clabber_league.standings.models import TeamStanding
from tests.factories import DivisionFactory, MembershipFactory, UserFactory
from tests.games.conftest import made

from .conftest import linked_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def space(federation, clubs):
    Officer.objects.create(
        federation=federation, user=UserFactory(username="fed-admin"), role=Officer.Role.ADMIN
    )
    return interclub.organiser_space_create(federation=federation)


@pytest.fixture
def interclub_fixture(federation, clubs, space):
    """Aces of the north club at home to Bells of the south club, in the space's league."""
    division = DivisionFactory(
        season__club=space.club, club=space.club, ruleset="clabber", name="Eredivisie"
    )
    teams = []
    for entry, name in zip(clubs, ("Aces", "Bells"), strict=True):
        own = linked_team(federation, entry["division"], f"{name} at home")
        people = [m.player.federation_links.get().federation_player for m in own.members.all()]
        teams.append(
            interclub.interclub_team_register(
                federation=federation,
                division=division,
                name=name,
                home_club=entry["club"],
                players=people,
            )
        )
    return fixture_create(division=division, round_number=1, home=teams[0], away=teams[1])


def test_the_space_is_a_club_of_the_federations_admins(federation, space):
    assert space.club.memberships.get().user.username == "fed-admin"
    assert space.club.memberships.get().role == Role.ADMIN


@pytest.mark.parametrize("which", [0, 1])
def test_a_scorer_of_either_home_club_enters_the_fixture(client, clubs, interclub_fixture, which):
    client.force_login(clubs[which]["scorer"])
    url = f"/federations/nku/fixtures/{interclub_fixture.pk}/enter/"
    assert client.get(url).status_code == 200
    answer = client.post(url)
    assert answer.status_code == 302 and answer["Location"].startswith("/t/")
    link = table_links.fixture_link_live(fixture=interclub_fixture)
    assert answer["Location"] == table_links.table_link_path(link)


def test_nobody_else_enters_the_fixture(client, federation, clubs, interclub_fixture):
    url = f"/federations/nku/fixtures/{interclub_fixture.pk}/enter/"
    viewer = UserFactory(username="north-viewer")
    MembershipFactory(club=clubs[0]["club"], user=viewer, role=Role.VIEWER)
    third = DivisionFactory(ruleset="clabber").club  # a third member club, not in the fixture
    FederationClub.objects.create(federation=federation, club=third)
    outsider = UserFactory(username="third-scorer")
    MembershipFactory(club=third, user=outsider, role=Role.SCORER)
    for user in (viewer, outsider):
        client.force_login(user)
        assert client.post(url).status_code == 403
        with pytest.raises(interclub.InterclubError) as err:
            interclub.interclub_fixture_enter(fixture=interclub_fixture, user=user)
        assert err.value.errors[0]["field"] == "fixture"
    assert table_links.fixture_link_live(fixture=interclub_fixture) is None


def test_the_fixtures_game_counts_in_the_standings_and_the_ranking(
    federation, clubs, space, interclub_fixture
):
    link = interclub.interclub_fixture_enter(fixture=interclub_fixture, user=clubs[1]["scorer"])
    home = [m.player for m in interclub_fixture.home.members.order_by("position")]
    away = [m.player for m in interclub_fixture.away.members.order_by("position")]
    link = table_links.fixture_link_start(
        link=link, seats=[home[0], away[0], home[1], away[1]], first_dealer=0
    )
    from clabber_league.clubs.access import access_for
    from clabber_league.games import services as games

    for _ in range(4):
        games.deal_record(game_id=link.game_id, data=made("A", 142), maker_seat=0)
    game = Game.objects.get(pk=link.game_id)
    admin = space.club.memberships.get().user
    games.game_confirm(game=game, user=admin, access=access_for(club=space.club, user=admin))
    standing = TeamStanding.objects.get(team=interclub_fixture.home)
    assert standing.games_won == 1
    ranking_recompute(federation=federation)
    # the mirrored players are the same people as at their home clubs
    ace = PlayerLink.objects.get(player=home[0]).federation_player
    assert ace.home_club == clubs[0]["club"]
    assert NationalRating.objects.get(player=ace).mu > 25


def test_a_team_from_a_club_outside_the_federation_is_refused(federation, space):
    division = DivisionFactory(season__club=space.club, club=space.club, ruleset="clabber")
    stranger = DivisionFactory(ruleset="clabber").club
    with pytest.raises(interclub.InterclubError) as err:
        interclub.interclub_team_register(
            federation=federation, division=division, name="X", home_club=stranger, players=[]
        )
    assert err.value.errors == [{"field": "home_club", "message": interclub.HOME_NOT_MEMBER}]


def _qualifier(federation, entry, names):
    teams = [linked_team(federation, entry["division"], n) for n in names]
    cup = setup.cup_draw(
        cup=setup.cup_create(club=entry["club"], name=f"{names[0]} cup", teams=teams)
    )
    return cup, teams


def test_the_final_is_seeded_from_the_qualifiers_winners(federation, clubs, space):
    division = DivisionFactory(season__club=space.club, club=space.club, ruleset="clabber")
    north_cup, north_teams = _qualifier(federation, clubs[0], ["Aces", "Bells"])
    south_cup, south_teams = _qualifier(federation, clubs[1], ["Dads", "Mules"])
    with pytest.raises(interclub.InterclubError) as err:
        interclub.championship_final_create(
            federation=federation,
            name="Final",
            qualifiers=[north_cup, south_cup],
            division=division,
        )
    assert len(err.value.errors) == 2  # no winner yet in either qualifier
    progress.tie_walkover(tie=north_cup.ties.get(), absent="home")  # Bells win the north
    progress.tie_walkover(tie=south_cup.ties.get(), absent="away")  # Dads win the south
    north_cup.refresh_from_db()
    south_cup.refresh_from_db()
    final = interclub.championship_final_create(
        federation=federation,
        name="National final",
        qualifiers=[south_cup, north_cup],
        division=division,
    )
    assert final.club == space.club and final.entrant_kind == Cup.Kind.TEAMS
    entrants = list(final.entrants.order_by("seed"))
    assert [e.seed for e in entrants] == [1, 2]
    assert [e.team.interclub.home_club for e in entrants] == [clubs[1]["club"], clubs[0]["club"]]
    winners = [south_teams[0], north_teams[1]]
    for entrant, winner in zip(entrants, winners, strict=True):
        own = {m.player.federation_links.get().federation_player_id for m in winner.members.all()}
        mirrored = {
            PlayerLink.objects.get(player=m.player).federation_player_id
            for m in entrant.team.members.all()
        }
        assert own == mirrored
    setup.cup_draw(cup=final)
    assert final.ties.count() == 1
