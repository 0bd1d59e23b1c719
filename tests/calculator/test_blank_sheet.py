"""A blank score sheet per rule set, to print: a column per side, the check column, the
running totals, enough rows for a game; linked from the rules page and the club page."""

import pytest
from django.urls import reverse

from clabber_league.calculator.views import sheet_rows
from clabber_league.rules import BUILTIN_RULESETS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", sorted(s for s in BUILTIN_RULESETS if "klaverjas" not in s))
def test_every_rule_set_has_a_blank_sheet_with_a_column_per_side(client, slug):
    ruleset = BUILTIN_RULESETS[slug]
    page = client.get(reverse("rules-sheet", args=[slug]))
    assert page.status_code == 200
    html = page.content.decode()
    for side in ruleset.sides:
        assert f"Side {side}</th>" in html and f"Total {side}</th>" in html
    assert ">Check</th>" in html
    assert f"Game to {ruleset.target}." in html
    assert html.count('<td class="check">') == sheet_rows(ruleset.target, ruleset.deals_per_game)


@pytest.mark.parametrize("slug", ["klaverjas-rotterdams", "klaverjas-amsterdams"])
def test_the_klaverjas_tally_sheet_has_points_and_roem_per_pair_and_a_row_per_deal(client, slug):
    html = client.get(reverse("rules-sheet", args=[slug])).content.decode()
    for side in ("A", "B"):
        assert f"Pair {side}</th>" in html
    assert html.count(">Points</th>") == html.count(">Roem</th>") == 2
    assert "A game of 16 deals." in html
    assert "add up to 162" in html and "<b>nat</b>" in html and "<b>pit</b>" in html
    assert html.count('<tr><td class="num">') == 16


def test_the_clabber_sheet_says_what_a_played_out_deal_adds_up_to(client):
    html = client.get(reverse("rules-sheet", args=["clabber"])).content.decode()
    assert "A deal played out adds up to 162 plus the melds and bell" in html


def test_an_unknown_rule_set_has_no_sheet(client):
    assert client.get("/rules/whist/sheet/").status_code == 404


def test_the_rules_page_and_the_club_page_link_the_sheet(client, club, division):
    club.is_public = True
    club.save()
    url = reverse("rules-sheet", args=[division.ruleset])
    assert url in client.get(reverse("rules")).content.decode()
    assert url in client.get(reverse("club-home", args=[club.slug])).content.decode()


def test_a_clubs_house_rules_have_their_own_sheet_linked_from_the_club_page(client, club, division):
    from clabber_league.leagues.services import division_update, house_rules_save
    from tests.factories import ClubFactory

    thursday = house_rules_save(
        club=club, name="Thursday rules", base="clabber", options={"target": 300}
    )
    division_update(division=division, house_rules=thursday)
    club.is_public = True
    club.save()
    url = reverse("house-rules-sheet", args=[club.slug, thursday.pk])
    html = client.get(url).content.decode()
    assert "Thursday rules <small>score sheet</small>" in html and "Game to 300." in html
    assert url in client.get(reverse("club-home", args=[club.slug])).content.decode()
    elsewhere = ClubFactory(is_public=True)
    assert (
        client.get(reverse("house-rules-sheet", args=[elsewhere.slug, thursday.pk])).status_code
        == 404
    )
