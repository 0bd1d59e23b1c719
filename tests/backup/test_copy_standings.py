"""A copy of a club beside the original (issue 18): its standings, leaderboards and match
keys come with it under the new ids, and equal a recomputation from its own games; a file
whose standings name a game it does not hold still gives a copy with the right standings."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest

from clabber_league.backup.services import club_export, club_import
from clabber_league.clubs.models import Player
from clabber_league.scheduling.models import Fixture
from clabber_league.standings import selectors
from clabber_league.standings.models import PartnershipGameStat, StandingContribution
from clabber_league.standings.services.rebuild import standings_differences
from tests.factories import FixtureFactory
from tests.standings.conftest import A_WINS, B_WINS, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(division, teams, scorer, admin):
    """A fixture of two games (home wins both) and a game outside the schedule."""
    home, away = teams
    fixture = FixtureFactory(home=home, away=away, date=dt.date(2026, 9, 7), games_planned=2)
    confirmed = {"user": scorer, "confirm_by": admin}
    for number in (1, 2):
        play(division, home, away, A_WINS, fixture=fixture, number=number, **confirmed)
    play(division, home, away, B_WINS, **confirmed)
    return division


def _text(club) -> str:
    out = io.StringIO()
    club_export(club=club, out=out)
    return out.getvalue()


def _table(division) -> list[tuple]:
    table = selectors.standings_table(division=division)
    return [(line.name, line.match_points, line.points_for, line.deals) for line in table.lines]


def test_a_copy_brings_its_standings_under_its_own_ids(season, club):
    copy = club_import(lines=io.StringIO(_text(club)), slug="copy").club
    division = copy.divisions.get()
    assert standings_differences(division=division) == []
    assert _table(division) == _table(season)
    keys = set(StandingContribution.objects.filter(division=division).values_list("match_key"))
    fixture = Fixture.objects.get(division=division)
    game = division.games.get(fixture__isnull=True)
    assert keys == {(f"f{fixture.pk}",), (f"g{game.pk}",)}
    players = set(Player.objects.filter(club=copy).values_list("pk", flat=True))
    for key in PartnershipGameStat.objects.filter(division=division).values_list("key", flat=True):
        assert {int(i) for i in key.split("-")} <= players


def test_a_copy_whose_standings_name_a_missing_game_recomputes_them(season, club):
    lines = _text(club).splitlines(keepends=True)
    table = None
    for i, line in enumerate(lines):
        value = json.loads(line)
        if isinstance(value, dict) and "table" in value:
            table = value
        elif isinstance(value, list) and table["table"] == "standings.standingcontribution":
            row = dict(zip(table["fields"], value, strict=True))
            if row["match_key"].startswith("g"):
                value[table["fields"].index("match_key")] = "g999999"
                lines[i] = json.dumps(value) + "\n"
    copy = club_import(lines=io.StringIO("".join(lines)), slug="copy").club
    division = copy.divisions.get()
    assert standings_differences(division=division) == []
    assert _table(division) == _table(season)
