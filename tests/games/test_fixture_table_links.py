"""A fixture's own table link, printed on the night sheet before its game starts:
scanned at the table (no login) it starts that fixture's game, then scores that game only,
until the game is confirmed or the link revoked."""

import datetime as dt
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from clabber_league.games import services, table_links
from clabber_league.games.models import Deal, Game, TableLink
from clabber_league.games.table_links import (
    LINK_FIXTURE_DECIDED,
    LINK_NOT_STARTED,
    LINK_OTHER_CLUB,
    LINK_OTHER_GAME,
    LINK_REVOKED,
    LINK_TAMPERED,
    fixture_link_issue,
    fixture_link_revoke,
    table_link_token,
)

from .conftest import made

pytestmark = pytest.mark.django_db

NIGHT = dt.date(2026, 9, 7)
DEAL_FORM = {
    "round": "1",
    "turned": "hearts",
    "maker_seat": "0",
    "trump": "hearts",
    "points_A": "100",
    "last_trick": "A",
}


@pytest.fixture
def fixture(club, division, teams):
    from clabber_league.scheduling.models import Fixture

    a, b = teams
    return Fixture.objects.create(
        club=club, division=division, round_number=1, home=a, away=b, table=4, date=NIGHT
    )


@pytest.fixture
def link(fixture, scorer):
    return fixture_link_issue(fixture=fixture, user=scorer)


def _seats(teams):
    a, b = teams
    a_players = [m.player for m in a.members.order_by("position")]
    b_players = [m.player for m in b.members.order_by("position")]
    return [a_players[0], b_players[0], a_players[1], b_players[1]]


def _seats_form(teams, dealer=1):
    form = {f"seat_{i}": str(p.pk) for i, p in enumerate(_seats(teams))}
    return {**form, **{f"sub_{i}": "" for i in range(4)}, "first_dealer": str(dealer)}


def _path(link):
    return table_links.table_link_path(link)


def _game_url(name, game, **kw):
    return reverse(f"games:{name}", kwargs={"club_slug": game.club.slug, "pk": game.pk, **kw})


def _says(response, message):
    return escape(message) in response.content.decode()


def _table_client(link):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    return client


def test_the_night_sheet_shows_a_fixtures_link_before_its_game_to_scorers_only(
    client, fixture, scorer, viewer
):
    url = reverse("scheduling:night-sheet", kwargs={"club_slug": fixture.club.slug, "day": NIGHT})
    client.force_login(scorer)
    html = client.get(url).content.decode()
    link = TableLink.objects.get(fixture=fixture)
    assert link.game is None and link.table_label == "4"
    assert table_link_token(link) in html and "<svg" in html
    kwargs = {"club_slug": fixture.club.slug, "fixture_pk": fixture.pk}
    card = reverse("games:fixture-table-card", kwargs=kwargs)
    assert card in html
    assert table_link_token(link) in client.get(card).content.decode()
    client.force_login(viewer)
    html = client.get(url).content.decode()
    assert table_link_token(link) not in html
    assert client.get(card).status_code == 403


def test_scanning_it_starts_that_fixtures_game_then_scores_it(client, fixture, link, teams):
    opened = client.get(_path(link))
    assert opened.status_code == 302 and opened["Location"].endswith("/start/")
    page = client.get(opened["Location"])
    assert page.status_code == 200
    assert "Mules" in page.content.decode() and "Dads" in page.content.decode()

    started = client.post(opened["Location"], _seats_form(teams, dealer=1))

    game = Game.objects.get(fixture=fixture)
    assert started.status_code == 302 and started["Location"] == _game_url("deal-new", game)
    assert game.first_dealer == 1 and game.created_by is None
    link.refresh_from_db()
    assert link.game == game
    assert client.post(_game_url("deal-new", game), DEAL_FORM).status_code == 302
    assert Deal.objects.get(game=game).entered_at_table == "4"
    again = client.get(_path(link))  # the same card, scanned again: the game's deal entry
    assert again["Location"] == _game_url("deal-new", game)
    api = _table_client(link).post(
        reverse("deal-list", kwargs={"club_slug": game.club.slug, "game_id": game.pk}),
        made(a=90),
        format="json",
    )
    assert api.status_code == 201, api.content


def test_the_started_games_link_scores_that_game_only(client, fixture, link, teams, game):
    client.post(_path(link) + "start/", _seats_form(teams))
    started = Game.objects.get(fixture=fixture)
    other = client.get(_game_url("deal-new", game))
    assert other.status_code == 302 and "/accounts/login/" in other["Location"]
    link.refresh_from_db()
    refused = _table_client(link).post(
        reverse("deal-list", kwargs={"club_slug": game.club.slug, "game_id": game.pk}),
        made(),
        format="json",
    )
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["message"] == LINK_OTHER_GAME
    assert not Deal.objects.filter(game=game).exists()
    assert started.pk != game.pk


