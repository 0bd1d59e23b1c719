"""The deal-entry page and the score sheet, as a scorer and a player see them."""

import pytest
from django.urls import reverse

from clabber_league.games import services
from clabber_league.games.models import Deal

from .conftest import made

pytestmark = pytest.mark.django_db


def _url(name, game, **kw):
    return reverse(f"games:{name}", kwargs={"club_slug": game.club.slug, "pk": game.pk, **kw})


def _form(**fields):
    base = {
        "round": "1",
        "turned": "hearts",
        "maker_seat": "0",
        "trump": "hearts",
        "points_A": "100",
        "last_trick": "A",
    }
    base.update(fields)
    return {k: v for k, v in base.items() if v is not None}


def test_the_scorer_enters_one_sides_points_and_the_other_is_derived(client, game, scorer):
    client.force_login(scorer)
    response = client.post(_url("deal-new", game), _form(points_A="100"))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.data["points"] == {"A": 100, "B": 52}
    assert deal.scores == {"A": 110, "B": 52}
    assert deal.maker_seat == 0 and deal.maker == "A"


def test_a_rejected_deal_shows_the_message_beside_its_field_and_saves_nothing(client, game, scorer):
    client.force_login(scorer)
    response = client.post(_url("deal-new", game), _form(points_A="151"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="err-points_A"' in html or 'id="err-points_B"' in html
    errors = response.context["form"].errors
    assert set(errors) & {"points_A", "points_B"}
    assert Deal.objects.count() == 0


def test_a_second_round_trump_equal_to_the_turned_suit_is_rejected_on_trump(client, game, scorer):
    client.force_login(scorer)
    response = client.post(_url("deal-new", game), _form(round="2", turned="hearts"))
    assert response.status_code == 200
    assert "trump" in response.context["form"].errors or "turned" in response.context["form"].errors
    assert Deal.objects.count() == 0


def test_a_meld_error_lands_on_its_row(client, game, scorer):
    client.force_login(scorer)
    # a run of three topped by the 10 cannot exist in the 24-card pack (10-9-8)
    response = client.post(
        _url("deal-new", game),
        _form(meld_0_seat="0", meld_0_kind="run-3", meld_0_suit="spades", meld_0_top="10"),
    )
    assert response.status_code == 200
    assert "meld_0_top" in response.context["form"].errors
    assert Deal.objects.count() == 0


def test_the_preview_answers_the_sheet_numbers_without_saving(client, game, scorer):
    client.force_login(scorer)
    response = client.post(
        _url("deal-preview", game), _form(points_A="60", last_trick="B"), HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "XX" in html and "102" in html
    assert 'hx-swap-oob="true"' in html
    assert Deal.objects.count() == 0


def test_a_passed_out_deal_needs_nothing_else(client, game, scorer):
    client.force_login(scorer)
    response = client.post(_url("deal-new", game), {"passed": "on"})
    assert response.status_code == 302
    assert Deal.objects.get().outcome == "passed"


def test_the_sheet_shows_XX_dash_check_and_W(client, game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 60, last="B"), user=scorer)  # A set: XX
    services.deal_record(game_id=game.pk, data=made("A", 152), user=scorer)  # B took nothing: "-"
    for _ in range(3):  # A reaches 162 + 3 * 152 = 618
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
    client.force_login(scorer)
    response = client.get(_url("detail", game))
    html = response.content.decode()
    sheet = response.context["sheet"]
    assert [c.text for c in sheet.rows[0].cells] == ["XX", "102"]
    assert [c.text for c in sheet.rows[1].cells] == ["162", "-"]
    assert sheet.rows[0].check == 102
    assert sheet.winner == "A"
    assert 'title="Winner">W</b>' in html
    assert "mark-set" in html


def test_the_correction_page_starts_from_the_recorded_deal(client, game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 100), maker_seat=2, user=scorer)
    client.force_login(scorer)
    response = client.get(_url("deal-edit", game, number=1))
    form = response.context["form"]
    assert form.initial["points_A"] == 100 and form.initial["maker_seat"] == 2
    assert "points_B" not in form.initial  # derived from A's, as when it was entered
    response = client.post(
        _url("deal-edit", game, number=1), _form(points_A="60", last_trick="B", maker_seat="2")
    )
    assert response.status_code == 302
    assert Deal.objects.get().scores == {"A": 0, "B": 102}
