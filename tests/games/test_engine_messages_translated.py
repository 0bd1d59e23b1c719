"""The deal form shows the engine's messages in the page's language, with the table's names
(``games.wording.humane_translated``); in English they read as before."""

from django.utils import translation

from clabber_league.games import wording
from clabber_league.games.wording import Names, humane_translated
from clabber_league.rules.errors import msg
from clabber_league.rules.validation import MELD_PLAYER_TWO_SIDES

NAMES = Names(sides={"A": "Mules", "B": "Dads"}, seats={0: "Tom", 1: "Ann", 2: "Mary", 3: "Bob"})
DUTCH = {MELD_PLAYER_TWO_SIDES: "Speler {player} kan niet voor twee partijen roemen ({sides})."}


def _catalog(monkeypatch, entries):
    monkeypatch.setattr(wording, "gettext", lambda text: entries.get(text, text))


def test_in_english_the_message_reads_with_the_names(monkeypatch):
    _catalog(monkeypatch, DUTCH)
    message = msg(MELD_PLAYER_TWO_SIDES, player=3, sides="A, B")
    with translation.override("en"):
        assert humane_translated(message, NAMES) == "Bob cannot meld for two sides (Mules or Dads)."


def test_in_another_language_the_translation_gets_the_names(monkeypatch):
    _catalog(monkeypatch, DUTCH)
    message = msg(MELD_PLAYER_TWO_SIDES, player=3, sides="A, B")
    with translation.override("nl"):
        assert humane_translated(message, NAMES) == (
            "Speler Bob kan niet voor twee partijen roemen (Mules, Dads)."
        )


def test_an_untranslated_message_stays_english_with_the_names(monkeypatch):
    _catalog(monkeypatch, {})
    message = msg(MELD_PLAYER_TWO_SIDES, player=0, sides="A, B")
    with translation.override("de"):
        assert humane_translated(message, NAMES) == "Tom cannot meld for two sides (Mules or Dads)."


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    _catalog(monkeypatch, {MELD_PLAYER_TWO_SIDES: "Hráč {hrac} nemůže hlásit za dvě strany."})
    message = msg(MELD_PLAYER_TWO_SIDES, player=3, sides="A, B")
    with translation.override("cs"):
        assert humane_translated(message, NAMES) == "Bob cannot meld for two sides (Mules or Dads)."
