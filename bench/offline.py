"""Offline deal entry on a phone: bytes to get ready, a cold offline start, the engine's speed.

Playwright drives Debian's Chromium (``CHROMIUM_PATH``, default ``/usr/bin/chromium``) on a
390x844 viewport against a live server of this checkout (Django's ``LiveServerThread`` on a
database of its own, see ``_django.py``). The server counts the bytes of every response
body it sends, so what the service worker fetches is counted too.

1. **First game**: a scorer (logged in, not counted) opens a game's deal page on a phone
   that never saw the site: the page, its assets, the service worker, its precache (the
   Pyodide runtime, the packed rules engine) and the game's pages it keeps. Counted until
   the service worker is active and the game's pages are kept.
2. **Second game**: the same phone opens another game's deal page. Counted the same way.
3. **Cold offline start**: the browser is closed and started again (its profile kept, as
   a phone restarted), with no network (and the server stopped: Playwright's offline mode
   does not reach the service worker's own requests), and opens the deal page: the time to an
   interactive deal form (the page's scripts have run) and to the engine's first answer
   (the preview works). Three runs; the median.
4. **Save on a mid-range phone** (``--cpu-throttle``, default 4: Chromium's CPU slowed 4x
   through the DevTools protocol): the restarted phone with no network enters a plain deal
   as soon as the form is interactive and saves it; the time from the tap on Save to the
   page's first word about it (``#preview`` changes: "Saving deal 1 on this phone…"), to the
   deal kept in the outbox ("Deal 1 saved on this phone"), and to the engine's first answer
   since the page opened. Three runs; the median.
5. **Engine preview per deal**: simulated deals scored one at a time by the engine on the
   phone (Pyodide in a worker) as the preview does (``next_deal``); the median and the
   90th percentile of the round trip from the page.

Bytes are uncompressed bodies as Django's development server sends them; behind
whitenoise with its compressed files (production settings), the Pyodide runtime travels
gzip- or brotli-compressed, smaller.

    .venv/bin/python bench/offline.py [--deals 200]

Targets (issue 14): under 15 MB the first time, under 200 kB for the next game; a cold
offline reload to an interactive deal form under 3 s; under 50 ms median per preview.
Target (issue 30): on the 4x-throttled phone, Save acknowledged within 100 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time

import _django

_django.setup("clabber_league_bench_offline")

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from _machine import OtherLoad  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402

from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.games import services  # noqa: E402
from clabber_league.games.models import Game  # noqa: E402
from clabber_league.leagues.models import Division, Season, Team, TeamMember  # noqa: E402
from clabber_league.rules.simulate import simulate_deal  # noqa: E402

PASSWORD = "table-talk-42"
PHONE = {"width": 390, "height": 844}
TARGET_FIRST, TARGET_NEXT = 15_000_000, 200_000


class Counted:
    """WSGI: the static-files handler, counting the bytes of every response body."""

    def __init__(self, app) -> None:
        self.handler = StaticFilesHandler(app)
        self.lock = threading.Lock()
        self.bytes = 0
        self.requests = 0

    def __call__(self, environ, start_response):
        body = self.handler(environ, start_response)
        try:
            for chunk in body:
                with self.lock:
                    self.bytes += len(chunk)
                yield chunk
        finally:
            with self.lock:
                self.requests += 1
            close = getattr(body, "close", None)
            if close:
                close()

    def take(self) -> tuple[int, int]:
        with self.lock:
            counted = self.bytes, self.requests
            self.bytes = self.requests = 0
        return counted


def league() -> tuple[list[Game], str]:
    club = Club.objects.create(name="Offline Club", slug="offline")
    user = get_user_model().objects.create_user("marge", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    season = Season.objects.create(club=club, name="S", slug="s", start_date="2026-09-01")
    division = Division.objects.create(
        club=club, season=season, name="Monday", slug="monday", ruleset="clabber"
    )
    teams, players = [], []
    for t, names in enumerate((("Tom", "Mary-Lou"), ("Ann", "Bob"))):
        team = Team.objects.create(club=club, division=division, name=("Mules", "Dads")[t])
        teams.append(team)
        for position, name in enumerate(names):
            player = Player.objects.create(club=club, name=name)
            TeamMember.objects.create(team=team, player=player, position=position)
            players.append(player)
    seats = [players[0], players[2], players[1], players[3]]
    games = [
        services.game_start(
            club=club, division=division, sides={"A": teams[0], "B": teams[1]}, seats=seats
        )
        for _ in range(2)
    ]
    return games, club.slug


READY = """async (url) => {
    while (true) {
        const ready = await navigator.serviceWorker.ready;
        const kept = await (await caches.open('clabber-pages-v1')).match(url);
        if (ready.active && kept) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}"""


def log_in(page, base: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", "marge")
    page.fill("#id_password", PASSWORD)
    page.locator("form [type=submit]").last.click()
    page.wait_for_load_state("load")


def open_ready(page, url: str) -> None:
    page.goto(url)
    page.evaluate(READY, url)
    page.wait_for_timeout(500)  # the sheet's copy, asked for beside the page


#: Where a cold start's time went, from the page's own timings (``--trace``).
TRACE = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const ms = (t) => Math.round(t);
    const lines = [`navigation: worker start ${ms(nav.workerStart)} ms, response `
        + `${ms(nav.responseStart)}-${ms(nav.responseEnd)} ms, DOM interactive `
        + `${ms(nav.domInteractive)} ms, `
        + `DOMContentLoaded ${ms(nav.domContentLoadedEventEnd)} ms`];
    for (const r of performance.getEntriesByType('resource')) {
        const name = r.name.replace(location.origin, '');
        lines.push(`  ${name}: ${ms(r.startTime)}-${ms(r.responseEnd)} ms`);
    }
    lines.push(`  now ${ms(performance.now())} ms`);
    return lines.join('\\n');
}"""


def cold_start(
    playwright, chromium: str, profile: str, url: str, trace: bool = False
) -> tuple[float, float]:
    """A restarted phone with no network opens the deal page: seconds to an interactive
    form, and to the engine's first answer."""
    context = playwright.chromium.launch_persistent_context(
        profile,
        executable_path=chromium,
        headless=True,
        viewport=PHONE,
        args=["--no-sandbox", "--disable-gpu"],
    )
    try:
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        started = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=60_000)
        page.wait_for_function(
            "() => document.documentElement.classList.contains('js') && window.ClabberEngine",
            polling=20,
            timeout=60_000,
        )
        form = time.perf_counter() - started
        if trace:
            print(page.evaluate(TRACE))
        page.evaluate("() => window.ClabberEngine.ready()")
        page.evaluate(
            "() => window.ClabberEngine.call('score_deal', {ruleset: 'clabber', passed: true})"
        )
        engine = time.perf_counter() - started
    finally:
        context.close()
    return form, engine


