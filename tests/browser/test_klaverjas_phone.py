"""A klaverjas game of 16 deals entered on a 390 px phone, as the tally sheet writes it
(issue 36): points with the last trick, roem as a claim per trick, nat and pit; the sheet
shows each pair's points and roem columns with running totals, nat and pit marked."""

import re

import pytest
from playwright.sync_api import expect

from clabber_league.games.models import Game
from tests.browser.conftest import assert_accessible, log_in

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
TOM, ANN, MARY_LOU, BOB = 0, 1, 2, 3
SUIT_INDEX = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}


def klaverjas_game(ruleset: str = "klaverjas-rotterdams") -> Game:
    """Mules (Tom, Mary-Lou) against Dads (Ann, Bob) in klaverjas, scored by marge."""
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

    division = DivisionFactory(ruleset=ruleset, name="Klaverjas Tuesday")
    club = division.club
    user = UserFactory(username="marge", password=PASSWORD)
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
        user=user,
    )


def wait_for_preview(page):
    page.wait_for_timeout(450)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")


def enter(page, *, trump, maker, pair=None, points=None, last=None, claims=(), pit=None):
    """One deal through the page: trump, who played, one pair's points with the last
    trick, the last trick, roem claims (pair, chip, trick), pit; then Save."""
    page.locator(f"label[for=id_trump_{SUIT_INDEX[trump]}]").click()
    page.locator(f"label[for=id_maker_seat_{maker}]").click()
    if points is not None:
        page.get_by_label(f"Points with the last trick, {pair}").fill(str(points))
    if last is not None:
        page.locator(f"label[for=id_last_trick_{0 if last == 'Mules' else 1}]").click()
    if pit is not None:
        page.get_by_text("All tricks (pit)").nth(0 if pit == "Mules" else 1).click()
    for who, chip, trick in claims:
        page.get_by_role("button", name=f"{chip} for {who}").click()
        page.locator(".meld-card:not(.is-empty)").last.locator(f"[data-trick='{trick}']").click()
    wait_for_preview(page)
    page.get_by_role("button", name="Save deal", exact=False).click()


def test_a_16_deal_klaverjas_game_on_a_phone_and_its_tally_sheet(live_server, page):
    game = klaverjas_game()
    log_in(page, live_server.url, "marge", PASSWORD)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/deal/")
    expect(page.get_by_label("Points with the last trick, Mules")).to_be_visible()
    assert_accessible(page)

    # 1: plain, made. 82 with the last trick against the rest of 162.
    enter(page, trump="hearts", maker=TOM, pair="Mules", points=82, last="Mules")
    expect(page.locator(".messages, [role=status]").first).to_contain_text("Mules 82, Dads 80")
    # 2: a run of three in trick 2 for Dads carries them: 90 + 20 against 72.
    page.locator(f"label[for=id_trump_{SUIT_INDEX['clubs']}]").click()
    page.get_by_role("button", name="Run of 3 for Dads").click()
    page.locator(".meld-card:not(.is-empty)").last.locator("[data-trick='2']").click()
    page.locator(f"label[for=id_maker_seat_{ANN}]").click()
    page.get_by_label("Points with the last trick, Dads").fill("90")
    page.locator("label[for=id_last_trick_1]").click()
    wait_for_preview(page)
    expect(page.locator("#preview")).to_contain_text("Dads 110")
    assert_accessible(page)
    page.get_by_role("button", name="Save deal 2").click()
    # 3: 81 against 81: a tie is nat; Dads write 162.
    enter(page, trump="spades", maker=TOM, pair="Mules", points=81, last="Mules")
    # 4: Dads take every trick: 162 and 100 roem.
    enter(page, trump="diamonds", maker=BOB, pit="Dads")
    # 5 to 16: plain deals, the makers taking 100.
    for number in range(5, 17):
        maker = (TOM, ANN, MARY_LOU, BOB)[number % 4]
        pair = "Mules" if maker in (TOM, MARY_LOU) else "Dads"
        enter(page, trump="hearts", maker=maker, pair=pair, points=100, last=pair)

    game.refresh_from_db()
    assert game.deal_count == 16
    assert game.status == Game.Status.FINISHED
    expect(page.locator("table.tally")).to_be_visible()
    sheet = page.locator("table.tally")
    row = sheet.locator("tbody tr")
    expect(row).to_have_count(16)
    expect(row.nth(0)).to_contain_text("82")
    expect(row.nth(1)).to_contain_text("20")  # Dads' roem column
    expect(row.nth(2).locator(".mark-nat")).to_contain_text("nat")
    expect(row.nth(2)).to_contain_text("162")
    expect(row.nth(3)).to_contain_text("pit")
    expect(row.nth(3)).to_contain_text("100")
    # Running totals: after deal 4 Mules 82 + 72 + 0 + 0 = 154; Dads 80 + 110 + 162 + 262.
    expect(row.nth(3).locator("td.running").nth(0)).to_have_text("154")
    expect(row.nth(3).locator("td.running").nth(1)).to_have_text("614")
    totals = game.scores
    expect(sheet.locator("tfoot")).to_contain_text(str(totals["A"]))
    expect(sheet.locator("tfoot")).to_contain_text(str(totals["B"]))
    assert_accessible(page)

    # Printed, the 16-deal tally sheet is one A4 page; so is the blank one.
    page.emulate_media(media="print")
    assert pdf_pages(page.pdf(format="A4")) == 1
    page.goto(f"{live_server.url}/rules/klaverjas-rotterdams/sheet/")
    expect(page.locator("table.tally tbody tr")).to_have_count(16)
    assert pdf_pages(page.pdf(format="A4")) == 1


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))
