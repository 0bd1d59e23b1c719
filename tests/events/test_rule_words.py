"""The ranking rule, a prize rule and a series' rule are written by the pure modules in
English (the API's words) and in a page's language when the page passes its ``gettext``:
every part of the sentence goes through it, and the numbers stay as they are."""

import re

from clabber_league.events.prizes import PrizeRule
from clabber_league.events.ranking import ranking_rule
from clabber_league.events.series import series_ranking


def shout(text: str) -> str:
    """A stand-in language: every translated part in capitals, its placeholders kept."""
    return re.sub(r"[^{}]+(?=\{|$)|(?<=\})[^{}]+", lambda m: m.group().upper(), text)


def test_the_ranking_rule_is_english_by_default_and_translated_part_by_part():
    english = ranking_rule("points", "fixed", 35)
    assert english.startswith("Players are ranked on the points")
    assert "a round sat out scores 35." in english
    assert ranking_rule("points", "fixed", 35, translate=shout) == english.upper()


def test_a_prize_rule_with_shares_and_a_partial_payout():
    rule = PrizeRule.from_data({"kind": "shares", "shares": [50, 30, 20], "payout_percent": 80})
    english = rule.describe()
    assert english == "A fixed list of shares of the fund (50%, 30%, 20%); 80% of the fund paid out"
    assert rule.describe(shout) == english.upper()


def test_a_series_rule_with_best_nights_and_a_minimum_attendance():
    ranking = series_ranking([], nights=[1, 2, 3], method="best", best_n=2, min_attendance=2)
    english = ranking.describe()
    assert english == "Best 2 of 3 nights; at least 2 nights to be ranked"
    assert ranking.describe(shout) == english.upper()
