"""Impossible deals (issue 29, RULES.md section 5): card points that no deal of the cards
gives beside the cards shown in melds and the bell are refused at the table, through the
deal API, with a 400 naming the field, and nothing is written."""

import pytest
from rest_framework.test import APIClient

from clabber_league.games import services
from clabber_league.games.models import Deal
from tests.factories import DivisionFactory, MembershipFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db


def _two_handed_game(ruleset: str):
    from clabber_league.clubs.models import Role

    division = DivisionFactory(ruleset=ruleset)
    a = TeamFactory(division=division, name="Mules", members=1)
    b = TeamFactory(division=division, name="Dads", members=1)
    scorer = MembershipFactory(
        club=division.club, role=Role.SCORER, user=UserFactory(username=f"scorer-{ruleset}")
    ).user
    seats = [a.members.get().player, b.members.get().player]
    game = services.game_start(
        club=division.club, division=division, sides={"A": a, "B": b}, seats=seats, user=scorer
    )
    client = APIClient()
    client.force_authenticate(scorer)
    return game, client, f"/api/clubs/{game.club.slug}/games/{game.pk}/deals/"


def _run(suit: str, top: str, length: int) -> dict:
    return {"kind": "sequence", "suit": suit, "top": top, "length": length}


KLABERJASS = {
    "maker": "A",
    "trump": "clubs",
    "points": {"A": 90, "B": 50},
    "last_trick": "A",
    "melds": {"A": [_run("hearts", "9", 3)]},
}
ZENSA = {
    "maker": "A",
    "trump": "hearts",
    "points": {"A": 80, "B": 50},
    "last_trick": "A",
    "melds": {"A": [_run("hearts", "K", 7)], "B": [_run("clubs", "A", 6)]},
}


@pytest.mark.parametrize(
    ("ruleset", "body"), [("klaberjass", KLABERJASS), ("zensa", ZENSA)], ids=["klaberjass", "zensa"]
)
def test_card_points_no_deal_of_the_cards_gives_are_refused_and_nothing_is_written(ruleset, body):
    game, client, url = _two_handed_game(ruleset)
    response = client.post(url, body, format="json")
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == ["points"]
    assert "shown" in errors[0]["message"]
    assert Deal.objects.filter(game=game).count() == 0
    preview = client.post(f"{url}preview/", body, format="json")
    assert preview.status_code == 400
    assert [e["field"] for e in preview.json()["errors"]] == ["points"]
    # The same card points without the melds are a deal the cards can give.
    plain = {key: value for key, value in body.items() if key != "melds"}
    assert client.post(url, plain, format="json").status_code == 201
    assert Deal.objects.filter(game=game).count() == 1
