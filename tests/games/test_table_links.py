"""Table links: the phone at a table scores its one game without an account, until the
game is confirmed or the link is revoked; the history says which table entered a deal."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from clabber_league.games import services, table_links
from clabber_league.games.models import Deal, DealRevision, Game, TableLink
from clabber_league.games.table_links import (
    LINK_EXPIRED,
    LINK_GAME_ABANDONED,
    LINK_GAME_CONFIRMED,
    LINK_NOT_HERE,
    LINK_OTHER_CLUB,
    LINK_OTHER_GAME,
    LINK_REVOKED,
    LINK_TAMPERED,
    TableLinkError,
    table_link_issue,
    table_link_revoke,
    table_link_token,
)

from .conftest import made

pytestmark = pytest.mark.django_db

DEAL_FORM = {
    "round": "1",
    "turned": "hearts",
    "maker_seat": "0",
    "trump": "hearts",
    "points_A": "100",
    "last_trick": "A",
}


def _url(name, game, **kw):
    return reverse(f"games:{name}", kwargs={"club_slug": game.club.slug, "pk": game.pk, **kw})


def _deals_url(game, *rest):
    name = "deal-list" if not rest else rest[0]
    kwargs = {"club_slug": game.club.slug, "game_id": game.pk}
    if len(rest) > 1:
        kwargs["pk"] = rest[1]
    return reverse(name, kwargs=kwargs)


def _says(response, message):
    return escape(message) in response.content.decode()


def _open(client, link):
    return client.get(table_links.table_link_path(link))


@pytest.fixture
def link(game, scorer):
    return table_link_issue(game=game, table_label="3", user=scorer)


@pytest.fixture
def second_game(club, division, teams, scorer):
    a, b = teams
    a_players = [m.player for m in a.members.order_by("position")]
    b_players = [m.player for m in b.members.order_by("position")]
    seats = [a_players[0], b_players[0], a_players[1], b_players[1]]
    return services.game_start(
        club=club, division=division, sides={"A": a, "B": b}, seats=seats, user=scorer
    )


@pytest.fixture
def other_club_game(db):
    from tests.factories import DivisionFactory, TeamFactory

    division = DivisionFactory(ruleset="clabber")
    a, b = TeamFactory(division=division), TeamFactory(division=division)
    seats = [
        a.members.order_by("position")[0].player,
        b.members.order_by("position")[0].player,
        a.members.order_by("position")[1].player,
        b.members.order_by("position")[1].player,
    ]
    return services.game_start(
        club=division.club, division=division, sides={"A": a, "B": b}, seats=seats
    )


# --- the pages: scan, enter a deal, see the table in the history ----------------------------


def test_a_scanned_link_opens_the_deal_entry_and_records_as_the_table(client, game, link):
    response = _open(client, link)
    assert response.status_code == 302
    assert response["Location"] == _url("deal-new", game)
    assert client.get(_url("deal-new", game)).status_code == 200

    response = client.post(_url("deal-new", game), DEAL_FORM)

    assert response.status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.entered_at_table == "3" and deal.created_by is None
    sheet = client.get(_url("detail", game)).content.decode()
    assert "entered at table 3 (table link)" in sheet


def test_the_phone_corrects_previews_and_deletes_deals_of_its_game(client, game, link):
    services.deal_record(game_id=game.pk, data=made(a=100))
    _open(client, link)
    preview = client.post(_url("deal-preview", game), DEAL_FORM)
    assert preview.status_code == 200
    edited = client.post(_url("deal-edit", game, number=1), {**DEAL_FORM, "points_A": "90"})
    assert edited.status_code == 302
    assert Deal.objects.get(game=game).data["points"]["A"] == 90
    assert client.post(_url("deal-delete", game, number=1)).status_code == 302
    actions = list(
        DealRevision.objects.filter(game=game, entered_at_table="3").values_list(
            "action", flat=True
        )
    )
    assert actions == ["update", "delete"]


def test_the_link_scores_its_own_game_only(client, game, second_game, link):
    _open(client, link)
    response = client.get(_url("deal-new", second_game))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.post(_url("deal-new", second_game), DEAL_FORM)
    assert not Deal.objects.filter(game=second_game).exists()
    # nor anything beyond the deals: confirming, abandoning, managing the link
    assert client.post(_url("abandon", game)).status_code == 302
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS
    assert client.post(_url("table-link-revoke", game)).status_code == 302
    assert TableLink.objects.get(pk=link.pk).revoked_at is None


def test_a_tampered_link_is_refused_with_a_clear_page(client, game, link):
    token = table_link_token(link)
    for bad in [token[:-2] + "xx", f"{link.pk + 1}.{link.nonce}:" + token.split(":")[1], "x"]:
        response = client.get(reverse("table-link", kwargs={"token": bad}))
        assert response.status_code == 403
        assert _says(response, LINK_TAMPERED)
    assert client.get(_url("deal-new", game)).status_code == 302  # nothing was granted


def test_a_revoked_link_stops_at_once_and_says_why(client, game, link, admin):
    _open(client, link)
    table_link_revoke(game=game, user=admin)

    again = _open(client, link)
    on_the_phone = client.post(_url("deal-new", game), DEAL_FORM)

    assert again.status_code == 403 and _says(again, LINK_REVOKED)
    assert on_the_phone.status_code == 403 and _says(on_the_phone, LINK_REVOKED)
    assert not Deal.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("status", "message"),
    [(Game.Status.CONFIRMED, LINK_GAME_CONFIRMED), (Game.Status.ABANDONED, LINK_GAME_ABANDONED)],
)
def test_a_confirmed_or_abandoned_game_no_longer_takes_the_link(
    client, game, link, status, message
):
    _open(client, link)
    Game.objects.filter(pk=game.pk).update(status=status)
    response = client.get(_url("deal-new", game))
    assert response.status_code == 403 and _says(response, message)
    assert _open(client, link).status_code == 403


def test_an_expired_link_is_refused(client, game, link):
    TableLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    response = _open(client, link)
    assert response.status_code == 403 and _says(response, LINK_EXPIRED)


def test_a_finished_game_opens_on_its_acceptance_screen(client, game, link):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = _open(client, link)
    assert response["Location"] == reverse(
        "members:handover", kwargs={"club_slug": game.club.slug, "pk": game.pk}
    )


def test_a_logged_in_scorer_keeps_their_name_in_the_history(client, game, link, scorer):
    client.force_login(scorer)
    _open(client, link)
    client.post(_url("deal-new", game), DEAL_FORM)
    deal = Deal.objects.get(game=game)
    assert deal.created_by == scorer and deal.entered_at_table == ""


def test_the_table_card_shows_the_qr_seats_and_first_dealer(client, game, scorer):
    client.force_login(scorer)
    response = client.get(_url("table-card", game))
    html = response.content.decode()
    assert response.status_code == 200
    link = TableLink.objects.get(game=game)
    assert table_link_token(link) in html and "<svg" in html
    first = game.seats.get(seat=game.first_dealer).player.name
    assert "Deals first" in html and first in html


def test_a_viewer_sees_no_table_link(client, game, viewer, link):
    client.force_login(viewer)
    html = client.get(_url("detail", game)).content.decode()
    assert table_link_token(link) not in html
    assert client.get(_url("table-card", game)).status_code == 403


def test_a_club_admin_revokes_and_issues_from_the_pages(client, game, link, admin):
    client.force_login(admin)
    client.post(_url("table-link-new", game), {"table_label": "7"})
    new = TableLink.objects.get(game=game, revoked_at__isnull=True)
    assert new.pk != link.pk and new.table_label == "7"
    client.post(_url("table-link-revoke", game))
    assert not TableLink.objects.filter(game=game, revoked_at__isnull=True).exists()


# --- the API: Authorization: Table <token> ------------------------------------------------


def _table_client(link):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Table {table_link_token(link)}")
    return client


def test_the_api_records_a_deal_with_the_table_header_once(game, link):
    client = _table_client(link)
    body = made(a=100)
    first = client.post(_deals_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    retry = client.post(_deals_url(game), body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201, first.content
    assert retry.json()["id"] == first.json()["id"]
    assert first.json()["entered_at_table"] == "3"
    assert Deal.objects.filter(game=game).count() == 1
    history = client.get(
        reverse("game-history-list", kwargs={"club_slug": game.club.slug, "game_id": game.pk})
    )
    assert history.json()["results"][0]["entered_at_table"] == "3"


def test_the_api_corrects_previews_and_reads_the_game(game, link):
    client = _table_client(link)
    deal = services.deal_record(game_id=game.pk, data=made(a=100)).deal
    assert client.post(_deals_url(game, "deal-preview"), made(a=90)).status_code == 200
    assert client.put(_deals_url(game, "deal-detail", deal.pk), made(a=90)).status_code == 200
    game_url = reverse("game-detail", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    assert client.get(game_url).status_code == 200
    assert client.delete(_deals_url(game, "deal-detail", deal.pk)).status_code == 204


def test_the_api_refuses_the_link_on_another_game_and_another_club(
    game, second_game, other_club_game, link
):
    client = _table_client(link)
    other_game = client.post(_deals_url(second_game), made(), format="json")
    other_club = client.post(_deals_url(other_club_game), made(), format="json")
    assert other_game.status_code == 403
    assert other_game.json()["errors"][0]["message"] == LINK_OTHER_GAME
    assert other_club.status_code == 403
    assert other_club.json()["errors"][0]["message"] == LINK_OTHER_CLUB
    assert not Deal.objects.exists()


def test_the_api_refuses_anything_but_the_deals(game, link):
    client = _table_client(link)
    kwargs = {"club_slug": game.club.slug, "pk": game.pk}
    for name in ["game-confirm", "game-abandon", "game-table-link-revoke"]:
        response = client.post(reverse(name, kwargs=kwargs))
        assert response.status_code == 403, name
        assert response.json()["errors"][0]["message"] == LINK_NOT_HERE


def test_the_api_refuses_a_revoked_or_tampered_token(game, link):
    table_link_revoke(game=game)
    revoked = _table_client(link).post(_deals_url(game), made(), format="json")
    assert revoked.status_code == 403
    assert revoked.json()["errors"][0]["message"] == LINK_REVOKED
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Table 1.abc:forged")
    tampered = client.post(_deals_url(game), made(), format="json")
    assert tampered.status_code == 403
    assert tampered.json()["errors"][0]["message"] == LINK_TAMPERED


def test_scorers_read_the_link_and_admins_renew_and_revoke_it(game, scorer, admin):
    url = reverse("game-table-link", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    client = APIClient()
    client.force_authenticate(scorer)
    got = client.get(url)
    assert got.status_code == 200
    assert got.json()["url"].startswith("http://testserver/t/")
    assert client.post(url, {"table_label": "5"}, format="json").status_code == 403
    client.force_authenticate(admin)
    renewed = client.post(url, {"table_label": "5"}, format="json")
    assert renewed.status_code == 201 and renewed.json()["table_label"] == "5"
    assert renewed.json()["token"] != got.json()["token"]
    revoke = reverse("game-table-link-revoke", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    assert client.post(revoke).status_code == 200
    assert client.post(revoke).status_code == 409
    assert client.get(url).status_code == 409  # revoked: not silently replaced


# --- the services -----------------------------------------------------------------------


def test_issuing_a_new_link_revokes_the_old_one(game, link):
    new = table_link_issue(game=game)
    link.refresh_from_db()
    assert link.revoked_at is not None and new.table_label == "3"
    with pytest.raises(TableLinkError) as refused:
        table_links.table_link_check(table_link_token(link))
    assert refused.value.errors[0]["message"] == LINK_REVOKED
    assert table_links.table_link_check(table_link_token(new)) == new


def test_a_closed_game_gets_no_link(game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CONFIRMED)
    game.refresh_from_db()
    with pytest.raises(TableLinkError):
        table_link_issue(game=game)
    assert table_links.table_link_ensure(game=game) is None


def test_ensure_issues_the_first_link_once_and_never_after_a_revoke(game):
    first = table_links.table_link_ensure(game=game)
    assert table_links.table_link_ensure(game=game) == first
    table_link_revoke(game=game)
    assert table_links.table_link_ensure(game=game) is None


def test_a_link_takes_the_fixtures_table_by_default(game, teams, division, club):
    from clabber_league.scheduling.models import Fixture

    a, b = teams
    fixture = Fixture.objects.create(
        club=club, division=division, round_number=1, home=a, away=b, table=4
    )
    Game.objects.filter(pk=game.pk).update(fixture=fixture)
    assert table_link_issue(game=game).table_label == "4"


def test_a_table_name_is_short(game):
    with pytest.raises(TableLinkError) as refused:
        table_link_issue(game=game, table_label="x" * 41)
    assert refused.value.errors[0]["field"] == "table_label"


# --- where the links are printed: the night sheet and the night's fixtures ---------------


@pytest.fixture
def night_game(game, teams, division, club):
    from clabber_league.scheduling.models import Fixture

    a, b = teams
    fixture = Fixture.objects.create(
        club=club,
        division=division,
        round_number=1,
        home=a,
        away=b,
        table=2,
        date=dt.date(2026, 9, 7),
    )
    Game.objects.filter(pk=game.pk).update(fixture=fixture)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("page", ["night-sheet", "night"])
def test_the_night_shows_each_games_table_link_to_scorers_only(
    client, night_game, scorer, viewer, page
):
    url = reverse(
        f"scheduling:{page}", kwargs={"club_slug": night_game.club.slug, "day": "2026-09-07"}
    )
    client.force_login(scorer)
    html = client.get(url).content.decode()
    link = TableLink.objects.get(game=night_game)
    assert link.table_label == "2"
    assert _url("table-card", night_game) in html
    if page == "night-sheet":
        assert table_link_token(link) in html and "<svg" in html
    client.force_login(viewer)
    html = client.get(url).content.decode()
    assert table_link_token(link) not in html and _url("table-card", night_game) not in html
