"""The cup pages: a secretary creates, seeds and draws a cup; anyone who may read the club
sees the bracket; only club admins write."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services import setup

from .builders import round_robin

pytestmark = pytest.mark.django_db


def test_a_secretary_creates_a_cup_of_chosen_teams_and_draws_it(client, admin, club, league):
    _, teams = league
    client.force_login(admin)
    answer = client.post(
        reverse("cups:new", args=[club.slug]),
        {
            "name": "Winter Cup",
            "mode": "list",
            "entrant_kind": "teams",
            "teams": [t.pk for t in teams[:4]],
            "format": "single",
            "best_of": 1,
            "seeding": "random",
            "per": "division",
            "tie_rule": "lot",
        },
    )
    cup = Cup.objects.get(name="Winter Cup")
    assert answer.status_code == 302
    page = client.get(reverse("cups:detail", args=[club.slug, cup.pk]))
    cup.refresh_from_db()
    assert len(cup.seed_text) == 32  # the server's seed (none can be typed) is shown
    assert cup.seed_text in page.content.decode()
    client.post(reverse("cups:draw", args=[club.slug, cup.pk]))
    cup.refresh_from_db()
    assert cup.status == Cup.Status.DRAWN
    bracket = client.get(reverse("cups:bracket", args=[club.slug, cup.pk]))
    assert "Semi-finals" in bracket.content.decode()


def test_play_offs_waiting_for_their_division_say_why_they_cannot_be_built(
    client, admin, club, league
):
    division, teams = league
    round_robin(division, teams[:4])
    client.force_login(admin)
    client.post(
        reverse("cups:new", args=[club.slug]),
        {
            "name": "Play-offs",
            "mode": "divisions",
            "divisions": [division.pk],
            "top": 4,
            "per": "division",
            "tie_rule": "lot",
            "entrant_kind": "teams",
            "format": "single",
            "best_of": 1,
        },
    )
    cup = Cup.objects.get(name="Play-offs")
    answer = client.post(reverse("cups:build", args=[club.slug, cup.pk]), follow=True)
    assert "Premier is not finished: 6 fixture(s) have no result yet" in answer.content.decode()


def test_a_walkover_from_the_tie_page(client, admin, club, league):
    _, teams = league
    cup = setup.cup_draw(cup=setup.cup_create(club=club, name="K", teams=teams[:4]))
    tie = cup.ties.get(key="M1-1")
    client.force_login(admin)
    page = client.get(reverse("cups:tie", args=[club.slug, cup.pk, tie.pk]))
    assert "Start the game" in page.content.decode()
    client.post(
        reverse("cups:tie-walkover", args=[club.slug, cup.pk, tie.pk]),
        {"absent": "away"},
    )
    tie.refresh_from_db()
    assert tie.status == Tie.Status.WALKOVER


def test_a_viewer_sees_the_cup_but_cannot_draw(client, viewer, club, league):
    _, teams = league
    cup = setup.cup_create(club=club, name="K", teams=teams[:4])
    client.force_login(viewer)
    assert client.get(reverse("cups:detail", args=[club.slug, cup.pk])).status_code == 200
    answer = client.post(reverse("cups:draw", args=[club.slug, cup.pk]))
    assert answer.status_code == 403
    cup.refresh_from_db()
    assert cup.status == Cup.Status.SEEDED