#: A plain deal typed into the form (Hearts named by the third seat, the first side's card
#: points and last trick), then Save tapped: milliseconds from the tap to the page's first
#: word about it and to the deal kept on the phone.
SAVE = """() => new Promise((resolve) => {
    const form = document.querySelector('.deal-form');
    const pick = (id) => { const i = document.getElementById(id); i.checked = true;
        i.dispatchEvent(new Event('change', { bubbles: true })); };
    pick('id_trump_2'); pick('id_maker_seat_2'); pick('id_last_trick_0');
    const points = form.elements['points_A'];
    points.value = '80'; points.dispatchEvent(new Event('input', { bubbles: true }));
    const preview = document.getElementById('preview');
    let first = null;
    const start = performance.now();
    const watch = new MutationObserver(() => {
        const now = performance.now();
        if (first === null) { first = now - start; }
        if (/saved on this phone/.test(preview.textContent)) {
            watch.disconnect(); resolve({ ack: first, kept: now - start });
        }
    });
    watch.observe(preview, { childList: true, subtree: true, characterData: true });
    form.querySelector('button.save').click();
})"""


def clear_outbox(playwright, chromium: str, profile: str, url: str) -> None:
    """Empty the phone's outbox (IndexedDB) between Save runs, so each saves deal 1."""
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
    )
    try:
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url, wait_until="commit", timeout=60_000)
        page.evaluate(
            """() => new Promise((resolve, reject) => {
                const open = indexedDB.open('clabber-offline', 1);
                open.onsuccess = () => {
                    const tx = open.result.transaction('outbox', 'readwrite');
                    tx.objectStore('outbox').clear();
                    tx.oncomplete = () => resolve(true);
                    tx.onerror = () => reject(tx.error);
                };
                open.onerror = () => reject(open.error);
            })"""
        )
    finally:
        context.close()


def throttled_save(playwright, chromium: str, profile: str, url: str, rate: float) -> dict:
    """A restarted phone, its CPU slowed ``rate`` times, with no network: Save tapped as
    soon as the form is interactive. Milliseconds to the acknowledgement, to the deal kept,
    and seconds to the engine's first answer since the page opened."""
    context = playwright.chromium.launch_persistent_context(
        profile,
        executable_path=chromium,
        headless=True,
        viewport=PHONE,
        args=["--no-sandbox", "--disable-gpu"],
    )
    try:
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(180_000)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        started = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=60_000)
        page.wait_for_function(
            "() => document.documentElement.classList.contains('js') && window.ClabberEngine",
            polling=20,
        )
        timings = page.evaluate(SAVE)
        page.evaluate("() => window.ClabberEngine.ready()")
        timings["engine_s"] = time.perf_counter() - started
    finally:
        context.close()
    return timings


