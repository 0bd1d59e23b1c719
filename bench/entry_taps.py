"""Taps and keystrokes to score the same seven-deal game on a phone, and whether it scrolled.

Playwright drives Debian's Chromium (``CHROMIUM_PATH``, default ``/usr/bin/chromium``) on a
390x844 viewport against a live server of this checkout (Django's ``LiveServerThread`` on a
database of its own, see ``_django.py``). A scorer logs in (not counted), the game is
started by the service (not counted: that is the game-start page's business), then the
deal-entry page is used as a scorer at the table would, the shortest sensible way:

1. a passed-out deal;
2. a plain made deal (trump, maker, one side's card points, last trick);
3. a hick (the maker is set, "XX");
4. a deal with one meld (a run of three);
5. a deal with two melds and a bell;
6. a renege;
7. a correction of deal 2 from the score sheet.

Counted: every tap (a click on a button, chip, radio or link; a ``<select>`` costs two:
open it, pick), every keystroke (each digit typed, and one "select all" before replacing
a field's value). Scrolling: before each tap, and before the Save tap for the preview the
scorer reads, the element must be on screen and not under anything else (a sticky bar);
when it is not, the run scrolls it into view and the deal is marked "scrolled".

Two drivers do the same deals: ``NewForm`` for the chip-based page, ``OldForm`` for the
form on main before it (radios and four ``<select>`` per meld), so the same benchmark
measures before and after. The page says which it is (``[data-meld-chips]``).

    .venv/bin/python bench/entry_taps.py [--shots DIR]

Then a klaverjas game of 16 deals (issue 36, ``klaverjas-rotterdams``) on the tally
sheet's deal form (``KlaverjasForm``): plain deals (trump, who plays, one pair's points
with the last trick, the last trick), a deal with one roem claim (chip, trick), two
claims, a nat, a pit, a four of a rank and a renege. Target: a plain klaverjas deal in
no more taps than a plain Clabber deal.

``--shots DIR`` saves a screenshot of the screen as it is when Save is tapped, per deal.

Targets (issue 12): a plain deal in at most 6 taps plus its digits with no scrolling; a
deal with one meld in at most 9 taps; the whole game within 55 taps and keystrokes.
"""

from __future__ import annotations

import argparse
import os
import time

import _django
from _taps import Count, TapCounter

_django.setup("clabber_league_bench_entry_taps")

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402

from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.games import services  # noqa: E402
from clabber_league.games.models import Game  # noqa: E402
from clabber_league.leagues.models import Division, Season, Team, TeamMember  # noqa: E402

PASSWORD = "table-talk-42"
SUITS = ["clubs", "diamonds", "hearts", "spades"]
SIDE_INDEX = {"A": 0, "B": 1}
# Seats clockwise: Tom (Mules), Ann (Dads), Mary-Lou (Mules), Bob (Dads).
TOM, ANN, MARY_LOU, BOB = 0, 1, 2, 3


def league(ruleset: str = "clabber") -> tuple[Game, str]:
    club = Club.objects.create(name=f"Tap Club {ruleset}", slug=f"taps-{ruleset}")
    user, _ = get_user_model().objects.get_or_create(username="marge")
    user.set_password(PASSWORD)
    user.save()
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    season = Season.objects.create(club=club, name="S", slug="s", start_date="2026-09-01")
    division = Division.objects.create(
        club=club, season=season, name="Monday", slug="monday", ruleset=ruleset
    )
    teams, players = [], {}
    for name, members in (("Mules", ("Tom", "Mary-Lou")), ("Dads", ("Ann", "Bob"))):
        team = Team.objects.create(club=club, division=division, name=name)
        for position, player_name in enumerate(members):
            player = Player.objects.create(club=club, name=player_name)
            TeamMember.objects.create(team=team, player=player, position=position)
            players[player_name] = player
        teams.append(team)
    seats = [players[n] for n in ("Tom", "Ann", "Mary-Lou", "Bob")]
    game = services.game_start(
        club=club, division=division, sides={"A": teams[0], "B": teams[1]}, seats=seats
    )
    return game, club.slug


