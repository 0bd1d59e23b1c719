"""Two players who are one person, merged: their games, seats, team places, statistics and
ratings follow, the merge is recorded, and everything still equals a recomputation."""

import pytest
from django.core.management import call_command

from clabber_league.clubs import services as clubs
from clabber_league.clubs.models import Player, PlayerMerge
from clabber_league.core.errors import ServiceError
from clabber_league.games.models import GameSeat
from clabber_league.games.services import MERGE_SAME_GAME
from clabber_league.leagues.models import TeamMember
from clabber_league.leagues.services import MERGE_SAME_TEAM
from clabber_league.standings.models import PlayerGameStat, PlayerRating, RatingChange
from clabber_league.standings.services.rebuild import standings_differences
from tests.factories import PlayerFactory, TeamFactory

from .conftest import A_WINS, B_WINS, play

pytestmark = pytest.mark.django_db


def _rename_first(team, name: str) -> Player:
    player = team.members.get(position=0).player
    player.name = name
    player.save()
    return player


@pytest.fixture
def twins(division, teams):
    """Tom Smith plays for Aces, and was entered a second time, as "T. Smith", for Dads."""
    aces, _, dads, _ = teams
    return _rename_first(aces, "Tom Smith"), _rename_first(dads, "T. Smith")


def _ratings() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}


def test_a_merge_moves_games_seats_team_places_stats_and_ratings(
    division, teams, twins, scorer, admin
):
    aces, bells, dads, _ = teams
    tom, t_smith = twins
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    play(division, dads, bells, B_WINS, user=scorer, confirm_by=admin)
    play(division, bells, aces, B_WINS, user=scorer, confirm_by=admin)
    assert PlayerRating.objects.get(player=tom).games == 2

    merge = clubs.player_merge(source=t_smith, target=tom, user=admin)

    assert not Player.objects.filter(pk=t_smith.pk).exists()
    assert TeamMember.objects.get(team=dads, position=0).player == tom
    assert GameSeat.objects.filter(player=tom).count() == 3
    stats = PlayerGameStat.objects.filter(player=tom)
    assert stats.count() == 3
    assert sorted(s.won for s in stats) == [0, 1, 1]  # won with Aces, lost with Dads, won
    assert PlayerRating.objects.get(player=tom).games == 3
    assert not RatingChange.objects.filter(player_id=t_smith.pk).exists()
    assert (merge.source_name, merge.source_id, merge.target, merge.merged_by) == (
        "T. Smith",
        t_smith.pk,
        tom,
        admin,
    )
    assert merge.moved["games.gameseat.player"] == 1
    assert merge.moved["leagues.teammember.player"] == 1
    # The stored numbers are what a full recomputation gives, ratings included: replay
    # every confirmed game from nothing and compare.
    assert standings_differences() == []
    merged = _ratings()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    call_command("standings_check", "--fix")
    replayed = _ratings()
    assert replayed.keys() == merged.keys()
    for player_id, (mu, sigma, played) in merged.items():
        assert replayed[player_id] == (pytest.approx(mu), pytest.approx(sigma), played)


def test_the_merged_ratings_are_those_of_one_person_from_the_start(
    division, teams, twins, scorer, admin
):
    """The same games played by Tom under one name in another club rate him the same."""
    aces, bells, dads, _ = teams
    tom, t_smith = twins
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    play(division, dads, bells, A_WINS, user=scorer, confirm_by=admin)
    clubs.player_merge(source=t_smith, target=tom, user=admin)

    from tests.factories import DivisionFactory, MembershipFactory, UserFactory

    other = DivisionFactory(ruleset="clabber")
    MembershipFactory(club=other.club, user=admin, role="admin")
    other_scorer = MembershipFactory(club=other.club, user=UserFactory(), role="scorer").user
    o_aces, o_bells, o_dads = (TeamFactory(division=other, name=n) for n in "ABD")
    o_tom = o_aces.members.get(position=0).player
    TeamMember.objects.filter(team=o_dads, position=0).update(player=o_tom)
    play(other, o_aces, o_bells, A_WINS, user=other_scorer, confirm_by=admin)
    play(other, o_dads, o_bells, A_WINS, user=other_scorer, confirm_by=admin)
    mine, theirs = PlayerRating.objects.get(player=tom), PlayerRating.objects.get(player=o_tom)
    assert (mine.mu, mine.sigma, mine.games) == (
        pytest.approx(theirs.mu),
        pytest.approx(theirs.sigma),
        theirs.games,
    )


def test_two_players_at_one_table_are_not_one_person(division, teams, twins, scorer, admin):
    aces, _, dads, _ = teams
    tom, t_smith = twins
    game = play(division, aces, dads, A_WINS, user=scorer)
    with pytest.raises(ServiceError) as refused:
        clubs.player_merge(source=t_smith, target=tom, user=admin)
    message = MERGE_SAME_GAME.format(source="T. Smith", target="Tom Smith", game=game.pk)
    assert refused.value.errors == [{"field": "target", "message": message}]
    assert Player.objects.filter(pk=t_smith.pk).exists()
    assert GameSeat.objects.filter(player=t_smith).count() == 1
    assert not PlayerMerge.objects.exists()


def test_two_players_of_one_team_are_not_one_person(division, teams, admin):
    aces = teams[0]
    first, second = (m.player for m in aces.members.order_by("position"))
    with pytest.raises(ServiceError) as refused:
        clubs.player_merge(source=second, target=first, user=admin)
    message = MERGE_SAME_TEAM.format(source=second.name, target=first.name, team="Aces")
    assert refused.value.errors == [{"field": "target", "message": message}]
    assert TeamMember.objects.filter(team=aces).count() == 2


def test_a_login_moves_to_the_player_who_stays_and_two_logins_are_refused(
    club, scorer, viewer, admin
):
    stays, goes = PlayerFactory(club=club, name="Maria"), PlayerFactory(club=club, name="M. L.")
    clubs.player_link_user(player=goes, user=scorer)
    clubs.player_merge(source=goes, target=stays, user=admin)
    stays.refresh_from_db()
    assert stays.user == scorer

    other = PlayerFactory(club=club, name="Ria")
    clubs.player_link_user(player=other, user=viewer)
    with pytest.raises(clubs.ClubError) as refused:
        clubs.player_merge(source=other, target=stays, user=admin)
    assert refused.value.status == 409
    assert Player.objects.filter(pk=other.pk, user=viewer).exists()


def test_a_player_is_not_merged_with_themselves_nor_with_another_clubs(club, admin):
    maria = PlayerFactory(club=club, name="Maria")
    stranger = PlayerFactory(name="Maria")
    with pytest.raises(clubs.ClubError) as same:
        clubs.player_merge(source=maria, target=maria, user=admin)
    assert same.value.errors == [{"field": "target", "message": clubs.MERGE_SAME}]
    with pytest.raises(clubs.ClubError) as other:
        clubs.player_merge(source=stranger, target=maria, user=admin)
    assert other.value.errors == [{"field": "target", "message": clubs.MERGE_OTHER_CLUB}]
