"""Teams through a season: renamed, their players changed (names matched in any case), or
withdrawn, their later fixtures becoming walkovers or removed as the division chooses,
with the standings still equal to a recomputation."""

import datetime as dt

import pytest

from clabber_league.core.errors import ServiceError
from clabber_league.leagues import services
from clabber_league.leagues.models import Division
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services import fixture_changes
from clabber_league.standings.models import TeamStanding
from clabber_league.standings.services.rebuild import standings_differences
from tests.factories import PlayerFactory, TeamFactory
from tests.standings.conftest import A_WINS, play

pytestmark = pytest.mark.django_db

MONDAYS = [dt.date(2026, 9, 7) + dt.timedelta(weeks=n) for n in range(4)]


def _day(day: dt.date) -> str:
    """A date as the English messages write it: 7 Sep 2026."""
    return f"{day.day} {day:%b %Y}"


@pytest.fixture
def season(division):
    """Aces, Bells and Dads; Aces meet Bells on the first Monday (played), Dads on the
    second (a game at the table), Bells on the third and Dads again on the fourth, and an
    undated Aces v Bells to be arranged."""
    aces, bells, dads = (TeamFactory(division=division, name=n) for n in ("Aces", "Bells", "Dads"))

    def fixture(n, home, away, date):
        return Fixture.objects.create(
            club=division.club, division=division, round_number=n, home=home, away=away, date=date
        )

    return {
        "teams": (aces, bells, dads),
        "played": fixture(1, aces, bells, MONDAYS[0]),
        "at_the_table": fixture(2, dads, aces, MONDAYS[1]),
        "later": fixture(3, bells, aces, MONDAYS[2]),
        "last": fixture(4, aces, dads, MONDAYS[3]),
        "undated": fixture(5, aces, bells, None),
        "others": fixture(4, bells, dads, MONDAYS[3]),
    }


def test_a_withdrawn_teams_later_fixtures_become_walkovers_to_their_opponents(
    division, season, scorer
):
    aces, bells, dads = season["teams"]
    play(division, aces, bells, A_WINS, user=scorer, fixture=season["played"])
    play(division, dads, aces, A_WINS[:1], user=scorer, fixture=season["at_the_table"])

    services.team_withdraw(team=aces, on=MONDAYS[1])

    aces.refresh_from_db()
    assert aces.withdrawn_on == MONDAYS[1]
    for key, winner in (("later", bells), ("last", dads), ("undated", bells)):
        fixture = Fixture.objects.get(pk=season[key].pk)
        assert (fixture.status, fixture.forfeit_winner) == (Fixture.Status.FORFEIT, winner)
        note = fixture_changes.WITHDRAWN_NOTE.format(team="Aces", on=_day(MONDAYS[1]))
        assert fixture.note == note
    # What was played stands; a fixture with a game at the table is left to finish; the
    # other teams' fixtures are not touched.
    assert Fixture.objects.get(pk=season["played"].pk).status == Fixture.Status.PLAYED
    assert Fixture.objects.get(pk=season["at_the_table"].pk).status == Fixture.Status.SCHEDULED
    assert Fixture.objects.get(pk=season["others"].pk).status == Fixture.Status.SCHEDULED
    assert TeamStanding.objects.get(team=dads).matches_won == 1
    assert TeamStanding.objects.get(team=bells).matches_won == 2
    assert TeamStanding.objects.get(team=aces).matches_won == 1  # the match it played and won
    assert standings_differences() == []


def test_a_division_may_remove_a_withdrawn_teams_later_fixtures_instead(division, season):
    aces = season["teams"][0]
    services.division_update(division=division, withdrawal_policy="remove")
    services.team_withdraw(team=aces, on=MONDAYS[2])
    left = set(Fixture.objects.filter(division=division).values_list("pk", flat=True))
    assert left == {season[k].pk for k in ("played", "at_the_table", "others")}
    assert not Fixture.objects.filter(status=Fixture.Status.FORFEIT).exists()
    assert standings_differences() == []


def test_a_team_withdraws_once_and_not_before_its_season(division, season):
    aces = season["teams"][0]
    with pytest.raises(ServiceError) as early:
        services.team_withdraw(team=aces, on=dt.date(2026, 8, 1))
    message = services.WITHDRAW_BEFORE_SEASON.format(start=_day(division.season.start_date))
    assert early.value.errors == [{"field": "on", "message": message}]
    assert not Fixture.objects.filter(status=Fixture.Status.FORFEIT).exists()
    services.team_withdraw(team=aces, on=MONDAYS[3])
    with pytest.raises(ServiceError) as again:
        services.team_withdraw(team=aces, on=MONDAYS[3])
    assert again.value.status == 409


