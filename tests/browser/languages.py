"""The language sweep's checks (issue 33), shared by the browser test and ``bench/``.

A page in a language other than English must carry that language (``<html lang>``), fit a
390 px phone with the language's long words, pass axe-core, and show no text of the
English catalog that the language translates: such a text on the page is a string the
page did not send through the catalog, or one the catalog lacks.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings

from tests.i18n import po

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
COOKIE = settings.LANGUAGE_COOKIE_NAME

# The page's words as a person meets them: text nodes and the attributes read aloud or
# shown, with data marked translate="no" (names of clubs, teams, players) left out.
PAGE_TEXTS = """() => {
  const out = [];
  const skip = 'script, style, noscript, template, [translate="no"], [hidden]';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text && !(node.parentElement && node.parentElement.closest(skip))) out.push(text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], img[alt]')) {
    if (el.closest(skip)) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = (el.getAttribute(name) || '').replace(/\\s+/g, ' ').trim();
      if (value) out.push(value);
    }
  }
  out.push(document.title.replace(/\\s+/g, ' ').trim());
  return out;
}"""


@cache
def english_texts(lang: str) -> frozenset[str]:
    """English msgids that ``lang`` translates differently, as a page would show them
    whole: no placeholder, no markup. One of them on a page means English was left."""
    found = set()
    for domain in ("django", "djangojs"):
        for entry in po.read(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"):
            text = " ".join(entry.msgid.split())
            if not text or entry.msgid_plural or po.placeholders(text) or "%" in text:
                continue
            translation = " ".join(entry.msgstr.get(0, "").split())
            if translation and translation != text and any(c.isalpha() for c in text):
                found.add(text)
    return frozenset(found)


def english_left(page, lang: str) -> list[str]:
    """The English catalog texts ``page`` shows in ``lang``, in page order, once each."""
    english = english_texts(lang)
    seen: list[str] = []
    for text in page.evaluate(PAGE_TEXTS):
        for part in {text, text.rstrip(":·… ").strip()}:
            if part in english and part not in seen:
                seen.append(part)
    return seen


def in_language(context, base_url: str, lang: str, *, member=None) -> None:
    """Every page of ``context`` asks for ``lang``, as the footer's switcher would: a
    visitor's cookie, and a logged-in ``member``'s own choice (which comes first)."""
    context.add_cookies([{"name": COOKIE, "value": lang, "url": base_url}])
    if member is not None:
        from clabber_league.members import services as member_services

        member_services.profile_set_language(user=member, language=lang)
