"""Members on phones, in two browser contexts: the club admin invites a player, who joins
from the link and sets a PIN; at the table the scorer finishes the game and hands the phone
over: a wrong PIN is refused, the right one accepts for Dads, which confirms, and the
standings and ratings move. A dispute from the handover screen reaches the admin, who
resolves it."""

import re

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.games import services as game_services
from clabber_league.games.models import Game
from clabber_league.standings.models import PlayerRating, TeamStanding
from tests.browser.conftest import PHONE, assert_accessible
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory
from tests.games.conftest import made

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-talk-42"
PIN = "2718"


@pytest.fixture
def table():
    """A club with an admin and a scorer; Mules (the scorer and a partner) v Dads (Bertha,
    who has no login yet, and Dan); a game three deals in, recorded by the scorer."""
    division = DivisionFactory(ruleset="clabber", name="Monday Night")
    club = division.club
    admin = MembershipFactory(club=club, role=Role.ADMIN, user=UserFactory(username="sec")).user
    scorer = MembershipFactory(
        club=club, role=Role.SCORER, user=UserFactory(username="marge", password=PASSWORD)
    ).user
    admin.set_password(PASSWORD)
    admin.save()
    mules = TeamFactory(division=division, name="Mules")
    dads = TeamFactory(division=division, name="Dads")
    m = [tm.player for tm in mules.members.order_by("position")]
    d = [tm.player for tm in dads.members.order_by("position")]
    m[0].name, m[0].user = "Marge", scorer
    m[0].save()
    d[0].name = "Bertha"
    d[0].save()
    game = game_services.game_start(
        club=club,
        division=division,
        sides={"A": mules, "B": dads},
        seats=[m[0], d[0], m[1], d[1]],
        user=scorer,
    )
    for _ in range(3):
        game_services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    return {"club": club, "division": division, "game": game, "bertha": d[0], "dads": dads}


def log_out(page) -> None:
    page.locator(".nav-toggle-label").click()
    page.get_by_role("button", name="Log out").click()


def finish_the_game(page, base: str, table) -> None:
    """The scorer enters the last deal at the table: side A passes 500."""
    club, game = table["club"], table["game"]
    page.goto(f"{base}/clubs/{club.slug}/games/{game.pk}/deal/")
    page.locator("label[for=id_maker_seat_0]").click()
    page.locator("label[for=id_trump_2]").click()
    page.fill("#id_points_A", "142")
    page.locator("label[for=id_last_trick_0]").click()
    expect(page.locator("#preview")).to_contain_text(re.compile(r"Running|Game"))
    page.get_by_role("button", name=re.compile(r"^Save")).click()
    expect(page.locator(".messages")).to_contain_text("Game over")


def test_invite_join_set_a_pin_and_confirm_on_the_scorers_phone(
    live_server, browser, table, logged_in_page
):
    base = live_server.url
    club, game, bertha = table["club"], table["game"], table["bertha"]
    phone = browser.new_context(viewport=PHONE)
    theirs = browser.new_context(viewport=PHONE)
    try:
        page = phone.new_page()
        page.set_default_timeout(15_000)
        # The club admin invites Bertha by link, to scan at the club.
        logged_in_page("sec", PASSWORD, page=page)
        page.goto(f"{base}/clubs/{club.slug}/members/invitations/")
        assert_accessible(page)
        page.select_option("#id_player", str(bertha.pk))
        page.fill("#id_note", "Bertha, Monday nights")
        page.get_by_role("button", name="Invite").click()
        expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
        assert_accessible(page)
        link = page.locator("#invitation-link").input_value()
        log_out(page)

        # Bertha scans it on her own phone, makes an account, joins, sets her PIN.
        mine = theirs.new_page()
        mine.set_default_timeout(15_000)
        mine.goto(link)
        assert_accessible(mine)
        mine.get_by_role("link", name="Create an account").click()
        assert_accessible(mine)
        mine.fill("#id_username", "bertha")
        mine.fill("#id_email", "bertha@example.org")
        mine.fill("#id_password1", "green-baize-2026")
        mine.fill("#id_password2", "green-baize-2026")
        mine.get_by_role("button", name="Create my account").click()
        expect(mine.get_by_role("heading", name=f"Join {club.name}")).to_be_visible()
        assert_accessible(mine)
        mine.get_by_role("button", name=f"Join {club.name}").click()
        expect(mine.locator(".messages")).to_contain_text(f"Welcome to {club.name}")
        assert_accessible(mine)
        mine.fill("#id_pin-pin", PIN)
        mine.get_by_role("button", name="Set my PIN").click()
        expect(mine.locator("#pin-state")).to_contain_text("Your PIN is set")
        bertha.refresh_from_db()
        assert bertha.user.username == "bertha"

        # At the table the scorer finishes the game and hands the phone over.
        logged_in_page("marge", PASSWORD, page=page)
        finish_the_game(page, base, table)
        page.goto(f"{base}/clubs/{club.slug}/games/{game.pk}/")
        page.get_by_role("link", name="Accept or dispute on this phone").click()
        assert_accessible(page)
        page.get_by_role("radio", name=re.compile("Bertha")).check()
        page.fill("#pin-B", "0000")
        page.get_by_role("button", name="Accept for Dads").click()
        expect(page.locator(".field-error")).to_contain_text("Wrong PIN")
        assert_accessible(page)
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        page.get_by_role("radio", name=re.compile("Bertha")).check()
        page.fill("#pin-B", PIN)
        page.get_by_role("button", name="Accept for Dads").click()
        expect(page.locator(".messages")).to_contain_text("every side has accepted")
        expect(page.locator("#acceptances")).to_contain_text("Accepted by Bertha")
        game.refresh_from_db()
        assert game.status == Game.Status.CONFIRMED and game.confirmed_by == bertha.user

        # The standings and ratings moved; Bertha sees it under My games.
        assert TeamStanding.objects.get(team=table["dads"]).games_lost == 1
        assert PlayerRating.objects.filter(player=bertha, games=1).exists()
        mine.goto(f"{base}/me/")
        expect(mine.locator(".card")).to_contain_text("Games")
        expect(mine.get_by_role("link", name=f"Game {game.pk}")).to_be_visible()
        assert_accessible(mine)
    finally:
        phone.close()
        theirs.close()


