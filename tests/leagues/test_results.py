"""One rule for a match's result (``leagues.results``): pure, no database."""

from hypothesis import given
from hypothesis import strategies as st

from clabber_league.leagues.results import (
    MatchGame,
    Points,
    fixture_result,
    game_counts,
    match_result,
)

HOME, AWAY = 1, 2
POINTS = Points(win=3, tie=1, loss=0)
TEAMS = {"A": HOME, "B": AWAY}


def game(status: str = "finished", winner: str = "A") -> MatchGame:
    return MatchGame(status=status, winner=winner if status != "in_progress" else "", teams=TEAMS)


def result(*games: MatchGame, planned: int = 1, forfeit: int | None = None):
    return fixture_result(
        home_id=HOME,
        away_id=AWAY,
        planned=planned,
        games=games,
        points=POINTS,
        forfeit_winner_id=forfeit,
    )


def test_finished_and_confirmed_games_count_a_game_in_progress_does_not():
    assert game_counts("finished") and game_counts("confirmed")
    assert not game_counts("in_progress")


def test_a_fixture_is_decided_only_once_its_planned_games_count():
    half = result(game("finished", "A"), game("in_progress"), planned=2)
    assert (half.decided, half.home_points, half.away_points) == (False, 0, 0)
    assert (half.games, half.counted, half.score) == (2, 1, "1\u20130")
    whole = result(game("finished", "A"), game("confirmed", "A"), planned=2)
    assert (whole.decided, whole.winner, whole.home_points, whole.away_points) == (
        True,
        HOME,
        3,
        0,
    )


def test_the_team_that_won_more_games_wins_the_fixture():
    away = result(game("finished", "B"), game("finished", "A"), game("finished", "B"), planned=3)
    assert (away.winner, away.home_points, away.away_points, away.score) == (
        AWAY,
        0,
        3,
        "1\u20132",
    )


def test_equal_games_won_is_a_tied_fixture():
    tied = result(game("finished", "A"), game("finished", "B"), planned=2)
    assert tied.tied and (tied.home_points, tied.away_points) == (1, 1)
    drawn_game = result(game("finished", "tie"), planned=1)
    assert drawn_game.tied and drawn_game.score == "0\u20130"


def test_a_forfeit_decides_the_fixture_with_every_planned_game():
    walkover = result(planned=3, forfeit=AWAY)
    assert walkover.forfeit and walkover.decided and walkover.winner == AWAY
    assert (walkover.home_won, walkover.away_won) == (0, 3)
    assert (walkover.home_points, walkover.away_points) == (0, 3)


def test_a_fixture_without_games_is_undecided():
    nothing = result(planned=2)
    assert not nothing.decided and nothing.games == 0 and nothing.winner is None


def test_a_match_of_one_game_outside_the_schedule():
    alone = match_result([game("finished", "B")])
    assert alone.decided and alone.winner == AWAY and alone.won == {HOME: 0, AWAY: 1}


statuses = st.sampled_from(["in_progress", "finished", "confirmed"])
winners = st.sampled_from(["A", "B", "tie"])
games_strategy = st.lists(st.builds(game, statuses, winners), max_size=6)


@given(games_strategy, st.integers(min_value=1, max_value=5))
def test_decided_exactly_when_enough_games_count(games, planned):
    outcome = result(*games, planned=planned)
    counted = sum(g.counts for g in games)
    assert outcome.counted == counted and outcome.games == len(games)
    assert outcome.decided == (counted >= planned)


@given(games_strategy, st.integers(min_value=1, max_value=5))
def test_points_follow_the_winner_and_are_given_only_once_decided(games, planned):
    outcome = result(*games, planned=planned)
    assert outcome.home_won + outcome.away_won <= outcome.counted
    if not outcome.decided:
        assert (outcome.home_points, outcome.away_points, outcome.winner) == (0, 0, None)
    elif outcome.home_won > outcome.away_won:
        assert outcome.winner == HOME and (outcome.home_points, outcome.away_points) == (3, 0)
    elif outcome.home_won < outcome.away_won:
        assert outcome.winner == AWAY and (outcome.home_points, outcome.away_points) == (0, 3)
    else:
        assert outcome.tied and outcome.home_points == outcome.away_points == 1


@given(games_strategy, st.integers(min_value=1, max_value=5), st.sampled_from([HOME, AWAY]))
def test_a_forfeit_overrides_any_games(games, planned, winner):
    outcome = result(*games, planned=planned, forfeit=winner)
    assert outcome.decided and outcome.winner == winner
    assert max(outcome.home_won, outcome.away_won) == planned
    assert min(outcome.home_won, outcome.away_won) == 0
