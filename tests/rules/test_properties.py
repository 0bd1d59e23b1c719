"""What must hold for every deal (STYLE.md point 7), over deals generated from the cards up
(strategies.py): they are all accepted and scored by the rules of RULES.md 3.1, renaming
the sides changes nothing but the names, and every change that breaks a rule of section 5
is rejected on the right field.
"""

import copy

from hypothesis import assume, given
from hypothesis import strategies as st

from clabber_league.rules import RulesError, score_deal, score_game
from tests.rules.strategies import (
    ALL_PLAYED_CLABBER,
    ALL_PLAYED_SLUGS,
    LOWEST_RANK,
    RULES_SETTINGS,
    games,
    legal_deals,
    meld_cards,
    rename_sides,
    renege_deals,
)
from tests.rules.support import (
    LAST_TRICK,
    TABLES,
    assert_rejected,
    assert_rejected_under,
    meld_value,
    sequence_ranks,
)

BELL = 20
TARGET = 500


# --- every legal deal is accepted and scored by the rules ----------------------------------


@RULES_SETTINGS
@given(legal_deals())
def test_every_legal_deal_is_accepted_and_made_or_set(data):
    answer = score_deal(data)
    assert answer["outcome"] in {"made", "set"}


@RULES_SETTINGS
@given(legal_deals())
def test_sheet_shows_every_side_and_never_a_negative_number(data):
    answer = score_deal(data)
    sides = set(TABLES[data["ruleset"]].sides)
    for part in ("score", "totals", "meld_points"):
        assert set(answer[part]) == sides
        assert all(isinstance(value, int) and value >= 0 for value in answer[part].values())


@RULES_SETTINGS
@given(legal_deals())
def test_total_is_card_points_last_trick_and_meld_points(data):
    answer = score_deal(data)
    for side, points in data["points"].items():
        last = LAST_TRICK if data["last_trick"] == side else 0
        assert answer["totals"][side] == points + last + answer["meld_points"][side]


@RULES_SETTINGS
@given(legal_deals())
def test_only_the_meld_winner_scores_melds_and_it_scores_all_of_them(data):
    answer = score_deal(data)
    declared = data.get("melds", {})
    winner = answer["meld_winner"]
    assert winner is None or winner in declared
    for side, points in answer["meld_points"].items():
        bell = BELL if data.get("bell") == side else 0
        melds = sum(meld_value(data["ruleset"], m) for m in declared[side]) if side == winner else 0
        assert points == melds + bell


@RULES_SETTINGS
@given(legal_deals())
def test_sole_declarer_wins_the_melds(data):
    declared = data.get("melds", {})
    assume(len(declared) == 1)
    (side,) = declared
    no_trick_no_meld = TABLES[data["ruleset"]].family == "klaberjass" and "tricks" in data
    assume(not (no_trick_no_meld and data["tricks"][side] == 0))
    assert score_deal(data)["meld_winner"] == side


@RULES_SETTINGS
@given(legal_deals())
def test_score_follows_the_maker_test_of_the_rule_set_family(data):
    answer = score_deal(data)
    totals, score, maker = answer["totals"], answer["score"], data["maker"]
    others = [side for side in totals if side != maker]
    if all(totals[maker] > totals[side] for side in others):
        assert answer["outcome"] == "made"
        assert score == totals
        return
    assert answer["outcome"] == "set"
    assert score[maker] == 0
    if TABLES[data["ruleset"]].family == "clabber" or len(others) > 1:
        # Clabber, and three-handed Klaberjass: every other side scores its own total.
        assert all(score[side] == totals[side] for side in others)
    else:
        (opponent,) = others
        if totals[maker] == totals[opponent]:
            assert score[opponent] == totals[opponent]
        else:
            assert score[opponent] == totals[opponent] + totals[maker]


@RULES_SETTINGS
@given(legal_deals(ALL_PLAYED_CLABBER, melds=False, bell=False))
def test_played_out_clabber_deal_without_melds_puts_162_on_the_sheet_or_sets_the_maker(data):
    answer = score_deal(data)
    score, totals, maker = answer["score"], answer["totals"], data["maker"]
    assert sum(totals.values()) == 162
    if answer["outcome"] == "made":
        assert sum(score.values()) == 162
    else:
        assert score[maker] == 0
        assert all(score[side] == totals[side] for side in score if side != maker)


