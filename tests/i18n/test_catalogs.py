"""The translation catalogs (issue 33): a translation whose placeholders differ from its
source fails here and in the build (``msgfmt --check-format``, as ``compilemessages`` and
the Docker image run it), never on a page."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

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
