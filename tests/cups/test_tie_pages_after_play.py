"""A cup's pages as the secretary plays it out: "Start the game" opens the game's deal
entry (the first deal is what comes next, not the empty sheet), only rounds with a tie
still to play can be placed on league nights, and a finished cup offers none."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clabber_league.cups.models import Cup
from clabber_league.cups.services import progress, setup

pytestmark = pytest.mark.django_db

PLACE = "Place a round on league nights"


def test_start_the_game_lands_on_deal_entry(client, admin, club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    tie = cup.ties.get(key="M1-1")
    client.force_login(admin)
    started = client.post(reverse("cups:tie-start", args=[club.slug, cup.pk, tie.pk]))
    game = tie.tie_games.get().game
    assert started.status_code == 302
    assert started["Location"] == reverse("games:deal-new", args=[club.slug, game.pk])


def test_only_rounds_still_to_play_are_offered_and_none_once_the_cup_is_finished(
    client, admin, club, league
):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    client.force_login(admin)
    url = reverse("cups:detail", args=[club.slug, cup.pk])

    def offered() -> list[str]:
        form = client.get(url).context["place_form"]
        return [label for _, label in form.fields["section"].choices]

    assert len(offered()) == 2  # the semi-finals and the final
    for key in ("M1-1", "M1-2"):
        progress.tie_walkover(tie=cup.ties.get(key=key), absent="away", user=admin)
    assert len(offered()) == 1  # only the final is left to place
    progress.tie_walkover(tie=cup.ties.get(key="M2-1"), absent="away", user=admin)
    cup.refresh_from_db()
    assert cup.status == Cup.Status.FINISHED
    assert offered() == []
    assert PLACE not in client.get(url).content.decode()
