"""No text a person reads is left out of the catalogs (issue 33).

Each template is read as a translator would miss it: the translated parts
(``{% translate %}``, ``{% blocktranslate %}``), comments, scripts, styles, variables and
tags are taken out, and what is left of the page's text and of its visible attributes
(``title``, ``alt``, ``aria-label``, ``placeholder``, a button's ``value``) must hold no
words. A word written in English on the page would stay English in every language.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings

TEMPLATES = Path(settings.BASE_DIR) / "templates"

#: Words that read the same in every language: names and codes, never sentences.
SAME_IN_EVERY_LANGUAGE = {
    "Clabber League",
    "Clabber",
    "PIN",
    "API",
    "QR",
    "CSV",
    "JSON",
    "ICS",
    "OpenAPI",
    "OpenSkill",
    "Elo",
    "Swagger UI",
    "ReDoc",
    "TOTP",
    "XX",
    "SHA-256",
}

BLOCKS = re.compile(
    r"{%\s*(blocktranslate|blocktrans|comment)\b.*?{%\s*end(blocktranslate|blocktrans|comment)\s*%}"
    r"|<script\b.*?</script>|<style\b.*?</style>|{#.*?#}|{{.*?}}|{%.*?%}",
    re.S,
)
WORD = re.compile(r"[^\W\d_]{2,}")
VISIBLE_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "aria-description"}


class _Leftovers(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def _check(self, text: str) -> None:
        text = " ".join(text.split())
        for same in sorted(SAME_IN_EVERY_LANGUAGE, key=len, reverse=True):
            text = text.replace(same, " ")
        if WORD.search(text):
            self.found.append(" ".join(text.split()))

    def handle_data(self, data: str) -> None:
        self._check(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in VISIBLE_ATTRIBUTES:
            if values.get(name):
                self._check(values[name] or "")
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self._check(values["value"] or "")


def leftovers(text: str, *, html: bool) -> list[str]:
    stripped = BLOCKS.sub(" ", text)
    if not html:
        return [" ".join(stripped.split())] if WORD.search(stripped) else []
    parser = _Leftovers()
    parser.feed(stripped)
    parser.close()
    return parser.found


def test_the_checker_finds_english_left_on_a_page():
    page = """{% load i18n %}<h1>{% translate "Standings" %}</h1>
    <p>Last updated</p><button title="Print this">{% translate "Print" %}</button>
    {% blocktranslate with n=x %}Deal {{ n }}{% endblocktranslate %}<td>{{ team.name }}</td>
    <script>const x = "words";</script>"""
    assert leftovers(page, html=True) == ["Last updated", "Print this"]


def test_no_template_leaves_text_out_of_the_catalogs():
    found = {}
    for path in sorted(TEMPLATES.rglob("*")):
        if path.suffix not in {".html", ".txt"}:
            continue
        left = leftovers(path.read_text(encoding="utf-8"), html=path.suffix == ".html")
        if left:
            found[str(path.relative_to(TEMPLATES))] = left
    assert found == {}
