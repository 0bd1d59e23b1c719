"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Chromium is found at ``$CHROMIUM_PATH`` or ``/usr/bin/chromium``. Without one the tests are
skipped with a plain reason locally, and fail under ``CI=true``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from tests.conftest import IN_CI, chromium_path

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# around it are synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


class _RequestsInFlight:
    """How many requests Django has begun and not yet finished answering, in any thread
    (its ``request_started`` and ``request_finished`` signals). A live-server thread that
    only holds a browser's idle keep-alive connection answers nothing and is not counted:
    waiting for those threads to end cost each browser test its whole timeout."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def started(self, **kwargs) -> None:
        with self.lock:
            self.count += 1

    def finished(self, **kwargs) -> None:
        with self.lock:
            self.count = max(0, self.count - 1)  # one begun before the count began


_IN_FLIGHT = _RequestsInFlight()


def _count_requests() -> None:
    from django.core.signals import request_finished, request_started

    request_started.connect(_IN_FLIGHT.started, weak=False, dispatch_uid="browser-in-flight")
    request_finished.connect(_IN_FLIGHT.finished, weak=False, dispatch_uid="browser-in-flight")


def wait_for_requests_in_flight(timeout: float = 15.0) -> None:
    """Return once the live server has answered every request it was sent.

    A page closed at a test's end may have just sent a request (a preview, a poll, a deal
    its outbox sent). Emptying the database under it fails the next test: on PostgreSQL
    the TRUNCATE and the request's transaction can deadlock, on SQLite the tables are
    locked. Quiet means no request being answered twice in a row, 50 ms apart, so a
    request begun between two looks is waited for too.
    """
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        quiet = 0 if _IN_FLIGHT.count > 0 else quiet + 1
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _live_server_answered_before_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser test's database is emptied only once the live server is quiet.

    An autouse fixture of this conftest is set up after pytest-django's own (which opens
    the test's database) and so torn down before it; the pages and browser contexts a
    test opens are set up after this and closed before it.
    """
    _count_requests()
    yield
    if "live_server" in request.fixturenames:
        wait_for_requests_in_flight()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        message = "no Chromium found (set CHROMIUM_PATH or apt-get install -y chromium)"
        if IN_CI:
            pytest.fail(f"browser tests need Chromium under CI=true: {message}")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


#: A phone at the table: the viewport every page must fit without scrolling sideways.
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(browser) -> Iterator[object]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def log_in_through_the_form(page, base: str, username: str, password: str) -> None:
    """Log in on the login page as a person does; returns once the site has let them in.
    For the tests of logging in itself (two-factor); the others use ``logged_in_page``."""
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def log_in(page, base: str, username: str, password: str) -> None:
    """Log ``page``'s browser in as ``username``: the site's own login (allauth's view,
    django-axes) answers a POST in this process, and its session cookie goes to the
    browser. A page load and a form cheaper than ``log_in_through_the_form``; the page
    stays where it is."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    response = client.post("/accounts/login/", {"login": username, "password": password})
    cookie = client.cookies.get(settings.SESSION_COOKIE_NAME)
    if response.status_code != 302 or cookie is None or "_auth_user_id" not in client.session:
        pytest.fail(
            f"{username} could not log in (HTTP {response.status_code}, to"
            f" {response.get('Location')}): two-factor logins use log_in_through_the_form"
        )
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": base}]
    )


@pytest.fixture
def logged_in_page(request: pytest.FixtureRequest, live_server):
    """``logged_in_page(username, password)``: the test's ``page``, logged in as that person
    (``log_in``); ``page=`` logs in another page (a second phone). Returns the page."""

    def log_in_as(username: str, password: str, *, page=None):
        page = page if page is not None else request.getfixturevalue("page")
        log_in(page, live_server.url, username, password)
        return page

    return log_in_as


def mules_v_dads(*scorers: str, password: str = "table-talk-42"):
    """A game of clabber in progress, the one the table tests play: Mules (Tom, Mary-Lou)
    against Dads (Ann, Bob) in Monday Night, seated Tom, Ann, Mary-Lou, Bob, in a private
    club whose scorers log in as ``scorers`` with ``password``; started by the first."""
    from clabber_league.clubs.models import Role
    from clabber_league.games import services
    from clabber_league.leagues.models import TeamMember
    from tests.factories import (
        DivisionFactory,
        MembershipFactory,
        PlayerFactory,
        TeamFactory,
        UserFactory,
    )

    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    users = [UserFactory(username=name, password=password) for name in scorers]
    for user in users:
        MembershipFactory(club=club, user=user, role=Role.SCORER)
    mules = TeamFactory(division=division, name="Mules", members=0)
    dads = TeamFactory(division=division, name="Dads", members=0)
    players = {}
    for team, names in ((mules, ("Tom", "Mary-Lou")), (dads, ("Ann", "Bob"))):
        for position, name in enumerate(names):
            players[name] = PlayerFactory(club=club, name=name)
            TeamMember.objects.create(team=team, player=players[name], position=position)
    return services.game_start(
        club=club,
        division=division,
        sides={"A": mules, "B": dads},
        seats=[players[n] for n in ("Tom", "Ann", "Mary-Lou", "Bob")],
        user=users[0] if users else None,
    )


# --- accessibility: axe-core, vendored from npm for the tests (make vendor) ---------------

AXE_SOURCE = os.path.join(os.path.dirname(__file__), "vendor", "axe-core", "axe.min.js")
AXE_BLOCKING = {"critical", "serious"}
#: Run on every page: axe-core's default rules (every rule of WCAG 2.0, 2.1 and 2.2 at
#: levels A and AA that axe-core counts as stable, and its best practices) and, beyond
#: them, ``label-content-name-mismatch`` (WCAG 2.1 A, 2.5.3 "label in name": the words a
#: control shows must be in its accessible name), which axe-core still calls experimental
#: and leaves out by default. axe-core's other experimental rules stay out.
AXE_EXTRA_RULES = ("label-content-name-mismatch",)
AXE_RUN = """async (extra) => {
  const rules = Object.fromEntries(extra.map((id) => [id, {enabled: true}]));
  return await window.axe.run(document, {resultTypes: ['violations'], rules});
}"""


def axe_violations(page, *, impacts: set[str] = AXE_BLOCKING) -> list[dict]:
    """Run axe-core on the page as it is now: its default rules, which cover WCAG 2.1 A
    and AA, and ``AXE_EXTRA_RULES``; the violations of the given impacts.

    Each violation is axe's own dict (``id``, ``impact``, ``help``, ``nodes`` with their
    selectors), so a failing assertion says what is wrong and where.
    """
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, which a Content-Security-Policy allows,
        # where an injected <script> tag would be refused.
        with open(AXE_SOURCE, encoding="utf-8") as source:
            page.evaluate(source.read())
    result = page.evaluate(AXE_RUN, list(AXE_EXTRA_RULES))
    return [v for v in result["violations"] if v.get("impact") in impacts]


def assert_accessible(page, *, impacts: set[str] = AXE_BLOCKING) -> None:
    """Fail with a readable list when axe-core finds a critical or serious violation."""
    found = axe_violations(page, impacts=impacts)
    if found:
        lines = [
            f"{v['impact']}: {v['id']} ({v['help']}) at "
            + ", ".join(" ".join(n["target"]) for n in v["nodes"][:5])
            for v in found
        ]
        pytest.fail(f"axe-core on {page.url}:\n" + "\n".join(lines))
