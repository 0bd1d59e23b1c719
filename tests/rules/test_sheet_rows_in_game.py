"""Rows copied from a paper sheet count inside a game as written, once the engine has
checked that some legal deal could give them."""

import pytest

from clabber_league.rules import RulesError, score_game


def game(*deals):
    return score_game({"ruleset": "clabber", "deals": list(deals)})


def test_sheet_rows_add_up_as_written_and_a_set_maker_is_zero():
    answer = game(
        {"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"},
        {"sheet": {"A": 110, "B": 52}, "maker": "A", "mark": "made"},
    )
    assert [d["outcome"] for d in answer["deals"]] == ["set", "made"]
    assert answer["running"] == [{"A": 0, "B": 162}, {"A": 110, "B": 214}]


def test_sheet_rows_and_full_deals_mix_and_end_the_game_at_500():
    answer = game(
        {"sheet": {"A": 282, "B": 0}, "maker": "A", "mark": "made"},  # 152 + 10 + four Jacks
        {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"},
        {"sheet": {"A": 162, "B": 0}, "maker": "A", "mark": "made"},
    )
    assert answer["finished"] and answer["winner"] == "A"
    assert answer["scores"] == {"A": 282 + 152 + 162, "B": 10}


def test_a_row_no_legal_deal_gives_is_rejected_on_its_row():
    # A made deal puts 162 plus melds on the sheet in all; 120 + 52 = 172 cannot be.
    with pytest.raises(RulesError) as caught:
        game(
            {"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"},
            {"sheet": {"A": 120, "B": 52}, "maker": "A", "mark": "made"},
        )
    assert caught.value.errors[0]["field"] == "deals[1].sheet"


def test_a_made_row_with_the_maker_behind_names_the_makers_number():
    with pytest.raises(RulesError) as caught:
        game({"sheet": {"A": 10, "B": 152}, "maker": "A", "mark": "made"})
    assert caught.value.errors[0]["field"] == "deals[0].sheet.A"


def test_a_sheet_row_cannot_carry_the_fields_of_a_full_deal():
    with pytest.raises(RulesError) as caught:
        game({"sheet": {"A": 110, "B": 52}, "maker": "A", "mark": "made", "points": {"A": 1}})
    assert caught.value.errors[0]["field"] == "deals[0].points"


def test_a_sheet_row_given_as_a_list_is_refused_on_its_row():
    with pytest.raises(RulesError) as caught:
        game(
            {"sheet": {"A": 0, "B": 162}, "maker": "A", "mark": "set"},
            {"sheet": [110, 52], "maker": "A", "mark": "made"},
        )
    assert [e["field"] for e in caught.value.errors] == ["deals[1].sheet"]
