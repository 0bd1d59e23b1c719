"""The ranking's arithmetic alone: OpenSkill moves a winner up and a loser down, the
normalisation rule places sides of different house rules by their share of the points,
and placing points follow the federation's table."""

import datetime as dt

from openskill.models import PlackettLuce

from clabber_league.ranking.compute import (
    EventResult,
    SideResult,
    Standing,
    placing_points,
    placings,
    rate_all,
    rate_event,
    shares,
)

DAY = dt.date(2026, 11, 3)


def _event(key, *sides, category="league", day=DAY):
    return EventResult(key=key, date=day, category=category, sides=tuple(sides))


def test_a_win_moves_the_winners_up_and_the_losers_down_as_openskill_says():
    ratings: dict[int, Standing] = {}
    event = _event("g1", SideResult(("1", "2"), score=1032), SideResult(("3", "4"), score=871))
    steps = rate_event(event, [[1, 2], [3, 4]], ratings, {})
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2]
    )
    by_player = {s.player: s for s in steps}
    assert by_player[1].mu == expected[0][0].mu > 25 and by_player[1].placing == 1
    assert by_player[3].mu == expected[1][0].mu < 25 and by_player[3].placing == 2
    assert ratings[1].ordinal > ratings[3].ordinal
    assert ratings[1].events == ratings[4].events == 1


def test_beating_a_stronger_side_moves_more_than_beating_a_weaker_one():
    ratings = {9: Standing(mu=35, sigma=4), 8: Standing(mu=15, sigma=4)}
    up_strong = rate_event(
        _event("a", SideResult(("1",), 1), SideResult(("9",), 0)), [[1], [9]], dict(ratings), {}
    )[0]
    up_weak = rate_event(
        _event("b", SideResult(("2",), 1), SideResult(("8",), 0)), [[2], [8]], dict(ratings), {}
    )[0]
    assert up_strong.mu - up_strong.mu_before > up_weak.mu - up_weak.mu_before


def test_a_share_of_the_points_means_the_same_whatever_the_target():
    to_500 = [SideResult(("1",), 500), SideResult(("2",), 100)]
    to_1500 = [SideResult(("3",), 1500), SideResult(("4",), 300)]
    assert shares(to_500) == shares(to_1500) == [500 / 600, 100 / 600]


def test_without_placings_the_sides_of_several_venues_are_placed_by_their_share():
    # one national night at two venues: a 1500-point club and a 500-point club
    sides = [
        SideResult(("1",), 1500, points_available=2900),  # won 1500 to 1400: 0.517
        SideResult(("2",), 1400, points_available=2900),
        SideResult(("3",), 500, points_available=600),  # won 500 to 100: 0.833
        SideResult(("4",), 100, points_available=600),
    ]
    assert placings(sides) == [2, 3, 1, 4]


def test_an_events_own_placings_win_over_the_shares_and_equal_shares_share_a_place():
    given = [SideResult(("1",), 100, placing=2), SideResult(("2",), 900, placing=1)]
    assert placings(given) == [2, 1]
    level = [SideResult(("1",), 400), SideResult(("2",), 400), SideResult(("3",), 200)]
    assert placings(level) == [1, 1, 3]
    assert shares([SideResult(("1",), 0), SideResult(("2",), 0)]) == [0.5, 0.5]


def test_placing_points_follow_the_federations_table_by_category():
    table = {"night": [5, 3, 2, 1]}
    assert placing_points(table, "night", 1) == 5
    assert placing_points(table, "night", 5) == 0
    assert placing_points(table, "league", 1) == 0
    rated, ratings = rate_all(
        [
            (
                _event(
                    "n1", SideResult(("1", "2"), 900), SideResult(("3", "4"), 700), category="night"
                ),
                [[1, 2], [3, 4]],
            ),
            (
                _event(
                    "n2",
                    SideResult(("1", "3"), 900),
                    SideResult(("2", "4"), 700),
                    category="night",
                    day=DAY + dt.timedelta(days=7),
                ),
                [[1, 3], [2, 4]],
            ),
        ],
        table,
    )
    assert [ratings[p].points for p in (1, 2, 3, 4)] == [10, 8, 8, 6]
    assert [r.event.key for r in rated] == ["n1", "n2"]


def test_events_are_rated_in_date_order_whatever_order_they_come_in():
    later = _event("z", SideResult(("1",), 1), SideResult(("2",), 0), day=DAY)
    earlier = _event("a", SideResult(("2",), 1), SideResult(("1",), 0), day=DAY - dt.timedelta(1))
    one, r1 = rate_all([(later, [[1], [2]]), (earlier, [[2], [1]])], {})
    _, r2 = rate_all([(earlier, [[2], [1]]), (later, [[1], [2]])], {})
    assert [r.event.key for r in one] == ["a", "z"]
    assert (r1[1].mu, r1[2].mu) == (r2[1].mu, r2[2].mu)


def test_a_partner_without_a_number_plays_as_a_newcomer_not_kept():
    ratings: dict[int, Standing] = {}
    event = _event("g", SideResult(("1",), 900, unlinked=1), SideResult(("3", "4"), 700))
    steps = rate_event(event, [[1], [3, 4]], ratings, {})
    assert sorted(ratings) == [1, 3, 4]
    assert {s.player for s in steps} == {1, 3, 4}
    # a side of unknown players only, against nobody known: nothing rated
    assert (
        rate_event(
            _event("h", SideResult((), 1, unlinked=2), SideResult((), 0, unlinked=2)),
            [[], []],
            ratings,
            {},
        )
        == []
    )
