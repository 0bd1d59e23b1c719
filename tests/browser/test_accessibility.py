"""Every page a scorer, a secretary or a visitor uses passes axe-core and fits a phone.

The sweep loads the demo club (``seed_demo``: a public club, a season of eight
partnerships, finished, confirmed and in-progress games) plus a generated schedule, then
visits each page of ``PAGES``:

- logged out (the pages anyone may read) and logged in as the club's admin (every page),
- on a 390x844 phone and on a 1280x800 laptop,

and fails on any critical or serious axe-core violation, listing every failing page at
once. At 390 px no page may scroll sideways; a wide table may scroll only inside a
container that says so (``data-scrolls`` with a visible ``.scroll-hint``).

**Adding a page:** append a ``Visit`` to ``PAGES`` with its URL pattern (placeholders are
the keys of ``demo_places``; add one there if your page needs a new object) and who may
see it (``ANYONE`` or ``ADMIN``). Swagger and the Django admin are left out on purpose.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.core.management import call_command

from clabber_league.clubs.models import Club
from clabber_league.cups.services import setup as cup_setup
from clabber_league.events.models import Event
from clabber_league.games.models import Game
from clabber_league.leagues import services as league_services
from clabber_league.leagues.models import Division, Team
from clabber_league.leagues.services import venue_create
from clabber_league.members import services as members_services
from clabber_league.members.models import Dispute
from clabber_league.scheduling.models import Fixture, ScheduleRun
from clabber_league.scheduling.services.generation import schedule_config_save, schedule_run_execute
from tests.browser.conftest import PHONE, axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_PASSWORD = "clabber-demo"  # seed_demo's logins: admin / scorer
ANYONE, ADMIN = "anyone", "admin"
LAPTOP = {"width": 1280, "height": 800}


@dataclass(frozen=True)
class Visit:
    name: str
    url: str  # a pattern; {club}, {game}, ... come from demo_places()
    who: str = ANYONE


PAGES = [
    Visit("home", "/"),
    Visit("rules", "/rules/"),
    Visit("blank score sheet", "/rules/clabber/sheet/"),
    Visit("login", "/accounts/login/"),
    Visit("club", "/clubs/{club}/"),
    Visit("house rules' blank sheet", "/clubs/{club}/house-rules/{house_rules}/sheet/"),
    Visit("score sheet, in progress", "/clubs/{club}/games/{game_open}/"),
    Visit("score sheet, confirmed", "/clubs/{club}/games/{game_confirmed}/"),
    Visit("score sheet, finished", "/clubs/{club}/games/{game_finished}/"),
    Visit("new game", "/clubs/{club}/games/new/", ADMIN),
    Visit("new game in a division", "/clubs/{club}/games/new/?division={division}", ADMIN),
    Visit(
        "new game outside the schedule",
        "/clubs/{club}/games/new/?division={division}&outside=1",
        ADMIN,
    ),
    Visit(
        "new game, who sits where",
        "/clubs/{club}/games/new/?division={division}&fixture={fixture}",
        ADMIN,
    ),
    Visit("deal entry", "/clubs/{club}/games/{game_open}/deal/", ADMIN),
    Visit("correction", "/clubs/{club}/games/{game_open}/deals/2/edit/", ADMIN),
    Visit("delete a deal", "/clubs/{club}/games/{game_open}/deals/2/delete/", ADMIN),
    Visit("abandon a game", "/clubs/{club}/games/{game_open}/abandon/", ADMIN),
    Visit("paper sheet copy", "/clubs/{club}/games/{game_open}/paper-sheet/", ADMIN),
    Visit("table card", "/clubs/{club}/games/{game_open}/table-card/", ADMIN),
    Visit("fixture table card", "/clubs/{club}/games/fixtures/{fixture}/table-card/", ADMIN),
    Visit("standings", "/clubs/{club}/standings/"),
    Visit("division standings", "/clubs/{club}/standings/divisions/{division}/"),
    Visit("tiebreakers", "/clubs/{club}/standings/divisions/{division}/tiebreakers/", ADMIN),
    Visit("leaderboards", "/clubs/{club}/standings/leaderboards/"),
    Visit("team standings", "/clubs/{club}/standings/teams/{team}/"),
    Visit("player", "/clubs/{club}/standings/players/{player}/"),
    Visit("schedule", "/clubs/{club}/schedule/"),
    Visit("season", "/clubs/{club}/schedule/seasons/{season}/"),
    Visit("division schedule", "/clubs/{club}/schedule/divisions/{division}/"),
    Visit("division setup", "/clubs/{club}/schedule/divisions/{division}/setup/", ADMIN),
    Visit("team schedule", "/clubs/{club}/schedule/teams/{team}/"),
    Visit("edit or withdraw a team", "/clubs/{club}/schedule/teams/{team}/edit/", ADMIN),
    Visit("venue", "/clubs/{club}/schedule/venues/{venue}/"),
    Visit("league night", "/clubs/{club}/schedule/nights/{night}/"),
    Visit("night sheet", "/clubs/{club}/schedule/nights/{night}/sheet/"),
    Visit("schedule run", "/clubs/{club}/schedule/runs/{run}/", ADMIN),
    Visit("move a fixture", "/clubs/{club}/schedule/fixtures/{fixture}/move/", ADMIN),
    Visit("forfeit a fixture", "/clubs/{club}/schedule/fixtures/{fixture}/forfeit/", ADMIN),
    Visit("invitations", "/clubs/{club}/members/invitations/", ADMIN),
    Visit("an invitation's QR code", "/clubs/{club}/members/invitations/{invitation}/", ADMIN),
    Visit("players and logins", "/clubs/{club}/members/players/", ADMIN),
    Visit("merge a player", "/clubs/{club}/members/players/{player}/merge/", ADMIN),
    Visit("disputes", "/clubs/{club}/members/disputes/", ADMIN),
    Visit("a dispute", "/clubs/{club}/members/disputes/{dispute}/", ADMIN),
    Visit("hand the phone over", "/clubs/{club}/members/games/{game_finished}/handover/", ADMIN),
    Visit("my games", "/me/", ADMIN),
    Visit("my settings", "/me/settings/", ADMIN),
    Visit("join from an invitation", "/join/{invitation_key}/"),
    Visit("password reset", "/accounts/password/reset/"),
    Visit("club nights", "/clubs/{club}/events/"),
    Visit("a club night", "/clubs/{club}/events/{event}/"),
    Visit("new club night", "/clubs/{club}/events/new/", ADMIN),
    Visit("club night settings", "/clubs/{club}/events/{event}/edit/", ADMIN),
    Visit("cups", "/clubs/{club}/cups/"),
    Visit("new cup", "/clubs/{club}/cups/new/", ADMIN),
    Visit("a cup and its seeding", "/clubs/{club}/cups/{cup}/"),
    Visit("a cup's bracket", "/clubs/{club}/cups/{cup}/bracket/"),
    Visit("a cup tie", "/clubs/{club}/cups/{cup}/ties/{tie}/"),
    Visit("room display of a club night", "/clubs/{club}/events/{event}/display/"),
    Visit("club night's results and prizes", "/clubs/{club}/events/{event}/prizes/"),
    Visit("club night's draw for the wall", "/clubs/{club}/events/{event}/rounds/1/draw/"),
    Visit("club night's table cards", "/clubs/{club}/events/{event}/rounds/2/cards/", ADMIN),
    Visit("seasons of club nights", "/clubs/{club}/events/series/"),
    Visit("a season of club nights", "/clubs/{club}/events/series/{event_series}/"),
    Visit("a player's club nights", "/clubs/{club}/events/players/{night_player}/"),
    Visit("the club's results files", "/clubs/{club}/exchange/", ADMIN),
]


def demo_places() -> dict[str, object]:
    """The demo club with a generated schedule; the objects the page patterns name."""
    call_command("seed_demo", verbosity=0, stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug="evansville")
    division = Division.objects.get(club=club, slug="monday-night")
    venue = venue_create(club=club, name="Knights of St. John Hall", tables=4)
    schedule_config_save(
        division=division, weekday=0, start_date=dt.date(2026, 9, 7), venues=[venue]
    )
    # Generated here and now rather than queued: the sweep needs the fixtures, not the queue.
    run = ScheduleRun.objects.create(club=club, division=division, message="Queued.")
    schedule_run_execute(run_id=run.pk, today=dt.date(2026, 9, 1))
    fixture = Fixture.objects.filter(division=division).order_by("date", "id").first()
    games = Game.objects.filter(club=club)
    team = Team.objects.filter(division=division).order_by("name").first()
    admin = club.memberships.get(user__username="admin").user
    invitation = members_services.invitation_create(club=club, created_by=admin, note="Irma")
    confirmed = games.filter(status=Game.Status.CONFIRMED).first()
    dispute = Dispute.objects.create(club=club, game=confirmed, reason="Deal 3: our meld")
    house_rules = league_services.house_rules_save(
        club=club, name="Thursday rules", base="clabber", options={"target": 300}
    )
    cup = cup_setup.cup_draw(
        cup=cup_setup.cup_create(
            club=club, name="Demo Cup", teams=list(Team.objects.filter(division=division)[:6])
        )
    )
    places = {
        "cup": cup.pk,
        "tie": cup.ties.filter(status="ready").first().pk,
        "club": club.slug,
        "division": division.pk,
        "season": division.season.slug,
        "team": team.pk,
        "player": team.members.first().player_id,
        "venue": venue.pk,
        "run": run.pk,
        "fixture": fixture.pk,
        "night": f"{fixture.date:%Y-%m-%d}",
        "game_open": games.filter(status=Game.Status.IN_PROGRESS).first().pk,
        "game_finished": games.filter(status=Game.Status.FINISHED).first().pk,
        "game_confirmed": confirmed.pk,
        "invitation": invitation.pk,
        "invitation_key": members_services.invitation_key(invitation),
        "dispute": dispute.pk,
        "house_rules": house_rules.pk,
        "event": Event.objects.get(club=club, name="Tuesday club night").pk,
    }
    # Last: the night's games must not be the ones the game pages above pick.
    event, event_series, night_player = _demo_club_night(club, admin)
    places.update(event=event.pk, event_series=event_series.pk, night_player=night_player)
    return places


def _demo_club_night(club, admin):
    """A club night of a season: nine players (one sits out), round 1 played with its
    games confirmed, round 2 drawn and a deal in."""
    from clabber_league.events.services import checkin, rounds
    from clabber_league.events.services import events as event_services
    from clabber_league.games import services as game_services

    series = event_services.series_create(club=club, name="Sweep season", method="best", best_of=2)
    event = event_services.event_create(
        club=club,
        user=admin,
        name="Sweep night",
        date=dt.date(2026, 12, 1),
        rules="bela-4",
        rounds=3,
        entry_fee_cents=300,
        prize_rule="per_four",
        hick_stake_cents=10,
        series=series,
        seed="424242",
    )
    players = list(club.players.order_by("pk")[:9])
    for player in players:
        checkin.entry_check_in(event=event, player=player)
        checkin.entry_paid_set(event=event, player=player, paid=True)
    deal = {"maker": "A", "trump": "hearts", "points": {"A": 142, "B": 10}, "last_trick": "A"}
    first = rounds.round_draw(event=event, user=admin)
    for table in first.tables.select_related("game"):
        game = table.game
        while game.status == Game.Status.IN_PROGRESS:
            game_services.deal_record(game_id=game.pk, data=deal)
            game = Game.objects.get(pk=game.pk)
    second = rounds.round_draw(event=event, user=admin)
    game_services.deal_record(game_id=second.tables.order_by("number").first().game.pk, data=deal)
    return event, series, players[0].pk


def _visits(who: str) -> list[Visit]:
    return [v for v in PAGES if who == ADMIN or v.who == ANYONE]


# Elements wider than their box that scroll sideways, and whether each says it scrolls.
SIDEWAYS = """() => {
  const root = document.scrollingElement;
  const found = [];
  if (root.scrollWidth > root.clientWidth + 1) {
    found.push({where: 'the page', width: root.scrollWidth, allowed: false});
  }
  for (const el of document.querySelectorAll('body *')) {
    const x = getComputedStyle(el).overflowX;
    if ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
      const box = el.closest('[data-scrolls]');
      const hint = box && box.querySelector('.scroll-hint');
      const allowed = !!(hint && hint.offsetParent !== null && hint.textContent.trim());
      found.push({where: el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''),
                  width: el.scrollWidth, allowed});
    }
  }
  return found;
}"""


@pytest.mark.parametrize("who", [ANYONE, ADMIN], ids=["logged-out", "club-admin"])
def test_every_page_passes_axe_core_and_fits_a_phone(live_server, browser, who, logged_in_page):
    """One sweep per viewer over the demo club (seeded once, the costly part): each page
    on a phone (axe-core, and no sideways scrolling) and on a laptop (axe-core)."""
    places = demo_places()
    failures = []
    for device, viewport in (("phone", PHONE), ("laptop", LAPTOP)):
        context = browser.new_context(viewport=viewport)
        try:
            page = context.new_page()
            page.set_default_timeout(15_000)
            if who == ADMIN:
                logged_in_page("admin", DEMO_PASSWORD, page=page)
            for visit in _visits(who):
                response = page.goto(live_server.url + visit.url.format(**places))
                if response is None or response.status != 200:
                    status = response.status if response else "?"
                    failures.append(f"{device}: {visit.name}: HTTP {status}")
                    continue
                for v in axe_violations(page):
                    where = ", ".join(" ".join(n["target"]) for n in v["nodes"][:4])
                    failures.append(
                        f"{device}: {visit.name} ({page.url}): axe-core: {v['impact']}"
                        f" {v['id']} at {where}"
                    )
                if viewport is PHONE:
                    for item in page.evaluate(SIDEWAYS):
                        if not item["allowed"]:
                            failures.append(
                                f"phone: {visit.name}: scrolls sideways at 390 px:"
                                f" {item['where']} is {item['width']} px wide"
                            )
        finally:
            context.close()
    assert not failures, "\n".join(failures)
