"""From an empty install to a first confirmed result, as a new club's secretary would, on
a phone: taps and keystrokes per step and in total (issue 30).

Playwright drives Debian's Chromium (``CHROMIUM_PATH``, default ``/usr/bin/chromium``) on a
390x844 viewport against a live server of this checkout (Django's ``LiveServerThread`` on a
database of its own, emptied and migrated, see ``_django.py``: no club, no user). Everything
is done through the pages; the bench only reads the confirmation email from Django's
locmem outbox (the secretary's mail app) and the table link from the printed table cards
(what scanning the card's QR code gives). The steps:

1. **Sign up**: from the home page, "Sign up and create your club", a username, an email
   address, a password twice, "Create my account".
2. **Confirm the address**: the email's link (one tap in the mail app), "Confirm".
3. **Create the club**: its name, country, time zone (a ``<select>``), "Create the club".
4. **Add 13 members by paste**: the guide's "Add your members", the list pasted (one
   paste: counted as one keystroke, the list typed elsewhere), "Preview", "Add 13 players".
5. **Create a club night**: the guide's "Plan your first club night", its defaults (today,
   "Club night", a round is a whole game, the club's rule set), "Create the night".
6. **Check in 13 players**: one tap a player.
7. **PINs at check-in**: each player, handed the phone, chooses a PIN: "PIN", the PIN
   twice (4 digits), "Set my PIN". All 13: nobody knows before the draw who will sit at
   which table, and a side accepts with one of its players' PINs.
8. **Draw**: "Draw round 1".
9. **Print the table cards**: "Table cards" (printing not counted). Table 1's QR code is
   scanned by the phone at the table (its link read from the card: no tap counted).
10. **Score the game**: the table phone (a browser of its own, no account) scores plain
    made deals (trump, maker, the maker's side's card points, last trick, Save) until the
    game is over and the phone shows the acceptance screen.
11. **Both sides accept**: each side taps a player's name (unless the side is one
    player), the PIN field, types the PIN, "Accept for ...".

Counted: every tap (a ``<select>`` costs two: open it, pick) and every keystroke (each
character typed; a paste is one). Before each tap the control must be on screen and not
under anything else; when it is not, the run scrolls it into view and the step notes it.

    .venv/bin/python bench/first_night.py [--shots DIR]
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import time
from dataclasses import dataclass, field

import _django

_url = os.environ.get("BENCH_DATABASE_URL", "")
if _url.startswith("sqlite:///") and os.path.exists(_url[len("sqlite://") :]):
    os.remove(_url[len("sqlite://") :])  # a fresh file, as _django makes a fresh PostgreSQL one
DATABASE = "clabber_league_bench_first_night"
_django.setup(DATABASE)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from _machine import OtherLoad  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.core import mail  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402

from clabber_league.clubs.models import Club  # noqa: E402
from clabber_league.games.models import Game  # noqa: E402

PHONE = {"width": 390, "height": 844}
USERNAME, EMAIL, PASSWORD = "marge", "marge@example.org", "table-talk-42"
CLUB, COUNTRY, TIME_ZONE = "Wednesday Clabber", "Netherlands", "Europe/Amsterdam"
MEMBERS = [
    "Ada Kessler, ada@example.org",
    "Bud Hartig",
    "Cora Lee",
    "Dan Ives",
    "Eve Moss",
    "Fay Noor",
    "Gil Ott",
    "Hal Pike",
    "Ida Quist",
    "Jon Roe",
    "Kim Tate",
    "Lou Vane",
    "Mo Webb",
]
PINS = {line.split(",")[0]: str((2749 + 1373 * i) % 9000 + 1000) for i, line in enumerate(MEMBERS)}
MAX_DEALS = 40


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.taps + self.keys


class Phone:
    """Taps and keystrokes on one page, counted into the current step."""

    def __init__(self, page, shots: str | None = None) -> None:
        self.page = page
        self.count = Count()
        self.shots = shots

    def _on_screen(self, locator) -> bool:
        return locator.evaluate(
            """el => {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) return false;
                if (r.top < 0 || r.bottom > window.innerHeight) return false;
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return hit !== null && (el.contains(hit) || hit.contains(el)
                    || (el.control !== undefined && el.control === hit));
            }"""
        )

    def see(self, locator, why: str) -> None:
        locator.wait_for(state="visible")
        if not self._on_screen(locator):
            self.count.notes.append(f"scrolled to {why}")
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, locator, why: str) -> None:
        locator = locator.first
        self.see(locator, why)
        locator.click()
        self.count.taps += 1
        self.page.wait_for_load_state("load")

    def type(self, locator, text: str, why: str) -> None:
        """Tap a field, type ``text`` (each character a keystroke)."""
        self.tap(locator, why)
        self.page.keyboard.type(text)
        self.count.keys += len(text)

    def paste(self, locator, text: str, why: str) -> None:
        """Tap a field and paste ``text`` into it: one keystroke."""
        self.tap(locator, why)
        self.page.keyboard.insert_text(text)
        self.count.keys += 1

    def pick(self, select, value: str, why: str) -> None:
        """A native <select>: one tap to open it, one to pick."""
        select = select.first
        self.see(select, why)
        select.select_option(value)
        self.count.taps += 2

    def shot(self, name: str) -> None:
        if self.shots:
            self.page.screenshot(path=os.path.join(self.shots, f"{name}.png"))


def expect_text(page, selector: str, pattern: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector).first).to_contain_text(re.compile(pattern))


def sign_up(phone: Phone, base: str) -> None:
    page = phone.page
    page.goto(base + "/")  # the site's address, typed once: not counted
    phone.tap(page.get_by_role("link", name="Sign up and create your club"), "sign up")
    phone.type(page.locator("#id_username"), USERNAME, "username")
    phone.type(page.locator("#id_email"), EMAIL, "email")
    phone.type(page.locator("#id_password1"), PASSWORD, "password")
    phone.type(page.locator("#id_password2"), PASSWORD, "password again")
    phone.tap(page.get_by_role("button", name="Create my account"), "Create my account")
    page.wait_for_url(re.compile(r"/clubs/new/"))


def confirm(phone: Phone) -> None:
    page = phone.page
    body = mail.outbox[-1].body
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", body).group(0)
    page.goto(link)  # the link tapped in the mail app
    phone.count.taps += 1
    phone.tap(page.get_by_role("button", name=re.compile("Confirm")), "Confirm")
    page.wait_for_url(lambda url: "confirm-email" not in url)


def create_club(phone: Phone, base: str) -> str:
    page = phone.page
    if "/clubs/new/" not in page.url:
        create = page.get_by_role("link", name=re.compile("Create your club"))
        if not create.count():
            phone.count.notes.append("no way on from the confirmation: the home page opened")
            page.goto(base + "/")
        phone.tap(page.get_by_role("link", name=re.compile("Create your club")), "create")
        page.wait_for_url(re.compile(r"/clubs/new/"))
    phone.type(page.get_by_label("Club name"), CLUB, "club name")
    phone.type(page.get_by_label("Country"), COUNTRY, "country")
    phone.pick(page.get_by_label("Time zone"), TIME_ZONE, "time zone")
    phone.tap(page.get_by_role("button", name="Create the club"), "Create the club")
    club = Club.objects.get(name=CLUB)
    page.wait_for_url(re.compile(rf"/clubs/{club.slug}/$"))
    return club.slug


def add_members(phone: Phone, slug: str) -> None:
    page = phone.page
    guide = page.get_by_role("region", name="Getting the club going")
    phone.tap(guide.get_by_role("link", name="Add your members"), "Add your members")
    page.wait_for_url(re.compile(r"/members/add/"))
    phone.paste(page.get_by_label("Members, one a line"), "\n".join(MEMBERS), "the list")
    phone.tap(page.get_by_role("button", name="Preview"), "Preview")
    phone.tap(page.get_by_role("button", name=f"Add {len(MEMBERS)} players"), "Add")
    page.wait_for_url(re.compile(rf"/clubs/{slug}/$"))
    expect_text(page, ".messages", f"{len(MEMBERS)} players added")


def create_night(phone: Phone) -> None:
    page = phone.page
    guide = page.get_by_role("region", name="Getting the club going")
    phone.tap(guide.get_by_role("link", name="Plan your first club night"), "new night")
    phone.tap(page.get_by_role("button", name="Create the night"), "Create the night")
    page.wait_for_url(re.compile(r"/events/\d+/$"))


def check_in(phone: Phone) -> None:
    page = phone.page
    for name in PINS:
        phone.tap(page.get_by_role("button", name=f"{name} is here"), f"{name} is here")
        expect_text(page, ".messages", f"{name} is in")


def pins(phone: Phone) -> None:
    page = phone.page
    night = page.url
    for name, pin in PINS.items():
        phone.tap(page.get_by_role("link", name=f"{name}: confirmation PIN"), f"{name}'s PIN")
        phone.type(page.get_by_label("New PIN (4 to 6 digits)"), pin, "PIN")
        phone.type(page.get_by_label("The same PIN again"), pin, "PIN again")
        phone.tap(page.get_by_role("button", name="Set my PIN"), "Set my PIN")
        expect_text(page, ".messages", f"{name}'s PIN is set")
        if not page.url.startswith(night.split("#")[0].split("?")[0]):
            raise SystemExit(f"after {name}'s PIN the phone is on {page.url}, not the night")


def draw(phone: Phone) -> None:
    page = phone.page
    phone.tap(page.get_by_role("button", name="Draw round 1"), "Draw round 1")
    expect_text(page, ".messages", "Round 1 is drawn")


def cards(phone: Phone) -> str:
    """The printed table cards; the first card's table link, as its QR code says."""
    page = phone.page
    phone.tap(page.get_by_role("link", name="Table cards"), "Table cards")
    page.wait_for_url(re.compile(r"/cards/$"))
    phone.shot("cards")
    return page.locator("article.night-card a.table-link-url").first.get_attribute("href")