@RULES_SETTINGS
@given(legal_deals(bell=True))
def test_bell_always_reaches_its_holders_total(data):
    holder = data["bell"]
    with_bell = score_deal(data)["totals"]
    without = score_deal({key: value for key, value in data.items() if key != "bell"})["totals"]
    for side in with_bell:
        assert with_bell[side] - without[side] == (BELL if side == holder else 0)


@RULES_SETTINGS
@given(legal_deals(), st.data())
def test_renaming_the_sides_changes_nothing_but_the_names(data, choice):
    sides = list(TABLES[data["ruleset"]].sides)
    mapping = dict(zip(sides, choice.draw(st.permutations(sides)), strict=True))
    answer = score_deal(data)
    renamed = score_deal(rename_sides(data, mapping))
    for part in ("outcome", "score", "totals", "meld_winner", "meld_points"):
        assert renamed[part] == rename_sides({part: answer[part]}, mapping)[part]


# --- renege and passed deals ------------------------------------------------------------------


@RULES_SETTINGS
@given(renege_deals())
def test_renege_non_offenders_score_162_and_their_own_melds_and_bell(data):
    answer = score_deal(data)
    sides = TABLES[data["ruleset"]].sides
    offenders = set(data["renege"])
    if offenders == set(sides):
        assert answer["outcome"] == "redeal"
        assert answer["score"] == dict.fromkeys(sides, 0)
        return
    assert answer["outcome"] == "renege"
    for side in sides:
        if side in offenders:
            assert answer["score"][side] == 0
        else:
            melds = sum(meld_value(data["ruleset"], m) for m in data.get("melds", {}).get(side, []))
            bell = BELL if data.get("bell") == side else 0
            penalty = 130 if data["trump"] == "none" else 162
            assert answer["score"][side] == penalty + melds + bell


@RULES_SETTINGS
@given(st.sampled_from(sorted(TABLES)))
def test_passed_deal_scores_nothing_for_every_side(slug):
    answer = score_deal({"ruleset": slug, "passed": True})
    assert answer["outcome"] == "passed"
    assert answer["score"] == dict.fromkeys(TABLES[slug].sides, 0)


# --- games ------------------------------------------------------------------------------------


@RULES_SETTINGS
@given(games())
def test_game_adds_up_its_deals_and_ends_at_the_target(body):
    scores = [score_deal({"ruleset": body["ruleset"], **deal})["score"] for deal in body["deals"]]
    running, total = [], dict.fromkeys(scores[0], 0)
    end = None
    for index, score in enumerate(scores):
        total = {side: total[side] + score[side] for side in total}
        running.append(total)
        if max(total.values()) >= TARGET:
            end = index
            break
    if end is not None and end < len(scores) - 1:
        assert_rejected(body, f"deals[{end + 1}]", call=score_game)
        return
    answer = score_game(body)
    assert [deal["score"] for deal in answer["deals"]] == scores
    assert answer["running"] == running
    assert answer["scores"] == running[-1]
    assert answer["finished"] is (end is not None)
    if end is None:
        assert answer["winner"] is None
    else:
        best = max(total.values())
        leaders = [side for side, value in total.items() if value == best]
        assert answer["winner"] == (leaders[0] if len(leaders) == 1 else "tie")


# --- every broken rule of section 5 is rejected on its field ----------------------------------


@RULES_SETTINGS
@given(legal_deals(ALL_PLAYED_SLUGS), st.data())
def test_one_card_point_too_many_is_rejected(data, choice):
    side = choice.draw(st.sampled_from(sorted(data["points"])))
    data["points"][side] += 1
    assert_rejected_under(data, "points")


@RULES_SETTINGS
@given(legal_deals(), st.data())
def test_negative_card_points_are_rejected(data, choice):
    side = choice.draw(st.sampled_from(sorted(data["points"])))
    data["points"][side] = -choice.draw(st.integers(1, 30))
    assert_rejected(data, f"points.{side}")


@RULES_SETTINGS
@given(legal_deals())
def test_last_trick_to_a_side_not_in_the_game_is_rejected(data):
    data["last_trick"] = "Z"
    assert_rejected(data, "last_trick")


