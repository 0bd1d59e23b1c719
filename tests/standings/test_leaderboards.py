"""Leaderboards: exact numbers on a small crafted season, and all-time across seasons."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clabber_league.leagues.models import Team, TeamMember
from clabber_league.standings import selectors, store
from tests.factories import DivisionFactory, SeasonFactory, TeamFactory

from .conftest import A_WINS, B_WINS, made, play

pytestmark = pytest.mark.django_db

MULES = {"A": [{"kind": "four", "rank": "J", "player": 0}]}  # four Jacks shown by seat 0: 200
#: Aces (side A) v Bells (B), every deal named by seat 0 (A) or seat 1 (B):
#: 1. A makes with four Jacks: 142 + 10 + 200 = 352 to 10;
#: 2. A is set (XX): 0 to 102;  3. B reneges: A 162, B 0.  A wins 514 to 112.
CRAFTED = [
    made("A", 142, melds=MULES),
    made("A", 60, last="B"),
    {"maker": "A", "trump": "hearts", "renege": ["B"]},
]


@pytest.fixture
def season_games(division, teams, scorer, admin):
    aces, bells = teams[:2]
    first = play(division, aces, bells, CRAFTED, user=scorer, confirm_by=admin)
    second = play(division, aces, bells, B_WINS, user=scorer, confirm_by=admin)  # B 608, A 40
    return first, second


def _players(aces, bells):
    a0, a1 = [m.player for m in aces.members.order_by("position")]
    b0, b1 = [m.player for m in bells.members.order_by("position")]
    return a0, a1, b0, b1


def _pick(rows, key, value):
    return next(r for r in rows if r[key] == value)


def test_the_player_leaderboard_of_a_crafted_season(division, teams, season_games):
    a0, a1, b0, b1 = _players(*teams[:2])
    rows = selectors.player_leaderboard(club=division.club, season=division.season)
    assert len(rows) == 4
    first = _pick(rows, "player_id", a0.pk)
    assert {k: first[k] for k in (
        "games", "wins", "losses", "deals", "points", "calls", "calls_made", "calls_set",
        "melds", "meld_deals", "best_meld", "reneges", "win_pct", "points_per_deal",
        "made_pct", "set_pct", "meld_pct",
    )} == {
        "games": 2, "wins": 1, "losses": 1, "deals": 7, "points": 554, "calls": 3,
        "calls_made": 1, "calls_set": 1, "melds": 1, "meld_deals": 1, "best_meld": 200,
        "reneges": 0, "win_pct": 50.0, "points_per_deal": 79.1, "made_pct": 33.3,
        "set_pct": 33.3, "meld_pct": 14.3,
    }  # fmt: skip
    partner = _pick(rows, "player_id", a1.pk)
    assert (partner["calls"], partner["melds"], partner["best_meld"], partner["points"]) == (
        0, 0, 0, 554,
    )  # fmt: skip
    caller = _pick(rows, "player_id", b0.pk)
    assert (caller["calls"], caller["calls_made"], caller["made_pct"], caller["reneges"]) == (
        4, 4, 100.0, 1,
    )  # fmt: skip
    assert (caller["points"], caller["deals"], caller["points_per_deal"]) == (720, 7, 102.9)
    assert _pick(rows, "player_id", b1.pk)["reneges"] == 1
    # ordered by win %, then games: all four won one of two; the ratings are there too
    assert all(r["rating"] is not None for r in rows)


def test_the_partnership_leaderboard_of_a_crafted_season(division, teams, season_games):
    aces, bells = teams[:2]
    a0, a1, b0, b1 = _players(aces, bells)
    rows = selectors.partnership_leaderboard(club=division.club, season=division.season)
    assert len(rows) == 2
    pair = _pick(rows, "key", "-".join(str(i) for i in sorted([a0.pk, a1.pk])))
    assert pair["name"] == f"{a0.name} & {a1.name}" or pair["name"] == f"{a1.name} & {a0.name}"
    assert (pair["games"], pair["wins"], pair["calls"], pair["calls_made"], pair["calls_set"]) == (
        2, 1, 3, 1, 1,
    )  # fmt: skip
    assert (pair["meld_deals"], pair["best_meld"], pair["reneges"]) == (1, 200, 0)
    other = _pick(rows, "key", "-".join(str(i) for i in sorted([b0.pk, b1.pk])))
    assert (other["calls"], other["calls_made"], other["reneges"], other["points"]) == (
        4, 4, 1, 720,
    )  # fmt: skip


def test_all_time_adds_up_the_seasons(division, teams, scorer, admin, season_games):
    aces = teams[0]
    a0, a1 = [m.player for m in aces.members.order_by("position")]
    later = SeasonFactory(club=division.club, start_date=datetime.date(2027, 9, 1))
    spring = DivisionFactory(season=later)
    again = Team.objects.create(club=division.club, division=spring, name="Aces again")
    TeamMember.objects.create(team=again, player=a0, position=0)
    TeamMember.objects.create(team=again, player=a1, position=1)
    newcomers = TeamFactory(division=spring, name="Newcomers")
    play(spring, again, newcomers, A_WINS, user=scorer, confirm_by=admin)
    season = _pick(selectors.player_leaderboard(club=division.club, season=division.season),
                   "player_id", a0.pk)  # fmt: skip
    all_time = _pick(selectors.player_leaderboard(club=division.club), "player_id", a0.pk)
    assert (season["games"], season["wins"], season["calls"]) == (2, 1, 3)
    assert (all_time["games"], all_time["wins"], all_time["calls"], all_time["calls_made"]) == (
        3, 2, 7, 5,
    )  # fmt: skip
    assert all_time["place"] == 1  # the best win % of the club: 2 of 3


def test_the_leaderboard_and_player_pages(client, viewer, division, teams, season_games):
    a0 = teams[0].members.order_by("position").first().player
    client.force_login(viewer)
    url = reverse("standings:leaderboards", args=[division.club.slug])
    response = client.get(url, {"season": division.season.slug})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="leaderboard-chart"' in html and "leaderboard-chart-data" in html
    assert len(response.context["players"]) == 4 and len(response.context["partnerships"]) == 2
    assert client.get(url, {"season": "no-such-season"}).status_code == 404
    page = client.get(reverse("standings:player", args=[division.club.slug, a0.pk]))
    assert page.status_code == 200
    assert len(page.context["history"]) == 2  # two confirmed games: two steps of the rating
    assert 'id="rating-chart"' in page.content.decode()


def test_a_long_leaderboard_is_paged_and_keeps_the_season(
    client, viewer, division, teams, season_games, monkeypatch
):
    from clabber_league.standings import views

    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 3)  # four players: two pages
    client.force_login(viewer)
    url = reverse("standings:leaderboards", args=[division.club.slug])
    first = client.get(url, {"season": division.season.slug})
    assert [r["place"] for r in first.context["players"]] == [1, 2, 3]
    html = first.content.decode()
    assert "Places 1\u20133 of 4" in html
    assert f"?season={division.season.slug}&amp;players_page=2" in html
    second = client.get(url, {"season": division.season.slug, "players_page": 2})
    assert [r["place"] for r in second.context["players"]] == [4]
    assert len(second.context["partnerships"]) == 2  # the other board stays on its first page
    assert "Higher places" in second.content.decode()


BOARDS = (selectors.player_leaderboard, selectors.partnership_leaderboard)


def _order(row):
    """The documented order: win % as shown, games, points per deal, name."""
    return (-(row["win_pct"] or 0), -row["games"], -(row["points_per_deal"] or 0), row["name"])


@pytest.mark.parametrize("to_member", [True, False])
@pytest.mark.parametrize("board", BOARDS)
def test_a_slice_of_a_board_is_those_rows_of_the_whole_board(
    board, to_member, division, teams, scorer, admin, season_games
):
    dads, mules = teams[2:]
    play(division, dads, mules, A_WINS, user=scorer, confirm_by=admin)
    club, season = division.club, division.season
    whole = list(board(club=club, season=season, to_member=to_member))
    assert len(whole) == len(board(club=club, season=season, to_member=to_member))
    assert [r["place"] for r in whole] == list(range(1, len(whole) + 1))
    assert [_order(r) for r in whole] == sorted(_order(r) for r in whole)
    assert whole[0]["win_pct"] == 100.0 and whole[-1]["win_pct"] == 0.0  # Dads first, Mules last
    for part in (slice(0, 1), slice(1, 3), slice(2, None), slice(-2, None), slice(9, 12)):
        assert board(club=club, season=season, to_member=to_member)[part] == whole[part]
    assert board(club=club, season=season, to_member=to_member)[-1] == whole[-1]
    with pytest.raises(IndexError):
        board(club=club, season=season, to_member=to_member)[len(whole)]


def test_the_leaderboards_page_reads_as_many_queries_whatever_the_club_has_played(
    client, viewer, division, teams, scorer, admin, season_games, monkeypatch
):
    from clabber_league.standings import views

    monkeypatch.setattr(views, "LEADERBOARD_PAGE", 3)
    client.force_login(viewer)
    url = reverse("standings:leaderboards", args=[division.club.slug])

    def queries(**params):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url, params).status_code == 200
        return len(captured)

    before = [queries(), queries(players_page=2)]
    dads, mules = teams[2:]
    play(division, dads, mules, A_WINS, user=scorer, confirm_by=admin)
    play(division, mules, dads, CRAFTED, user=scorer, confirm_by=admin)
    after = [queries(), queries(players_page=2)]
    assert after == before
    response = client.get(url, {"players_page": 3})
    assert [r["place"] for r in response.context["players"]] == [7, 8]


@pytest.mark.parametrize("to_member", [True, False])
@pytest.mark.parametrize("board", BOARDS)
def test_a_board_read_a_page_at_a_time_is_the_board_ordered_whole(
    board, to_member, division, teams, scorer, admin, season_games, monkeypatch
):
    """The database orders a board by (win %, games) and Python orders each such group on
    the rest; a board ordered whole in Python (as one with a very long career is) is the
    same board, slice by slice."""
    dads, mules = teams[2:]
    play(division, dads, mules, A_WINS, user=scorer, confirm_by=admin)
    play(division, mules, dads, CRAFTED, user=scorer, confirm_by=admin)
    club, season = division.club, division.season
    paged = board(club=club, season=season, to_member=to_member)
    read = [paged[i : i + 2] for i in range(0, len(paged), 2)]
    monkeypatch.setattr(selectors, "EXACT_GAMES", 1)
    whole = list(board(club=club, season=season, to_member=to_member))
    assert [row for part in read for row in part] == whole
    assert len(whole) == len(paged) > 2


def test_the_database_rounds_a_win_percentage_as_the_page_shows_it():
    """Win % in tenths, rounded by the database for the board's order, is the one the page
    shows (Python's rounding of the float) for every record of fewer than EXACT_GAMES."""
    records = [(w, g) for g in [*range(1, 130), 400, 1600, 1984, 1999] for w in range(g + 1)]
    values = ", ".join(f"({w}, {g})" for w, g in records)
    records_sql = f"SELECT column1 AS wins, column2 AS games FROM (VALUES {values}) v"
    sql = f"SELECT {store._TENTHS} FROM ({records_sql}) s"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        tenths = [row[0] for row in cursor.fetchall()]
    assert tenths == [round(selectors._pct(w, g) * 10) for w, g in records]


def test_a_season_board_adds_up_a_player_s_divisions_and_a_division_rebuilds_alone(
    division, teams, scorer, admin, season_games
):
    """The totals are kept a row per division: a season's board adds up the divisions a
    player played in that season, and rebuilding one division leaves the board as it was
    and every row equal to a recount of its lines."""
    from clabber_league.standings.services.rebuild import standings_rebuild
    from clabber_league.standings.services.totals import totals_differences

    other = DivisionFactory(club=division.club, season=division.season)
    home, away = (TeamFactory(division=other, members=0) for _ in range(2))
    for team, taken in ((home, teams[0]), (away, teams[1])):
        for member in taken.members.order_by("position"):
            TeamMember.objects.create(team=team, player=member.player, position=member.position)
    play(other, home, away, A_WINS, user=scorer, confirm_by=admin)
    board = list(selectors.player_leaderboard(club=division.club, season=division.season))
    assert {row["games"] for row in board} == {3}
    standings_rebuild(division=other)
    assert list(selectors.player_leaderboard(club=division.club, season=division.season)) == board
    assert totals_differences() == []