def score(phone: Phone, link: str) -> int:
    """Plain deals at the table until the game is over: the maker's side takes them."""
    page = phone.page
    page.goto(link)  # the card scanned
    deals = 0
    while "/handover/" not in page.url:
        if deals >= MAX_DEALS:
            raise SystemExit(f"the game did not end in {MAX_DEALS} deals: {page.url}")
        phone.tap(page.locator("label[for=id_trump_2]"), "trump")
        phone.tap(page.locator("label[for=id_maker_seat_0]"), "maker")
        three = page.locator("#id_points_C").count() > 0
        phone.type(page.locator("#id_points_A"), "100" if three else "142", "card points")
        if three:
            phone.type(page.locator("#id_points_B"), "30", "second side's points")
        phone.tap(page.locator("label[for=id_last_trick_0]"), "last trick")
        page.wait_for_timeout(450)  # the preview waits 400 ms after the last key
        phone.tap(page.get_by_role("button", name=re.compile(r"^Save")), "Save")
        deals += 1
        error = page.locator(".errorlist, .field-error:not(:empty)")
        if error.count() and error.first.inner_text().strip():
            raise SystemExit(f"deal {deals} not saved: {error.first.inner_text()}")
        page.wait_for_timeout(200)
    phone.shot("acceptance")
    return deals