PREVIEWS = """async (deals) => {
    const times = [];
    let state = { totals: { A: 0, B: 0 }, pot: 0, deals_before: 0, dealer: 0 };
    for (const deal of deals) {
        const t = performance.now();
        const answer = await window.ClabberEngine.call('next_deal', {
            ruleset: 'clabber', options: {}, deal, ...state });
        times.push(performance.now() - t);
        if (answer.ok && !answer.ok.finished) {
            state = { totals: answer.ok.scores, pot: answer.ok.pot,
                      deals_before: state.deals_before + 1, dealer: answer.ok.next_dealer };
        } else {
            state = { totals: { A: 0, B: 0 }, pot: 0, deals_before: 0, dealer: 0 };
        }
    }
    return times;
}"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals previewed (default 200)")
    parser.add_argument(
        "--trace", action="store_true", help="print where each cold start's time went"
    )
    parser.add_argument(
        "--cpu-throttle",
        type=float,
        default=4.0,
        help="Chromium's CPU slowdown for the Save runs, a mid-range phone (default 4)",
    )
    args = parser.parse_args()

    games, slug = league()
    counted: dict[str, Counted] = {}

    def handler(app):
        counted["server"] = Counted(app)
        return counted["server"]

    server = LiveServerThread("localhost", handler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://localhost:{server.port}"  # a secure context: service workers work
    urls = [f"{base}/clubs/{slug}/games/{g.pk}/deal/" for g in games]
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    rng = random.Random(14)
    deals = [simulate_deal("clabber", rng) for _ in range(args.deals)]

    with (
        OtherLoad() as load,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            headless=True,
            viewport=PHONE,
            args=["--no-sandbox", "--disable-gpu"],
        )
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(120_000)
        log_in(page, base)
        meter = counted["server"]
        meter.take()
        open_ready(page, urls[0])
        first = meter.take()
        open_ready(page, urls[1])
        second = meter.take()

        context.set_offline(True)
        page.evaluate("() => window.ClabberEngine.ready()")
        page.evaluate(PREVIEWS, deals[:10])  # warm
        times = page.evaluate(PREVIEWS, deals)
        context.close()

        # A restarted phone at a club with no network: the server is gone too (Playwright's
        # offline mode does not reach the service worker's own requests, which would
        # otherwise fetch the deal page from the server: not a cold start offline).
        server.terminate()
        starts = [cold_start(playwright, chromium, profile, urls[0], args.trace) for _ in range(3)]
        # Each run saves deal 1 of the second game into the outbox: a fresh deal each time.
        saves = []
        for _ in range(3):
            saves.append(throttled_save(playwright, chromium, profile, urls[1], args.cpu_throttle))
            clear_outbox(playwright, chromium, profile, urls[1])

    form_s = statistics.median(s[0] for s in starts)
    engine_s = statistics.median(s[1] for s in starts)
    median_ms = statistics.median(times)
    p90_ms = sorted(times)[int(len(times) * 0.9)]
    mark = lambda ok: "ok" if ok else "MISSED"  # noqa: E731
    print(
        f"First game offline-ready: {first[0] / 1e6:.2f} MB in {first[1]} responses "
        f"(target < 15 MB: {mark(first[0] < TARGET_FIRST)})"
    )
    print(
        f"Second game offline-ready: {second[0] / 1e3:.1f} kB in {second[1]} responses "
        f"(target < 200 kB: {mark(second[0] < TARGET_NEXT)})"
    )
    print(
        f"Cold offline start, interactive deal form: median {form_s:.2f} s of "
        f"{', '.join(f'{s[0]:.2f}' for s in starts)} (target < 3 s: {mark(form_s < 3)})"
    )
    print(
        f"Cold offline start, engine answering (preview works): median {engine_s:.2f} s of "
        f"{', '.join(f'{s[1]:.2f}' for s in starts)}"
    )
    ack_ms = statistics.median(s["ack"] for s in saves)
    kept_ms = statistics.median(s["kept"] for s in saves)
    ready_s = statistics.median(s["engine_s"] for s in saves)
    acks = ", ".join(f"{s['ack']:.0f}" for s in saves)
    kepts = ", ".join(f"{s['kept']:.0f}" for s in saves)
    readies = ", ".join(f"{s['engine_s']:.2f}" for s in saves)
    print(
        f"Save, CPU {args.cpu_throttle:g}x slower, no network: acknowledged in median "
        f"{ack_ms:.0f} ms of {acks} (target < 100 ms: {mark(ack_ms < 100)}); "
        f"kept on the phone in median {kept_ms:.0f} ms of {kepts}"
    )
    print(
        f"Engine's first answer, CPU {args.cpu_throttle:g}x slower: median {ready_s:.2f} s "
        f"after the page opened, of {readies}"
    )
    print(
        f"Engine preview per deal ({len(times)} deals): median {median_ms:.1f} ms, "
        f"90th percentile {p90_ms:.1f} ms (target < 50 ms median: {mark(median_ms < 50)})"
    )
    print(load.summary())


if __name__ == "__main__":
    main()
