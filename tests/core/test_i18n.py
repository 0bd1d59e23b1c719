"""The engine's messages and the pages' dates follow the reader's language (issue 33)."""

import datetime

from django.utils import translation

from clabber_league.core import i18n
from clabber_league.core.templatetags.league import ldate
from clabber_league.rules import RulesError, score_deal


def _error(data):
    try:
        score_deal(data)
    except RulesError as exc:
        return exc.errors
    raise AssertionError("the deal was accepted")


def test_an_engine_message_is_rebuilt_from_its_translated_template(monkeypatch):
    errors = _error({"ruleset": "clabber"})
    message = errors[0]["message"]
    assert "needs the maker" in message
    monkeypatch.setattr(
        i18n, "gettext", lambda text: text.replace("needs the maker", "NEEDS THE MAKER")
    )
    assert i18n.translated(message) == message.replace("needs the maker", "NEEDS THE MAKER")
    assert i18n.translated_errors(errors)[0]["field"] == errors[0]["field"]


def test_a_translation_with_broken_placeholders_falls_back_to_english(monkeypatch):
    message = _error({"ruleset": "clabber"})[0]["message"]
    monkeypatch.setattr(i18n, "gettext", lambda text: "{nonsense} kapot")
    assert i18n.translated(message) == message


def test_a_plain_text_is_translated_as_it_is(monkeypatch):
    monkeypatch.setattr(i18n, "gettext", lambda text: text.upper())
    assert i18n.translated("a deal must be a JSON object.") == "A DEAL MUST BE A JSON OBJECT."
    assert i18n.translated("") == ""


def test_ldate_keeps_the_english_order_in_english():
    day = datetime.date(2026, 12, 5)
    with translation.override("en"):
        assert ldate(day, "j M Y") == "5 Dec 2026"
        assert ldate(day, "l j F Y") == "Saturday 5 December 2026"
        assert ldate(None, "j M Y") == ""


def test_every_format_the_pages_use_is_in_the_catalogs():
    with translation.override("en"):
        listed = {str(f) for f in i18n.DATE_FORMATS}
    assert {"j M Y", "l j F Y", "j M Y H:i", "D j M"} <= listed


def test_a_count_inside_a_message_takes_the_languages_plural(monkeypatch):
    """ "Side B took no trick, so it cannot have 20 card points": the count is a message of
    its own, translated with the form its number needs."""
    from clabber_league.rules.errors import msg, ngettext

    inner = ngettext("{points} card point", "{points} card points", 20, points=20)
    outer = msg("Side {side} cannot have {card_points}.", side="B", card_points=inner)
    assert outer == "Side B cannot have 20 card points."
    monkeypatch.setattr(i18n, "gettext", lambda text: text.replace("cannot have", "kan geen"))
    monkeypatch.setattr(
        i18n, "ngettext", lambda one, many, n: "{points} kaartpunt" if n == 1 else "{points} punten"
    )
    assert i18n.translated(outer) == "Side B kan geen 20 punten."
