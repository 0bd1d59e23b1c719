"""The night's ranking: points, then rounds won, head-to-head and best round, explained."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.ranking import RoundRow, night_ranking

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di", 5: "Ed", 6: "Flo", 7: "Gus", 8: "Hal"}


def table(round_number, table_number, a, b, a_points, b_points):
    """Rows of one four-handed table: ``a`` and ``b`` are the two partnerships."""
    rows = []
    sides = (("A", a, a_points, b_points), ("B", b, b_points, a_points))
    for side, players, points, other in sides:
        for player in players:
            rows.append(
                RoundRow(
                    player, round_number, points, won=points > other, table=table_number, side=side
                )
            )
    return rows


def summary(ranking):
    return [(line.position, line.name, line.points) for line in ranking]


def test_players_rank_on_their_sides_points_over_the_night():
    rows = table(1, 1, (1, 3), (2, 4), 600, 300) + table(2, 1, (1, 2), (3, 4), 200, 510)
    assert summary(night_ranking(rows, names=NAMES)) == [
        (1, "Cy", 1110),
        (2, "Di", 810),
        (3, "Ann", 800),
        (4, "Bob", 500),
    ]


def test_level_on_points_more_rounds_won_goes_first_and_says_so():
    # Ann and Bob both end on 700; Ann won one round, Bob none (his second was a tie).
    rows = (
        table(1, 1, (1, 3), (2, 4), 500, 400)
        + table(1, 2, (5, 6), (7, 8), 0, 0)
        + table(2, 1, (1, 5), (6, 7), 200, 250)
        + table(2, 2, (2, 8), (3, 4), 300, 300)
    )
    ranking = night_ranking(rows, names=NAMES)
    ann, bob = (next(line for line in ranking if line.name == n) for n in ("Ann", "Bob"))
    assert ann.points == bob.points == 700
    assert ann.position < bob.position
    assert ann.tiebreak == "won"
    assert ann.reason == "Level on 700 points with Bob: more rounds won (1 to 0)."


def test_a_tiebreak_reads_in_the_readers_language_with_its_values():
    from django.utils import translation

    from clabber_league.core.i18n import translated

    rows = (
        table(1, 1, (1, 3), (2, 4), 500, 400)
        + table(1, 2, (5, 6), (7, 8), 0, 0)
        + table(2, 1, (1, 5), (6, 7), 200, 250)
        + table(2, 2, (2, 8), (3, 4), 300, 300)
    )
    ann = next(line for line in night_ranking(rows, names=NAMES) if line.name == "Ann")
    with translation.override("nl"):
        dutch = translated(ann.reason)
    assert dutch != ann.reason and "Level on" not in dutch
    assert all(value in dutch for value in ("700", "Bob", "1", "0"))


def test_level_on_points_and_wins_head_to_head_decides():
    # Ann and Bob end level on points and on rounds won; Ann's side beat Bob's in round 1,
    # the only round they met.
    rows = (
        table(1, 1, (1, 5), (2, 6), 320, 300)
        + table(1, 2, (3, 7), (4, 8), 0, 0)
        + table(2, 1, (1, 3), (5, 7), 280, 300)
        + table(2, 2, (2, 4), (6, 8), 300, 280)
    )
    ranking = night_ranking(rows, names=NAMES)
    ann, bob = (next(line for line in ranking if line.name == n) for n in ("Ann", "Bob"))
    assert (ann.points, ann.won) == (bob.points, bob.won) == (600, 1)
    assert ann.position == bob.position - 1
    assert ann.tiebreak == "head_to_head"
    assert "head-to-head" in ann.reason


def test_level_on_everything_shares_the_place_listed_by_name():
    rows = table(1, 1, (2, 1), (3, 4), 300, 300)
    ranking = night_ranking(rows, names=NAMES)
    assert summary(ranking) == [(1, "Ann", 300), (1, "Bob", 300), (1, "Cy", 300), (1, "Di", 300)]
    assert all(line.shared for line in ranking)
    assert all(line.reason == "" for line in ranking)


def test_a_sit_out_scores_the_players_average_rounded_half_up():
    rows = [
        RoundRow(1, 1, 301, table=1, side="A"),
        RoundRow(1, 2, 300, table=1, side="A"),
        RoundRow(1, 3, None, sat_out=True),
    ]
    [line] = night_ranking(rows)
    assert line.rounds == {1: 301, 2: 300, 3: 301}
    assert (line.points, line.played, line.sat_out) == (902, 2, 1)


def test_a_sit_out_with_a_fixed_score_counts_that_score_and_no_win():
    rows = [RoundRow(1, 1, 250, sat_out=True)]
    [line] = night_ranking(rows)
    assert (line.points, line.won, line.sat_out) == (250, 0, 1)


def test_two_rows_for_one_round_are_refused():
    try:
        night_ranking([RoundRow(1, 1, 10), RoundRow(1, 1, 20)])
    except ValueError as error:
        assert "two rows" in str(error)
    else:
        raise AssertionError("accepted two rows for one round")


@st.composite
def nights(draw):
    """A night of 4-8 players over 1-4 rounds at tables of four, the rest sitting out."""
    players = list(range(1, draw(st.integers(4, 9)) + 1))
    rows = []
    for round_number in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(players))
        seated, out = order[: len(order) // 4 * 4], order[len(order) // 4 * 4 :]
        for index in range(0, len(seated), 4):
            a, b = draw(st.integers(0, 40)) * 10, draw(st.integers(0, 40)) * 10
            four = seated[index : index + 4]
            rows += table(round_number, index // 4 + 1, four[0::2], four[1::2], a, b)
        for player in out:
            fixed = draw(st.one_of(st.none(), st.integers(0, 400)))
            rows.append(RoundRow(player, round_number, fixed, sat_out=True))
    return rows


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(nights())
def test_every_player_is_ranked_once_in_order_of_points(rows):
    ranking = night_ranking(rows, names=NAMES)
    assert sorted(line.player for line in ranking) == sorted({row.player for row in rows})
    assert [line.points for line in ranking] == sorted(
        (line.points for line in ranking), reverse=True
    )
    positions = [line.position for line in ranking]
    assert positions[0] == 1 and positions == sorted(positions)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(nights())
def test_a_line_above_one_level_on_points_says_why_or_shares_its_place(rows):
    ranking = night_ranking(rows, names=NAMES)
    for line, below in pairwise(ranking):
        if line.points != below.points:
            assert line.reason == ""
        elif line.position == below.position:
            assert line.shared and below.shared and line.reason == ""
        else:
            assert line.reason.startswith(f"Level on {line.points} points with {below.name}")
            assert below.position == ranking.index(below) + 1


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(nights())
def test_points_are_the_sum_of_the_rounds_and_each_round_is_counted(rows):
    ranking = night_ranking(rows)
    rounds = {row.round for row in rows}
    for line in ranking:
        assert line.points == sum(line.rounds.values())
        assert line.played + line.sat_out == len(line.rounds) <= len(rounds)
