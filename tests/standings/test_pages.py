"""The standings pages as a member, a visitor and another club's member see them."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clabber_league.clubs.models import Role
from clabber_league.games import services
from clabber_league.standings.models import TiebreakerRules
from tests.factories import ClubFactory, MembershipFactory, TeamFactory, UserFactory

from .conftest import A_WINS, made, play, start

pytestmark = pytest.mark.django_db

#: Five deals of 110 to 52: side A wins 550 to 260.
NARROW_A = [made("A", 100)] * 5


@pytest.fixture
def crafted_tie(division, teams, scorer):
    """Mules 4 match points; Aces and Bells level on 2; Dads 0.

    Aces beat Bells (550-260) but lost heavily to the Mules: points difference -278.
    Bells lost to Aces but beat the Dads heavily: points difference +278.
    So head-to-head puts Aces above Bells; points difference puts Bells above Aces.
    """
    aces, bells, dads, mules = teams
    play(division, aces, bells, NARROW_A, user=scorer)
    play(division, bells, dads, A_WINS, user=scorer)
    play(division, mules, aces, A_WINS, user=scorer)
    play(division, mules, dads, A_WINS, user=scorer)
    return teams


def _url(name, division, **kw):
    return reverse(
        f"standings:{name}", kwargs={"club_slug": division.club.slug, "pk": division.pk, **kw}
    )


def _order(response) -> list[str]:
    return [line.name for line in response.context["table"].lines]


def test_head_to_head_first_puts_the_winner_of_their_match_above(
    client, viewer, division, crafted_tie
):
    TiebreakerRules.objects.create(
        club=division.club, division=division, tiebreakers=["head_to_head", "points_difference"]
    )
    client.force_login(viewer)
    response = client.get(_url("division", division))
    assert _order(response) == ["Mules", "Aces", "Bells", "Dads"]
    lines = response.context["table"].lines
    assert [(line.match_points, line.points_difference) for line in lines] == [
        (4, 1136),
        (2, -278),
        (2, 278),
        (0, -1136),
    ]
    assert lines[1].placed_by == "head_to_head"
    html = response.content.decode()
    assert "Teams level on match points are separated by head-to-head" in html


def test_points_difference_first_puts_the_bigger_margin_above(
    client, viewer, division, crafted_tie
):
    TiebreakerRules.objects.create(
        club=division.club, division=division, tiebreakers=["points_difference", "head_to_head"]
    )
    client.force_login(viewer)
    response = client.get(_url("division", division))
    assert _order(response) == ["Mules", "Bells", "Aces", "Dads"]
    assert "separated by points difference: points scored minus points conceded" in (
        response.content.decode()
    )


def test_a_club_admin_chooses_the_tiebreakers_on_a_page(client, admin, division, crafted_tie):
    client.force_login(admin)
    response = client.post(
        _url("tiebreakers", division), {"step_0": "points_difference", "step_1": "head_to_head"}
    )
    assert response.status_code == 302
    assert TiebreakerRules.objects.get(division=division).tiebreakers == [
        "points_difference",
        "head_to_head",
    ]
    assert _order(client.get(_url("division", division)))[1] == "Bells"


def _division_of(size: int, scorer):
    """A division of ``size`` teams in which team 2i beats team 2i+1: every winner is level
    with every other winner, so head-to-head is needed too."""
    from tests.factories import DivisionFactory

    division = DivisionFactory()
    MembershipFactory(club=division.club, user=scorer, role=Role.SCORER)
    teams = [TeamFactory(division=division) for _ in range(size)]
    for i in range(0, size, 2):
        play(division, teams[i], teams[i + 1], A_WINS, user=scorer)
    start(division, teams[0], teams[1], user=scorer)  # one game at the table: the live panel
    return division


def test_the_standings_page_costs_the_same_queries_for_4_and_20_teams(client):
    counts = {}
    for size in (4, 20):
        scorer = UserFactory(username=f"scorer{size}")
        division = _division_of(size, scorer)
        client.force_login(scorer)
        client.get(_url("division", division))  # warm the session
        with CaptureQueriesContext(connection) as queries:
            response = client.get(_url("division", division))
        assert response.status_code == 200
        assert len(response.context["table"].lines) == size
        assert response.context["live"]
        counts[size] = len(queries)
    assert counts[20] == counts[4]


def test_the_table_polls_itself_while_games_are_at_the_table(
    client, viewer, division, teams, scorer
):
    client.force_login(viewer)
    html = client.get(_url("division", division)).content.decode()
    assert 'hx-trigger="every 10s"' not in html or 'data-polling="true"' in html
    start(division, teams[0], teams[1], user=scorer)
    response = client.get(_url("division", division))
    html = response.content.decode()
    assert 'hx-trigger="every 10s"' in html and "At the table now" in html
    partial = client.get(_url("division", division) + "?partial=table", HTTP_HX_REQUEST="true")
    body = partial.content.decode()
    assert body.lstrip().startswith("{#") is False and 'id="standings-live"' in body
    assert "<html" not in body


def test_the_table_polls_itself_on_a_league_night_before_any_game_starts(
    client, viewer, division, teams
):
    import datetime

    from django.utils import timezone

    from clabber_league.scheduling.models import Fixture

    aces, bells, dads, mules = teams
    today = timezone.localdate()
    client.force_login(viewer)
    Fixture.objects.create(
        club=division.club, division=division, round_number=1, home=aces, away=bells,
        date=today + datetime.timedelta(days=7),
    )  # fmt: skip
    assert 'hx-trigger="every 10s"' not in client.get(_url("division", division)).content.decode()
    Fixture.objects.create(
        club=division.club, division=division, round_number=1, home=dads, away=mules,
        date=today,
    )  # fmt: skip
    response = client.get(_url("division", division))
    assert 'hx-trigger="every 10s"' in response.content.decode()
    assert response.context["live"] == []  # polling for the night, no game at the table yet
    other = TeamFactory(division__club=division.club)  # another division of the club, due
    Fixture.objects.create(
        club=division.club, division=other.division, round_number=1, home=other,
        away=TeamFactory(division=other.division), date=today,
    )  # fmt: skip
    Fixture.objects.filter(division=division).delete()
    assert 'hx-trigger="every 10s"' not in client.get(_url("division", division)).content.decode()


def test_the_games_at_the_table_show_each_sides_running_score(
    client, viewer, division, teams, scorer
):
    aces, bells, dads, mules = teams
    first = start(division, aces, bells, user=scorer)
    start(division, dads, mules, user=scorer)
    services.deal_record(game_id=first.pk, data=made("A", 100), user=scorer)
    client.force_login(viewer)
    live = client.get(_url("division", division)).context["live"]
    assert [game.pk for game in live] == sorted(game.pk for game in live)
    assert [(side, name) for side, name, _ in live[0].sides] == [
        ("A", aces.name),
        ("B", bells.name),
    ]
    first.refresh_from_db()
    assert [score for _, _, score in live[0].sides] == [first.score_a, first.score_b]
    assert first.score_a > 0 and live[0].deal_count == 1
    assert [score for _, _, score in live[1].sides] == [0, 0] and live[1].deal_count == 0


def test_a_public_club_shows_its_standings_to_anyone(client, division, crafted_tie):
    division.club.is_public = True
    division.club.save()
    for name in ("division", "standings-csv", "deals-csv", "positions"):
        assert client.get(_url(name, division)).status_code == 200, name
    assert (
        client.get(reverse("standings:leaderboards", args=[division.club.slug])).status_code == 200
    )


def test_a_division_is_not_found_under_another_club(client, division, crafted_tie):
    """(This club's URLs for a stranger: tests/security/test_permissions.py.)"""
    other = ClubFactory()
    stranger = MembershipFactory(club=other, role=Role.ADMIN).user
    client.force_login(stranger)
    # the division's id under the stranger's own club is not found
    url = reverse("standings:division", kwargs={"club_slug": other.slug, "pk": division.pk})
    assert client.get(url).status_code == 404


def _csv(response) -> list[dict]:
    body = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(body)))


