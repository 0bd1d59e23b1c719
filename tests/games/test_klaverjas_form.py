"""The klaverjas deal form (issue 36): what a tally sheet holds turned into the engine's
klaverjas deal, and the engine's rejections shown beside the field, naming the trick."""

from clabber_league.games.forms import KlaverjasDealForm
from clabber_league.rules import get_ruleset, score_deal
from clabber_league.rules.errors import RulesError

SEATS = {0: "Tom", 1: "Ann", 2: "Mary-Lou", 3: "Bob"}
SIDES = {"A": "Mules", "B": "Dads"}


def form(data, ruleset="klaverjas-rotterdams", dealer=None):
    return KlaverjasDealForm(
        data=data,
        game=None,
        ruleset=get_ruleset(ruleset),
        seat_names=SEATS,
        side_names=SIDES,
        dealer=dealer,
    )


def engine(f, ruleset="klaverjas-rotterdams"):
    assert f.is_valid(), f.errors
    data, _seat = f.to_engine()
    try:
        answer = score_deal({"ruleset": ruleset, **data})
    except RulesError as exc:
        f.add_engine_errors(exc.errors)
        return data, {"errors": exc.errors}
    return data, answer


def test_a_plain_deal_is_one_pairs_points_with_the_last_trick():
    data, answer = engine(
        form({"trump": "hearts", "maker_seat": "0", "points_A": "82", "last_trick": "A"})
    )
    assert data["points_with_last"] == {"A": 82, "B": 80}
    assert answer["outcome"] == "made" and answer["score"] == {"A": 82, "B": 80}


def test_a_tie_is_nat_and_the_others_write_162():
    _data, answer = engine(
        form({"trump": "hearts", "maker_seat": "0", "points_A": "81", "last_trick": "A"})
    )
    assert answer["outcome"] == "set" and answer["score"] == {"A": 0, "B": 162}


def test_roem_claims_per_trick_and_a_total():
    data, answer = engine(
        form(
            {
                "trump": "diamonds",
                "maker_seat": "0",
                "points_A": "70",
                "last_trick": "A",
                "claim_0_side": "A",
                "claim_0_kind": "run-4",
                "claim_0_trick": "3",
                "claim_1_side": "A",
                "claim_1_kind": "stuk",
                "claim_1_trick": "3",
                "roem_B": "20",
            }
        )
    )
    assert data["roem"] == {
        "A": [{"trick": 3, "kind": "run-4"}, {"trick": 3, "kind": "stuk"}],
        "B": 20,
    }
    assert answer["outcome"] == "made" and answer["score"] == {"A": 140, "B": 112}


def test_pit_needs_no_points_and_scores_162_and_100_roem():
    _data, answer = engine(form({"trump": "clubs", "maker_seat": "1", "pit_B": "on"}))
    assert answer["pit"] == "B" and answer["score"] == {"A": 0, "B": 262}


def test_an_impossible_claim_is_refused_beside_its_row_naming_the_trick():
    f = form(
        {
            "trump": "clubs",
            "maker_seat": "0",
            "points_A": "90",
            "last_trick": "A",
            "claim_0_side": "A",
            "claim_0_kind": "stuk",
            "claim_0_trick": "4",
            "claim_1_side": "A",
            "claim_1_kind": "stuk",
            "claim_1_trick": "6",
        }
    )
    _data, answer = engine(f)
    assert "errors" in answer
    messages = " ".join(str(m) for name, ms in f.errors.items() for m in ms if "claim_1" in name)
    assert "Trick 6" in messages


def test_roem_30_is_refused_beside_the_roem_total():
    f = form(
        {
            "trump": "hearts",
            "maker_seat": "0",
            "points_A": "90",
            "last_trick": "A",
            "roem_A": "30",
        }
    )
    engine(f)
    assert f.errors.get("roem_A")


def test_a_claim_without_its_trick_is_asked_for():
    f = form(
        {
            "trump": "hearts",
            "maker_seat": "0",
            "points_A": "90",
            "last_trick": "A",
            "claim_0_side": "A",
            "claim_0_kind": "run-3",
        }
    )
    assert not f.is_valid()
    assert "which trick" in str(f.errors["claim_0_trick"][0])


def test_amsterdams_the_player_left_of_the_dealer_is_already_the_maker():
    f = form(None, ruleset="klaverjas-amsterdams", dealer=0)
    assert f["maker_seat"].value() == 1
    # A maker from the dealer's own side is refused beside the maker.
    g = form(
        {
            "trump": "hearts",
            "maker_seat": "0",
            "points_A": "100",
            "last_trick": "A",
            "dealer": "0",
        },
        ruleset="klaverjas-amsterdams",
    )
    engine(g, ruleset="klaverjas-amsterdams")
    assert g.errors.get("maker_seat")