def test_before_the_game_starts_the_link_opens_no_api(fixture, link, game):
    url = reverse("deal-list", kwargs={"club_slug": game.club.slug, "game_id": game.pk})
    refused = _table_client(link).post(url, made(), format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["message"] == LINK_NOT_STARTED


def test_a_game_a_scorer_started_for_the_fixture_takes_its_waiting_link(
    client, fixture, link, teams, division, club
):
    game = services.game_start(
        club=club,
        division=division,
        sides={"A": teams[0], "B": teams[1]},
        seats=_seats(teams),
        fixture=fixture,
    )
    opened = client.get(_path(link))
    assert opened["Location"] == _game_url("deal-new", game)
    link.refresh_from_db()
    assert link.game == game
    assert table_links.table_link_ensure(game=game) == link  # its cards show the same QR


def test_refusals_revoked_tampered_decided_and_other_club(client, fixture, link, teams):
    fixture_link_revoke(fixture=fixture)
    for path in [_path(link), _path(link) + "start/"]:
        revoked = client.get(path)
        assert revoked.status_code == 403 and _says(revoked, LINK_REVOKED)
    assert client.post(_path(link) + "start/", _seats_form(teams)).status_code == 403
    assert not Game.objects.filter(fixture=fixture).exists()

    tampered = client.get(reverse("table-link", kwargs={"token": "1.abc:forged"}))
    assert tampered.status_code == 403 and _says(tampered, LINK_TAMPERED)

    fresh = fixture_link_issue(fixture=fixture)
    type(fixture).objects.filter(pk=fixture.pk).update(status="forfeit")
    decided = client.get(_path(fresh))
    assert decided.status_code == 403 and _says(decided, LINK_FIXTURE_DECIDED)


def test_a_started_fixture_link_is_refused_in_another_club(client, fixture, link, teams):
    from tests.factories import DivisionFactory, TeamFactory

    client.post(_path(link) + "start/", _seats_form(teams))
    link.refresh_from_db()
    division = DivisionFactory(ruleset="clabber")
    a, b = TeamFactory(division=division), TeamFactory(division=division)
    other = services.game_start(
        club=division.club,
        division=division,
        sides={"A": a, "B": b},
        seats=[
            a.members.order_by("position")[0].player,
            b.members.order_by("position")[0].player,
            a.members.order_by("position")[1].player,
            b.members.order_by("position")[1].player,
        ],
    )
    url = reverse("deal-list", kwargs={"club_slug": other.club.slug, "game_id": other.pk})
    refused = _table_client(link).post(url, made(), format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["message"] == LINK_OTHER_CLUB


def test_a_club_admin_revokes_and_issues_the_fixtures_link(client, fixture, link, admin):
    client.force_login(admin)
    kwargs = {"club_slug": fixture.club.slug, "fixture_pk": fixture.pk}
    client.post(reverse("games:fixture-table-link-revoke", kwargs=kwargs))
    link.refresh_from_db()
    assert link.revoked_at is not None
    client.post(reverse("games:fixture-table-link-new", kwargs=kwargs), {"table_label": "7"})
    fresh = TableLink.objects.get(fixture=fixture, revoked_at__isnull=True)
    assert fresh.table_label == "7" and fresh.game is None
    card = client.get(reverse("games:fixture-table-card", kwargs=kwargs)).content.decode()
    assert table_link_token(fresh) in card


def test_a_fixtures_link_printed_weeks_ahead_works_until_the_fixture_is_decided(
    client, fixture, scorer, settings
):
    link = fixture_link_issue(fixture=fixture, user=scorer)
    assert link.expires_at is None  # not a game link's seven days
    later = timezone.now() + dt.timedelta(days=60)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert table_links.table_link_check(table_link_token(link)) == link
    type(fixture).objects.filter(pk=fixture.pk).update(status="forfeit")
    answer = client.get(_path(link))
    assert answer.status_code == 403 and _says(answer, LINK_FIXTURE_DECIDED)

    settings.CLABBER_FIXTURE_LINK_DAYS = 3  # an operator who wants them shorter
    type(fixture).objects.filter(pk=fixture.pk).update(status="scheduled")
    fixture.refresh_from_db()
    short = fixture_link_issue(fixture=fixture, user=scorer)
    left = short.expires_at - timezone.now()
    assert dt.timedelta(days=2, hours=23) < left <= dt.timedelta(days=3)
