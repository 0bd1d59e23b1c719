"""A whole game (RULES.md 3.2 and the `game` contract of section 6): running totals, the
end at the target, the winner or a tie, play_on, the tie_hangs pot across deals, a sure
win by meld, and no deal after the end.
"""

from clabber_league.rules import score_game
from tests.rules.support import (
    CZECH_DARDA,
    assert_rejected,
    four,
    game,
    game_deal,
)


def made(points_a, points_b, last="A", maker="A", **fields):
    return game_deal(points={"A": points_a, "B": points_b}, last_trick=last, maker=maker, **fields)


PASSED = {"passed": True}

# Clabber deals used to reach 500 and to tie there.
A_MULES = made(100, 52, melds={"A": [four("J")]})  # A 100 + 10 + 200 = 310, B 52
B_MULES_AND_ACES = made(52, 100, last="B", maker="B", melds={"B": [four("J"), four("A")]})
# ... B 100 + 10 + 300 = 410, A 52
A_BELL_141_TO_41 = made(111, 41, bell="A")  # A 111 + 10 + 20 = 141, B 41


def test_running_totals_add_up_every_deal():
    answer = game(
        "clabber",
        [
            made(90, 62),  # A 100, B 62
            made(70, 82, last="B", maker="B"),  # B made: A 70, B 92
            PASSED,
        ],
    )
    assert [deal["score"] for deal in answer["deals"]] == [
        {"A": 100, "B": 62},
        {"A": 70, "B": 92},
        {"A": 0, "B": 0},
    ]
    assert answer["running"] == [
        {"A": 100, "B": 62},
        {"A": 170, "B": 154},
        {"A": 170, "B": 154},
    ]
    assert answer["scores"] == {"A": 170, "B": 154}
    assert answer["finished"] is False
    assert answer["winner"] is None


def test_set_deal_adds_nothing_for_the_maker():
    answer = game("clabber", [made(90, 62), made(70, 82, last="B")])
    # Second deal: A made trumps with 70 against 92: A 0, B 92.
    assert answer["running"] == [{"A": 100, "B": 62}, {"A": 100, "B": 154}]


def test_game_ends_when_a_side_reaches_the_target():
    answer = game("clabber", [A_MULES, A_MULES])
    assert answer["running"] == [{"A": 310, "B": 52}, {"A": 620, "B": 104}]
    assert answer["finished"] is True
    assert answer["winner"] == "A"


def test_highest_total_wins_when_both_sides_reach_the_target():
    # After two deals A 362, B 462; the third gives A 100 + 10 + 100 (four Nines) = 210
    # and B 52: A 572, B 514. Both passed 500; A is higher.
    answer = game("clabber", [A_MULES, B_MULES_AND_ACES, made(100, 52, melds={"A": [four("9")]})])
    assert answer["running"] == [
        {"A": 310, "B": 52},
        {"A": 362, "B": 462},
        {"A": 572, "B": 514},
    ]
    assert answer["finished"] is True
    assert answer["winner"] == "A"


def test_equal_highest_totals_at_the_target_are_a_tied_game():
    # 362 + 141 = 503 and 462 + 41 = 503.
    answer = game("clabber", [A_MULES, B_MULES_AND_ACES, A_BELL_141_TO_41])
    assert answer["running"][-1] == {"A": 503, "B": 503}
    assert answer["finished"] is True
    assert answer["winner"] == "tie"


def test_tie_at_target_play_on_plays_further_deals():
    deals = [A_MULES, B_MULES_AND_ACES, A_BELL_141_TO_41]
    tied = game("clabber", deals, tie_at_target="play_on")
    assert tied["scores"] == {"A": 503, "B": 503}
    assert tied["finished"] is False
    assert tied["winner"] is None

    decided = game("clabber", [*deals, made(90, 62)], tie_at_target="play_on")
    assert decided["scores"] == {"A": 603, "B": 565}
    assert decided["finished"] is True
    assert decided["winner"] == "A"


def test_no_deal_can_be_added_to_a_finished_game():
    body = {"ruleset": "clabber", "deals": [A_MULES, A_MULES, made(90, 62)]}
    assert_rejected(body, "deals[2]", call=score_game)


def test_no_deal_can_be_added_to_a_tied_game():
    body = {
        "ruleset": "clabber",
        "deals": [A_MULES, B_MULES_AND_ACES, A_BELL_141_TO_41, PASSED],
    }
    assert_rejected(body, "deals[3]", call=score_game)


def test_error_in_a_deal_names_the_deal():
    body = {"ruleset": "clabber", "deals": [made(90, 62), made(157, -5)]}
    assert_rejected(body, "deals[1].points.B", call=score_game)


def test_game_options_apply_to_every_deal():
    body = {
        "ruleset": "clabber",
        "options": {"colour": "red"},
        "deals": [made(90, 62)],
    }
    assert_rejected(body, "options.colour", call=score_game)