@RULES_SETTINGS
@given(legal_deals(tricks=True), st.data())
def test_side_said_to_take_no_trick_cannot_take_the_last_one(data, choice):
    # The side that took the last trick is said to have taken none (its tricks go to
    # another side): the last trick, its points or its tricks contradict one another.
    last = data["last_trick"]
    other = choice.draw(st.sampled_from(sorted(set(data["tricks"]) - {last})))
    data["tricks"][other] += data["tricks"][last]
    data["tricks"][last] = 0
    assert_rejected_under(data, "last_trick", f"points.{last}", f"tricks.{last}", "tricks")


@RULES_SETTINGS
@given(legal_deals(), st.data())
def test_tricks_that_do_not_add_up_are_rejected(data, choice):
    assume("tricks" in data)
    side = choice.draw(st.sampled_from(sorted(data["tricks"])))
    data["tricks"][side] += choice.draw(st.integers(1, 3))
    assert_rejected_under(data, "tricks")


@RULES_SETTINGS
@given(legal_deals())
def test_maker_not_a_side_is_rejected(data):
    data["maker"] = "Z"
    assert_rejected(data, "maker")


@RULES_SETTINGS
@given(legal_deals())
def test_scored_deal_without_trump_is_rejected(data):
    del data["trump"]
    assert_rejected(data, "trump")


@RULES_SETTINGS
@given(legal_deals(), st.data())
def test_sequence_top_that_runs_below_the_pack_is_rejected(data, choice):
    sequences = [
        (side, index)
        for side, melds in data.get("melds", {}).items()
        for index, meld in enumerate(melds)
        if meld["kind"] == "sequence"
    ]
    assume(sequences)
    side, index = choice.draw(st.sampled_from(sequences))
    # Topped by the pack's lowest card, a sequence of three or more runs off the pack.
    data["melds"][side][index]["top"] = LOWEST_RANK[TABLES[data["ruleset"]].pack]
    assert_rejected(data, f"melds.{side}[{index}].top")


@RULES_SETTINGS
@given(legal_deals(), st.data())
def test_one_card_in_two_sides_melds_is_rejected(data, choice):
    melds = data.get("melds", {})
    assume(melds)
    table = TABLES[data["ruleset"]]
    owner = choice.draw(st.sampled_from(sorted(melds)))
    other = choice.draw(st.sampled_from([side for side in table.sides if side != owner]))
    meld = dict(choice.draw(st.sampled_from(melds[owner])))
    meld["player"] = table.players(other)[0]
    melds.setdefault(other, []).append(meld)
    assert_rejected_under(data, "melds")


@RULES_SETTINGS
@given(legal_deals(bell=True), st.data())
def test_bell_with_the_trump_king_in_another_sides_meld_is_rejected(data, choice):
    trump, holder = data["trump"], data["bell"]
    table = TABLES[data["ruleset"]]
    other = choice.draw(st.sampled_from([side for side in table.sides if side != holder]))
    # The other side declares trump A-K-Q or K-Q-J: cards that are in the holder's hand.
    top = choice.draw(st.sampled_from(["A", "K"]))
    claim = {"kind": "sequence", "suit": trump, "top": top, "length": 3}
    cards = {(trump, rank) for rank in sequence_ranks(top, 3)}
    melds = data.setdefault("melds", {})
    melds.pop(other, None)
    assume(not any(cards & meld_cards(m) for ms in melds.values() for m in ms))
    claim["player"] = table.players(other)[0]
    melds[other] = [claim]
    assert_rejected(data, "bell")


@RULES_SETTINGS
@given(legal_deals())
def test_unknown_option_is_rejected(data):
    data["options"] = {"house_colour": "red"}
    assert_rejected(data, "options.house_colour")


@RULES_SETTINGS
@given(legal_deals())
def test_rejections_are_rules_errors_not_crashes(data):
    broken = copy.deepcopy(data)
    broken["points"] = {side: "lots" for side in data["points"]}
    try:
        score_deal(broken)
    except RulesError as error:
        assert any(item["field"].startswith("points") for item in error.errors)
    else:
        raise AssertionError("card points that are not numbers must be rejected")
