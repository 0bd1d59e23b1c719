"""The scorer's, secretary's and visitor's pages in every language, on a phone (issue 33).

Each language visits the pages everyone meets (the club, its standings, a score sheet,
deal entry) and a share of the rest of the accessibility sweep's pages, rotating, so that
every page is seen in some language on every run; ``bench/language_sweep.py`` visits every
page in every language. A page fails on: a ``<html lang>`` other than the language, any
text of the English catalog that the language translates (a string the page left out of
the catalog), sideways scrolling at 390 px (long German and Dutch compounds, Japanese
without spaces), or a critical or serious axe-core violation.
"""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import PHONE, axe_violations
from tests.browser.languages import LANGUAGES, english_left, in_language
from tests.browser.test_accessibility import (
    DEMO_PASSWORD,
    PAGES,
    SIDEWAYS,
    demo_places,
)

pytestmark = pytest.mark.django_db(transaction=True)

EVERY_LANGUAGE = {"club", "standings", "score sheet, in progress", "deal entry"}


def sample(lang: str) -> list:
    """The pages ``lang`` visits in the test: those of every language, and its share."""
    turn = LANGUAGES.index(lang)
    rest = [v for v in PAGES if v.name not in EVERY_LANGUAGE]
    return [v for v in PAGES if v.name in EVERY_LANGUAGE] + rest[turn :: len(LANGUAGES)]


def check_page(page, lang: str) -> list[str]:
    """What is wrong with the page ``page`` shows, in ``lang``."""
    problems = []
    shown = page.evaluate("() => document.documentElement.lang")
    if shown != lang:
        problems.append(f"<html lang> is {shown!r}")
    left = english_left(page, lang)
    if left:
        problems.append(f"English left: {left[:8]}")
    for item in page.evaluate(SIDEWAYS):
        if not item["allowed"]:
            problems.append(f"scrolls sideways: {item['where']} is {item['width']} px wide")
    for v in axe_violations(page):
        where = ", ".join(" ".join(n["target"]) for n in v["nodes"][:3])
        problems.append(f"axe-core: {v['impact']} {v['id']} at {where}")
    return problems


def sweep(live_server, browser, logged_in_page, languages, pages_of) -> list[str]:
    places = demo_places()
    admin = get_user_model().objects.get(username="admin")
    failures = []
    for lang in languages:
        context = browser.new_context(viewport=PHONE)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            logged_in_page("admin", DEMO_PASSWORD, page=page)
            in_language(context, live_server.url, lang, member=admin)
            for visit in pages_of(lang):
                response = page.goto(live_server.url + visit.url.format(**places))
                if response is None or response.status != 200:
                    failures.append(f"{lang}: {visit.name}: HTTP {response and response.status}")
                    continue
                failures += [f"{lang}: {visit.name}: {p}" for p in check_page(page, lang)]
        finally:
            context.close()
    return failures


def test_pages_in_every_language_are_translated_fit_a_phone_and_pass_axe(
    live_server, browser, logged_in_page
):
    failures = sweep(live_server, browser, logged_in_page, LANGUAGES, sample)
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(
    not os.environ.get("CLABBER_WHOLE_SWEEP"),
    reason="the whole sweep, every page in every language, runs in bench/language_sweep.py",
)
def test_every_page_in_every_language(live_server, browser, logged_in_page):
    failures = sweep(live_server, browser, logged_in_page, LANGUAGES, lambda lang: PAGES)
    assert not failures, "\n".join(failures)


def test_every_page_is_in_some_languages_sample():
    seen = {v.name for lang in LANGUAGES for v in sample(lang)}
    assert seen == {v.name for v in PAGES}