class Driver(TapCounter):
    """Taps on one page, counted; subclasses know where the controls are."""

    def __init__(self, page, shots: str | None = None) -> None:
        super().__init__(page)
        self.shots = shots
        self.shot = 0

    # --- counting ---------------------------------------------------------------------

    def tap(self, locator, why: str) -> None:
        before = self.page.evaluate("() => { window.benchMark = true; return window.scrollY; }")
        super().tap(locator, why)
        self.page.wait_for_load_state("load")
        self.settle()
        same_page, after = self.page.evaluate("() => [window.benchMark === true, window.scrollY]")
        if same_page and after != before:
            # Not the scorer's doing: the page brought something into view (reported).
            self.count.notes.append(f"the page scrolled itself after {why}")

    def settle(self) -> None:
        """Wait for the live preview: the typing delay, then no request in flight."""
        self.page.wait_for_timeout(50)
        self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )

    def pick(self, select, value: str, why: str) -> None:
        """A native <select>: one tap to open it, one to pick."""
        self.see(select, why)
        select.select_option(value)
        self.count.taps += 2

    def type_number(self, locator, value: int, why: str, *, replace: bool = False) -> None:
        self.tap(locator, why)
        if replace:
            self.page.keyboard.press("Control+A")
            self.count.keys += 1
        text = str(value)
        self.page.keyboard.type(text)
        self.count.keys += len(text)
        self.page.wait_for_timeout(450)  # the preview waits 400 ms after the last key
        self.settle()

    def save(self) -> None:
        preview = self.page.locator("#preview")
        self.settle()
        self.see(preview, "the preview")
        if self.shots:
            self.shot += 1
            self.page.screenshot(path=os.path.join(self.shots, f"deal-{self.shot}.png"))
        self.tap(self.page.get_by_role("button", name="Save", exact=False), "Save")
        self.page.wait_for_load_state("load")


class NewForm(Driver):
    """The chip page: players and sides by name, meld chips per player, sticky preview."""

    def passed(self) -> None:
        self.tap(self.page.locator("label[for=id_passed]"), "passed out")

    def trump(self, suit: str) -> None:
        self.tap(self.page.locator(f"label[for=id_trump_{SUITS.index(suit)}]"), "trump")

    def maker(self, seat: int) -> None:
        self.tap(self.page.locator(f"label[for=id_maker_seat_{seat}]"), "maker")

    def points(self, side: str, value: int, *, replace: bool = False) -> None:
        self.type_number(
            self.page.locator(f"#id_points_{side}"), value, "card points", replace=replace
        )

    def last_trick(self, side: str) -> None:
        self.tap(self.page.locator(f"label[for=id_last_trick_{SIDE_INDEX[side]}]"), "last trick")

    def renege(self, side: str) -> None:
        self.tap(self.page.locator(f"label[for=id_renege_{SIDE_INDEX[side]}]"), "renege")

    def meld(self, seat: int, kind: str, suit: str | None = None, top: str | None = None) -> None:
        chips = self.page.locator(f"[data-meld-chips='{seat}']")
        self.tap(chips.locator(f"[data-meld-kind='{kind}']"), f"meld chip {kind}")
        card = self.page.locator(".meld-card:not(.is-empty)").last
        if suit:
            self.tap(card.locator(f"[data-suit='{suit}']"), "meld suit")
        if top and card.locator("[data-top] input:checked").get_attribute("value") != top:
            self.tap(card.locator(f"[data-top='{top}']"), "meld top card")

    def bell(self, seat: int) -> None:
        chips = self.page.locator(f"[data-meld-chips='{seat}']")
        self.tap(chips.locator("[data-bell]"), "bell chip")

    def open_correction(self, number: int) -> None:
        self.tap(self.page.get_by_role("link", name="Score sheet"), "score sheet link")
        self.tap(self.page.get_by_role("link", name=f"Fix deal {number}"), "Fix")


class KlaverjasForm(NewForm):
    """The klaverjas tally sheet's deal form: points with the last trick, roem chips per
    pair, then the trick's number; "All tricks (pit)" per pair."""

    def points(self, side: str, value: int, *, replace: bool = False) -> None:
        self.type_number(
            self.page.locator(f"#id_points_{side}"), value, "points with last", replace=replace
        )

    def roem(self, side: str, kind: str, trick: int, rank: str | None = None) -> None:
        chips = self.page.locator(f"[data-roem-side='{side}']")
        self.tap(chips.locator(f"[data-roem-kind='{kind}']"), f"roem chip {kind}")
        card = self.page.locator(".claim-rows .meld-card:not(.is-empty)").last
        if rank:
            self.pick(card.locator("select[name$=_kind]"), f"four-{rank}", "which four")
        self.tap(card.locator(f"[data-trick='{trick}']"), "roem trick")

    def pit(self, side: str) -> None:
        self.tap(self.page.locator(f"label[for=id_pit_{side}]"), "all tricks (pit)")


