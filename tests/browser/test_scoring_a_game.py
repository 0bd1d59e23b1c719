"""A scorer plays a whole Clabber game to 500 on a phone, deal by deal.

Along the way one deal is rejected (its message appears beside the field and nothing is
saved) and one is corrected from the sheet; at the end the sheet shows XX where the makers
were set, W for the winner and the right totals.
"""

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.games.models import Deal, Game
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"


@pytest.fixture
def league():
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    scorer = UserFactory(username="marge", password=PASSWORD)
    MembershipFactory(club=club, user=scorer, role=Role.SCORER)
    mules = TeamFactory(division=division, name="Mules")
    dads = TeamFactory(division=division, name="Dads")
    return club, division, mules, dads


def enter_deal(
    page, *, maker_seat: int, points_a: int, last: str, turned: str = "hearts", save: bool = True
) -> None:
    suits = ["clubs", "diamonds", "hearts", "spades"]
    page.locator(f"label[for=id_maker_seat_{maker_seat}]").click()
    page.locator(f"label[for=id_trump_{suits.index(turned)}]").click()
    page.fill("#id_points_A", str(points_a))  # B is derived: 152 minus A
    page.locator(f"label[for=id_last_trick_{'AB'.index(last)}]").click()
    # Look at the preview before saving, as the scorer does: it shows the sheet's numbers
    # for this deal, or says why the deal cannot be saved.
    expect(page.locator("#preview")).to_contain_text(re.compile(r"Running|Not saved"))
    if save:
        page.get_by_role("button", name=re.compile(r"^Save")).click()


def test_a_scorer_plays_a_whole_game_to_500(live_server, page, league, logged_in_page):
    club, _division, mules, dads = league
    base = live_server.url
    logged_in_page("marge", PASSWORD)

    # Start the game from the club's page.
    page.goto(f"{base}/clubs/{club.slug}/")
    page.get_by_role("link", name="New game").click()
    # The club's one division is chosen already; a game outside the schedule: two teams.
    page.get_by_text("A game outside the schedule").click()
    page.select_option("#id_team_a", str(mules.pk))
    page.select_option("#id_team_b", str(dads.pk))
    page.get_by_role("button", name="Choose the players").click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    game = Game.objects.get()

    # Deal 1: side A names hearts and takes only 60 points: set (XX), B scores 92 + 10.
    enter_deal(page, maker_seat=0, points_a=60, last="B", save=False)
    expect(page.locator("#preview")).to_contain_text("XX")  # the preview, before saving
    expect(page.locator("#preview")).to_contain_text("102")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")

    # Deal 2, first try: 151 card points cannot be taken (the other side would hold 1).
    enter_deal(page, maker_seat=2, points_a=151, last="A")
    expect(page.locator("#err-points_A, #err-points_B").first).not_to_be_empty()
    assert Deal.objects.count() == 1  # nothing saved
    page.fill("#id_points_A", "142")
    expect(page.locator("#preview")).to_contain_text("Running")
    page.get_by_role("button", name="Save deal 2").click()
    expect(page.locator(".messages")).to_contain_text("Deal 2 saved")

    # Deals 3 and 4: A makes 152 each time.
    for number, seat in ((3, 2), (4, 0)):
        enter_deal(page, maker_seat=seat, points_a=142, last="A")
        expect(page.locator(".messages")).to_contain_text(f"Deal {number} saved")

    # A correction from the sheet: deal 2 was 132 for A, not 142.
    page.get_by_role("link", name="Score sheet").click()
    page.get_by_role("link", name="Fix deal 2").click()
    expect(page.locator("#id_points_A")).to_have_value("142")
    # The preview is htmx's, bound once the page has loaded: a value typed before that (a
    # test types within milliseconds of the form's first bytes) sends no preview.
    page.wait_for_load_state("load")
    page.fill("#id_points_A", "132")
    expect(page.locator("#preview")).to_contain_text("142", timeout=20_000)
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".messages")).to_contain_text("Deal 2 corrected")
    expect(page.locator(".history-list")).to_contain_text("Corrected deal 2")

    # Deal 5 takes A past 500: the game closes with its winner.
    page.get_by_role("link", name="Enter deal 5").click()
    enter_deal(page, maker_seat=2, points_a=142, last="A")
    expect(page.locator(".messages")).to_contain_text("Game over: won by Mules")

    sheet = page.locator("table.sheet")
    expect(sheet.locator("tbody tr").first.locator("td.mark-set .deal-score")).to_have_text("XX")
    # 0 + 142 + 152 * 3 for A; 102 + 20 + 10 * 3 for B
    expect(sheet.locator("tfoot")).to_contain_text("598")
    expect(sheet.locator("tfoot")).to_contain_text("152")
    expect(sheet.locator("tfoot .winner:visible")).to_have_text("W")
    expect(page.get_by_role("link", name="Enter deal 6")).to_have_count(0)
    game.refresh_from_db()
    assert (game.status, game.winner, game.scores) == ("finished", "A", {"A": 598, "B": 152})