def test_the_standings_csv_is_the_table_in_order(client, viewer, division, crafted_tie):
    client.force_login(viewer)
    response = client.get(_url("standings-csv", division))
    assert response["Content-Type"].startswith("text/csv")
    rows = _csv(response)
    assert [
        (r["position"], r["team"], r["match points"], r["points difference"]) for r in rows
    ] == [
        ("1", "Mules", "4", "1136"),
        ("2", "Aces", "2", "-278"),
        ("3", "Bells", "2", "278"),
        ("4", "Dads", "0", "-1136"),
    ]
    assert rows[1]["points for"] == "590" and rows[1]["points against"] == "868"


def test_the_deals_csv_has_every_deal_with_its_score_and_totals(
    client, viewer, division, crafted_tie
):
    client.force_login(viewer)
    rows = _csv(client.get(_url("deals-csv", division)))
    assert len(rows) == 5 + 4 + 4 + 4
    first = rows[0]
    assert (first["team A"], first["team B"], first["deal"], first["outcome"]) == (
        "Aces",
        "Bells",
        "1",
        "made",
    )
    assert (first["score A"], first["score B"], first["total A"], first["trump"]) == (
        "110",
        "52",
        "110",
        "hearts",
    )
    assert rows[4]["total A"] == "550"


def test_the_score_sheet_draws_the_running_totals(client, viewer, division, teams, scorer):
    game = play(division, teams[0], teams[1], NARROW_A[:2], user=scorer)
    client.force_login(viewer)
    response = client.get(reverse("games:detail", args=[division.club.slug, game.pk]))
    html = response.content.decode()
    assert 'id="running-chart"' in html and "chart.umd.min.js" in html
    assert '"data": [0, 110, 220]' in html and '"target": 500' in html


def test_a_forfeit_is_on_the_table_and_the_page_says_how_it_counts(client, viewer, division, teams):
    from clabber_league.scheduling.models import Fixture
    from clabber_league.scheduling.services.fixture_changes import fixture_forfeit

    aces, bells = teams[:2]
    fixture = Fixture.objects.create(
        club=division.club, division=division, round_number=1, home=aces, away=bells
    )
    fixture_forfeit(fixture=fixture, winner=bells)
    client.force_login(viewer)
    response = client.get(_url("division", division))
    assert _order(response)[0] == "Bells"
    html = " ".join(response.content.decode().split())
    assert "A fixture lost by forfeit or walkover counts as a match won by the other team" in html


def test_the_results_not_yet_confirmed_are_counted_once_each(client, division, teams, scorer):
    aces, bells, dads, mules = teams
    play(division, aces, bells, A_WINS, user=scorer)
    play(division, dads, mules, A_WINS, user=scorer)
    start(division, aces, dads, user=scorer)  # at the table: not a result yet
    client.force_login(scorer)
    response = client.get(_url("division", division))
    assert response.context["table"].unconfirmed == 2  # two games, not four team lines
    assert "2 game results not yet confirmed." in response.content.decode()