def plain_klaverjas(maker: int, side: str, points: int, trump: str = "hearts"):
    return lambda d: (d.trump(trump), d.maker(maker), d.points(side, points), d.last_trick(side))


KLAVERJAS_GAME = [
    ("kj plain", plain_klaverjas(TOM, "A", 90)),
    ("kj plain", plain_klaverjas(ANN, "B", 100, "clubs")),
    ("kj nat", plain_klaverjas(MARY_LOU, "A", 70, "spades")),
    (
        "kj one roem claim",
        lambda d: (
            d.trump("diamonds"),
            d.maker(BOB),
            d.points("B", 95),
            d.last_trick("B"),
            d.roem("B", "run-3", 3),
        ),
    ),
    (
        "kj run and stuk",
        lambda d: (
            d.trump("hearts"),
            d.maker(TOM),
            d.points("A", 100),
            d.last_trick("A"),
            d.roem("A", "run-3", 5),
            d.roem("A", "stuk", 5),
        ),
    ),
    ("kj pit", lambda d: (d.trump("clubs"), d.maker(ANN), d.pit("B"))),
    (
        "kj four of a rank",
        lambda d: (
            d.trump("spades"),
            d.maker(MARY_LOU),
            d.points("A", 110),
            d.last_trick("A"),
            d.roem("A", "four", 6, rank="A"),
        ),
    ),
    ("kj renege", lambda d: (d.trump("hearts"), d.maker(BOB), d.renege("B"))),
    *[
        ("kj plain", plain_klaverjas((TOM, ANN, MARY_LOU, BOB)[n % 4], "AB"[n % 2], 100))
        for n in range(8)
    ],
]


class OldForm(NewForm):
    """The form on main before the chips: radios by seat, four <select> per meld row."""

    meld_rows_used = 0

    def start(self) -> Count:
        self.meld_rows_used = 0
        return super().start()

    def meld(self, seat: int, kind: str, suit: str | None = None, top: str | None = None) -> None:
        row = self.meld_rows_used
        if row:
            self.tap(self.page.locator("[data-add-meld]"), "another meld")
        self.meld_rows_used += 1
        self.pick(self.page.locator(f"#id_meld_{row}_seat"), str(seat), "meld player")
        self.pick(self.page.locator(f"#id_meld_{row}_kind"), kind, "meld kind")
        if suit:
            self.pick(self.page.locator(f"#id_meld_{row}_suit"), suit, "meld suit")
        if top:
            self.pick(self.page.locator(f"#id_meld_{row}_top"), top, "meld top card")

    def bell(self, seat: int) -> None:
        self.tap(self.page.locator(f"label[for=id_bell_{seat + 1}]"), "bell")

    def renege(self, side: str) -> None:
        super().renege(side)
        # The old form asked for card points even when play stopped at a renege.
        self.points(side, 0)


GAME = [
    ("passed out", lambda d: d.passed()),
    (
        "plain made deal",
        lambda d: (d.trump("hearts"), d.maker(TOM), d.points("A", 90), d.last_trick("A")),
    ),
    (
        "hick (maker set)",
        lambda d: (d.trump("clubs"), d.maker(ANN), d.points("B", 60), d.last_trick("A")),
    ),
    (
        "one meld",
        lambda d: (
            d.trump("diamonds"),
            d.maker(MARY_LOU),
            d.points("A", 100),
            d.last_trick("A"),
            d.meld(TOM, "run-3", "spades", "A"),
        ),
    ),
    (
        "two melds and a bell",
        lambda d: (
            d.trump("spades"),
            d.maker(BOB),
            d.points("B", 90),
            d.last_trick("B"),
            d.meld(BOB, "run-4", "hearts", "A"),
            d.meld(ANN, "run-3", "clubs", "A"),
            d.bell(ANN),
        ),
    ),
    ("renege", lambda d: (d.trump("hearts"), d.maker(TOM), d.renege("A"))),
]


