"""Taps and keystrokes for both sides to accept a finished game on the table phone, with
no account (issue 27), and whether the screen had to scroll to reach a control.

Playwright drives Debian's Chromium (``CHROMIUM_PATH``, default ``/usr/bin/chromium``) on a
390x844 viewport against a live server of this checkout (Django's ``LiveServerThread`` on a
database of its own, see ``_django.py``). The four players have PINs (chosen on the
secretary's phone: not counted, once per season), the game's deals were entered through
its table link (not counted: that is ``entry_taps.py``'s business) and the phone at the
table opens the table link, which shows the acceptance screen once the game is over (the
deal entry goes there by itself after the last deal). Then each side, as a player would:

1. tap their name,
2. tap the PIN field,
3. type the PIN's digits (4 here),
4. tap "Accept for <team>".

Counted: every tap (on a radio's label, a field, a button) and every keystroke. Before
each tap the control must be on screen and not under anything else; when it is not, the
run scrolls it into view and the side is marked "scrolled".

    BENCH_DATABASE_URL=sqlite:////tmp/acceptance_taps.sqlite3 \\
        .venv/bin/python bench/acceptance_taps.py [--shots DIR]

Target (issue 27): at most 4 taps plus the PIN's digits per side.
"""

from __future__ import annotations

import argparse
import os
import time

import _django
from _taps import Count, TapCounter

_url = os.environ.get("BENCH_DATABASE_URL", "")
if _url.startswith("sqlite:///") and os.path.exists(_url[len("sqlite://") :]):
    os.remove(_url[len("sqlite://") :])  # a fresh file, as _django makes a fresh PostgreSQL one
_django.setup("clabber_league_bench_acceptance_taps")

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.staticfiles.handlers import StaticFilesHandler  # noqa: E402
from django.test.testcases import LiveServerThread  # noqa: E402

from clabber_league.clubs.access import access_for  # noqa: E402
from clabber_league.clubs.models import Club, Membership, Player, Role  # noqa: E402
from clabber_league.games import services, table_links  # noqa: E402
from clabber_league.games.models import Game  # noqa: E402
from clabber_league.leagues.models import Division, Season, Team, TeamMember  # noqa: E402
from clabber_league.members import services as members  # noqa: E402

PINS = {"Tom": "1357", "Ann": "2468", "Mary-Lou": "3579", "Bob": "4680"}
#: Who accepts for each team, in the order the sides do.
ACCEPTING = (("Dads", "Ann"), ("Mules", "Tom"))
TARGET_TAPS = 4


def finished_game() -> tuple[Game, str]:
    """Mules (Tom, Mary-Lou) v Dads (Ann, Bob), every player with a PIN and no account;
    the game finished through its table link."""
    club = Club.objects.create(name="Tap Club", slug="taps")
    secretary = get_user_model().objects.create_user("sec", password="not-used-42")
    Membership.objects.create(club=club, user=secretary, role=Role.ADMIN)
    access = access_for(club=club, user=secretary)
    season = Season.objects.create(club=club, name="S", slug="s", start_date="2026-09-01")
    division = Division.objects.create(
        club=club, season=season, name="Monday", slug="monday", ruleset="clabber"
    )
    teams, players = [], {}
    for name, members_ in (("Mules", ("Tom", "Mary-Lou")), ("Dads", ("Ann", "Bob"))):
        team = Team.objects.create(club=club, division=division, name=name)
        for position, player_name in enumerate(members_):
            player = Player.objects.create(club=club, name=player_name)
            TeamMember.objects.create(team=team, player=player, position=position)
            members.player_pin_set(access=access, player_id=player.pk, pin=PINS[player_name])
            players[player_name] = player
        teams.append(team)
    seats = [players[n] for n in ("Tom", "Ann", "Mary-Lou", "Bob")]
    game = services.game_start(
        club=club, division=division, sides={"A": teams[0], "B": teams[1]}, seats=seats
    )
    link = table_links.table_link_issue(game=game, table_label="1")
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        services.deal_record(game_id=game.pk, data=deal, at_table="1")
    return game, table_links.table_link_path(link)


class Phone(TapCounter):
    """Taps on the table phone, counted (bench/_taps.py)."""


def accept(phone: Phone, team: str, name: str, shots: str | None = None) -> Count:
    page = phone.page
    phone.start()
    if shots:
        page.screenshot(path=os.path.join(shots, f"{team.lower()}.png"))
    side = page.locator("section.accept-side", has=page.get_by_role("heading", name=team))
    form = side.locator("form").first
    phone.tap(form.locator("label.choice", has_text=name), f"{name}'s name")
    phone.tap(form.get_by_label("Your PIN"), "the PIN field")
    phone.type_digits(PINS[name])
    phone.tap(form.get_by_role("button", name=f"Accept for {team}"), "Accept")
    page.wait_for_load_state("load")
    error = page.locator(".field-error:not(:empty)")
    if error.count():
        raise SystemExit(f"{team}: not accepted: {error.first.inner_text()}")
    return phone.count


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", help="save a screenshot of the screen each side starts on")
    args = parser.parse_args()
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)
    game, link_path = finished_game()
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
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(base + link_path)  # the card scanned: the game is over, so: accept
        if "/handover/" not in page.url:
            raise SystemExit(f"the table link opened {page.url}, not the acceptance screen")
        phone = Phone(page)
        for team, name in ACCEPTING:
            rows.append((f"{team} ({name})", accept(phone, team, name, args.shots)))
        browser.close()
    seconds = time.perf_counter() - started
    server.terminate()

    game.refresh_from_db()
    print(f"game {game.pk}: {game.get_status_display().lower()}; totals {game.scores}")
    print(f"{'side':<16}{'taps':>6}{'keys':>6}{'total':>7}  scrolled")
    for name, c in rows:
        note = f"  ({'; '.join(c.notes)})" if c.notes else ""
        print(
            f"{name:<16}{c.taps:>6}{c.keys:>6}{c.total:>7}  {'yes' if c.scrolled else 'no'}{note}"
        )
    print(
        f"{'both sides':<16}{sum(c.taps for _, c in rows):>6}"
        f"{sum(c.keys for _, c in rows):>6}{sum(c.total for _, c in rows):>7}"
    )
    met = all(c.taps <= TARGET_TAPS for _, c in rows) and game.status == Game.Status.CONFIRMED
    print(
        f"target: at most {TARGET_TAPS} taps plus the PIN's digits per side, and the game "
        f"confirmed: {'met' if met else 'NOT met'} ({seconds:.0f} s of browsing)"
    )


if __name__ == "__main__":
    main()
