"""The score sheet's last row says what its totals are: "Final" only for a finished game
(issue 12: a game in progress showed a "FINAL" row)."""

import re

import pytest
from django.urls import reverse

from clabber_league.games import services

from .conftest import made

pytestmark = pytest.mark.django_db


def _totals_row_label(client, game) -> str:
    html = client.get(
        reverse("games:detail", kwargs={"club_slug": game.club.slug, "pk": game.pk})
    ).content.decode()
    foot = html[html.index("<tfoot") : html.index("</tfoot>")]
    return re.search(r'<th scope="row">([^<]*)</th>', foot).group(1)


def test_the_totals_row_of_a_game_in_progress_is_not_final(client, game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    client.force_login(scorer)
    assert _totals_row_label(client, game) == "Now"
    while game.status == "in_progress":
        services.deal_record(game_id=game.pk, data=made("A", 142), user=scorer)
        game.refresh_from_db()
    assert _totals_row_label(client, game) == "Final"


def test_an_abandoned_game_has_no_final_totals(client, game, scorer):
    services.deal_record(game_id=game.pk, data=made("A", 100), user=scorer)
    services.game_abandon(game=game, user=scorer)
    client.force_login(scorer)
    assert _totals_row_label(client, game) == "When abandoned"
