"""The translation catalogs (issue 33): a translation whose placeholders differ from its
source fails here and in the build (``msgfmt --check-format``, as ``compilemessages`` and
the Docker image run it), never on a page."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from . import po

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")
MSGFMT = shutil.which("msgfmt")

needs_msgfmt = pytest.mark.skipif(
    MSGFMT is None, reason="GNU gettext's msgfmt is missing (apt-get install -y gettext)"
)


def check(po: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    """msgfmt's own check: python-format (%(name)s, %s) and python-brace-format ({name})
    placeholders of every msgstr against its msgid (and msgid_plural), and the header."""
    return subprocess.run(
        [MSGFMT, "--check-format", "--check-header", "-o", str(tmp_path / "out.mo"), str(po)],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_every_language_has_both_catalogs():
    missing = [
        f"{lang}/{domain}.po"
        for lang in LANGUAGES
        for domain in DOMAINS
        if not (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").is_file()
    ]
    assert missing == []


def test_each_catalog_keeps_djangos_plural_forms_for_its_language():
    expected = {"nl": 2, "de": 2, "fr": 2, "cs": 4, "pl": 4, "hr": 3, "ja": 1}
    for lang in LANGUAGES:
        for domain in DOMAINS:
            text = (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
            assert f"nplurals={expected[lang]};" in text, (lang, domain)
            assert f'"Language: {lang}\\n"' in text, (lang, domain)


@needs_msgfmt
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_translation_has_placeholders_that_differ_from_its_source(lang, domain, tmp_path):
    result = check(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", tmp_path)
    assert result.returncode == 0, result.stderr


BROKEN = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#, python-format
msgid "%(player)s did not play in this game."
msgstr "%(speler)s speelde dit spel niet."
"""

BROKEN_BRACE = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#, python-brace-format
msgid "Wrong PIN. {left} more tries on this game before it waits a while."
msgstr "Falsche PIN. Noch {uebrig} Versuche."
"""

BROKEN_PLURAL = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#, python-format
msgid "%(counter)s note on this schedule"
msgid_plural "%(counter)s notes on this schedule"
msgstr[0] "%(counter)s notitie bij dit schema"
msgstr[1] "%(aantal)s notities bij dit schema"
"""


@needs_msgfmt
@pytest.mark.parametrize("text", [BROKEN, BROKEN_BRACE, BROKEN_PLURAL])
def test_a_renamed_placeholder_fails_the_check(text, tmp_path):
    po = tmp_path / "broken.po"
    po.write_text(text, encoding="utf-8")
    result = check(po, tmp_path)
    assert result.returncode != 0
    assert "format specification" in result.stderr


def _entries(lang, domain):
    return [e for e in po.read(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po") if e.msgid]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(lang, domain):
    """An untranslated entry shows English on the page; a fuzzy one is a guess gettext
    ignores. Either fails here: the catalog is 100% or it does not ship."""
    path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    header = po.read(path)[0]
    assert not header.fuzzy, f"{lang}/{domain}.po: the header is still marked fuzzy"
    left = [
        f"line {e.line}: {e.msgid[:60]!r}" + (" (fuzzy)" if e.fuzzy else "")
        for e in _entries(lang, domain)
        if e.fuzzy or e.untranslated
    ]
    assert left == [], f"{lang}/{domain}.po: {len(left)} entries left"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_translation_keeps_the_placeholders_and_tags_of_its_source(lang, domain):
    """msgfmt checks only the entries flagged python-format; this checks them all, with
    the HTML tags and entities a blocktranslate carries, in every plural form."""
    wrong = []
    for e in _entries(lang, domain):
        if e.untranslated:
            continue
        for index, text in e.msgstr.items():
            source = e.msgid_plural if (e.msgid_plural and index > 0) else e.msgid
            expected = po.placeholders(source)
            got = po.placeholders(text)
            if got != expected and not (e.msgid_plural and _plural_drops_count(expected, got)):
                wrong.append(f"line {e.line} [{index}]: {e.msgid[:50]!r} {expected} != {got}")
    assert wrong == []


def _plural_drops_count(expected, got):
    """A plural form for exactly one thing may leave out the count ("one deal")."""
    return [p for p in expected if p not in got] in (["%(counter)s"], ["{count}"], ["%(count)s"])


def test_the_reader_sees_untranslated_fuzzy_and_changed_placeholders(tmp_path):
    path = tmp_path / "x.po"
    path.write_text(
        'msgid ""\nmsgstr ""\n"Language: nl\\n"\n\n'
        '#, fuzzy, python-format\nmsgid "Deal %(n)s"\nmsgstr "Spel %(n)s"\n\n'
        'msgid "Save"\nmsgstr ""\n\n'
        'msgid "<strong>{team}</strong> won"\nmsgstr "{ploeg} won"\n\n'
        'msgid "one"\nmsgid_plural "%(counter)s deals"\nmsgstr[0] "één spel"\n'
        'msgstr[1] ""\n"%(counter)s spellen"\n',
        encoding="utf-8",
    )
    header, deal, save, team, plural = po.read(path)
    assert header.msgstr[0] == "Language: nl\n"
    assert deal.fuzzy and not deal.untranslated
    assert save.untranslated
    assert po.placeholders(team.msgid) != po.placeholders(team.msgstr[0])
    assert plural.msgstr == {0: "één spel", 1: "%(counter)s spellen"}
