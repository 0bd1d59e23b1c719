"""Every function of ``games.store`` answers what the ORM query it stands for answers.

The store's statements are written by hand for speed (``core.rows``); each test here builds
rows from hypothesis-generated data, asks the store and the reference ORM query (named in
each store function's docstring), and compares what they answer, field by field. Run on
SQLite, and on PostgreSQL with ``DATABASE_URL`` set. Each example's rows are rolled back.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clabber_league.clubs.models import Player
from clabber_league.games import store
from clabber_league.games.models import Deal, DealRevision, Game
from clabber_league.leagues.models import Division, HouseRules, Team
from clabber_league.scheduling.models import Fixture
from tests.factories import ClubFactory, DivisionFactory, FixtureFactory, PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db

PARITY = settings(
    max_examples=15,
    deadline=None,  # no timing: a loaded machine must not fail it
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Text any database keeps as sent (PostgreSQL refuses NUL in text and JSON).
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
SMALL = st.integers(0, 32767)
SCORE = st.integers(-(2**31), 2**31 - 1)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
#: A non-null JSON column's value (None would be SQL NULL, which the column refuses).
SOME_JSON = JSON.filter(lambda value: value is not None)
MOMENT = st.datetimes(
    min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1), timezones=st.just(dt.UTC)
)


class _Rollback(Exception):
    pass


@contextmanager
def rolled_back():
    """The example's rows, undone after it (a savepoint in the test's transaction)."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass


