"""On a phone, the faults of issue 12 stay fixed where people meet them: moving a fixture
onto a no-play night warns beside the date and then shows the right badge and the note;
the forfeit form makes the secretary choose; an empty team list says so without a number;
the standings count each unconfirmed result once; a game at the table has no "Final" row;
the deal form says "1 card point". axe-core passes on each page."""

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.games import services as game_services
from clabber_league.scheduling.models import Fixture, Venue
from clabber_league.scheduling.services.generation import schedule_config_save
from tests.browser.conftest import assert_accessible
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
CHRISTMAS = dt.date(2026, 12, 21)


def fits_the_phone(page) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390, page.url


@pytest.fixture
def league():
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="marge"))
    hall = Venue.objects.create(club=club, name="The Hall", tables=2)
    schedule_config_save(
        division=division,
        weekday=0,
        start_date=dt.date(2026, 12, 1),
        venues=[hall],
        skip_dates=[(CHRISTMAS, "Christmas party")],
    )
    mules = TeamFactory(division=division, name="Mules")
    dads = TeamFactory(division=division, name="Dads")
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=dads,
        away=mules,
        date=dt.date(2026, 12, 14),
        venue=hall,
        table=1,
    )
    return club, division, mules, dads, fixture


def test_a_move_onto_a_no_play_night_warns_then_shows_its_badge_and_note(
    live_server, page, league, logged_in_page
):
    club, division, _mules, _dads, fixture = league
    base = live_server.url
    logged_in_page("marge", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/schedule/fixtures/{fixture.pk}/move/")
    page.fill("#id_date", CHRISTMAS.isoformat())
    page.fill("#id_note", "The hall is free after all")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".has-error")).to_contain_text("no-play night of Monday Night")
    assert_accessible(page)
    fits_the_phone(page)
    page.get_by_label("Play it on that night even though the division does not play then").check()
    page.get_by_role("button", name="Save").click()

    page.goto(f"{base}/clubs/{club.slug}/schedule/divisions/{division.pk}/")
    row = page.locator(f"#fixture-{fixture.pk}")
    expect(row).to_contain_text("Moved from 14 Dec")
    expect(row).to_contain_text("On a no-play night")
    expect(row).to_contain_text("The hall is free after all")
    expect(row).not_to_contain_text("Moved to a later night")
    assert_accessible(page)


def test_the_forfeit_form_and_an_empty_team_list(live_server, page, league, logged_in_page):
    club, division, _mules, _dads, fixture = league
    base = live_server.url
    logged_in_page("marge", PASSWORD)
    page.goto(f"{base}/clubs/{club.slug}/schedule/fixtures/{fixture.pk}/forfeit/")
    expect(page.locator("input[name=kind]:checked")).to_have_count(0)
    assert_accessible(page)
    fits_the_phone(page)

    empty = DivisionFactory(club=club, season=division.season, ruleset="clabber", name="Friday")
    page.goto(f"{base}/clubs/{club.slug}/schedule/divisions/{empty.pk}/setup/")
    expect(page.get_by_text("No teams yet.")).to_be_visible()
    expect(page.locator("ol.team-list")).to_have_count(0)
    assert_accessible(page)


def test_standings_a_game_at_the_table_and_the_deal_form_say_it_right(
    live_server, page, league, logged_in_page
):
    club, division, mules, dads, _fixture = league
    admin = club.memberships.get(user__username="marge").user

    def seats(a, b):
        (a1, a2), (b1, b2) = ([m.player for m in t.members.order_by("position")] for t in (a, b))
        return [a1, b1, a2, b2]

    for a, b in ((mules, dads), (dads, mules)):
        game = game_services.game_start(
            club=club, division=division, sides={"A": a, "B": b}, seats=seats(a, b), user=admin
        )
        while game.status == "in_progress":
            game_services.deal_record(game_id=game.pk, data=made("A", 142), user=admin)
            game.refresh_from_db()
    playing = game_services.game_start(
        club=club, division=division, sides={"A": mules, "B": dads}, seats=seats(mules, dads)
    )
    game_services.deal_record(game_id=playing.pk, data=made("A", 100), user=admin)
    base = live_server.url
    logged_in_page("marge", PASSWORD)

    page.goto(f"{base}/clubs/{club.slug}/standings/divisions/{division.pk}/")
    expect(page.get_by_text("2 game results not yet confirmed.")).to_be_visible()

    page.goto(f"{base}/clubs/{club.slug}/games/{playing.pk}/")
    foot = page.locator("table.sheet tfoot")
    expect(foot).to_contain_text("Now")
    expect(foot).not_to_contain_text("Final")

    page.goto(f"{base}/clubs/{club.slug}/games/{playing.pk}/deal/")
    page.locator("label[for=id_maker_seat_0]").click()
    page.locator("label[for=id_trump_2]").click()
    page.fill("#id_points_B", "1")  # side B took 1: no trick holds just 1
    page.locator("label[for=id_last_trick_0]").click()
    expect(page.locator("#preview")).to_contain_text("Not saved")
    expect(page.locator("#err-points_B")).to_contain_text("card point")
    beside = page.locator(".field-error", has_text="cannot be taken by one side")
    expect(beside.first).to_be_visible()  # beside the points
    said = " ".join(beside.all_inner_texts())
    assert re.search(r"(?<!\d)1 card point cannot be taken", said), said
    assert not re.search(r"(?<!\d)1 card points", said), said