def machine_load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", help="save a screenshot per deal into this folder")
    args = parser.parse_args()
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)

    game, slug = league()
    kj_game, kj_slug = league("klaverjas-rotterdams")
    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    print(machine_load(), "(before)")
    rows: list[tuple[str, Count]] = []
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(base + "/accounts/login/")
        page.fill("#id_username", "marge")
        page.fill("#id_password", PASSWORD)
        page.get_by_role("button", name="Log in").click()  # not the language switcher
        page.wait_for_load_state("load")
        deal_url = f"{base}/clubs/{slug}/games/{game.pk}/deal/"
        page.goto(deal_url)
        new = page.locator("[data-meld-chips]").count() > 0
        driver = (NewForm if new else OldForm)(page, args.shots)
        for name, steps in GAME:
            count = driver.start()
            steps(driver)
            driver.save()
            error = page.locator(".errorlist, .field-error:not(:empty)")
            if error.count():
                raise SystemExit(f"{name}: not saved: {error.first.inner_text()}")
            rows.append((name, count))
        count = driver.start()
        driver.open_correction(2)
        driver.points("A", 80, replace=True)
        driver.save()
        rows.append(("correction of deal 2", count))
        page.goto(f"{base}/clubs/{kj_slug}/games/{kj_game.pk}/deal/")
        kj_driver = KlaverjasForm(page, args.shots)
        kj_rows: list[tuple[str, Count]] = []
        for name, steps in KLAVERJAS_GAME:
            count = kj_driver.start()
            steps(kj_driver)
            kj_driver.save()
            error = page.locator(".errorlist, .field-error:not(:empty)")
            if error.count():
                raise SystemExit(f"{name}: not saved: {error.first.inner_text()}")
            kj_rows.append((name, count))
        browser.close()
    seconds = time.perf_counter() - started
    server.terminate()

    game.refresh_from_db()
    deals = list(game.deals.order_by("number").values_list("outcome", flat=True))
    print(
        f"page: {'chip form (new)' if new else 'radio/select form (old)'}; "
        f"deals: {', '.join(deals)}; totals {game.scores}"
    )
    print(f"{'deal':<24}{'taps':>6}{'keys':>6}{'total':>7}  scrolled")
    for name, c in rows:
        note = f"  ({'; '.join(c.notes)})" if c.notes else ""
        print(
            f"{name:<24}{c.taps:>6}{c.keys:>6}{c.total:>7}  {'yes' if c.scrolled else 'no'}{note}"
        )
    total = sum(c.total for _, c in rows)
    print(
        f"{'whole game':<24}{sum(c.taps for _, c in rows):>6}"
        f"{sum(c.keys for _, c in rows):>6}{total:>7}"
    )
    plain = dict(rows)["plain made deal"]
    one_meld = dict(rows)["one meld"]
    print(
        f"targets: plain deal <= 6 taps + digits, no scroll: "
        f"{'met' if plain.taps <= 6 and not plain.scrolled else 'NOT met'}; "
        f"one meld <= 9 taps: {'met' if one_meld.taps <= 9 else 'NOT met'}; "
        f"whole game <= 55: {'met' if total <= 55 else 'NOT met'}"
    )
    kj_game.refresh_from_db()
    kj_outcomes = kj_game.deals.order_by("number").values_list("outcome", flat=True)
    print()
    print(
        f"klaverjas, 16 deals: {kj_game.deal_count} recorded, status {kj_game.status}; "
        f"outcomes {', '.join(kj_outcomes)}; "
        f"totals {kj_game.scores}"
    )
    print(f"{'deal':<24}{'taps':>6}{'keys':>6}{'total':>7}  scrolled")
    for name, c in kj_rows:
        note = f"  ({'; '.join(c.notes)})" if c.notes else ""
        print(
            f"{name:<24}{c.taps:>6}{c.keys:>6}{c.total:>7}  {'yes' if c.scrolled else 'no'}{note}"
        )
    print(
        f"{'whole klaverjas game':<24}{sum(c.taps for _, c in kj_rows):>6}"
        f"{sum(c.keys for _, c in kj_rows):>6}{sum(c.total for _, c in kj_rows):>7}"
    )
    kj_plain = max(c.taps for n, c in kj_rows if n == "kj plain")
    print(
        f"target: a plain klaverjas deal in no more taps than a plain Clabber deal "
        f"({kj_plain} <= {plain.taps}): {'met' if kj_plain <= plain.taps else 'NOT met'}"
    )
    print(machine_load(), f"(after, {seconds:.0f} s of browsing)")


if __name__ == "__main__":
    main()
