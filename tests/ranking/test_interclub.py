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
from clabber_league.ranking import championship, interclub
from clabber_league.ranking.models import NationalRating
from clabber_league.ranking.services import ranking_recompute
from clabber_league.scheduling.services.fixture_changes import fixture_create
from clabber_league.standings.models import TeamStanding
from tests.factories import DivisionFactory, MembershipFactory, PlayerFactory, UserFactory
from tests.games.conftest import made

from .conftest import linked_team, number_for

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
        championship.championship_final_create(
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
    final = championship.championship_final_create(
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


# --- home venue and home rules -----------------------------------------------------------


@pytest.fixture
def homes(clubs):
    """Each member club's venue and house rules (north plays to 300, south to 700)."""
    from clabber_league.leagues.models import HouseRules, Venue

    out = []
    for entry, target in zip(clubs, (300, 700), strict=True):
        club = entry["club"]
        out.append(
            {
                "venue": Venue.objects.create(club=club, name=f"{club.name} hall", tables=6),
                "rules": HouseRules.objects.create(
                    club=club,
                    name=f"{club.name} {target}",
                    base="clabber",
                    options={"target": target},
                ),
            }
        )
    return out


def _home_set(team, home, admin):
    return interclub.interclub_team_home_set(
        team=team, venue=home["venue"], house_rules=home["rules"], user=admin
    )


def _start(fixture, home_team, away_team, user):
    link = interclub.interclub_fixture_enter(fixture=fixture, user=user)
    home = [m.player for m in home_team.members.order_by("position")]
    away = [m.player for m in away_team.members.order_by("position")]
    link = table_links.fixture_link_start(
        link=link, seats=[home[0], away[0], home[1], away[1]], first_dealer=0
    )
    return Game.objects.get(pk=link.game_id)


def test_a_team_registered_with_its_clubs_venue_and_rules_plays_there_by_them(
    federation, clubs, space, homes
):
    from clabber_league.rules import get_ruleset

    division = DivisionFactory(season__club=space.club, club=space.club, ruleset="clabber")
    teams = []
    for entry, home, name in zip(clubs, homes, ("Aces", "Bells"), strict=True):
        own = linked_team(federation, entry["division"], f"{name} at home")
        people = [m.player.federation_links.get().federation_player for m in own.members.all()]
        teams.append(
            interclub.interclub_team_register(
                federation=federation,
                division=division,
                name=name,
                home_club=entry["club"],
                players=people,
                venue=home["venue"],
                house_rules=home["rules"],
            )
        )
    there = fixture_create(division=division, round_number=1, home=teams[0], away=teams[1])
    back = fixture_create(division=division, round_number=2, home=teams[1], away=teams[0])
    assert (there.venue, there.table) == (homes[0]["venue"], None)
    assert back.venue == homes[1]["venue"]
    game = _start(there, teams[0], teams[1], clubs[1]["scorer"])
    assert get_ruleset(game.rules).target == 300  # the home club's, whoever enters it
    game = _start(back, teams[1], teams[0], clubs[0]["scorer"])
    assert get_ruleset(game.rules).target == 700


def test_another_clubs_venue_or_house_rules_are_refused(
    federation, clubs, space, homes, interclub_fixture
):
    admin = space.club.memberships.get().user
    team = interclub_fixture.home  # of the north club
    with pytest.raises(interclub.InterclubError) as err:
        interclub.interclub_team_home_set(
            team=team, venue=homes[1]["venue"], house_rules=homes[1]["rules"], user=admin
        )
    assert {e["field"] for e in err.value.errors} == {"venue", "house_rules"}
    assert clubs[0]["club"].name in str(err.value.errors[0]["message"])
    team.interclub.refresh_from_db()
    assert team.interclub.venue is None and team.interclub.house_rules is None
    with pytest.raises(interclub.InterclubError) as err:  # a three-sided rule set
        interclub.interclub_team_home_set(team=team, venue=None, ruleset="clabber-3", user=admin)
    assert err.value.errors[0]["field"] == "ruleset"
    division = interclub_fixture.division
    own = linked_team(federation, clubs[0]["division"], "Cards at home")
    people = [m.player.federation_links.get().federation_player for m in own.members.all()]
    with pytest.raises(interclub.InterclubError) as err:
        interclub.interclub_team_register(
            federation=federation,
            division=division,
            name="Cards",
            home_club=clubs[0]["club"],
            players=people,
            venue=homes[1]["venue"],
        )
    assert err.value.errors[0]["field"] == "venue"
    assert not division.teams.filter(name="Cards").exists()


def test_only_the_spaces_admins_change_a_teams_home(clubs, homes, interclub_fixture):
    with pytest.raises(interclub.InterclubError) as err:
        _home_set(interclub_fixture.home, homes[0], clubs[0]["admin"])
    assert err.value.kind == "forbidden"


def test_a_changed_home_moves_the_waiting_fixtures_and_rules_the_games_not_started(
    clubs, space, homes, interclub_fixture
):
    from clabber_league.rules import get_ruleset

    admin = space.club.memberships.get().user
    _home_set(interclub_fixture.home, homes[0], admin)
    _home_set(interclub_fixture.away, homes[1], admin)
    interclub_fixture.refresh_from_db()
    assert interclub_fixture.venue == homes[0]["venue"]  # moved there, not yet started
    # the home fixture is played by the home club's rules, whichever club enters it
    game = _start(
        interclub_fixture, interclub_fixture.home, interclub_fixture.away, clubs[1]["scorer"]
    )
    assert game.rules == homes[0]["rules"].as_rules_data()
    assert get_ruleset(game.rules).target == 300
    # the return fixture, at the south club: by the south club's rules
    division = interclub_fixture.division
    back = fixture_create(
        division=division, round_number=2, home=interclub_fixture.away, away=interclub_fixture.home
    )
    assert back.venue == homes[1]["venue"]
    game_back = _start(back, back.home, back.away, clubs[0]["scorer"])
    assert get_ruleset(game_back.rules).target == 700
    # a game started keeps its rules when the home club changes them
    interclub.interclub_team_home_set(
        team=interclub_fixture.home, venue=None, ruleset="klaberjass", user=admin
    )
    game.refresh_from_db()
    assert game.rules == homes[0]["rules"].as_rules_data()
    interclub_fixture.refresh_from_db()
    assert interclub_fixture.venue == homes[0]["venue"]  # a fixture under way stays


def test_a_division_played_by_different_targets_breaks_no_tie_on_points(
    clubs, space, homes, interclub_fixture
):
    from clabber_league.standings.selectors import standings_table

    admin = space.club.memberships.get().user
    _home_set(interclub_fixture.home, homes[0], admin)
    _home_set(interclub_fixture.away, homes[1], admin)
    division = interclub_fixture.division
    back = fixture_create(
        division=division, round_number=2, home=interclub_fixture.away, away=interclub_fixture.home
    )
    assert not standings_table(division=division).mixed_rules
    _start(interclub_fixture, interclub_fixture.home, interclub_fixture.away, clubs[0]["scorer"])
    _start(back, back.home, back.away, clubs[0]["scorer"])
    table = standings_table(division=division)
    assert table.mixed_rules
    assert "points_difference" not in table.tiebreakers
    assert "game_difference" in table.tiebreakers


def test_the_space_admin_sets_a_teams_home_on_the_page_and_through_the_api(
    client, clubs, space, homes, interclub_fixture
):
    from rest_framework.test import APIClient

    admin = space.club.memberships.get().user
    team = interclub_fixture.home
    url = f"/federations/nku/teams/{team.pk}/home/"
    client.force_login(clubs[0]["admin"])  # the home club's admin, not the space's
    assert client.get(url).status_code == 403
    client.force_login(admin)
    page = client.get(url)
    assert page.status_code == 200 and clubs[0]["club"].name in page.content.decode()
    answer = client.post(url, {"venue": homes[0]["venue"].pk, "house_rules": homes[0]["rules"].pk})
    assert answer.status_code == 302
    team.interclub.refresh_from_db()
    assert team.interclub.venue == homes[0]["venue"]
    page = client.get(f"/federations/nku/fixtures/{interclub_fixture.pk}/enter/")
    assert homes[0]["venue"].name in page.content.decode()
    # another club's venue: not a choice on the page, refused by the API with its field
    refused = client.post(url, {"venue": homes[1]["venue"].pk})
    assert refused.status_code == 200 and "venue" in refused.context["form"].errors
    api = APIClient()
    api.force_authenticate(admin)
    api_url = f"/api/federations/nku/interclub-teams/{team.pk}/"
    answer = api.patch(api_url, {"venue": homes[1]["venue"].pk}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "venue"
    answer = api.patch(api_url, {"ruleset": "klaberjass"}, format="json")
    assert answer.status_code == 200
    assert answer.json()["ruleset"] == "klaberjass" and answer.json()["house_rules"] is None
    api.force_authenticate(clubs[0]["admin"])
    assert api.patch(api_url, {"venue": None}, format="json").status_code == 403


def test_a_generated_schedule_puts_each_home_fixture_at_its_home_clubs_venue(
    federation, clubs, space, homes, interclub_fixture, django_capture_on_commit_callbacks
):
    import datetime as dt

    from clabber_league.leagues.models import Venue
    from clabber_league.scheduling.models import Fixture
    from clabber_league.scheduling.services.generation import (
        schedule_config_save,
        schedule_generate,
        schedule_run_execute,
    )

    admin = space.club.memberships.get().user
    _home_set(interclub_fixture.home, homes[0], admin)
    _home_set(interclub_fixture.away, homes[1], admin)
    division = interclub_fixture.division
    interclub_fixture.delete()
    hall = Venue.objects.create(club=space.club, name="Federation hall", tables=4)
    start = dt.date(2030, 9, 2)
    schedule_config_save(
        division=division,
        format="round_robin",
        cycles=2,
        weekday=0,
        start_date=start,
        venues=[hall],
    )
    with django_capture_on_commit_callbacks(execute=False):
        queued = schedule_generate(division=division)
    schedule_run_execute(run_id=queued.pk, today=start)
    fixtures = list(Fixture.objects.filter(division=division))
    assert len(fixtures) == 2
    for fixture in fixtures:
        home = homes[0] if fixture.home_id == interclub_fixture.home_id else homes[1]
        assert (fixture.venue, fixture.table) == (home["venue"], None)


def test_an_erased_player_is_mirrored_in_the_space_under_the_anonymous_name(
    federation, clubs, space
):
    from clabber_league.federation.services import privacy

    person = PlayerFactory(club=clubs[0]["club"], name="Anneke Jansen")
    record = number_for(federation, person)
    privacy.player_erase(access=None, player=record)
    record.refresh_from_db()
    row = interclub.space_player(space=space, player=record)
    assert row.name == privacy.anonymous_name(record.number)
    assert "Anneke" not in row.name and not row.name.startswith(" ")


def test_the_api_moves_an_interclub_fixture_to_its_home_venue_and_no_other_clubs(
    clubs, space, homes, interclub_fixture
):
    """The space's admin moves the fixture through the API as on the page: the home team's
    own venue (its home club's) is a choice; the away club's venue is no venue at all."""
    import datetime as dt

    from rest_framework.test import APIClient

    admin = space.club.memberships.get().user
    _home_set(interclub_fixture.home, homes[0], admin)
    api = APIClient()
    api.force_authenticate(admin)
    url = f"/api/clubs/{space.club.slug}/fixtures/{interclub_fixture.pk}/postpone/"
    body = {"date": "2027-02-02", "venue": homes[0]["venue"].pk, "table": 3}
    answer = api.post(url, body, format="json")
    assert answer.status_code == 200, answer.content
    interclub_fixture.refresh_from_db()
    assert (interclub_fixture.venue, interclub_fixture.table) == (homes[0]["venue"], 3)
    assert interclub_fixture.date == dt.date(2027, 2, 2)
    refused = api.post(url, {**body, "venue": homes[1]["venue"].pk}, format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["venue"]
