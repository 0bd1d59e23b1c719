"""Every table card scans: each kind of card (a club night's round, a game's own card, a
fixture's card before its game, the league night's sheet of fixtures) is rendered to PDF by
Chromium, as printed (A4, print CSS) and as on a phone's screen (390 px wide, screen CSS);
the PDF is rasterised (pypdfium2) and every QR code on it decoded with a real decoder
(zxing-cpp). Each card's code must decode, whole, to that table's own link.

The club-night cards' codes used to be cut off at the right and bottom (an SVG without a
viewBox sized down by CSS): a decoder read none of them.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clabber_league.clubs.access import access_for
from clabber_league.clubs.models import Role
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.games import table_links
from tests.conftest import IN_CI
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

try:
    import pypdfium2 as pdfium  # rasterises the PDF
    import zxingcpp  # decodes the QR codes
except ImportError as missing:  # pragma: no cover - both are in the test extras
    if IN_CI:
        raise
    pytest.skip(
        f"{missing.name} is not installed (pip install -e '.[test]')", allow_module_level=True
    )

PASSWORD = "scan-me-42"


def decoded(pdf: bytes, *, scale: float = 2.0) -> list[str]:
    """The text of every QR code on every page of ``pdf``, rasterised at 144 dpi."""
    found: list[str] = []
    document = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            bitmap = document[index].render(scale=scale, grayscale=True)
            view = zxingcpp.ImageView(
                memoryview(bitmap.buffer).cast("B"),
                bitmap.width,
                bitmap.height,
                zxingcpp.ImageFormat.Lum,
                bitmap.stride,
                1,
            )
            codes = zxingcpp.read_barcodes(view, formats=zxingcpp.BarcodeFormat.QRCode)
            found += [code.text for code in codes if code.valid]
            bitmap.close()
    finally:
        document.close()
    return found


def printed(page) -> bytes:
    """The page as the printer gets it: A4, the print style sheet."""
    page.emulate_media(media="print")
    return page.pdf(format="A4", print_background=True)


def on_screen(page) -> bytes:
    """The page as a phone shows it: 390 px wide, the screen style sheet, in one long page."""
    page.emulate_media(media="screen")
    height = page.evaluate("() => document.documentElement.scrollHeight")
    return page.pdf(width="390px", height=f"{height + 20}px", print_background=True)


@pytest.fixture
def secretary(club):
    user = UserFactory(username="cardsec", password=PASSWORD)
    MembershipFactory(club=club, user=user, role=Role.ADMIN)
    return user


def _link_url(base: str, link) -> str:
    return base + reverse("table-link", kwargs={"token": table_links.table_link_token(link)})


def test_every_club_night_card_scans_to_its_tables_link(
    live_server, page, club, secretary, logged_in_page
):
    event = event_services.event_create(
        club=club,
        user=secretary,
        name="Scan night",
        date=dt.date(2026, 12, 1),
        rules="clabber",
        rounds=2,
    )
    for i in range(13):  # one table of four and three of three
        checkin.entry_check_in(event=event, player=PlayerFactory(club=club, name=f"P{i:02d}"))
    round_ = rounds.round_draw(event=event, access=access_for(club=club, user=secretary))
    tables = list(round_.tables.select_related("game").order_by("number"))
    assert len(tables) == 4

    logged_in_page("cardsec", PASSWORD)
    page.goto(live_server.url + f"/clubs/{club.slug}/events/{event.pk}/rounds/1/cards/")
    expected = sorted(
        _link_url(live_server.url, table_links.table_link_live(game=t.game)) for t in tables
    )
    assert sorted(decoded(printed(page))) == expected
    assert sorted(decoded(on_screen(page))) == expected


def test_a_games_table_card_scans_to_its_link(
    live_server, page, club, secretary, game, logged_in_page
):
    logged_in_page("cardsec", PASSWORD)
    page.goto(live_server.url + f"/clubs/{club.slug}/games/{game.pk}/table-card/")
    expected = [_link_url(live_server.url, table_links.table_link_live(game=game))]
    assert decoded(printed(page)) == expected
    assert decoded(on_screen(page)) == expected


def test_a_fixtures_table_card_scans_to_its_link(
    live_server, page, club, secretary, teams, logged_in_page
):
    from clabber_league.scheduling.models import Fixture

    home, away = teams
    fixture = Fixture.objects.create(
        club=club, division=home.division, round_number=1, home=home, away=away, table=4
    )
    link = table_links.fixture_link_issue(fixture=fixture, user=secretary)
    logged_in_page("cardsec", PASSWORD)
    kwargs = {"club_slug": club.slug, "fixture_pk": fixture.pk}
    page.goto(live_server.url + reverse("games:fixture-table-card", kwargs=kwargs))
    expected = [_link_url(live_server.url, link)]
    assert decoded(printed(page)) == expected
    assert decoded(on_screen(page)) == expected


def test_every_fixtures_code_on_the_league_nights_sheet_scans(
    live_server, page, club, secretary, division, logged_in_page
):
    from clabber_league.scheduling.models import Fixture
    from tests.factories import TeamFactory

    night = dt.date(2026, 9, 7)
    teams = [TeamFactory(division=division, name=f"Team {i}") for i in range(4)]
    fixtures = [
        Fixture.objects.create(
            club=club,
            division=division,
            round_number=1,
            home=teams[2 * i],
            away=teams[2 * i + 1],
            table=i + 1,
            date=night,
        )
        for i in range(2)
    ]
    logged_in_page("cardsec", PASSWORD)
    kwargs = {"club_slug": club.slug, "day": night.isoformat()}
    page.goto(live_server.url + reverse("scheduling:night-sheet", kwargs=kwargs))
    expected = sorted(
        _link_url(live_server.url, table_links.fixture_link_live(fixture=f)) for f in fixtures
    )
    assert sorted(decoded(printed(page))) == expected
    assert sorted(decoded(on_screen(page))) == expected
