"""Cups in a real browser (issue 16): a three-handed cup's tables of three on a phone (three
names a tie, the tie page's walkover leaving the table to the one who came), and the
bracket's connectors on a wide screen and in print (each tie joined to the tie its winner
goes to, with byes and a double elimination's losers' bracket), none on a phone. axe-core
passes on every page.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from clabber_league.clubs.models import Role
from clabber_league.cups.models import Cup, Tie
from clabber_league.cups.services.progress import tie_walkover
from clabber_league.cups.services.setup import cup_create, cup_draw
from tests.browser.conftest import PHONE, assert_accessible
from tests.factories import (
    DivisionFactory,
    MembershipFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "green-baize-2026"
WIDE = {"width": 1400, "height": 900}
FITS = "() => document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"

# For every round whose winners go on to the next column (data-join), each group of ties
# (2 for "pair", 3 for "triple", 1 for "straight") and the tie they go to: the vertical
# middle of the group's outer ties, the next tie's middle, whether a line leaves each tie
# (its ::after is drawn) and where it ends across the gap.
CONNECTORS = """() => {
  const rounds = [...document.querySelectorAll('.bracket-round')];
  const mid = box => box.top + box.height / 2;
  const out = [];
  rounds.forEach((round, i) => {
    const join = round.dataset.join;
    if (!join || join === 'none') return;
    const size = {pair: 2, triple: 3, straight: 1}[join];
    const ties = [...round.querySelectorAll('.tie')];
    const next = [...rounds[i + 1].querySelectorAll('.tie')];
    next.forEach((target, j) => {
      const group = ties.slice(j * size, (j + 1) * size);
      const first = group[0].getBoundingClientRect();
      const last = group[group.length - 1].getBoundingClientRect();
      const to = target.getBoundingClientRect();
      const line = getComputedStyle(group[0], '::after');
      const lineIn = getComputedStyle(target, '::before');
      out.push({
        join, key: target.id,
        group: (mid(first) + mid(last)) / 2, target: mid(to),
        drawn: group.every(t => getComputedStyle(t, '::after').content !== 'none')
          && lineIn.content !== 'none',
        reach: first.right + parseFloat(line.width) + parseFloat(lineIn.width) - to.left,
      });
    });
  });
  return out;
}"""


@pytest.fixture
def threes() -> Cup:
    """Ten players of a public club in a klaberjass-3 cup: seeds 1-8 sit out round 1,
    9 and 10 play heads-up at the one table a player short; three rounds."""
    division = DivisionFactory(name="Monday Night")
    club = division.club
    club.is_public = True
    club.save()
    MembershipFactory(
        club=club, role=Role.ADMIN, user=UserFactory(username="sec", password=PASSWORD)
    )
    players = [PlayerFactory(club=club, name=f"Sam {i:02d}") for i in range(1, 11)]
    cup = cup_create(
        club=club, name="Threes Cup", rules="klaberjass-3", entrant_kind="players", players=players
    )
    return cup_draw(cup=cup)


def bracket_url(base: str, cup: Cup) -> str:
    return f"{base}/clubs/{cup.club.slug}/cups/{cup.pk}/bracket/"


def test_a_phone_shows_tables_of_three_and_a_walkover_leaves_the_one_who_came(
    live_server, browser, threes, logged_in_page
):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(bracket_url(base, threes))
    expect(page.locator(".bracket-round h2")).to_have_text(["Round 1", "Semi-finals", "Final"])
    semi = page.locator("#tie-M2-1 .entrant-name")
    expect(semi).to_have_text(["Sam 01", "Sam 06", "Sam 07"])
    assert page.evaluate(FITS)
    assert_accessible(page)
    # No connectors on a phone: one round a screen.
    assert page.locator("#tie-M1-1").evaluate("t => getComputedStyle(t, '::after').content") in (
        "none",
        "normal",
    )

    logged_in_page("sec", PASSWORD, page=page)
    short = threes.ties.get(key="M1-9")
    page.goto(f"{base}/clubs/{threes.club.slug}/cups/{threes.pk}/ties/{short.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sam 09 v Sam 10 v Bye")
    expect(page.get_by_text("a player short")).to_be_visible()
    assert_accessible(page)
    assert page.evaluate(FITS)
    page.get_by_label("The side that did not play").select_option(label="Sam 10 (away)")
    page.get_by_role("button", name="Record the walkover").click()
    expect(page.locator(".messages")).to_contain_text("Walkover recorded")
    page.goto(bracket_url(base, threes))
    expect(page.locator("#tie-M2-3 .entrant-name")).to_have_text(["Sam 03", "Sam 04", "Sam 09"])
    expect(page.locator("#tie-M1-9 .entrant-winner")).to_contain_text("Sam 09")
    context.close()


def _aligned(page) -> list[dict]:
    joins = page.evaluate(CONNECTORS)
    assert joins, "no connectors measured"
    for join in joins:
        assert join["drawn"], join
        assert abs(join["group"] - join["target"]) < 2, join  # level with its group's middle
        assert abs(join["reach"]) < 2, join  # the two halves meet across the gap
    return joins


def test_wide_and_printed_each_tie_is_joined_to_the_tie_its_winner_goes_to(
    live_server, browser, threes
):
    division = DivisionFactory(name="Tuesday", season__club=threes.club, club=threes.club)
    teams = [TeamFactory(division=division, name=f"Team {i:02d}") for i in range(1, 7)]
    double = cup_draw(cup=cup_create(club=threes.club, name="Double", teams=teams, format="double"))
    for tie in double.ties.filter(round=1, bracket="main").exclude(status=Tie.Status.BYE):
        tie_walkover(tie=tie, absent="away")
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(bracket_url(live_server.url, double))
    expect(page.locator(".bracket-round[data-bracket=losers]").first).to_be_visible()
    joins = _aligned(page)
    kinds = {j["join"] for j in joins}
    assert {"pair", "straight"} <= kinds  # the main draw, the losers' bracket, the final
    assert any(j["key"].startswith("tie-L") for j in joins)
    assert_accessible(page)
    page.emulate_media(media="print")
    _aligned(page)

    page.emulate_media(media="screen")
    page.goto(bracket_url(live_server.url, threes))
    joins = _aligned(page)
    assert {j["join"] for j in joins} == {"triple"}
    assert_accessible(page)
    context.close()
