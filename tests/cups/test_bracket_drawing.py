"""The bracket drawing (``templates/cups/_bracket.html``) from the data shape its header
documents: every round has a heading and links to its neighbours that need no JavaScript,
every tie links to its page and its games, the winner is marked in words, and the fragment
polls for news only until there is a champion. No database: the shape is built here from
the planner, as ``cups.selectors.cup_bracket_view`` builds it from the ties.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory

from clabber_league.cups.bracket import BYE, Source, advance, plan

PATH = "/clubs/demo/cups/1/bracket/"


def shape(entrants: int, results: dict[str, int], **options) -> dict:
    """The drawing's data for a cup of ``entrants`` named "Team <seed>" after ``results``."""
    b = plan(entrants, **options)
    progress = advance(b, results)

    def side(seed: int | None, source: Source, slot) -> dict:
        if seed is None or seed == BYE:
            name = "Bye" if seed == BYE else f"{source.kind.title()} of {source.match}"
            return {"name": name, "seed": None, "known": False, "score": 0, "winner": False}
        return {
            "name": f"Team {seed}",
            "seed": seed,
            "known": True,
            "score": int(slot.winner == seed) if slot.winner and not slot.walkover else 0,
            "winner": slot.winner == seed,
        }

    sections = []
    for bracket, rnd in b.sections():
        ties = []
        for m in b.round_matches(bracket, rnd):
            slot = progress[m.key]
            status = (
                "bye"
                if m.is_bye
                else "decided"
                if slot.winner
                else "ready"
                if slot.ready
                else "waiting"
            )
            played = status == "decided"
            ties.append(
                {
                    "key": m.key,
                    "url": f"/clubs/demo/cups/1/ties/{m.key}/",
                    "status": status,
                    "status_label": status.title(),
                    "date": dt.date(2026, 3, 3) if status == "ready" else None,
                    "venue": "The Crown" if status == "ready" else "",
                    "table": 2 if status == "ready" else None,
                    "note": "",
                    "games": [{"number": 1, "status": "confirmed", "url": f"/g/{m.key}/"}]
                    if played
                    else [],
                    "home": side(slot.home, m.home, slot),
                    "away": side(slot.away, m.away, slot),
                    "third": side(slot.third, m.third, slot) if m.third else None,
                    "sides": [
                        side(seed, src, slot) for seed, src in zip(slot.sides, m.sides, strict=True)
                    ],
                }
            )
        sections.append(
            {"bracket": bracket, "round": rnd, "title": b.round_title(bracket, rnd), "ties": ties}
        )
    champion = f"Team {progress.champion}" if progress.champion else None
    return {"champion": champion, "sections": sections}


def render(bracket: dict) -> str:
    return render_to_string(
        "cups/_bracket.html", {"bracket": bracket, "request": RequestFactory().get(PATH)}
    )


def test_every_round_has_a_heading_and_links_to_its_neighbours():
    html = render(shape(6, {}))
    assert re.findall(r"<h2 id=\"round-(\d)-title\">([^<]+)</h2>", html) == [
        ("1", "Quarter-finals"),
        ("2", "Semi-finals"),
        ("3", "Final"),
    ]
    nav = html.split('aria-label="Rounds of the bracket"')[1].split("</nav>")[0]
    assert re.findall(r'href="#round-(\d)">([^<]+)<', nav) == [
        ("1", "Quarter-finals"),
        ("2", "Semi-finals"),
        ("3", "Final"),
    ]
    semis = html.split('id="round-2"')[1].split("</header>")[0]
    assert re.search(r'href="#round-1" rel="prev">.*Quarter-finals</a>', semis)
    assert re.search(r'href="#round-3" rel="next">Final<', semis)
    first = html.split('id="round-1"')[1].split("</header>")[0]
    assert 'rel="prev"' not in first


def test_every_tie_links_to_its_page_and_its_games():
    html = render(shape(4, {"M1-1": 1}))
    for key in ("M1-1", "M1-2", "M2-1"):
        assert f'href="/clubs/demo/cups/1/ties/{key}/"' in html
    assert 'href="/g/M1-1/">Game 1</a>' in html
    assert "The Crown, table 2" in html  # the tie ready to play says where


def test_the_winner_is_marked_in_words_and_byes_are_shown():
    html = render(shape(3, {"M1-2": 3}))
    tie = html.split('id="tie-M1-2"')[1].split("</li>")[0]
    assert re.search(r"Team 3<span class=\"visually-hidden\"> \(through\)", tie)
    assert "Team 2<span" not in tie
    bye_tie = html.split('id="tie-M1-1"')[1].split("</li>")[0]
    assert "tie-bye" in html.split('id="tie-M1-1"')[0][-60:]
    assert "Bye" in bye_tie


@pytest.mark.parametrize(
    ("results", "polls"), [({}, True), ({"M1-1": 1, "M1-2": 3, "M2-1": 3}, False)]
)
def test_the_fragment_polls_for_news_until_there_is_a_champion(results, polls):
    html = render(shape(4, results))
    poller = re.search(r'<div id="bracket-poll"[^>]*>', html).group(0)
    assert ('hx-trigger="every 20s"' in poller) is polls
    assert (f'hx-get="{PATH}"' in poller) is polls
    assert ("Champion: <strong>Team 3</strong>" in html) is not polls


def test_live_updates_swap_each_round_and_the_champion_in_place():
    html = render(shape(8, {}, double=True, reset=True))
    swapped = re.findall(r'<[a-z]+ [^>]*id="([^"]+)"[^>]*hx-swap-oob="true"', html)
    sections = re.findall(r'<section class="bracket-round" data-bracket="(\w+)"', html)
    assert len(swapped) == len(sections) + 2
    assert {"bracket-champion", "bracket-poll"} <= set(swapped)
    assert sections[:3] == ["main", "main", "main"] and "losers" in sections


def test_a_bracket_not_drawn_says_so():
    html = render({"champion": None, "sections": []})
    assert "not drawn yet" in html
    assert "every 20s" not in html


def test_a_table_of_three_shows_its_three_players():
    html = render(shape(9, {"M1-1": 7}, table=3))
    table = html.split('id="tie-M1-1"')[1].split("</li>")[0]
    names = re.findall(r'<span class="entrant-name">([^<]+)', table)
    assert names == ["Team 1", "Team 6", "Team 7"]
    assert "tie-three" in html.split('id="tie-M1-1"')[0][-80:]
    final = html.split('id="tie-M2-1"')[1].split("</li>")[0]
    assert re.findall(r'<span class="entrant-name">([^<]+)', final) == [
        "Team 7",
        "Winner of M1-2",
        "Winner of M1-3",
    ]
