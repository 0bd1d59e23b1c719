"""A schedule generated again after a team withdrew plans it no more; its results stay."""

from collections import Counter
from itertools import combinations

import pytest

from clabber_league.leagues import services as league_services
from clabber_league.scheduling.models import Fixture

from .conftest import SEASON_START, configure

pytestmark = pytest.mark.django_db


def test_generating_again_after_a_withdrawal_leaves_the_team_out(division, teams, generate):
    configure(division)
    generate(division)
    gone, *others = teams
    league_services.division_update(division=division, withdrawal_policy="remove")
    league_services.team_withdraw(team=gone, on=SEASON_START)
    assert not Fixture.objects.filter(division=division, home=gone).exists()
    assert not Fixture.objects.filter(division=division, away=gone).exists()

    run = generate(division)

    fixtures = list(Fixture.objects.filter(division=division))
    assert run.fixtures_created == len(fixtures) == 10
    met = Counter(frozenset((f.home_id, f.away_id)) for f in fixtures)
    assert met == Counter({frozenset(p): 1 for p in combinations([t.pk for t in others], 2)})


def test_a_withdrawn_team_has_no_bye_after_it_withdrew(division, teams, generate):
    from clabber_league.scheduling import selectors

    configure(division)
    generate(division)
    gone = teams[0]
    league_services.division_update(division=division, withdrawal_policy="remove")
    later = Fixture.objects.filter(division=division, round_number__gte=3)
    opponents = {
        f.round_number: f.away_id if f.home_id == gone.pk else f.home_id
        for f in later
        if gone.pk in (f.home_id, f.away_id)
    }
    third = min(f.date for f in later)
    league_services.team_withdraw(team=gone, on=third)
    fixtures = list(Fixture.objects.filter(division=division))
    byes = selectors.byes_by_round(division=division, fixtures=fixtures)
    # Rounds 1 and 2 it played; from round 3 its opponents sit out, and it has no bye.
    assert {n: [t.pk for t in byes[n]] for n in byes} == {
        1: [],
        2: [],
        **{n: [opponent] for n, opponent in opponents.items()},
    }
