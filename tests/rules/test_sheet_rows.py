"""Paper score-sheet rows (docs/rules-engine-interface.md, `check_sheet_row`): a row of
sheet numbers is accepted when some legal deal could give it, and rejected naming the
field otherwise. Marks: `made`, `set` (the "XX"), `renege`.
"""

import pytest
from hypothesis import given

from clabber_league.rules import RulesError, check_sheet_row, score_deal
from tests.rules.strategies import RULES_SETTINGS, legal_deals, renege_deals


def sheet_errors(ruleset, maker, score, mark, options=None):
    with pytest.raises(RulesError) as caught:
        check_sheet_row(ruleset, options, maker, score, mark)
    errors = caught.value.errors
    assert all(error["message"].strip() for error in errors)
    return [error["field"] for error in errors]


def test_section_6_row_is_a_possible_set_row():
    # The section 6 deal: A set (XX), B 262.
    assert check_sheet_row("clabber", None, "A", {"A": 0, "B": 262}, "set") is True


def test_made_row_of_card_points_alone():
    # A 90 + 10, B 62.
    assert check_sheet_row("clabber", None, "A", {"A": 100, "B": 62}, "made") is True


def test_all_the_tricks_is_a_possible_made_row():
    assert check_sheet_row("clabber", None, "A", {"A": 162, "B": 0}, "made") is True


def test_klaberjass_set_row_gives_the_opponent_both_totals():
    # A 50, B 80 + 10 = 90: B 140.
    assert check_sheet_row("klaberjass", None, "A", {"A": 0, "B": 140}, "set") is True


def test_renege_row_162_and_a_bell():
    assert check_sheet_row("clabber", None, "A", {"A": 182, "B": 0}, "renege") is True


def test_made_row_needs_the_maker_strictly_ahead():
    # A tie sets the maker: no made deal gives 81 to 81.
    assert "score.A" in sheet_errors("clabber", "A", {"A": 81, "B": 81}, "made")


def test_set_row_needs_a_zero_for_the_maker():
    assert "score.A" in sheet_errors("clabber", "A", {"A": 40, "B": 120}, "set")


def test_row_with_one_point_is_impossible():
    # No card is worth 1 and every bonus (last trick, melds, bell) is a multiple of 10.
    fields = sheet_errors("clabber", "A", {"A": 0, "B": 1}, "set")
    assert any(field.startswith("score") for field in fields), fields


def test_renege_row_of_163_is_impossible():
    # 162 plus melds and bell, all multiples of 10.
    fields = sheet_errors("clabber", "A", {"A": 163, "B": 0}, "renege")
    assert any(field.startswith("score") for field in fields), fields


def test_negative_sheet_number_is_rejected():
    assert "score.B" in sheet_errors("clabber", "A", {"A": 100, "B": -5}, "made")


def test_unknown_mark_is_rejected():
    assert "mark" in sheet_errors("clabber", "A", {"A": 100, "B": 62}, "hicked-ish")


def test_unknown_maker_is_rejected():
    assert "maker" in sheet_errors("clabber", "C", {"A": 100, "B": 62}, "made")


@RULES_SETTINGS
@given(legal_deals())
def test_every_legal_deal_gives_a_possible_sheet_row(data):
    answer = score_deal(data)
    row = check_sheet_row(data["ruleset"], None, data["maker"], answer["score"], answer["outcome"])
    assert row is True


@RULES_SETTINGS
@given(renege_deals())
def test_every_renege_gives_a_possible_sheet_row(data):
    answer = score_deal(data)
    if answer["outcome"] == "renege":
        row = check_sheet_row(data["ruleset"], None, data["maker"], answer["score"], "renege")
        assert row is True


@pytest.mark.parametrize("score", [[110, 52], (110, 52), [52, 110], "110 52", 110])
def test_a_row_given_as_a_list_is_refused_not_read_by_position(score):
    # RULES.md section 5: numbers per side by the side's name; a list would be a guess at
    # which number is whose.
    with pytest.raises(RulesError) as caught:
        check_sheet_row("clabber", None, "A", score, "made")
    assert [e["field"] for e in caught.value.errors] == ["score"]
    assert "name" in caught.value.errors[0]["message"]
