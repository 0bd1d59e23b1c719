"""Names, everywhere a person reads a result: the club page, the confirmation at the table,
a player's games, a dispute's page and email, a cup tie and the message after the last deal
name the teams or players, never "side A", and say who won in a sentence that is grammatical
for a team, a pair and one player alike ("won by Bud Hartig")."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from clabber_league.clubs.models import Role
from clabber_league.games import services
from clabber_league.games.models import Game
from clabber_league.members import services as member_services
from tests.factories import MembershipFactory, PlayerFactory, UserFactory

from .conftest import made

pytestmark = pytest.mark.django_db

#: A side letter standing where a name belongs: "A 479", "side B", "B won", "A v B".
LETTERS = re.compile(r"\b(side [ABC]\b|[ABC] (won|\d)|[ABC] v [ABC]\b)")


def _club_night_game(club, names, rules="clabber"):
    """A game outside any league (a club night's table): sides without teams."""
    players = [PlayerFactory(club=club, name=name) for name in names]
    return services.game_start(club=club, seats=players, rules=rules)


def _finish(game, data):
    while game.status == Game.Status.IN_PROGRESS:
        services.deal_record(game_id=game.pk, data=data)
        game = Game.objects.get(pk=game.pk)
    return game


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_club_page_names_the_players_of_a_game_without_teams(client, club, scorer):
    four = _finish(_club_night_game(club, ["Ann", "Bob", "Cy", "Di"]), made("B", 40, "B"))
    three = _club_night_game(club, ["Bud Hartig", "Eve", "Flo"], rules="clabber-3")
    client.force_login(scorer)
    page = _text(client.get(reverse("club-home", kwargs={"club_slug": club.slug})))
    assert "Ann &amp; Cy v Bob &amp; Di" in page
    assert f"Ann &amp; Cy {four.score_a} · Bob &amp; Di {four.score_b}" in page
    assert "won by Bob &amp; Di" in page
    assert "Bud Hartig v Eve v Flo" in page
    assert "Game" in page and not LETTERS.search(page.replace(str(three.pk), ""))


def test_the_last_deal_says_who_won_grammatically_for_one_player(client, club, scorer):
    game = _club_night_game(club, ["Bud Hartig", "Eve", "Flo"], rules="clabber-3")
    client.force_login(scorer)
    url = reverse("games:deal-new", kwargs={"club_slug": club.slug, "pk": game.pk})
    deal = {
        "round": "1",
        "turned": "hearts",
        "maker_seat": "0",
        "trump": "hearts",
        "points_A": "100",
        "points_B": "30",
        "last_trick": "A",
    }
    for _ in range(20):
        response = client.post(url, deal, follow=True)
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            break
    assert game.winner == "A"
    said = [str(m) for m in response.context["messages"]]
    assert any(m.endswith("Game over: won by Bud Hartig.") for m in said), said
    assert not any(LETTERS.search(m) for m in said), said


def test_the_confirmation_page_and_a_dispute_name_the_sides(
    client, club, scorer, game, django_capture_on_commit_callbacks
):
    game = _finish(game, made("A", 120, "A"))
    admin = MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", email="sec@example.org")
    ).user
    client.force_login(scorer)
    handover = _text(
        client.get(reverse("members:handover", kwargs={"club_slug": club.slug, "pk": game.pk}))
    )
    # The acceptance screen's final sheet: each team, its players and its points.
    sheet = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", handover))
    assert re.search(rf"Mules [^<]*? {game.score_a} Dads [^<]*? {game.score_b} Mules won\.", sheet)
    assert "Mules won." in handover
    assert not LETTERS.search(handover)

    with django_capture_on_commit_callbacks(execute=True):
        member_services.dispute_raise(
            game=game, device_user=scorer, reason="Deal 3 was 90, not 120."
        )
    [message] = mail.outbox
    assert (
        f"(Mules v Dads, {game.division.name}: Mules {game.score_a} · Dads {game.score_b})"
        in message.body
    )
    client.force_login(admin)
    dispute = game.disputes.get()
    page = _text(
        client.get(reverse("members:dispute", kwargs={"club_slug": club.slug, "pk": dispute.pk}))
    )
    assert f"Score: Mules {game.score_a} · Dads {game.score_b}" in page