def accept(phone: Phone) -> list[str]:
    page = phone.page
    teams = []
    while page.locator("section.accept-side").count():  # the sides still to accept
        if len(teams) > 4:
            raise SystemExit("the acceptance screen keeps asking")
        side = page.locator("section.accept-side").first
        team = side.locator("h2").first.inner_text().strip()
        form = side.locator("form").first
        choice = form.locator("label.choice").first
        name = re.sub(r"\s*\(no PIN yet\)\s*$", "", choice.inner_text()).strip()
        if not choice.locator("input").is_checked():
            phone.tap(choice, f"{name}'s name")
        phone.type(form.get_by_label("Your PIN"), PINS[name], "the PIN")
        phone.tap(form.get_by_role("button", name=re.compile("^Accept for")), "Accept")
        page.wait_for_load_state("load")
        error = page.locator(".field-error:not(:empty)")
        if error.count():
            raise SystemExit(f"{team}: not accepted: {error.first.inner_text()}")
        teams.append(f"{team} ({name})")
    expect_text(page, ".messages", "every side has accepted")
    return teams


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", help="save screenshots of the cards and the acceptance")
    args = parser.parse_args()
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    logging.getLogger("clabber_league.access").setLevel(logging.WARNING)  # one line a request
    mail.outbox = []
    assert not Club.objects.exists(), "not an empty install"

    server = LiveServerThread("127.0.0.1", StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    base = f"http://127.0.0.1:{server.port}"
    chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    rows: list[tuple[str, Count]] = []
    started = time.perf_counter()

    def step(name: str, phone: Phone, work, *a):
        phone.count = Count()
        result = work(phone, *a)
        rows.append((name, phone.count))
        return result

    with OtherLoad(databases=[DATABASE]) as load, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        secretary = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        secretary.set_default_timeout(30_000)
        sec = Phone(secretary, args.shots)
        step("sign up", sec, sign_up, base)
        step("confirm the email", sec, confirm)
        slug = step("create the club", sec, create_club, base)
        step("add 13 members by paste", sec, add_members, slug)
        step("create a club night", sec, create_night)
        step("check in 13 players", sec, check_in)
        step("13 PINs at check-in", sec, pins)
        step("draw round 1", sec, draw)
        link = step("table cards (QR read)", sec, cards)

        table = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        table.set_default_timeout(30_000)
        at_table = Phone(table, args.shots)
        deals = step("score table 1's game", at_table, score, link)
        teams = step("both sides accept", at_table, accept)
        browser.close()
    seconds = time.perf_counter() - started
    server.terminate()

    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/handover/", table.url).group(1)))
    print(
        f"game {game.pk} at table 1 ({', '.join(teams)}): {deals} deals, "
        f"{game.get_status_display().lower()}; totals {game.scores}"
    )
    print(f"{'step':<28}{'taps':>6}{'keys':>6}{'total':>7}")
    for name, c in rows:
        scrolls = [n for n in c.notes if n.startswith("scrolled")]
        others = [n for n in c.notes if not n.startswith("scrolled")]
        said = ([f"scrolled {len(scrolls)}x: {scrolls[0][12:]}"] if scrolls else []) + others
        note = f"  ({'; '.join(said)})" if said else ""
        print(f"{name:<28}{c.taps:>6}{c.keys:>6}{c.total:>7}{note}")
    print(
        f"{'empty install to confirmed':<28}{sum(c.taps for _, c in rows):>6}"
        f"{sum(c.keys for _, c in rows):>6}{sum(c.total for _, c in rows):>7}"
    )
    print(f"{seconds:.0f} s of browsing; confirmed: {game.status == Game.Status.CONFIRMED}")
    print(load.summary())
    if game.status != Game.Status.CONFIRMED:
        raise SystemExit("the game is not confirmed")


if __name__ == "__main__":
    main()