def values(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


# --- game_locked ---------------------------------------------------------------------------

GAME_STATE = st.fixed_dictionaries(
    {
        "number": SMALL,
        "rules": SOME_JSON,
        "first_dealer": SMALL,
        "deal_limit": st.none() | SMALL,
        "status": st.sampled_from(Game.Status.values),
        "winner": st.sampled_from(["", "A", "B", "C", "tie"]),
        "score_a": SCORE,
        "score_b": SCORE,
        "score_c": st.none() | SCORE,
        "deal_count": st.integers(0, 2**31 - 1),
        "pot": SCORE,
        "next_dealer": st.none() | SMALL,
        "played_on": st.none() | st.dates(dt.date(2000, 1, 1), dt.date(2100, 1, 1)),
        "deleted_keys": st.dictionaries(TEXT, JSON, max_size=3),
        "finished_at": st.none() | MOMENT,
        "confirmed_at": st.none() | MOMENT,
    }
)


@PARITY
@given(
    state=GAME_STATE, in_division=st.booleans(), house_rules=st.booleans(), ask=st.integers(0, 3)
)
def test_game_locked_is_the_orm_s_game_with_its_division(state, in_division, house_rules, ask):
    with rolled_back():
        division = DivisionFactory()
        if house_rules:
            rules = HouseRules.objects.create(club=division.club, name="House", base="clabber")
            Division.objects.filter(pk=division.pk).update(house_rules=rules)
        club = division.club
        game = Game.objects.create(club=club, division=division if in_division else None, **state)
        other = ClubFactory()
        # 0: by id; 1: by id and its club; 2: by id and another club; 3: no such id
        pk = game.pk + 1000 if ask == 3 else game.pk
        by_club = {0: None, 1: club, 2: other, 3: club}[ask]
        reference = Game.objects.select_related("division").filter(pk=pk)
        if by_club is not None:
            reference = reference.filter(club=by_club)
        expected = reference.select_for_update(of=("self",)).first()
        if expected is None:
            with pytest.raises(Game.DoesNotExist):
                store.game_locked(pk, club=by_club)
            return
        locked = store.game_locked(pk, club=by_club)
        assert values(locked) == values(expected)
        if expected.division is None:
            assert locked.division is None
        else:
            assert values(locked.division) == values(expected.division)


# --- fixture_locked_games ------------------------------------------------------------------


@PARITY
@given(
    status=st.sampled_from(Fixture.Status.values),
    statuses=st.lists(st.sampled_from(Game.Status.values), max_size=6),
    exists=st.booleans(),
)
def test_fixture_locked_games_counts_as_the_orm_counts(status, statuses, exists):
    with rolled_back():
        fixture = FixtureFactory(status=status)
        other = FixtureFactory(division=fixture.division, home=fixture.home, away=fixture.away)
        for number, game_status in enumerate(statuses, start=1):
            Game.objects.create(
                club=fixture.club,
                fixture=fixture,
                number=number,
                status=game_status,
                rules="clabber",
            )
            Game.objects.create(
                club=fixture.club, fixture=other, status=Game.Status.FINISHED, rules="clabber"
            )
        pk = fixture.pk if exists else other.pk + 1000
        row = Fixture.objects.select_for_update().filter(pk=pk).values_list("status").first()
        games = Game.objects.filter(fixture_id=pk)
        expected = (
            (
                row[0],
                games.filter(status__in=Game.COUNTED).count(),
                games.filter(status=Game.Status.IN_PROGRESS).count(),
            )
            if row is not None
            else (None, 0, 0)
        )
        assert store.fixture_locked_games(pk) == expected


# --- deal_game_write -----------------------------------------------------------------------

DEAL = st.fixed_dictionaries(
    {
        "number": st.integers(1, 2**31 - 1),
        "dealer": SMALL,
        "maker_seat": st.none() | SMALL,
        "data": SOME_JSON,
        "outcome": st.text("madeset renge", max_size=8),
        "maker": st.sampled_from(["", "A", "B", "C"]),
        "score_a": SCORE,
        "score_b": SCORE,
        "score_c": st.none() | SCORE,
        "running_a": SCORE,
        "running_b": SCORE,
        "running_c": st.none() | SCORE,
        "result": SOME_JSON,
        "idempotency_key": st.none() | TEXT.filter(lambda t: 0 < len(t) <= 80),
        "idempotency_fingerprint": st.text("0123456789abcdef", max_size=64),
        "entered_at_table": TEXT.filter(lambda t: len(t) <= 40),
    }
)
REVISION = st.fixed_dictionaries(
    {
        "deal_number": st.none() | st.integers(0, 2**31 - 1),
        "action": st.sampled_from(DealRevision.Action.values),
        "before": JSON,
        "after": JSON,
        "entered_at_table": TEXT.filter(lambda t: len(t) <= 40),
    }
)
# The state a deal writes, but the game's updated_at: auto_now stamps it on either route.
STATE_FIELDS = tuple(f for f in store.GAME_STATE_FIELDS if f != "updated_at")
STATE = GAME_STATE.map(lambda s: {k: s[k] for k in STATE_FIELDS})

#: What differs between two rows written alike: their ids, games and times.
OWN = {"id", "game_id", "created_at", "updated_at", "at"}


def _mine(instance) -> dict:
    return {k: v for k, v in values(instance).items() if k not in OWN}


@PARITY
@given(deal=DEAL, revision=REVISION, state=STATE, by_user=st.booleans())
def test_deal_game_write_writes_what_the_orm_s_saves_write(deal, revision, state, by_user):
    with rolled_back():
        club = ClubFactory()
        user = None
        if by_user:
            from tests.factories import UserFactory

            user = UserFactory()
        written = {}
        for route in ("store", "orm"):
            game = Game.objects.create(club=club, rules="clabber")
            for name, value in state.items():
                setattr(game, name, value)
            row = Deal(game=game, created_by=user, **deal)
            history = DealRevision(game=game, user=user, **revision)
            if route == "store":
                store.deal_game_write(row, history, game)
                assert row.pk is not None and not row._state.adding
            else:
                row.save(force_insert=True)
                history.save(force_insert=True)
                game.save(update_fields=store.GAME_STATE_FIELDS)
            written[route] = (
                Deal.objects.get(game=game),
                DealRevision.objects.get(game=game),
                Game.objects.get(pk=game.pk),
            )
        (deal_s, rev_s, game_s), (deal_o, rev_o, game_o) = written["store"], written["orm"]
        assert _mine(deal_s) == _mine(deal_o)
        assert _mine(rev_s) == _mine(rev_o)
        assert {k: getattr(game_s, k) for k in STATE_FIELDS} == {
            k: getattr(game_o, k) for k in STATE_FIELDS
        }
        assert deal_s.created_at <= timezone.now()
        assert game_s.updated_at >= deal_s.created_at  # the store stamps the game as save() does


# --- start_rows ----------------------------------------------------------------------------


@PARITY
@given(
    members=st.lists(st.integers(0, 3), min_size=2, max_size=4),
    pick=st.lists(st.integers(0, 20), max_size=12),
    house_rules=st.booleans(),
)
def test_start_rows_are_the_orm_s_rows_of_the_club(members, pick, house_rules):
    with rolled_back():
        division = DivisionFactory()
        club = division.club
        if house_rules:
            rules = HouseRules.objects.create(club=club, name="House", base="clabber")
            Division.objects.filter(pk=division.pk).update(house_rules=rules)
        teams = [TeamFactory(division=division, members=n) for n in members]
        elsewhere = TeamFactory(members=2)  # another club's rows: never answered
        fixture = FixtureFactory(division=division, home=teams[0], away=teams[-1])
        ids = {
            Division: [division.pk, elsewhere.division_id],
            Fixture: [fixture.pk],
            Team: [t.pk for t in teams] + [elsewhere.pk],
            Player: [*Player.objects.values_list("pk", flat=True), PlayerFactory().pk],
        }
        # The ids asked: some of each model's, and some of no row at all.
        asked = {
            model: [pks[i % len(pks)] if i < 15 else pks[-1] + i for i in pick]
            for model, pks in ids.items()
        }
        found = store.start_rows(
            club=club,
            divisions=asked[Division],
            fixtures=asked[Fixture],
            teams=asked[Team],
            players=asked[Player],
        )
        references = {
            Division: Division.objects.select_related("house_rules"),
            Fixture: Fixture.objects.all(),
            Team: Team.objects.prefetch_related("members"),
            Player: Player.objects.all(),
        }
        for model, queryset in references.items():
            expected = {r.pk: r for r in queryset.filter(club=club, pk__in=asked[model])}
            assert {pk: values(r) for pk, r in found[model].items()} == {
                pk: values(r) for pk, r in expected.items()
            }
        for pk, division_row in found[Division].items():
            expected_rules = Division.objects.select_related("house_rules").get(pk=pk).house_rules
            assert (division_row.house_rules and values(division_row.house_rules)) == (
                expected_rules and values(expected_rules)
            )
        for pk, team in found[Team].items():
            expected_members = Team.objects.get(pk=pk).members.order_by("position")
            assert [values(m) for m in team.members.all()] == [values(m) for m in expected_members]