def test_a_withdrawn_team_gets_no_new_fixture(division, season):
    aces, bells, _ = season["teams"]
    services.team_withdraw(team=aces, on=MONDAYS[2])
    aces.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        fixture_changes.fixture_create(
            division=division, round_number=9, home=bells, away=aces, date=MONDAYS[3]
        )
    message = fixture_changes.TEAM_WITHDRAWN.format(team="Aces", on=_day(MONDAYS[2]))
    assert refused.value.errors == [{"field": "away", "message": message}]


def test_an_unknown_withdrawal_policy_is_refused_naming_the_field(division):
    with pytest.raises(ServiceError) as refused:
        services.division_update(division=division, withdrawal_policy="shrug")
    assert refused.value.errors == [
        {"field": "withdrawal_policy", "message": services.WITHDRAWAL_POLICY}
    ]
    division.refresh_from_db()
    assert division.withdrawal_policy == Division.Withdrawal.WALKOVER


def test_a_team_is_renamed_and_its_players_changed_by_name_in_any_case(
    division, season, club, scorer
):
    aces, bells, _ = season["teams"]
    game = play(division, aces, bells, A_WINS, user=scorer)
    sat = sorted(game.seats.values_list("player_id", flat=True))
    tom = PlayerFactory(club=club, name="Tom Smith")
    services.team_update(team=aces, name="Ace High", player_names=["tom smith", "Mary Lou"])
    aces.refresh_from_db()
    assert aces.name == "Ace High"
    players = [m.player for m in aces.members.order_by("position")]
    assert players[0] == tom and players[1].name == "Mary Lou"
    # The games already played keep who sat at the table.
    assert sorted(game.seats.values_list("player_id", flat=True)) == sat
    with pytest.raises(ServiceError) as taken:
        services.team_update(team=aces, name="Bells")
    assert taken.value.errors == [{"field": "name", "message": services.TEAM_NAME_TAKEN}]


def test_the_api_withdraws_a_team_through_the_same_service(
    division, season, admin, scorer, api_client_for
):
    aces = season["teams"][0]
    url = f"/api/clubs/{division.club.slug}/teams/{aces.pk}/withdraw/"
    assert (
        api_client_for(scorer, token=True)
        .post(url, {"on": "2026-09-21"}, format="json")
        .status_code
        == 403
    )
    response = api_client_for(admin, token=True).post(url, {"on": "2026-09-21"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["withdrawn_on"] == "2026-09-21"
    assert Fixture.objects.get(pk=season["last"].pk).status == Fixture.Status.FORFEIT
    again = api_client_for(admin, token=True).post(url, {"on": "2026-09-21"}, format="json")
    assert again.status_code == 409
    message = services.TEAM_WITHDRAWN_ALREADY.format(team="Aces", on=_day(MONDAYS[2]))
    assert again.json()["errors"] == [{"field": "team", "message": message}]
    missing = api_client_for(admin, token=True).post(url, {}, format="json")
    assert missing.status_code == 400
    assert [e["field"] for e in missing.json()["errors"]] == ["on"]


def test_the_api_sets_a_divisions_withdrawal_policy(division, admin, api_client_for):
    url = f"/api/clubs/{division.club.slug}/divisions/{division.pk}/"
    response = api_client_for(admin, token=True).patch(
        url, {"withdrawal_policy": "remove"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["withdrawal_policy"] == "remove"


def test_a_withdrawn_team_starts_no_game_from_the_day_it_withdrew(division, season, scorer):
    from clabber_league.games import services as games

    aces, bells, _ = season["teams"]
    services.team_withdraw(team=aces, on=MONDAYS[1])
    aces.refresh_from_db()
    a = [m.player for m in aces.members.order_by("position")]
    b = [m.player for m in bells.members.order_by("position")]
    with pytest.raises(ServiceError) as refused:
        games.game_start(
            club=division.club,
            division=division,
            sides={"A": aces, "B": bells},
            seats=[a[0], b[0], a[1], b[1]],
            played_on=MONDAYS[2],
        )
    message = games.TEAM_WITHDRAWN.format(team="Aces", on=MONDAYS[1])
    assert {"field": "sides.A", "message": message} in refused.value.errors
    # A game it played before it withdrew may still be entered.
    earlier = games.game_start(
        club=division.club,
        division=division,
        sides={"A": aces, "B": bells},
        seats=[a[0], b[0], a[1], b[1]],
        played_on=MONDAYS[0],
    )
    assert earlier.played_on == MONDAYS[0]
