"""A night's table plan and ranking method are its settings: the secretary seats a count
that does not fill tables of four at tables of three, or at tables of one size with the
rest sitting out in turn; the ranking method defaults by the rules to one that is fair
across table sizes when the rules can seat two sizes, and the results page explains it."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from clabber_league.events import draw
from clabber_league.events.models import Event
from clabber_league.events.services import checkin, rounds
from clabber_league.events.services import events as event_services
from clabber_league.events.services.events import TABLE_PLAN_THREES, EventError

from .conftest import play_out

pytestmark = pytest.mark.django_db


def _night(club, secretary, **values):
    values = {
        "name": "Plan night",
        "date": dt.date(2026, 12, 8),
        "rules": "clabber",
        "rounds": 2,
        **values,
    }
    return event_services.event_create(club=club, user=secretary, **values)


def _sizes(night, members, secretary):
    for member in members:
        checkin.entry_check_in(event=night, player=member)
    round_ = rounds.round_draw(event=night, user=secretary)
    tables = list(round_.tables.select_related("game"))
    return round_, sorted(len(t.seats) for t in tables), tables


@pytest.mark.parametrize(
    ("plan", "sizes", "sitting_out"),
    [("mixed", [3, 3, 3, 4], 0), ("fours", [4, 4, 4], 1), ("threes", [3, 3, 3, 3], 1)],
)
def test_thirteen_players_are_seated_as_the_nights_table_plan_says(
    club, members, secretary, plan, sizes, sitting_out
):
    night = _night(club, secretary, table_plan=plan)
    round_, drawn, tables = _sizes(night, members[:13], secretary)
    assert drawn == sizes
    assert round_.sit_outs.count() == sitting_out
    for table in tables:  # a table of three plays the three-hand form
        expected = "clabber-3" if len(table.seats) == 3 else "clabber"
        assert table.game.rules == expected


def test_the_ranking_defaults_by_the_rules_and_the_secretary_may_choose(club, secretary):
    assert _night(club, secretary).ranking == Event.Ranking.SHARE  # fours and threes
    assert _night(club, secretary, rules="bela-4").ranking == Event.Ranking.POINTS
    chosen = _night(club, secretary, ranking="match_points")
    assert chosen.ranking == Event.Ranking.MATCH_POINTS


def test_a_game_without_a_three_hand_form_cannot_seat_tables_of_three(club, secretary):
    with pytest.raises(EventError) as refused:
        _night(club, secretary, rules="bela-4", table_plan="threes")
    assert refused.value.errors == [
        {
            "field": "table_plan",
            "message": TABLE_PLAN_THREES.format(ruleset="Bela for four (South Africa)"),
        }
    ]


def test_the_secretary_sets_the_plan_and_ranking_and_the_results_page_explains_it(
    client, club, members, secretary
):
    client.force_login(secretary)
    form = {
        "name": "Friday night",
        "date": "2026-12-11",
        "kind": "night",
        "rules": "clabber",
        "format": "individual",
        "movement": "mitchell",
        "rounds": "1",
        "round_kind": "deals",
        "round_deals": "2",
        "table_plan": "fours",
        "ranking": "",
        "sit_out_rule": "fixed",
        "sit_out_score": "50",
        "entry_fee": "0",
        "prize_rule": "none",
        "hick_stake": "0",
    }
    new = reverse("events:new", kwargs={"club_slug": club.slug})
    assert "Tables of four only, the rest sit out" in client.get(new).content.decode()
    response = client.post(new, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    night = Event.objects.get(name="Friday night")
    assert (night.table_plan, night.ranking) == ("fours", "share")
    round_, drawn, _tables = _sizes(night, members[:13], secretary)
    assert drawn == [4, 4, 4]
    play_out(round_)
    page = client.get(reverse("events:prizes", kwargs={"club_slug": club.slug, "pk": night.pk}))
    text = page.content.decode()
    assert "share of the points scored at their table" in text
    assert "a round sat out scores 50" in text
    assert "rounds won, then head-to-head" in text


@settings(deadline=None)  # no timing: a loaded machine must not fail it
@given(
    n=st.integers(3, 40),
    plan=st.sampled_from([(4, True), (4, False), (3, False)]),
    seed=st.text("0123456789", min_size=1, max_size=6),
    rounds_=st.integers(1, 5),
)
def test_every_table_plan_seats_everyone_or_sits_them_out_in_turn(n, plan, seed, rounds_):
    size, three_hand = plan
    players = list(range(1, n + 1))
    try:
        draw.table_sizes(n, table_size=size, three_hand=three_hand)
    except draw.DrawError:
        return  # too few for one table: refused before anything is drawn
    history = draw.History()
    for number in range(1, rounds_ + 1):
        drawn = draw.draw_round(
            players,
            round_number=number,
            seed=seed,
            history=history,
            table_size=size,
            three_hand=three_hand,
            effort=0.2,
        )
        seated = [p for t in drawn.tables for p in t.seats]
        assert sorted(seated + list(drawn.sit_outs)) == players
        assert {len(t.seats) for t in drawn.tables} <= ({3, 4} if three_hand else {size})
        assert len(drawn.sit_outs) < size
        history.add(drawn)
        turns = Counter(history.sit_outs[p] for p in players)
        assert max(turns) - min(turns) <= 1  # nobody sits out twice before all have once