def test_clabber_3_game_keeps_three_running_totals():
    deals = [
        game_deal(points={"A": 60, "B": 50, "C": 42}, last_trick="A"),  # made: 70 50 42
        game_deal(maker="C", points={"A": 50, "B": 60, "C": 42}, last_trick="B"),  # C set
    ]
    answer = game("clabber-3", deals)
    assert answer["running"] == [
        {"A": 70, "B": 50, "C": 42},
        {"A": 120, "B": 120, "C": 42},
    ]
    assert answer["finished"] is False


# --- Klaberjass: target 501 (seed 004) ----------------------------------------------------

KJ_A_90 = made(80, 50)  # klaberjass: A 90, B 50
KJ_A_50 = made(40, 30)  # A 40 + 10 = 50, B 30
KJ_TO_500 = [KJ_A_90] * 5 + [KJ_A_50]  # A 450 + 50 = 500, B 250 + 30 = 280


def test_klaberjass_game_ends_at_500():
    answer = game("klaberjass", KJ_TO_500)
    assert answer["scores"] == {"A": 500, "B": 280}
    assert answer["finished"] is True
    assert answer["winner"] == "A"


def test_klaberjass_to_501_is_not_over_at_500():
    answer = game("klaberjass", KJ_TO_500, target=501)
    assert answer["scores"] == {"A": 500, "B": 280}
    assert answer["finished"] is False
    assert answer["winner"] is None


def test_klaberjass_to_501_is_over_past_it():
    answer = game("klaberjass", [*KJ_TO_500, KJ_A_90], target=501)
    assert answer["scores"] == {"A": 590, "B": 330}
    assert answer["finished"] is True
    assert answer["winner"] == "A"


# --- tie_hangs: the pot (3.1) -------------------------------------------------------------

KJ_HUNG_140 = made(60, 70)  # klaberjass: A 60 + 10 = 70, B 70: hung, pot 140
KJ_HUNG_120 = made(50, 60)  # A 50 + 10 = 60, B 60: hung, pot 120


def test_tie_hangs_pot_goes_to_the_next_scored_deals_winner_past_a_passed_deal():
    # Third deal: B made trumps, B 80 + 10 = 90 > A 50: B scores 90 + the pot of 140.
    answer = game(
        "klaberjass",
        [KJ_HUNG_140, PASSED, made(50, 80, last="B", maker="B")],
        tie_hangs=True,
    )
    assert answer["deals"][0]["outcome"] == "hung"
    assert answer["running"] == [
        {"A": 0, "B": 0},
        {"A": 0, "B": 0},
        {"A": 50, "B": 230},
    ]


def test_tie_hangs_pot_grows_with_further_hung_deals():
    # Pot 140 + 120 = 260 goes to A, who makes 90 against 50.
    answer = game("klaberjass", [KJ_HUNG_140, KJ_HUNG_120, KJ_A_90], tie_hangs=True)
    assert answer["running"] == [
        {"A": 0, "B": 0},
        {"A": 0, "B": 0},
        {"A": 350, "B": 50},
    ]


def test_tie_hangs_pot_survives_a_redeal_and_goes_to_the_renege_non_offender():
    # Both renege: redeal, pot kept. Then B reneges: A 162 + 140.
    answer = game(
        "klaberjass",
        [KJ_HUNG_140, game_deal(renege=["A", "B"]), game_deal(renege=["B"])],
        tie_hangs=True,
    )
    assert [deal["outcome"] for deal in answer["deals"]] == ["hung", "redeal", "renege"]
    assert answer["running"][-1] == {"A": 302, "B": 0}


def test_tie_hangs_pot_goes_to_the_opponent_that_sets_the_maker():
    # A made trumps with 50 against B's 90: B scores 90 + 50, and the pot of 140.
    answer = game("klaberjass", [KJ_HUNG_140, made(50, 80, last="B")], tie_hangs=True)
    assert answer["running"][-1] == {"A": 0, "B": 280}


# --- winning_melds: a sure win (Czech Darda's four Queens) --------------------------------

DARDA_FOUR_QUEENS = made(100, 52, melds={"A": [four("Q")]})  # A 100 + 10 + 200 = 310, B 52


def test_winning_meld_wins_the_game_outright():
    answer = game("klaberjass-4", [DARDA_FOUR_QUEENS], **CZECH_DARDA)
    assert answer["scores"] == {"A": 310, "B": 52}
    assert answer["finished"] is True
    assert answer["winner"] == "A"


def test_no_deal_after_a_winning_meld():
    body = {
        "ruleset": "klaberjass-4",
        "options": CZECH_DARDA,
        "deals": [DARDA_FOUR_QUEENS, made(90, 62)],
    }
    assert_rejected(body, "deals[1]", call=score_game)