def test_a_dispute_from_the_handover_reaches_the_admin_and_is_resolved(
    live_server, browser, table, logged_in_page
):
    base = live_server.url
    club, game = table["club"], table["game"]
    scorer_ctx = browser.new_context(viewport=PHONE)
    admin_ctx = browser.new_context(viewport=PHONE)
    try:
        page = scorer_ctx.new_page()
        page.set_default_timeout(15_000)
        logged_in_page("marge", PASSWORD, page=page)
        finish_the_game(page, base, table)
        page.goto(f"{base}/clubs/{club.slug}/members/games/{game.pk}/handover/")
        page.locator("summary", has_text="Dispute").click()
        page.locator("details").get_by_role("radio", name=re.compile("Bertha")).check()
        page.fill("#reason-B", "Deal 2: we took the last trick")
        page.get_by_role("button", name="Dispute the result").click()
        expect(page.locator(".messages")).to_contain_text("Result disputed")

        admin = admin_ctx.new_page()
        admin.set_default_timeout(15_000)
        logged_in_page("sec", PASSWORD, page=admin)
        admin.goto(f"{base}/clubs/{club.slug}/members/disputes/")
        expect(admin.locator("table")).to_contain_text("Deal 2: we took the last trick")
        assert_accessible(admin)
        admin.get_by_role("link", name=f"Game {game.pk}").click()
        assert_accessible(admin)
        admin.fill("#id_resolution", "Checked with both sides: the sheet is right")
        admin.get_by_role("button", name="Confirm in the name of the club").click()
        expect(admin.locator(".messages")).to_contain_text("Resolved")
        game.refresh_from_db()
        assert game.status == Game.Status.CONFIRMED
        admin.goto(f"{base}/clubs/{club.slug}/games/{game.pk}/")
        expect(admin.locator("#history .history-list")).to_contain_text("in the name of the club")
        expect(admin.locator("#acceptances")).to_contain_text("in the name of the club")
    finally:
        scorer_ctx.close()
        admin_ctx.close()


def test_the_account_pages_work_on_a_phone(live_server, page, table, logged_in_page):
    """Password reset by email, and a member's account pages (allauth's, in our layout)."""
    from django.core import mail

    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    assert_accessible(page)
    page.get_by_label(re.compile("Email", re.I)).fill("marge@example.org")
    page.get_by_role("button", name=re.compile("Reset", re.I)).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile("Password Reset", re.I))
    assert_accessible(page)
    reset = next(m for m in mail.outbox if "marge@example.org" in m.to)
    link = re.search(r"https?://\S+/accounts/password/reset/key/\S+", reset.body).group(0)
    page.goto(link)
    assert_accessible(page)
    page.locator("#id_password1").fill("new-green-baize-7")
    page.locator("#id_password2").fill("new-green-baize-7")
    page.get_by_role("button", name=re.compile("Change Password", re.I)).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile("Password", re.I))
    logged_in_page("marge", "new-green-baize-7")
    for path in ("/me/", "/me/settings/", "/accounts/password/change/", "/accounts/email/"):
        page.goto(base + path)
        assert_accessible(page)
