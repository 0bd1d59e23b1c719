"""The division table is cached under a key made of everything it is computed from
(``standings.selectors.table_key``): after every kind of change, the cached read equals a
computation with no cache at all."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import override_settings

from clabber_league.games import services
from clabber_league.scheduling.models import Fixture
from clabber_league.scheduling.services.fixture_changes import fixture_forfeit
from clabber_league.standings import exports, selectors
from clabber_league.standings.services.rebuild import standings_rebuild
from clabber_league.standings.services.tiebreakers import tiebreakers_set
from tests.factories import TeamFactory
from tests.games.conftest import made

from .conftest import A_WINS, B_WINS, play

pytestmark = pytest.mark.django_db

NO_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def _shown(division) -> dict:
    division = selectors.division_get(club=division.club, pk=division.pk)
    table = selectors.standings_table(division=division)
    return {
        "rows": exports.standings_rows(table),
        "explanation": table.explanation,
        "unconfirmed": table.unconfirmed,
    }


def _cached_equals_fresh(division) -> dict:
    cached = _shown(division)
    assert _shown(division) == cached  # read from the cache this time
    with override_settings(CACHES=NO_CACHE):
        fresh = _shown(division)
    assert cached == fresh
    return cached


def test_the_cached_table_equals_a_fresh_one_after_every_kind_of_change(
    division, teams, scorer, admin
):
    aces, bells, dads, mules = teams
    cache.clear()
    before = _cached_equals_fresh(division)

    game = play(division, aces, bells, A_WINS, user=scorer)  # a game finished
    after_game = _cached_equals_fresh(division)
    assert after_game != before

    deal = game.deals.order_by("number").first()  # a correction turns the game round
    services.deal_correct(deal=deal, data=made("B", 10, last="B"), user=scorer)
    _cached_equals_fresh(division)

    play(division, dads, mules, B_WINS, user=scorer, confirm_by=admin)  # confirmed
    _cached_equals_fresh(division)

    fixture = Fixture.objects.create(
        club=division.club, division=division, round_number=1, home=aces, away=dads,
        date=dt.date(2026, 10, 5), games_planned=1,
    )  # fmt: skip
    fixture_forfeit(fixture=fixture, winner=dads, user=admin)
    _cached_equals_fresh(division)

    aces.name = "Kings"  # a renamed team
    aces.save()
    assert any(row["team"] == "Kings" for row in _cached_equals_fresh(division)["rows"])

    season = division.season  # other points for a win
    season.points_win = 3
    season.save()
    _cached_equals_fresh(division)

    tiebreakers_set(club=division.club, division=division, tiebreakers=["points_for"])
    _cached_equals_fresh(division)

    newcomers = TeamFactory(division=division, name="Newcomers")  # a team joins
    _cached_equals_fresh(division)

    newcomers.delete()  # and leaves before playing
    _cached_equals_fresh(division)

    standings_rebuild(division=division)
    _cached_equals_fresh(division)


def _table_html(response) -> str:
    """The page's table (the rest of the page carries a CSRF token, a nonce)."""
    html = response.content.decode()
    return html[html.index('<table class="standings"') : html.index("</table>")]


def test_the_api_and_the_page_answer_the_fresh_table_after_a_game(client, division, teams, scorer):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token, _ = Token.objects.get_or_create(user=scorer)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    club = division.club
    api_url = f"/api/clubs/{club.slug}/standings/{division.pk}/"
    page_url = f"/clubs/{club.slug}/standings/divisions/{division.pk}/"
    client.force_login(scorer)
    cache.clear()
    api.get(api_url)
    client.get(page_url)  # both cached before the game
    play(division, teams[0], teams[1], A_WINS, user=scorer)
    cached = (api.get(api_url).json(), _table_html(client.get(page_url)))
    with override_settings(CACHES=NO_CACHE):
        fresh = (api.get(api_url).json(), _table_html(client.get(page_url)))
    assert cached == fresh
    assert cached[0]["rows"][0]["matches_won"] == 1
