"""The deal form speaks the table's language: sides and players by name in its labels and in
the engine's messages (``games.wording``); a renege needs no card points; a deal without a
maker is an error beside the field, never a crash."""

import pytest

from clabber_league.games.views import _deal_form, _preview_context
from clabber_league.games.wording import Names, humane

pytestmark = pytest.mark.django_db

NAMES = Names(
    sides={"A": "Mules", "B": "Dads"},
    seats={0: "Tom", 1: "Ann", 2: "Mary-Lou", 3: "Bob"},
    melds={("A", 0): "Tom's run of 3 (dad)"},
)


@pytest.mark.parametrize(
    ("engine", "table"),
    [
        (
            "Side B took no trick, so it cannot have 20 card points.",
            "Dads took no trick, so it cannot have 20 card points.",
        ),
        (
            "The melds of player 3 need 8 different cards, more than a hand of 6.",
            "The melds of Bob need 8 different cards, more than a hand of 6.",
        ),
        (
            "The K of hearts is in a meld of side A (melds.A[0]), so side B cannot hold the bell.",
            "The K of hearts is in a meld of Mules (Tom's run of 3 (dad)), so Dads cannot hold "
            "the bell.",
        ),
        (
            "A scored deal needs the maker: the side that named trump (A, B).",
            "A scored deal needs the maker: the side that named trump (Mules or Dads).",
        ),
        (
            "The bell is the King and Queen of trumps in one hand, but the melds of side A put "
            "them with two players (0, 2).",
            "The bell is the King and Queen of trumps in one hand, but the melds of Mules put "
            "them with two players (Tom, Mary-Lou).",
        ),
        (
            "This meld shares the Q of spades with melds.B[1]; no card can be in two melds.",
            "This meld shares the Q of spades with a meld of Dads; no card can be in two melds.",
        ),
    ],
)
def test_engine_messages_are_reworded_with_the_games_names(engine, table):
    assert humane(engine, NAMES) == table


def _errors(game, data):
    form = _deal_form(game, data)
    _preview_context(game, form)
    return {name: list(errors) for name, errors in form.errors.items()}


def test_a_meld_error_names_the_player_and_the_meld_not_the_json_path(game):
    errors = _errors(
        game,
        {
            "trump": "hearts",
            "maker_seat": "0",
            "points_A": "100",
            "last_trick": "A",
            "meld_0_seat": "0",
            "meld_0_kind": "run-3",
            "meld_0_suit": "hearts",
            "meld_0_top": "A",
            "bell": "1",
        },
    )
    text = " ".join(m for messages in errors.values() for m in messages)
    tom = game.seats.get(seat=0).player.name
    assert f"{tom}'s run of 3" in text and "so Dads cannot hold the bell" in text
    assert "melds." not in text and "side " not in text.lower().replace("side that", "")


def test_the_labels_name_sides_and_players(game):
    form = _deal_form(game)
    assert form["points_A"].label == "Card points, Mules"
    assert [label for _, label in form.fields["last_trick"].choices] == ["Mules", "Dads"]
    seats = dict(form.fields["maker_seat"].choices)
    assert all(not name.endswith(("(A)", "(B)")) for name in seats.values())


def test_a_renege_needs_no_card_points(game):
    form = _deal_form(game, {"trump": "spades", "maker_seat": "1", "renege": ["A"]})
    assert form.is_valid(), form.errors
    data, maker_seat = form.to_engine()
    assert data == {"maker": "B", "trump": "spades", "renege": ["A"]} and maker_seat == 1
    context = _preview_context(game, _deal_form(game, form.data))
    assert context["preview"].answer["outcome"] == "renege"


def test_a_deal_without_a_maker_is_an_error_beside_the_field(game):
    errors = _errors(game, {"trump": "clubs", "points_B": "100", "last_trick": "B"})
    assert "Mules or Dads" in errors["maker_seat"][0]
