"""A night's money: takings, prizes by the rule, shared places, rounding down, the hick pot."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events.prizes import (
    ERROR_SHARES,
    ERROR_UNKNOWN_RULE,
    PrizeRule,
    PrizeRuleError,
    hick_pot,
    money,
    prize_count,
    prizes_award,
)


def placed(*positions):
    """Placings for players 1, 2, ... at the given positions."""
    return [(index + 1, position) for index, position in enumerate(positions)]


def test_one_prize_per_four_players_and_the_top_quarter():
    assert prize_count(PrizeRule("per_four"), 13) == 3
    assert prize_count(PrizeRule("top_quarter"), 13) == 4
    assert prize_count(PrizeRule("per_four"), 3) == 1
    assert prize_count(PrizeRule("none"), 13) == 0


def test_takings_are_the_fee_times_the_players_who_paid_and_the_prizes_weigh_k_to_1():
    result = prizes_award(placed(*range(1, 13)), rule=PrizeRule("per_four"), fee_cents=500)
    assert result.takings == 6000
    assert result.prizes == (3000, 2000, 1000)  # 3/6, 2/6, 1/6 of the fund
    assert [(a.player, a.amount) for a in result.awards if a.amount] == [
        (1, 3000),
        (2, 2000),
        (3, 1000),
    ]
    assert (result.paid_out, result.kept) == (6000, 0)


def test_players_sharing_a_place_share_the_prizes_it_covers():
    # A fund of 4000: prizes 2000, 1200, 800. Two level for 2nd share the 2nd and 3rd
    # prizes: (1200 + 800) / 2 each.
    result = prizes_award(
        placed(1, 2, 2, 4), rule=PrizeRule("shares", (50, 30, 20)), fee_cents=1000
    )
    assert [a.amount for a in result.awards] == [2000, 1000, 1000, 0]
    assert result.by_player[2].places == (2, 3)
    assert result.by_player[2].shared_by == 2


def test_rounding_goes_down_and_the_cents_left_are_kept():
    result = prizes_award(placed(1, 1, 1), rule=PrizeRule("shares", (100,)), fee_cents=100)
    assert [a.amount for a in result.awards] == [100, 100, 100]
    result = prizes_award(placed(1, 1, 1, 4), rule=PrizeRule("shares", (100,)), fee_cents=25)
    assert [a.amount for a in result.awards] == [33, 33, 33, 0]
    assert (result.fund, result.paid_out, result.kept) == (100, 99, 1)


def test_part_of_the_fund_may_stay_with_the_club():
    result = prizes_award(
        placed(1, 2, 3, 4), rule=PrizeRule("per_four", payout_percent=80), fee_cents=500
    )
    assert result.prizes == (1600,)
    assert result.kept == 400


def test_the_hick_pot_is_the_stake_per_hick_and_joins_the_fund():
    total, owed = hick_pot({1: 2, 2: 0, 3: 1}, stake_cents=25)
    assert (total, owed) == (75, {1: 50, 3: 25})
    result = prizes_award(
        placed(1, 2, 3, 4), rule=PrizeRule("per_four"), fee_cents=100, hick_pot_cents=total
    )
    assert (result.takings, result.hick_pot, result.fund) == (400, 75, 475)
    assert result.paid_out == 475


def test_a_bad_rule_names_its_field():
    with pytest.raises(PrizeRuleError) as error:
        PrizeRule("lottery")
    assert (error.value.field, error.value.message) == ("kind", ERROR_UNKNOWN_RULE)
    with pytest.raises(PrizeRuleError) as error:
        PrizeRule("shares", (60, 50))
    assert (error.value.field, error.value.message) == ("shares", ERROR_SHARES)
    with pytest.raises(PrizeRuleError) as error:
        PrizeRule.from_data({"kind": "shares", "shares": "50,50"})
    assert error.value.field == "shares"


def test_money_prints_cents_with_two_decimals():
    assert (money(1250), money(5), money(0)) == ("12.50", "0.05", "0.00")


@st.composite
def placings(draw):
    """A field of 1-40 players with some places shared, as a ranking gives them."""
    size = draw(st.integers(1, 40))
    positions, index = [], 0
    while index < size:
        group = min(draw(st.integers(1, 3)), size - index)
        positions += [index + 1] * group
        index += group
    return placed(*positions)


rules = st.one_of(
    st.builds(
        PrizeRule,
        st.sampled_from(["none", "per_four", "top_quarter"]),
        st.just(()),
        st.integers(0, 100),
    ),
    st.lists(st.integers(0, 40), min_size=1, max_size=6)
    .filter(lambda s: sum(s) <= 100)
    .map(lambda s: PrizeRule("shares", tuple(s))),
)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(placings(), rules, st.integers(0, 10_000), st.integers(0, 5_000))
def test_never_pays_out_more_than_was_taken(placing, rule, fee, pot):
    result = prizes_award(placing, rule=rule, fee_cents=fee, hick_pot_cents=pot)
    assert result.paid_out == sum(a.amount for a in result.awards) <= result.fund
    assert result.kept == result.fund - result.paid_out >= 0
    assert len(result.prizes) <= len(placing)


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(placings(), rules, st.integers(0, 10_000))
def test_players_sharing_a_place_are_paid_the_same(placing, rule, fee):
    result = prizes_award(placing, rule=rule, fee_cents=fee)
    by_position = {}
    for award in result.awards:
        by_position.setdefault(award.position, set()).add(award.amount)
    assert all(len(amounts) == 1 for amounts in by_position.values())


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(placings(), st.sampled_from(["per_four", "top_quarter"]), st.integers(0, 10_000))
def test_a_better_place_is_never_paid_less(placing, kind, fee):
    result = prizes_award(placing, rule=PrizeRule(kind), fee_cents=fee)
    amounts = [award.amount for award in result.awards]
    assert amounts == sorted(amounts, reverse=True)


# --- the prize rules of klaverjas clubs (KLAVERJAS.md 7.7) ----------------------------------


def test_places_1_to_4_then_every_fourth_place():
    from clabber_league.events.prizes import prize_places

    assert prize_places(PrizeRule("every_fourth"), 3) == (1, 2, 3)
    assert prize_places(PrizeRule("every_fourth"), 17) == (1, 2, 3, 4, 8, 12, 16)
    assert prize_places(PrizeRule("every_fourth"), 24) == (1, 2, 3, 4, 8, 12, 16, 20, 24)


def test_a_prize_for_the_last_place_too_and_not_twice():
    from clabber_league.events.prizes import prize_places

    assert prize_places(PrizeRule("fourth_last"), 17) == (1, 2, 3, 4, 8, 12, 16, 17)
    # 16 players: the 16th place already has a prize.
    assert prize_places(PrizeRule("fourth_last"), 16) == (1, 2, 3, 4, 8, 12, 16)


def test_every_fourth_place_is_paid_and_the_places_between_are_not():
    # 10 players, 1000 each: places 1, 2, 3, 4, 8, weighted 5, 4, 3, 2, 1 (of 15).
    result = prizes_award(placed(*range(1, 11)), rule=PrizeRule("every_fourth"), fee_cents=1000)
    assert result.prizes == (3333, 2666, 2000, 1333, 666)
    paid = {a.position: a.amount for a in result.awards}
    assert paid[5] == paid[6] == paid[7] == paid[9] == paid[10] == 0
    assert paid[8] == 666
    assert result.paid_out + result.kept == result.fund


def test_the_last_place_wins_the_smallest_prize():
    # 10 players: places 1, 2, 3, 4, 8 and the last, weighted 5, 4, 3, 2, 1, 1 (of 16).
    result = prizes_award(placed(*range(1, 11)), rule=PrizeRule("fourth_last"), fee_cents=1600)
    assert result.prizes == (5000, 4000, 3000, 2000, 1000, 1000)
    assert result.by_player[10].amount == 1000
    assert result.by_player[9].amount == 0


def test_players_level_on_a_paid_fourth_place_share_it_with_the_unpaid_one_after():
    # Two level 8th cover places 8 and 9: only 8 is paid, so they share the 8th prize.
    result = prizes_award(
        placed(1, 2, 3, 4, 5, 6, 7, 8, 8, 10), rule=PrizeRule("every_fourth"), fee_cents=1000
    )
    assert result.by_player[8].amount == result.by_player[9].amount == 666 // 2
    assert result.by_player[8].places == (8,)
